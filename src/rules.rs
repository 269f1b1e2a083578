//! The board data, handed from Python once per cell as JSON and parsed here into typed,
//! immutable values (`Arc<Rules>`, shared by every game of the cell).
//!
//! The JSON layout (imhotep_stats builds it from its `Board`, overrides applied):
//!
//! ```json
//! {
//!   "sides": ["A", "B", "C", "D", "A"],          // market, pyramid, temple, burial_chamber, obelisk
//!   "values": {"market": {...}, "pyramid": {...}, "temple": {...},
//!              "burial_chamber": {...}, "obelisk": {...}},   // the chosen sides' values
//!   "game": {"rounds": 6, "stones": 29, ...},    // data/game.toml [game]
//!   "prophecies": {"cards_in_play": 3, ...},     // [prophecies]
//!   "round_cards": {"2": [[4, 3, 2, 2], ...], "3": [...], "4": [...]},
//!   "cards": {"entrance": {"colour": "red", ...}, ...},   // data/cards.toml, in file order
//!   "statue_points": {"table": [...], "extra": 2},
//!   "unused_blue_points": {"points": 1},
//!   "decoration": {"stones_per_point": 3},
//!   "overridden": ["pyramid.A.points", "game"]   // what a config changed (error messages)
//! }
//! ```
//!
//! Each site module parses its own side's values (`values.<site>`) into its typed `Config`
//! (`sites::*::parse`), interning any text it shows in actions in [`Names`].

use std::collections::HashMap;

use serde_json::Value;

use crate::action::{Action, Name, FIXED_NAMES};
use crate::sites;

pub const SITES: [&str; 5] = ["market", "pyramid", "temple", "burial_chamber", "obelisk"];
pub const MARKET: usize = 0;
pub const PYRAMID: usize = 1;
pub const TEMPLE: usize = 2;
pub const BURIAL_CHAMBER: usize = 3;
pub const OBELISK: usize = 4;

/// Score sources (imhotep_stats/rules/sources.py), in that order: an event's `source`.
pub const SOURCES: [&str; 10] = [
    "market", "pyramid", "temple", "burial_chamber", "obelisk", "card_statue",
    "card_decoration", "card_unused_blue", "card_ornament", "prophecy",
];
pub type Source = u8;
pub const SRC_MARKET: Source = 0;
pub const SRC_PYRAMID: Source = 1;
pub const SRC_TEMPLE: Source = 2;
pub const SRC_BURIAL_CHAMBER: Source = 3;
pub const SRC_OBELISK: Source = 4;
pub const SRC_CARD_STATUE: Source = 5;
pub const SRC_CARD_DECORATION: Source = 6;
pub const SRC_CARD_UNUSED_BLUE: Source = 7;
pub const SRC_CARD_ORNAMENT: Source = 8;
pub const SRC_PROPHECY: Source = 9;

/// The card kinds the rules name, in the order of their codes;
/// a board's other deck names (a `same_as` of its own) follow, sorted.
pub const KINDS: [&str; 17] = [
    "entrance", "sarcophagus", "paved_path", "private_quarry", "pyramid_decoration",
    "temple_decoration", "burial_chamber_decoration", "obelisk_decoration", "statue",
    "chisel", "lever", "hammer", "sail", "barge", "loading_platform", "cargo_sled",
    "stone_ornament",
];
pub type Card = u8;
pub const NO_CARD: Card = u8::MAX;
pub const ENTRANCE: Card = 0;
pub const SARCOPHAGUS: Card = 1;
pub const PAVED_PATH: Card = 2;
pub const PRIVATE_QUARRY: Card = 3;
pub const PYRAMID_DECORATION: Card = 4;
pub const STATUE: Card = 8;
/// The blue cards, codes BLUE0 .. BLUE0 + 6 in the order a turn offers them (docs/rules.md §3).
pub const BLUE0: Card = 9;
pub const CHISEL: Card = 9;
pub const LEVER: Card = 10;
pub const HAMMER: Card = 11;
pub const SAIL: Card = 12;
pub const BARGE: Card = 13;
pub const LOADING_PLATFORM: Card = 14;
pub const CARGO_SLED: Card = 15;
pub const STONE_ORNAMENT: Card = 16;

/// Errors the Python engine raises, with the same message text (py.rs maps each to its
/// Python class: RulesError, ChanceError, IllegalAction, ValueError).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    Rules(String),
    /// A pinned outcome that does not fit; `reshuffle` is the pinned reshuffle's index or -1.
    Chance { message: String, reshuffle: i32 },
    Illegal(String),
    Value(String),
}

/// A [`Fault`], boxed: every call of the game's flow returns a `Result` that is checked on
/// the way back, and one that is a single pointer is cheap to return and to test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreError(Box<Fault>);

impl CoreError {
    #[cold]
    pub fn rules(message: String) -> CoreError {
        CoreError(Box::new(Fault::Rules(message)))
    }

    #[cold]
    pub fn illegal(message: String) -> CoreError {
        CoreError(Box::new(Fault::Illegal(message)))
    }

    #[cold]
    pub fn value(message: String) -> CoreError {
        CoreError(Box::new(Fault::Value(message)))
    }

    #[cold]
    pub fn chance(message: String, reshuffle: i32) -> CoreError {
        CoreError(Box::new(Fault::Chance { message, reshuffle }))
    }

    /// Which error, with its message.
    pub fn fault(&self) -> &Fault {
        &self.0
    }
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.0 {
            Fault::Rules(m) | Fault::Illegal(m) | Fault::Value(m) => f.write_str(m),
            Fault::Chance { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for CoreError {}

pub fn rules_error<T>(message: impl Into<String>) -> Result<T, CoreError> {
    Err(CoreError::rules(message.into()))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
    C,
    D,
}

impl Side {
    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_uppercase().as_str() {
            "A" => Some(Side::A),
            "B" => Some(Side::B),
            "C" => Some(Side::C),
            "D" => Some(Side::D),
            _ => None,
        }
    }

    pub fn letter(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
            Side::C => "C",
            Side::D => "D",
        }
    }
}

/// Every text an action shows (kinds and name arguments), interned: an action holds their
/// ids. The engine's own names come first (action.rs `FIXED_NAMES`), then the card kinds,
/// then what the sites intern as they parse.
#[derive(Clone, Debug, Default)]
pub struct Names {
    list: Vec<String>,
    index: HashMap<String, Name>,
}

impl Names {
    pub fn new() -> Names {
        let mut names = Names::default();
        for text in FIXED_NAMES {
            names.intern(text);
        }
        names
    }

    /// The id of `text`, added if new.
    pub fn intern(&mut self, text: &str) -> Name {
        if let Some(&id) = self.index.get(text) {
            return id;
        }
        let id = self.list.len() as Name;
        self.list.push(text.to_string());
        self.index.insert(text.to_string(), id);
        id
    }

    pub fn id(&self, text: &str) -> Option<Name> {
        self.index.get(text).copied()
    }

    pub fn text(&self, id: Name) -> &str {
        &self.list[id as usize]
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// data/game.toml `[game]`.
#[derive(Clone, Debug)]
pub struct GameTable {
    pub rounds: usize,
    pub stones: i32,
    pub stones_two_colour: i32,
    pub sled_capacity: i32,
    pub starting_sled: Vec<i32>,
    pub get_stones: i32,
}

/// data/game.toml `[prophecies]`.
#[derive(Clone, Debug)]
pub struct ProphecyTable {
    pub cards_in_play: usize,
    pub scarabs: i32,
    pub windows: Vec<Vec<i64>>,
    pub fulfilled: Vec<i32>,
    pub failed: Vec<i32>,
    /// the gods by name id ("amun" ...), in the data's order
    pub gods: Vec<Name>,
}

/// The market cards: codes, the deck's make-up and the point tables (docs/rules.md §3).
#[derive(Clone, Debug)]
pub struct CardTable {
    /// card names by code (KINDS, then the board's other deck names, sorted)
    pub names: Vec<String>,
    /// (code, count, expansion?) for each card table in file order: a deck is built from it
    pub deck_rows: Vec<(Card, usize, bool)>,
    /// the decks built from `deck_rows` once: [without, with] the expansion's cards
    decks: [Vec<Card>; 2],
    pub statue_table: Vec<i32>,
    pub statue_extra: i32,
    pub unused_blue: i32,
    pub per_decoration: i32,
    pub cargo_capacity: i32,
    pub private_quarry_points: i32,
    pub private_quarry_stones: i32,
}

impl CardTable {
    pub fn code(&self, name: &str) -> Option<Card> {
        self.names.iter().position(|n| n == name).map(|c| c as Card)
    }

    /// The market deck, unshuffled: the base cards, and the expansion's with `expansion`.
    pub fn deck(&self, expansion: bool) -> Vec<Card> {
        self.deck_of(expansion).to_vec()
    }

    /// [`CardTable::deck`], borrowed (built once, when the board is read).
    pub fn deck_of(&self, expansion: bool) -> &[Card] {
        &self.decks[expansion as usize]
    }

    fn build_deck(rows: &[(Card, usize, bool)], expansion: bool) -> Vec<Card> {
        let mut deck = Vec::new();
        for &(code, count, exp) in rows {
            if !exp || expansion {
                deck.extend(std::iter::repeat_n(code, count));
            }
        }
        deck
    }

    /// Points for `k` statues (docs/rules.md §3).
    pub fn statues(&self, k: i32) -> i32 {
        if k <= 0 {
            return 0;
        }
        let t = &self.statue_table;
        let n = t.len() as i32;
        if k <= n {
            t[(k - 1) as usize]
        } else {
            t[t.len() - 1] + self.statue_extra * (k - n)
        }
    }
}

/// Everything a cell's games share: immutable once built.
#[derive(Clone, Debug)]
pub struct Rules {
    pub names: Names,
    pub sides: [Side; 5],
    pub game: GameTable,
    pub prophecies: ProphecyTable,
    /// round cards by player count: `round_cards[players - 2]`
    pub round_cards: [Vec<[u8; 4]>; 3],
    pub cards: CardTable,
    /// each card's name id, by code
    pub card_ids: Vec<Name>,
    /// each name id's card code, NO_CARD for the names of no card
    pub card_of_name: Vec<Card>,
    /// each site's parsed side (sites/*.rs `Config`)
    pub sites: sites::Configs,
    /// what a config overrode ("pyramid.A.points", table names): the endless-round error
    pub overridden: Vec<String>,
}

// ---------------------------------------------------------------------- JSON reading
pub fn get<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a Value, CoreError> {
    v.get(key).ok_or_else(|| CoreError::rules(format!("{at}.{key}: missing")))
}

pub fn as_int(v: &Value, at: &str) -> Result<i64, CoreError> {
    v.as_i64().ok_or_else(|| CoreError::rules(format!("{at}: expected an integer, got {v}")))
}

pub fn int(v: &Value, key: &str, at: &str) -> Result<i64, CoreError> {
    as_int(get(v, key, at)?, &format!("{at}.{key}"))
}

pub fn as_ints(v: &Value, at: &str) -> Result<Vec<i64>, CoreError> {
    let list = v
        .as_array()
        .ok_or_else(|| CoreError::rules(format!("{at}: expected a list, got {v}")))?;
    list.iter().enumerate().map(|(i, x)| as_int(x, &format!("{at}[{i}]"))).collect()
}

pub fn ints(v: &Value, key: &str, at: &str) -> Result<Vec<i64>, CoreError> {
    as_ints(get(v, key, at)?, &format!("{at}.{key}"))
}

pub fn as_text<'a>(v: &'a Value, at: &str) -> Result<&'a str, CoreError> {
    v.as_str().ok_or_else(|| CoreError::rules(format!("{at}: expected a string, got {v}")))
}

/// A value printed per player count (`{"2": x, "3": y, "4": z}`): the one for `players`.
pub fn by_players<'a>(v: &'a Value, key: &str, players: usize, at: &str) -> Result<&'a Value, CoreError> {
    let table = get(v, key, at)?;
    table
        .get(players.to_string())
        .ok_or_else(|| CoreError::rules(format!("{at}.{key}: no value for {players} players")))
}

fn i32s(v: Vec<i64>) -> Vec<i32> {
    v.into_iter().map(|x| x as i32).collect()
}

impl Rules {
    /// Parse the JSON the Python side sends (the layout in this module's comment).
    pub fn from_json(text: &str) -> Result<Rules, CoreError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| CoreError::rules(format!("board data: not JSON: {e}")))?;
        Rules::from_value(&v)
    }

    pub fn from_value(v: &Value) -> Result<Rules, CoreError> {
        let mut names = Names::new();
        // sides
        let sides_v = get(v, "sides", "board")?;
        let letters: Vec<&str> = match sides_v {
            Value::String(s) => s.split('-').collect(),
            Value::Array(a) => a.iter().filter_map(|x| x.as_str()).collect(),
            _ => vec![],
        };
        let parsed: Vec<Side> = letters.iter().filter_map(|t| Side::parse(t)).collect();
        if parsed.len() != 5 || letters.len() != 5 {
            return rules_error(format!(
                "sides {sides_v}: expected 5 letters A-D joined by '-', in the order \
                 market-pyramid-temple-burial_chamber-obelisk (e.g. D-A-C-B-D)"
            ));
        }
        let sides = [parsed[0], parsed[1], parsed[2], parsed[3], parsed[4]];

        // cards: their codes
        let cards_v = get(v, "cards", "board")?;
        let cards_map = cards_v
            .as_object()
            .ok_or_else(|| CoreError::rules("cards: expected a table".into()))?;
        let mut card_names: Vec<String> = KINDS.iter().map(|s| s.to_string()).collect();
        let mut extra: Vec<String> = Vec::new();
        for (name, c) in cards_map {
            let deck_name = c.get("same_as").and_then(|x| x.as_str()).unwrap_or(name);
            if !KINDS.contains(&deck_name) && !extra.iter().any(|e| e == deck_name) {
                extra.push(deck_name.to_string());
            }
        }
        extra.sort();
        card_names.extend(extra);
        if card_names.len() > crate::game::HAND {
            return rules_error(format!(
                "cards: at most {} kinds of card, got {}",
                crate::game::HAND,
                card_names.len()
            ));
        }
        let card_ids: Vec<Name> = card_names.iter().map(|name| names.intern(name)).collect();
        let code_of = |name: &str| card_names.iter().position(|n| n == name).map(|c| c as Card);
        let mut deck_rows = Vec::new();
        for (name, c) in cards_map {
            let at = format!("cards.{name}");
            let deck_name = c.get("same_as").and_then(|x| x.as_str()).unwrap_or(name);
            let count = int(c, "count", &at)? as usize;
            let deck = as_text(get(c, "deck", &at)?, &format!("{at}.deck"))?;
            deck_rows.push((code_of(deck_name).unwrap(), count, deck == "expansion"));
        }
        let card = |name: &str, key: &str| -> Result<i32, CoreError> {
            let c = get(cards_v, name, "cards")?;
            Ok(int(c, key, &format!("cards.{name}"))? as i32)
        };
        let statue = get(v, "statue_points", "board")?;
        let cards = CardTable {
            statue_table: i32s(ints(statue, "table", "statue_points")?),
            statue_extra: int(statue, "extra", "statue_points")? as i32,
            unused_blue: int(get(v, "unused_blue_points", "board")?, "points", "unused_blue_points")? as i32,
            per_decoration: int(get(v, "decoration", "board")?, "stones_per_point", "decoration")? as i32,
            cargo_capacity: card("cargo_sled", "capacity")?,
            private_quarry_points: card("private_quarry", "points")?,
            private_quarry_stones: card("private_quarry", "stones")?,
            names: card_names.clone(),
            decks: [CardTable::build_deck(&deck_rows, false), CardTable::build_deck(&deck_rows, true)],
            deck_rows,
        };
        if cards.per_decoration <= 0 {
            return rules_error("decoration.stones_per_point: expected at least 1");
        }

        // the site names every action may show, then the game's tables
        let g = get(v, "game", "board")?;
        let game = GameTable {
            rounds: int(g, "rounds", "game")? as usize,
            stones: int(g, "stones", "game")? as i32,
            stones_two_colour: int(g, "stones_two_colour", "game")? as i32,
            sled_capacity: int(g, "sled_capacity", "game")? as i32,
            starting_sled: i32s(ints(g, "starting_sled", "game")?),
            get_stones: int(g, "get_stones", "game")? as i32,
        };
        let p = get(v, "prophecies", "board")?;
        let windows_v = get(p, "windows", "prophecies")?
            .as_array()
            .ok_or_else(|| CoreError::rules("prophecies.windows: expected a list".into()))?;
        let mut windows = Vec::new();
        for (i, w) in windows_v.iter().enumerate() {
            windows.push(as_ints(w, &format!("prophecies.windows[{i}]"))?);
        }
        let gods_v = get(p, "gods", "prophecies")?
            .as_array()
            .ok_or_else(|| CoreError::rules("prophecies.gods: expected a list".into()))?;
        let mut gods = Vec::new();
        for (i, x) in gods_v.iter().enumerate() {
            gods.push(names.intern(as_text(x, &format!("prophecies.gods[{i}]"))?));
        }
        let prophecies = ProphecyTable {
            cards_in_play: int(p, "cards_in_play", "prophecies")? as usize,
            scarabs: int(p, "scarabs", "prophecies")? as i32,
            windows,
            fulfilled: i32s(ints(p, "fulfilled", "prophecies")?),
            failed: i32s(ints(p, "failed", "prophecies")?),
            gods,
        };
        let rc = get(v, "round_cards", "board")?;
        let mut round_cards: [Vec<[u8; 4]>; 3] = Default::default();
        for players in 2..=4usize {
            let at = format!("round_cards.{players}");
            let list = get(rc, &players.to_string(), "round_cards")?
                .as_array()
                .ok_or_else(|| CoreError::rules(format!("{at}: expected a list")))?;
            for (i, card) in list.iter().enumerate() {
                let sizes = as_ints(card, &format!("{at}[{i}]"))?;
                if sizes.len() != 4 || sizes.iter().any(|&s| !(1..=4).contains(&s)) {
                    return rules_error(format!("{at}[{i}]: expected 4 ship sizes from 1 to 4"));
                }
                round_cards[players - 2].push([sizes[0] as u8, sizes[1] as u8, sizes[2] as u8, sizes[3] as u8]);
            }
        }
        let overridden = match v.get("overridden") {
            Some(Value::Array(a)) => a.iter().filter_map(|x| x.as_str().map(String::from)).collect(),
            _ => Vec::new(),
        };
        let values = get(v, "values", "board")?;
        let sites = sites::Configs::parse(&mut names, &sides, values)?;
        let mut card_of_name = vec![NO_CARD; names.len()];
        for (code, &id) in card_ids.iter().enumerate() {
            card_of_name[id as usize] = code as Card;
        }
        Ok(Rules { names, sides, game, prophecies, round_cards, cards, card_ids, card_of_name, sites, overridden })
    }

    /// A card's name id (an action's argument).
    pub fn card_name(&self, card: Card) -> Name {
        self.card_ids[card as usize]
    }

    /// The card a name id names.
    pub fn card_of(&self, name: Name) -> Option<Card> {
        match self.card_of_name.get(name as usize) {
            Some(&c) if c != NO_CARD => Some(c),
            _ => None,
        }
    }

    /// Argument i of `a` as a card code (panics when it names no card: a bug).
    pub fn card_arg(&self, a: &Action, i: usize) -> Card {
        a.name(i).and_then(|x| self.card_of(x)).expect("an action argument naming a card")
    }

    /// The round cards of a player count (each a ship size per ship).
    pub fn round_cards(&self, players: usize) -> &[[u8; 4]] {
        &self.round_cards[players - 2]
    }

    /// "A-B-C-D-A"
    pub fn sides_text(&self) -> String {
        self.sides.iter().map(|s| s.letter()).collect::<Vec<_>>().join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_of_the_flow_is_one_pointer() {
        // returned in a register and tested at every call of the game's flow
        assert_eq!(std::mem::size_of::<Result<(), CoreError>>(), std::mem::size_of::<usize>());
        let e = CoreError::chance("reshuffle 1: expected ...".into(), 0);
        assert_eq!(e.fault(), &Fault::Chance { message: "reshuffle 1: expected ...".into(), reshuffle: 0 });
        assert_eq!(e.to_string(), "reshuffle 1: expected ...");
    }
}
