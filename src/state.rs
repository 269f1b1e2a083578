//! The game's state under the public names of Python's `Game` (engine/game.py), its
//! read model and hand-built positions: [`export`] (everything, a JSON value), [`seen`]
//! (what one seat may see: Python's engine/view.py hands it out) and [`edit`] (set fields by
//! name, a scenario's or a test's).
//!
//! One table per part of the state ([`game_fields`], [`site_fields`]) names each field once,
//! with its value and how it is written back, so the three cannot drift apart. A field is
//! public (on the table for every seat), hidden (a site's face-down parts, the deck's order,
//! the round cards to come) or flow (the engine's bookkeeping: who passed, the open slots).
//!
//! It is long because the tables are one place for every field of the game and of the twenty
//! sides: split by site, each table would need the shared read/write plumbing again.

use arrayvec::ArrayVec;
use serde_json::{json, Map, Value};

use crate::game::{Game, Res, SEATS, SHIPS};
use crate::rules::{Card, CoreError, Fault, Rules};
use crate::sites::burial_chamber::{self as burial, BurialChamber};
use crate::sites::market::Market;
use crate::sites::obelisk::{self, Obelisk};
use crate::sites::pyramid::{self, Pyramid, HEIGHT, TILE};
use crate::sites::temple::{self, Temple};

/// The sites' names, in site order (the export's and the edit's keys).
pub const SITE_NAMES: [&str; 5] = ["market", "pyramid", "temple", "burial_chamber", "obelisk"];

/// Who may see a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Public,
    Hidden,
    Flow,
}

type Setter<'a> = Box<dyn FnOnce(&Value) -> Res + 'a>;

/// One named field: its value now and, when it can be set, how.
pub struct Field<'a> {
    pub name: &'static str,
    pub shown: Shown,
    pub value: Value,
    set: Option<Setter<'a>>,
}

fn bad(what: &str, want: &str, got: &Value) -> CoreError {
    CoreError::value(format!("{what}: expected {want}, got {got}"))
}

/// An int as a field's item type.
trait Num: Copy {
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Option<Self>;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn from_i64(v: i64) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
        }
    )*};
}
num!(i8, u8, u16, i32, u32, usize);

fn ints<T: Num>(items: &[T]) -> Value {
    Value::Array(items.iter().map(|&x| json!(x.to_i64())).collect())
}

fn read_ints<T: Num>(what: &str, v: &Value) -> Result<Vec<T>, CoreError> {
    let items = v.as_array().ok_or_else(|| bad(what, "a list of ints", v))?;
    items
        .iter()
        .map(|x| x.as_i64().and_then(T::from_i64).ok_or_else(|| bad(what, "a list of ints in range", v)))
        .collect()
}

fn read_int<T: Num>(what: &str, v: &Value) -> Result<T, CoreError> {
    v.as_i64().and_then(T::from_i64).ok_or_else(|| bad(what, "an int in range", v))
}

impl<'a> Field<'a> {
    fn new(name: &'static str, shown: Shown, value: Value, set: Option<Setter<'a>>) -> Self {
        Field { name, shown, value, set }
    }

    /// A value that is read only (computed from other fields, or printed).
    fn fixed(name: &'static str, shown: Shown, value: Value) -> Self {
        Field::new(name, shown, value, None)
    }

    /// One int.
    fn int<T: Num + 'a>(name: &'static str, shown: Shown, x: &'a mut T) -> Self {
        let value = json!(x.to_i64());
        Field::new(name, shown, value, Some(Box::new(move |v| {
            *x = read_int(name, v)?;
            Ok(())
        })))
    }

    /// One flag.
    fn flag(name: &'static str, shown: Shown, x: &'a mut bool) -> Self {
        let value = json!(*x);
        Field::new(name, shown, value, Some(Box::new(move |v| {
            *x = v.as_bool().ok_or_else(|| bad(name, "true or false", v))?;
            Ok(())
        })))
    }

    /// The first `n` items of a row whose length is fixed (one per seat, ship, dock...):
    /// written whole, `n` items.
    fn row<T: Num + 'a>(name: &'static str, shown: Shown, row: &'a mut [T], n: usize) -> Self {
        let value = ints(&row[..n]);
        Field::new(name, shown, value, Some(Box::new(move |v| {
            let items: Vec<T> = read_ints(name, v)?;
            if items.len() != n {
                return Err(CoreError::value(format!("{name}: expected {n} items, got {}", items.len())));
            }
            row[..n].copy_from_slice(&items);
            Ok(())
        })))
    }

    /// The first `*n` items of a row, `*n` its count of items in use (set with the items).
    fn counted<T: Num + 'a>(name: &'static str, shown: Shown, row: &'a mut [T], n: &'a mut usize) -> Self {
        let room = row.len();
        Field::counted_within(name, shown, row, n, room)
    }

    /// [`Field::counted`] for a row the board sizes below its storage: at most `room` items.
    fn counted_within<T: Num + 'a>(
        name: &'static str,
        shown: Shown,
        row: &'a mut [T],
        n: &'a mut usize,
        room: usize,
    ) -> Self {
        let value = ints(&row[..*n]);
        Field::new(name, shown, value, Some(Box::new(move |v| {
            let items: Vec<T> = read_ints(name, v)?;
            if items.len() > room {
                return Err(CoreError::value(format!("{name}: at most {room} items, got {}", items.len())));
            }
            row[..items.len()].copy_from_slice(&items);
            *n = items.len();
            Ok(())
        })))
    }

    /// A list of ints of varying length.
    fn list<T: Num + 'a, const N: usize>(name: &'static str, shown: Shown, list: &'a mut ArrayVec<T, N>) -> Self {
        let value = ints(list);
        Field::new(name, shown, value, Some(Box::new(move |v| {
            let items: Vec<T> = read_ints(name, v)?;
            *list = ArrayVec::try_from(&items[..])
                .map_err(|_| CoreError::value(format!("{name}: at most {N} items, got {}", items.len())))?;
            Ok(())
        })))
    }

    /// A list of market cards, by name.
    fn cards<const N: usize>(name: &'static str, shown: Shown, r: &'a Rules, list: &'a mut ArrayVec<Card, N>) -> Self {
        let value = card_names(r, list);
        Field::new(name, shown, value, Some(Box::new(move |v| {
            let items = read_cards(r, name, v)?;
            *list = ArrayVec::try_from(&items[..])
                .map_err(|_| CoreError::value(format!("{name}: at most {N} cards, got {}", items.len())))?;
            Ok(())
        })))
    }
}

fn card_names(r: &Rules, cards: &[Card]) -> Value {
    Value::Array(cards.iter().map(|&c| json!(r.cards.names[c as usize])).collect())
}

fn read_card(r: &Rules, what: &str, v: &Value) -> Result<Card, CoreError> {
    let name = v.as_str().ok_or_else(|| bad(what, "card names", v))?;
    r.cards.code(name).ok_or_else(|| CoreError::value(format!("{what}: unknown card {name:?}")))
}

fn read_cards(r: &Rules, what: &str, v: &Value) -> Result<Vec<Card>, CoreError> {
    let items = v.as_array().ok_or_else(|| bad(what, "a list of card names", v))?;
    items.iter().map(|x| read_card(r, what, x)).collect()
}

/// Cards taken by name (a seat's `took`: counts of any size).
fn hand_value_wide(r: &Rules, took: &[u16]) -> Value {
    let mut out = Map::new();
    for (c, &k) in took.iter().enumerate().take(r.cards.names.len()) {
        if k > 0 {
            out.insert(r.cards.names[c].clone(), json!(k));
        }
    }
    Value::Object(out)
}

fn hand_value(r: &Rules, hand: &[u8]) -> Value {
    let mut out = Map::new();
    for (c, &k) in hand.iter().enumerate().take(r.cards.names.len()) {
        if k > 0 {
            out.insert(r.cards.names[c].clone(), json!(k));
        }
    }
    Value::Object(out)
}

/// The game's own fields (not the sites'), by engine/game.py's names.
pub fn game_fields<'a>(g: &'a mut Game, r: &'a Rules) -> Vec<Field<'a>> {
    let n = g.n;
    let over = g.over;
    let kind = g.kind_name();
    let mut slots = Vec::new();
    for s in 0..SHIPS {
        slots.push(ints(g.ship_slots(s)));
    }
    let ship_sizes = ints(&g.ship_size);
    let hands: Vec<Value> = (0..n).map(|p| hand_value(r, &g.hand[p])).collect();
    let events: Vec<Value> = g
        .events
        .iter()
        .map(|e| json!([e.seat, crate::rules::SOURCES[e.source as usize], e.points, e.round]))
        .collect();
    let options: Vec<Value> = g.options.iter().map(|a| json!(a.text(&r.names))).collect();
    let took: Vec<Value> = (0..n).map(|p| hand_value_wide(r, &g.took[p])).collect();
    let reshuffles: Vec<Value> = g.reshuffles.iter().map(|d| card_names(r, d)).collect();
    let mut chance_setup = Map::new();
    for purpose in crate::game::Purpose::ALL {
        if let Some(picks) = &g.chance_setup[purpose as usize] {
            // the populations drawn from (src/sites/pyramid.rs, burial_chamber.rs,
            // prophecies.rs): tiles and tokens by number from 1, the gods by name
            let items: Vec<Value> = picks
                .iter()
                .map(|&i| match purpose {
                    crate::game::Purpose::Prophecies => json!(r.names.text(r.prophecies.gods[i])),
                    _ => json!(i + 1),
                })
                .collect();
            chance_setup.insert(purpose.name().into(), Value::Array(items));
        }
    }
    let setup = [
        Field::fixed("expansion", Shown::Public, json!(g.expansion)),
        Field::fixed("prophecies", Shown::Public, json!(g.prophecies_on)),
        Field::fixed("scenario", Shown::Public, json!(g.scenario)),
        Field::fixed("rounds", Shown::Public, json!(g.rounds)),
        Field::fixed("stones_total", Shown::Public, json!(g.stones_total)),
        Field::fixed("get_stones", Shown::Public, json!(g.get_stones)),
        Field::fixed("took", Shown::Public, Value::Array(took)),
        Field::fixed("deck_initial", Shown::Hidden, card_names(r, &g.deck_initial)),
        Field::fixed("reshuffles", Shown::Hidden, Value::Array(reshuffles)),
        Field::fixed("chance_setup", Shown::Hidden, Value::Object(chance_setup)),
    ];
    let round_cards: Vec<Value> = g.round_cards.iter().map(|c| ints(c)).collect();
    let windows = r.prophecies.windows.len();
    let prophecy = g.prophecy.as_ref().map(|p| {
        json!({
            "gods": p.gods.iter().map(|&id| r.names.text(id)).collect::<Vec<_>>(),
            "left": ints(&p.left[..n]),
            "window_used": p.window_used[..n].iter().map(|w| w[..windows].to_vec()).collect::<Vec<_>>(),
            "placed": p.placed[..n].iter()
                .map(|xs| xs.iter().map(|&(god, w)| json!([r.names.text(god), w])).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        })
    });
    let Game {
        sled, quarry, sled_cap, blue, blue_kinds, red_kept, cards_taken, totals, hand, slots: ship_row,
        ship_size, ship_min, ship_load, ship_dock, dock_used, open_mask, ship_free, ships_ready,
        docks_free, sailed, round, current, start_player, passes, last_sailer, round_over,
        skip_advance, decisions, to_move, deck, discard, round_cards: round_row, ..
    } = g;
    let mut out: Vec<Field<'a>> = setup.into_iter().collect();
    out.extend([
        Field::fixed("n", Shown::Public, json!(n)),
        Field::fixed("over", Shown::Public, json!(over)),
        Field::fixed("kind", Shown::Public, json!(kind)),
        Field::fixed("options", Shown::Public, Value::Array(options)),
        Field::fixed("events", Shown::Public, Value::Array(events)),
        Field::int("to_move", Shown::Public, to_move),
        Field::int("round", Shown::Public, round),
        Field::int("current", Shown::Public, current),
        Field::int("start_player", Shown::Public, start_player),
        Field::int("passes", Shown::Public, passes),
        Field::int("sailed", Shown::Public, sailed),
        Field::int("decisions", Shown::Public, decisions),
        Field::row("sled", Shown::Public, sled, n),
        Field::row("quarry", Shown::Public, quarry, n),
        Field::row("sled_cap", Shown::Public, sled_cap, n),
        Field::row("blue", Shown::Public, blue, n),
        Field::row("blue_kinds", Shown::Public, blue_kinds, n),
        Field::row("red_kept", Shown::Public, red_kept, n),
        Field::row("cards_taken", Shown::Public, cards_taken, n),
        Field::row("totals", Shown::Public, totals, n),
        Field::fixed("ship_sizes", Shown::Public, ship_sizes),
        Field::row("ship_min", Shown::Public, ship_min, SHIPS),
        Field::row("ship_load", Shown::Public, ship_load, SHIPS),
        Field::row("ship_dock", Shown::Public, ship_dock, SHIPS),
        Field::row("dock_used", Shown::Public, dock_used, crate::game::DOCKS),
        Field::cards("discard", Shown::Public, r, discard),
        Field::fixed("deck_size", Shown::Public, json!(deck.len())),
        Field::int("open_mask", Shown::Flow, open_mask),
        Field::int("ship_free", Shown::Flow, ship_free),
        Field::int("ships_ready", Shown::Flow, ships_ready),
        Field::int("docks_free", Shown::Flow, docks_free),
        Field::int("last_sailer", Shown::Flow, last_sailer),
        Field::flag("round_over", Shown::Flow, round_over),
        Field::flag("skip_advance", Shown::Flow, skip_advance),
    ]);
    let state = &mut g.prophecy;
    out.push(Field::new("prophecy", Shown::Public, prophecy.unwrap_or(Value::Null), Some(Box::new(move |v| {
        let p = state.as_mut().ok_or_else(|| CoreError::value("prophecy: the prophecies are not in play".into()))?;
        let table = v.as_object().ok_or_else(|| bad("prophecy", "a table of the prophecies' fields", v))?;
        for (name, x) in table {
            match name.as_str() {
                "gods" => {
                    let items = x.as_array().ok_or_else(|| bad("prophecy.gods", "a list of gods", x))?;
                    let mut gods = ArrayVec::new();
                    for god in items {
                        let id = god.as_str().and_then(|t| r.names.id(t))
                            .ok_or_else(|| bad("prophecy.gods", "gods this board has", god))?;
                        gods.try_push(id).map_err(|_| CoreError::value("prophecy.gods: too many gods".into()))?;
                    }
                    p.gods = gods;
                }
                "left" => {
                    let left: Vec<i32> = read_ints("prophecy.left", x)?;
                    if left.len() != n {
                        return Err(bad("prophecy.left", "a count per seat", x));
                    }
                    p.left[..n].copy_from_slice(&left);
                }
                "window_used" => {
                    let rows = x.as_array().filter(|r| r.len() == n).ok_or_else(|| bad("prophecy.window_used", "a row per seat", x))?;
                    for (seat, row) in rows.iter().enumerate() {
                        let flags = row.as_array().filter(|f| f.len() == windows).ok_or_else(|| bad("prophecy.window_used", "a flag per window", row))?;
                        for (w, f) in flags.iter().enumerate() {
                            p.window_used[seat][w] = f.as_bool().ok_or_else(|| bad("prophecy.window_used", "true or false", f))?;
                        }
                    }
                }
                "placed" => {
                    let rows = x.as_array().filter(|r| r.len() == n).ok_or_else(|| bad("prophecy.placed", "a list per seat", x))?;
                    for (seat, row) in rows.iter().enumerate() {
                        let pairs = row.as_array().ok_or_else(|| bad("prophecy.placed", "(god, window) pairs", row))?;
                        let mut placed = ArrayVec::new();
                        for pair in pairs {
                            let god = pair.get(0).and_then(Value::as_str).and_then(|t| r.names.id(t));
                            let w = pair.get(1).and_then(Value::as_u64).and_then(|w| u8::try_from(w).ok());
                            let (Some(god), Some(w)) = (god, w) else {
                                return Err(bad("prophecy.placed", "(god, window) pairs", pair));
                            };
                            placed.try_push((god, w)).map_err(|_| CoreError::value("prophecy.placed: too many scarabs".into()))?;
                        }
                        p.placed[seat] = placed;
                    }
                }
                _ => return Err(CoreError::value(format!("prophecy has no field {name:?} (fields: gods, left, window_used, placed)"))),
            }
        }
        Ok(())
    }))));
    out.push(Field::new("hand", Shown::Public, Value::Array(hands), Some(Box::new(move |v| {
        let seats = v.as_array().filter(|h| h.len() == n).ok_or_else(|| bad("hand", "a table of cards per seat", v))?;
        for (p, table) in seats.iter().enumerate() {
            let table = table.as_object().ok_or_else(|| bad("hand", "a table of card name -> count", table))?;
            let mut row = [0u8; crate::game::HAND];
            for (name, k) in table {
                let c = read_card(r, "hand", &json!(name))?;
                row[c as usize] = read_int(&format!("hand of seat {p}"), k)?;
            }
            hand[p] = row;
        }
        Ok(())
    }))));
    out.push(Field::new("ship_slots", Shown::Public, Value::Array(slots), Some(Box::new(move |v| {
        let ships = v.as_array().filter(|s| s.len() == SHIPS).ok_or_else(|| bad("ship_slots", "4 lists of slots", v))?;
        for (s, ship) in ships.iter().enumerate() {
            let items: Vec<i8> = read_ints("ship_slots", ship)?;
            if items.len() > 4 {
                return Err(CoreError::value(format!("ship {s}: at most 4 slots, got {}", items.len())));
            }
            ship_size[s] = items.len() as u8;
            ship_row[4 * s..4 * s + items.len()].copy_from_slice(&items);
        }
        Ok(())
    }))));
    // the draw pile, its top last (as engine/game.py keeps it)
    let shown_deck = card_names(r, deck);
    out.push(Field::new("deck", Shown::Hidden, shown_deck, Some(Box::new(move |v| {
        let items = read_cards(r, "deck", v)?;
        *deck = ArrayVec::try_from(&items[..]).map_err(|_| CoreError::value("deck: too many cards".into()))?;
        Ok(())
    }))));
    out.push(Field::new("round_cards", Shown::Hidden, Value::Array(round_cards), Some(Box::new(move |v| {
        let cards = v.as_array().ok_or_else(|| bad("round_cards", "a list of round cards", v))?;
        let mut rows = ArrayVec::new();
        for c in cards {
            let sizes: Vec<u8> = read_ints("round_cards", c)?;
            let sizes: [u8; 4] = sizes.try_into().map_err(|_| bad("round_cards", "4 ship sizes a card", c))?;
            rows.try_push(sizes).map_err(|_| CoreError::value("round_cards: too many rounds".into()))?;
        }
        *round_row = rows;
        Ok(())
    }))));
    out
}

/// Site `site`'s fields by the names Python reads (public) and its hidden parts (hidden).
pub fn site_fields<'a>(g: &'a mut Game, r: &'a Rules, site: usize) -> Vec<Field<'a>> {
    let seats = g.n;
    let stones = json!(crate::sites::stones(g, site));
    let stones_of: Vec<i32> = (0..seats).map(|p| crate::sites::stones_of(g, site, p)).collect();
    let mut out = vec![
        Field::fixed("name", Shown::Public, json!(SITE_NAMES[site])),
        Field::fixed("side", Shown::Public, json!(format!("{:?}", r.sides[site]))),
        Field::fixed("stones", Shown::Public, stones),
        Field::fixed("stones_of", Shown::Public, ints(&stones_of)),
    ];
    let s = &mut g.sites;
    match site {
        0 => market_fields(&mut out, r, &mut s.market, seats),
        1 => pyramid_fields(&mut out, r, &mut s.pyramid, seats),
        2 => temple_fields(&mut out, r, &mut s.temple, seats),
        3 => burial_fields(&mut out, r, &mut s.burial_chamber, seats),
        _ => obelisk_fields(&mut out, r, &mut s.obelisk, seats),
    }
    out
}

fn market_fields<'a>(out: &mut Vec<Field<'a>>, r: &'a Rules, m: &'a mut Market, seats: usize) {
    match m {
        Market::A(a) => out.push(Field::cards("display", Shown::Public, r, &mut a.display)),
        Market::B(b) => {
            out.push(Field::fixed("pair_count", Shown::Public, json!(b.hidden_pair.len())));
            out.push(Field::cards("display", Shown::Public, r, &mut b.display));
            out.push(Field::cards("pair", Shown::Hidden, r, &mut b.hidden_pair));
            out.push(Field::cards("looked", Shown::Flow, r, &mut b.looked));
        }
        Market::C(c) => {
            let display = &mut c.display;
            let size = &mut c.size;
            let shown: Vec<Value> = display[..*size]
                .iter()
                .map(|x| x.map_or(Value::Null, |c| json!(r.cards.names[c as usize])))
                .collect();
            out.push(Field::new("display", Shown::Public, Value::Array(shown), Some(Box::new(move |v| {
                let items = v.as_array().ok_or_else(|| bad("display", "a list of card names or None", v))?;
                if items.len() > display.len() {
                    return Err(CoreError::value(format!("display: at most {} spaces", display.len())));
                }
                for (i, x) in items.iter().enumerate() {
                    display[i] = if x.is_null() { None } else { Some(read_card(r, "display", x)?) };
                }
                *size = items.len();
                Ok(())
            }))));
            out.push(Field::int("left", Shown::Public, &mut c.left));
            out.push(Field::row("coins", Shown::Public, &mut c.coins, seats));
        }
        Market::D(d) => {
            let sizes: Vec<usize> = d.hidden_stacks[..d.stacks].iter().map(|s| s.len()).collect();
            out.push(Field::cards("display", Shown::Public, r, &mut d.display));
            // the sizes follow the stacks: a write that agrees is allowed (nothing to change)
            let check = sizes.clone();
            out.push(Field::new("stack_count", Shown::Public, ints(&sizes), Some(Box::new(move |v| {
                let given: Vec<usize> = read_ints("stack_count", v)?;
                if given != check {
                    return Err(CoreError::value(format!(
                        "stack_count {given:?} is not the stacks' sizes {check:?}"
                    )));
                }
                Ok(())
            }))));
            let stacks = &mut d.hidden_stacks;
            let count = &mut d.stacks;
            let shown: Vec<Value> = stacks[..*count].iter().map(|s| card_names(r, s)).collect();
            out.push(Field::new("stacks", Shown::Hidden, Value::Array(shown), Some(Box::new(move |v| {
                let lists = v.as_array().ok_or_else(|| bad("stacks", "a list of card lists", v))?;
                if lists.len() > stacks.len() {
                    return Err(CoreError::value(format!("stacks: at most {} stacks", stacks.len())));
                }
                for (i, x) in lists.iter().enumerate() {
                    let items = read_cards(r, "stacks", x)?;
                    stacks[i] = ArrayVec::try_from(&items[..])
                        .map_err(|_| CoreError::value("stacks: a stack too high".into()))?;
                }
                *count = lists.len();
                Ok(())
            }))));
        }
    }
}

fn counted_fields<'a>(out: &mut Vec<Field<'a>>, c: &'a mut pyramid::Counted, seats: usize) {
    out.push(Field::row("count", Shown::Public, &mut c.count, seats));
    out.push(Field::counted("overflow_owners", Shown::Public, &mut c.overflow_owners, &mut c.overflows));
}

fn pyramid_fields<'a>(out: &mut Vec<Field<'a>>, r: &'a Rules, p: &'a mut Pyramid, seats: usize) {
    match p {
        Pyramid::A(a) => out.push(Field::counted("owners", Shown::Public, &mut a.owners, &mut a.placed)),
        Pyramid::B(b) => {
            let n = match &r.sites.pyramid {
                pyramid::Config::B { spaces, .. } => spaces.len(),
                _ => 0,
            };
            let shown: Vec<Value> = (0..n).map(|i| ints(&b.on[i * HEIGHT..i * HEIGHT + b.laid[i] as usize])).collect();
            let (laid, on) = (&mut b.laid, &mut b.on);
            out.push(Field::new("pyramids", Shown::Public, Value::Array(shown), Some(Box::new(move |v| {
                let lists = v.as_array().filter(|l| l.len() == n).ok_or_else(|| bad("pyramids", "a list per pyramid", v))?;
                for (i, x) in lists.iter().enumerate() {
                    let owners: Vec<i8> = read_ints("pyramids", x)?;
                    if owners.len() > HEIGHT {
                        return Err(CoreError::value(format!("pyramids: at most {HEIGHT} stones a pyramid")));
                    }
                    on[i * HEIGHT..i * HEIGHT + owners.len()].copy_from_slice(&owners);
                    laid[i] = owners.len() as u8;
                }
                Ok(())
            }))));
            out.push(Field::list("open", Shown::Public, &mut b.open));
            counted_fields(out, &mut b.counted, seats);
        }
        Pyramid::C(c) => {
            let sizes: Vec<usize> = match &r.sites.pyramid {
                pyramid::Config::C { tiles, .. } => tiles.iter().map(|t| t.len()).collect(),
                _ => Vec::new(),
            };
            let done: Vec<Value> = c
                .done_tile
                .iter()
                .enumerate()
                .map(|(d, &t)| json!([t, ints(&c.done_owners[d * TILE..d * TILE + sizes[t as usize]])]))
                .collect();
            out.push(Field::fixed("done", Shown::Public, Value::Array(done)));
            out.push(Field::int("tile", Shown::Public, &mut c.tile));
            out.push(Field::int("tiles_left", Shown::Public, &mut c.tiles_left));
            out.push(Field::list("on_tile", Shown::Public, &mut c.on_tile));
            out.push(Field::list("stack", Shown::Hidden, &mut c.hidden_stack));
            out.push(Field::list("removed", Shown::Hidden, &mut c.hidden_removed));
            counted_fields(out, &mut c.counted, seats);
        }
        Pyramid::D(d) => {
            let size = d.size;
            out.push(Field::row("spaces", Shown::Public, &mut d.spaces, size));
            out.push(Field::int("filled", Shown::Public, &mut d.filled));
            out.push(Field::int("figure", Shown::Public, &mut d.figure));
            counted_fields(out, &mut d.counted, seats);
        }
    }
}

fn temple_fields<'a>(out: &mut Vec<Field<'a>>, r: &'a Rules, t: &'a mut Temple, seats: usize) {
    match t {
        Temple::A(l) | Temple::B(l) | Temple::C(l) => {
            out.push(Field::fixed("width", Shown::Public, json!(l.width)));
            out.push(Field::counted("owners", Shown::Public, &mut l.owners, &mut l.filled));
            out.push(Field::cards("drawn", Shown::Flow, r, &mut l.drawn));
        }
        Temple::D(a) => {
            out.push(Field::row("chariots", Shown::Public, &mut a.chariots, seats));
            out.push(Field::row("count", Shown::Public, &mut a.count, seats));
            // the board's stone spaces, fewer than the row holds
            let room = match &r.sites.temple {
                temple::Config::D(cfg) => cfg.arrowheads.len(),
                _ => 0,
            };
            out.push(Field::counted_within("spaces", Shown::Public, &mut a.spaces, &mut a.filled, room));
            out.push(Field::counted("overflow", Shown::Public, &mut a.overflow, &mut a.over));
        }
    }
}

fn burial_fields<'a>(out: &mut Vec<Field<'a>>, r: &'a Rules, b: &'a mut BurialChamber, seats: usize) {
    match b {
        BurialChamber::A(rows) | BurialChamber::B(rows) => out.push(Field::list("owners", Shown::Public, &mut rows.owners)),
        BurialChamber::C(m) => {
            let spaces = match &r.sites.burial_chamber {
                burial::Config::C { mound, .. } => mound.space.len(),
                _ => 0,
            };
            out.push(Field::row("owner", Shown::Public, &mut m.owner, spaces));
            out.push(Field::list("open", Shown::Public, &mut m.open));
            out.push(Field::row("overflow", Shown::Public, &mut m.overflow, seats));
            out.push(Field::row("count", Shown::Public, &mut m.count, seats));
        }
        BurialChamber::D(t) => {
            let spaces = match &r.sites.burial_chamber {
                burial::Config::D { rows, columns, .. } => rows * columns,
                _ => 0,
            };
            out.push(Field::row("grid", Shown::Public, &mut t.grid, spaces));
            out.push(Field::list("face_up", Shown::Public, &mut t.face_up));
            out.push(Field::row("edge", Shown::Public, &mut t.edge, seats));
            out.push(Field::row("count", Shown::Public, &mut t.count, seats));
            out.push(Field::list("tokens", Shown::Hidden, &mut t.hidden_tokens));
        }
    }
}

fn obelisk_fields<'a>(out: &mut Vec<Field<'a>>, r: &'a Rules, o: &'a mut Obelisk, seats: usize) {
    match o {
        Obelisk::A(a) => out.push(Field::row("heights", Shown::Public, &mut a.heights, seats)),
        Obelisk::B(b) => {
            out.push(Field::row("pending", Shown::Public, &mut b.pending, seats));
            out.push(Field::row("built", Shown::Public, &mut b.built, seats));
            out.push(Field::counted("slot_owner", Shown::Public, &mut b.slot_owner, &mut b.taken));
        }
        Obelisk::C(c) => {
            let columns = match &r.sites.obelisk {
                obelisk::Config::C { columns, .. } => *columns,
                _ => 0,
            };
            let shown: Vec<Value> = c.cards[..seats].iter().map(|row| ints(&row[..columns])).collect();
            let cards = &mut c.cards;
            out.push(Field::new("cards", Shown::Public, Value::Array(shown), Some(Box::new(move |v| {
                let rows = v.as_array().filter(|x| x.len() == seats).ok_or_else(|| bad("cards", "a card per seat", v))?;
                for (p, row) in rows.iter().enumerate() {
                    let heights: Vec<i32> = read_ints("cards", row)?;
                    if heights.len() != columns {
                        return Err(CoreError::value(format!("cards: expected {columns} columns, got {}", heights.len())));
                    }
                    cards[p][..columns].copy_from_slice(&heights);
                }
                Ok(())
            }))));
            out.push(Field::int("next", Shown::Public, &mut c.next));
            out.push(Field::row("on_path", Shown::Public, &mut c.on_path, seats));
            out.push(Field::row("overflow", Shown::Public, &mut c.overflow, seats));
            out.push(Field::row("discarded", Shown::Public, &mut c.discarded, seats));
        }
        Obelisk::D(d) => {
            let count = match &r.sites.obelisk {
                obelisk::Config::D { target, .. } => target.len(),
                _ => 0,
            };
            let free: Vec<usize> = (0..count).filter(|&i| d.owner[i] < 0).collect();
            out.push(Field::fixed("free", Shown::Public, ints(&free)));
            out.push(Field::row("owner", Shown::Public, &mut d.owner, count));
            out.push(Field::row("height", Shown::Public, &mut d.height, count));
            out.push(Field::row("working", Shown::Public, &mut d.working, seats));
            out.push(Field::row("placed", Shown::Public, &mut d.placed, seats));
            out.push(Field::row("overflow", Shown::Public, &mut d.overflow, seats));
        }
    }
}

/// Fields' values by who may see them: public, hidden, flow.
type Parts = [Map<String, Value>; 3];

/// The fields' values by who may see them.
fn split(fields: Vec<Field<'_>>) -> Parts {
    let mut out = [Map::new(), Map::new(), Map::new()];
    for f in fields {
        let at = match f.shown {
            Shown::Public => 0,
            Shown::Hidden => 1,
            Shown::Flow => 2,
        };
        out[at].insert(f.name.to_string(), f.value);
    }
    out
}

/// The game's and each site's fields, split by who may see them (one copy of the game: the
/// tables borrow it mutably, for their writers, one after the other).
fn parts(g: &Game) -> (Parts, Vec<Parts>) {
    let mut copy = g.clone();
    let r = g.rules.clone();
    let game = split(game_fields(&mut copy, &r));
    let sites = (0..5).map(|i| split(site_fields(&mut copy, &r, i))).collect();
    (game, sites)
}

/// Everything: `{"game": {...}, "sites": [{...} x5], "hidden": {"game": {...}, "sites":
/// [...]}, "flow": {"game": {...}, "sites": [...]}}`.
pub fn export(g: &Game) -> Value {
    let ([public, hidden, flow], sites) = parts(g);
    let mut by = [Vec::new(), Vec::new(), Vec::new()];
    for [a, b, c] in sites {
        by[0].push(Value::Object(a));
        by[1].push(Value::Object(b));
        by[2].push(Value::Object(c));
    }
    let [s_public, s_hidden, s_flow] = by;
    json!({
        "game": public,
        "sites": s_public,
        "hidden": {"game": hidden, "sites": s_hidden},
        "flow": {"game": flow, "sites": s_flow},
    })
}

/// What seat `seat` may see (engine/view.py's read model): the public fields only, the
/// decision's options only when the seat is to move.
pub fn seen(g: &Game, seat: usize) -> Value {
    let ([mut game, _, _], sites) = parts(g);
    if g.to_move != seat as i32 {
        game.insert("options".into(), json!([]));
    }
    game.insert("me".into(), json!(seat));
    let sites: Vec<Value> = sites.into_iter().map(|[public, _, _]| Value::Object(public)).collect();
    json!({"game": game, "sites": sites})
}

fn set_fields(fields: Vec<Field<'_>>, changes: &Map<String, Value>, whose: &str) -> Res {
    let mut fields = fields;
    for (name, v) in changes {
        let at = fields.iter().position(|f| f.name == name).ok_or_else(|| {
            let known: Vec<&str> = fields.iter().filter(|f| f.set.is_some()).map(|f| f.name).collect();
            CoreError::value(format!("edit: {whose} has no field {name:?} (fields: {})", known.join(", ")))
        })?;
        let f = fields.swap_remove(at);
        let set = f.set.ok_or_else(|| CoreError::value(format!("edit: {whose}.{name} is read only")))?;
        set(v).map_err(|e| match e.fault() {
            Fault::Value(m) => CoreError::value(format!("edit: {whose}: {m}")),
            _ => e,
        })?;
    }
    Ok(())
}

/// Set fields by name: `{"sled": [..], "sites": {"temple": {"owners": [..]}}}` (a site by
/// its name or its index as a string). The decision is not recomputed: see
/// [`refresh_turn`] and [`Game::resume`].
pub fn edit(g: &mut Game, changes: &Value) -> Res {
    let table = changes.as_object().ok_or_else(|| bad("edit", "a table of fields", changes))?;
    let r = g.rules.clone();
    let mut own = table.clone();
    let sites = own.remove("sites");
    set_fields(game_fields(g, &r), &own, "game")?;
    if let Some(sites) = sites {
        let sites = sites.as_object().ok_or_else(|| bad("edit: sites", "a table by site name", &sites))?;
        for (key, fields) in sites {
            let i = SITE_NAMES
                .iter()
                .position(|s| s == key)
                .or_else(|| key.parse::<usize>().ok().filter(|&i| i < 5))
                .ok_or_else(|| CoreError::value(format!("edit: unknown site {key:?} (sites: {})", SITE_NAMES.join(", "))))?;
            let fields = fields.as_object().ok_or_else(|| bad("edit: site", "a table of fields", fields))?;
            let whose = format!("{}.{:?}", SITE_NAMES[i], r.sides[i]);
            // the hidden parts first: a public count (Market D's stack_count) checks
            // against the stacks as this edit leaves them
            let hidden: Vec<&str> = site_fields(g, &r, i)
                .iter()
                .filter(|f| f.shown == Shown::Hidden)
                .map(|f| f.name)
                .collect();
            let (first, rest): (Map<String, Value>, Map<String, Value>) =
                fields.clone().into_iter().partition(|(k, _)| hidden.contains(&k.as_str()));
            set_fields(site_fields(g, &r, i), &first, &whose)?;
            set_fields(site_fields(g, &r, i), &rest, &whose)?;
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ scenario steps
// engine/scenario.py's helpers: the engine's own steps, run on a hand-built position and
// then on to the next decision.

/// A stone of `owner` arrives at `site`, as from a ship.
pub fn deliver(g: &mut Game, site: usize, owner: usize) -> Res {
    check_site(site)?;
    check_seat(g, owner)?;
    let r = g.rules.clone();
    g.kind = crate::kinds::NONE;
    crate::sites::deliver(g, &r, site, owner)?;
    g.advance(&r)
}

/// Site `site`'s round end, then on to the next decision.
pub fn round_end(g: &mut Game, site: usize) -> Res {
    check_site(site)?;
    let r = g.rules.clone();
    g.kind = crate::kinds::NONE;
    crate::sites::round_end(g, &r, site)?;
    g.advance(&r)
}

/// Site `site`'s round start (its new round's set-up), then on to the next decision.
pub fn round_start(g: &mut Game, site: usize) -> Res {
    check_site(site)?;
    let r = g.rules.clone();
    g.kind = crate::kinds::NONE;
    crate::sites::round_start(g, &r, site)?;
    g.advance(&r)
}

/// Site `site`'s game-end scoring alone (no decision follows: game-end scoring asks none).
pub fn game_end(g: &mut Game, site: usize) -> Res {
    check_site(site)?;
    let r = g.rules.clone();
    crate::sites::game_end(g, &r, site)
}

/// The round ends now (docs/rules.md §2.4), the next starting with `next_start`.
pub fn end_round(g: &mut Game, next_start: usize) -> Res {
    check_seat(g, next_start)?;
    let r = g.rules.clone();
    g.kind = crate::kinds::NONE;
    g.end_round(next_start);
    g.advance(&r)
}

/// Seat `p` takes market card `card` (a red card acts at once), then on to the next decision.
pub fn gain(g: &mut Game, p: usize, card: &str) -> Res {
    check_seat(g, p)?;
    let r = g.rules.clone();
    let c = read_card(&r, "gain", &json!(card))?;
    g.kind = crate::kinds::NONE;
    crate::cards::gain(g, &r, p, c)?;
    g.advance(&r)
}

/// The market cards' game-end scoring alone (decorations, statues, unused blue cards,
/// stone ornaments).
pub fn score_cards(g: &mut Game) {
    let r = g.rules.clone();
    crate::cards::score_game_end(g, &r);
}

/// The prophecies' game-end scoring alone (docs/rules.md §9).
pub fn score_prophecies(g: &mut Game) -> Res {
    if g.prophecy.is_none() {
        return Err(CoreError::value("score_prophecies: the prophecies are not in play".into()));
    }
    let r = g.rules.clone();
    crate::prophecies::score(g, &r);
    Ok(())
}

/// `points` to seat `seat` from `source` (a name of rules.rs `SOURCES`), as the rules score.
pub fn score(g: &mut Game, seat: usize, source: &str, points: i32) -> Res {
    check_seat(g, seat)?;
    let at = crate::rules::SOURCES.iter().position(|s| *s == source).ok_or_else(|| {
        CoreError::value(format!("score: unknown source {source:?} (sources: {})", crate::rules::SOURCES.join(", ")))
    })?;
    g.score(seat, at as crate::rules::Source, points);
    Ok(())
}

/// A stone of seat `p` onto slot `k` of ship `s` (its origin already debited).
pub fn put_on_ship(g: &mut Game, p: usize, s: usize, k: usize) -> Res {
    check_seat(g, p)?;
    if s >= SHIPS || k >= g.ship_size[s] as usize || g.slots[4 * s + k] != -1 {
        return Err(CoreError::value(format!("put_on_ship: slot {k} of ship {s} is not an empty slot")));
    }
    g.put_on_ship(p, s, k);
    Ok(())
}

/// The turn's options again for the seat to move (after an edit at a turn decision).
pub fn refresh_turn(g: &mut Game) -> Res {
    let p = g.to_move;
    if g.kind != crate::kinds::TURN || p < 0 {
        return Err(CoreError::value("refresh_turn: no turn is pending".into()));
    }
    let options = turn_options(g, p as usize)?;
    g.options.clear();
    g.options.extend(options);
    Ok(())
}

/// The turn actions seat `p` would have now (the game is not changed).
pub fn turn_options(g: &Game, p: usize) -> Result<Vec<crate::action::Action>, CoreError> {
    check_seat(g, p)?;
    let mut copy = g.clone();
    let r = g.rules.clone();
    copy.turn_options(&r, p);
    Ok(copy.options.to_vec())
}

fn check_site(site: usize) -> Res {
    if site < 5 {
        Ok(())
    } else {
        Err(CoreError::value(format!("site {site}: expected 0 (market) .. 4 (obelisk)")))
    }
}

fn check_seat(g: &Game, p: usize) -> Res {
    if p < g.n && p < SEATS {
        Ok(())
    } else {
        Err(CoreError::value(format!("seat {p}: this game has seats 0 .. {}", g.n - 1)))
    }
}
