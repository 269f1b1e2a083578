//! Market-card effects (docs/rules.md §3): gaining a card, the blue cards'
//! plays and questions, and the game-end card scoring. Counts and points are board data.

use arrayvec::ArrayVec;

use crate::action::{self, Action, Arg, DELIVER, PLATFORM};
use crate::game::{Context, Game, Res, DOCKS, SHIPS};
use crate::kinds::{
    Kind, BARGE_SITE, CHISEL_PLACE, HAMMER_GET, HAMMER_PLACE, LEVER_SAIL, PLATFORM_SAIL, SAIL_PLACE, SAIL_SAIL,
};
use crate::rules::{
    Card, CoreError, Rules, BARGE, BLUE0, CARGO_SLED, CHISEL, ENTRANCE, HAMMER, LEVER, LOADING_PLATFORM,
    PAVED_PATH, PRIVATE_QUARRY, PYRAMID, PYRAMID_DECORATION, SAIL, SARCOPHAGUS, SRC_CARD_DECORATION,
    SRC_CARD_ORNAMENT, SRC_CARD_STATUE, SRC_CARD_UNUSED_BLUE, SRC_MARKET, STATUE, STONE_ORNAMENT,
};
use crate::sites;

/// The site a red card sends a stone to.
fn red_site(card: Card) -> Option<usize> {
    match card {
        ENTRANCE => Some(1),
        SARCOPHAGUS => Some(3),
        PAVED_PATH => Some(4),
        _ => None,
    }
}

fn is_blue(card: Card) -> bool {
    (BLUE0..BLUE0 + 6).contains(&card)
}

/// Player `p` takes card `card` (docs/rules.md §3): a red card acts at once, a blue card
/// is held, a Cargo Sled raises the sled's capacity.
pub fn gain(g: &mut Game, r: &Rules, p: usize, card: Card) -> Res {
    g.cards_taken[p] += 1;
    g.took[p][card as usize] += 1;
    let site = red_site(card);
    if site.is_some() || card == PRIVATE_QUARRY {
        // Red: acts at once; discarded, or kept face up with the expansion rules.
        if g.expansion {
            g.red_kept[p] += 1;
        } else {
            g.discard.push(card);
        }
        match site {
            Some(site) => g.schedule_from_quarry(p, site),
            None => {
                // Private Quarry (3.2): points and stones to the sled
                g.score(p, SRC_MARKET, r.cards.private_quarry_points);
                g.sled_to_capacity(p, r.cards.private_quarry_stones);
            }
        }
        return Ok(());
    }
    g.hand[p][card as usize] += 1;
    if is_blue(card) {
        g.blue[p] += 1;
        g.blue_kinds[p] |= 1 << (card - BLUE0);
    }
    if card == CARGO_SLED {
        g.sled_cap[p] += r.cards.cargo_capacity;
    }
    Ok(())
}

// ------------------------------------------------------------------------ blue cards
/// Ship s is unsailed, has an empty slot and meets its minimum with one more stone.
fn sail_card_ship(g: &Game, s: usize) -> bool {
    let load = g.ship_load[s];
    g.ship_dock[s] < 0 && load < g.ship_sizes[s] && load + 1 >= g.ship_min[s]
}

/// Ship s is unsailed, holds its minimum and a stone of `p`.
fn platform_ship(g: &Game, p: usize, s: usize) -> bool {
    if g.ship_dock[s] >= 0 || g.ship_load[s] < g.ship_min[s] {
        return false;
    }
    (0..g.ship_size[s] as usize).any(|k| g.slots[4 * s + k] == p as i8)
}

/// Whether blue card j (BLUE0 + j) can be played by `p`: its effect can be carried out.
/// Not inlined: asked only for the kinds a seat holds, it stays a call of its own (inlined
/// in the loop below, every card's test would be worked out before the loop).
#[inline(never)]
fn playable(g: &Game, p: usize, j: u8) -> bool {
    match j + BLUE0 {
        CHISEL => g.sled[p] >= 2 && g.ship_free >= 2,
        LEVER => g.ships_ready != 0 && g.docks_free != 0,
        HAMMER => g.sled[p] < g.sled_cap[p] && g.quarry[p] > 0,
        SAIL => g.sled[p] >= 1 && g.docks_free != 0 && (0..SHIPS).any(|s| sail_card_ship(g, s)),
        BARGE => g.sled[p] >= 3,
        _ => {
            g.sled[p] >= 1
                && g.dock_used.iter().any(|&d| d != 0)
                && (0..SHIPS).any(|s| platform_ship(g, p, s))
        }
    }
}

/// The blue cards `p` holds and can play, as a bitmask (bit j: BLUE0 + j): the turn's
/// "play" options, in BLUE's order.
pub fn blue_playable(g: &Game, p: usize) -> u8 {
    let mut held = g.blue_kinds[p];
    let mut mask = 0;
    while held != 0 {
        let j = held.trailing_zeros() as u8;
        held &= held - 1;
        if playable(g, p, j) {
            mask |= 1 << j;
        }
    }
    mask
}

/// Loading Platform (docs/rules.md §3.2): an unsailed ship holding its minimum and a stone
/// of `p`, to a site that already received a ship this round.
fn platform_options(g: &Game, p: usize) -> ArrayVec<Action, 20> {
    let mut out = ArrayVec::new();
    for s in 0..SHIPS {
        if !platform_ship(g, p, s) {
            continue;
        }
        for i in 0..DOCKS {
            if g.dock_used[i] != 0 {
                out.push(Action::new2(PLATFORM, Arg::Int(s as i32), Arg::Name(action::site_name(i))));
            }
        }
    }
    out
}

pub fn play_blue(g: &mut Game, r: &Rules, p: usize, card: Card) -> Res {
    g.hand[p][card as usize] -= 1;
    if g.hand[p][card as usize] == 0 {
        g.blue_kinds[p] &= !(1 << (card - BLUE0));
    }
    g.blue[p] -= 1;
    g.discard.push(card);
    let pc = p as i32;
    match card {
        CHISEL => {
            g.ask_place(CHISEL_PLACE, p, 0b1111, [pc, 2, 0, 0]);
        }
        LEVER => {
            g.ask_sail(LEVER_SAIL, p, 0b1111, [pc, 0, 0, 0]);
        }
        HAMMER => {
            if g.get_with_move {
                // Hammer gets stones "as the action": with Pyramid D the player may also
                // move the Imhotep figure (docs/rules.md §5.4).
                g.ask(HAMMER_GET, p, &[action::GET_ACTION, action::GET_MOVE], [pc, 0, 0, 0]);
            } else {
                hammer_get(g, r, action::GET_ACTION, p)?;
            }
        }
        SAIL => {
            let mut ships = 0u8;
            for s in 0..SHIPS {
                if sail_card_ship(g, s) {
                    ships |= 1 << s;
                }
            }
            g.ask_place(SAIL_PLACE, p, ships, [pc, 0, 0, 0]);
        }
        BARGE => {
            // Return 2 sled stones to the quarry, deliver 1 sled stone to a site (not the
            // Market: docs/rules.md §3.2).
            g.sled[p] -= 2;
            g.quarry[p] += 2;
            let opts: ArrayVec<Action, 4> =
                (1..5).map(|i| Action::new1(DELIVER, Arg::Name(action::site_name(i)))).collect();
            g.ask(BARGE_SITE, p, &opts, [pc, 0, 0, 0]);
        }
        LOADING_PLATFORM => {
            let opts = platform_options(g, p);
            g.ask(PLATFORM_SAIL, p, &opts, [pc, 0, 0, 0]);
        }
        _ => return Err(CoreError::illegal(format!("play: {} is no blue card", r.cards.names[card as usize]))),
    }
    Ok(())
}

/// Hammer: get new stones, then place 1 sled stone on a ship if a slot is free.
fn hammer_get(g: &mut Game, r: &Rules, a: Action, p: usize) -> Res {
    g.sled_to_capacity(p, g.get_stones);
    if a.has_args() {
        sites::on_get(g, r, p, a)?;
    }
    if g.sled[p] != 0 {
        // not optional (docs/rules.md §3.1): asked when a slot is free
        g.ask_place(HAMMER_PLACE, p, 0b1111, [p as i32, 0, 0, 0]);
    }
    Ok(())
}

fn place_one(g: &mut Game, a: Action, p: usize) {
    g.sled[p] -= 1;
    g.put_on_ship(p, a.n(0) as usize, a.n(1) as usize);
}

/// The answers to the blue cards' questions.
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a: Action, ctx: Context) -> Res {
    let p = ctx[0] as usize;
    match kind {
        CHISEL_PLACE => {
            // 2 sled stones onto ships, both on one ship or one each on two
            place_one(g, a, p);
            let left = ctx[1];
            if left > 1 {
                g.ask_place(CHISEL_PLACE, p, 0b1111, [p as i32, left - 1, 0, 0]);
            }
        }
        LEVER_SAIL => g.sail(r, p, a.n(0) as usize, a.site(1), true)?,
        HAMMER_GET => hammer_get(g, r, a, p)?,
        HAMMER_PLACE => place_one(g, a, p),
        SAIL_PLACE => {
            // place 1 sled stone, then sail that same ship
            place_one(g, a, p);
            g.ask_sail(SAIL_SAIL, p, 1 << a.n(0), [p as i32, 0, 0, 0]);
        }
        SAIL_SAIL => g.sail(r, p, a.n(0) as usize, a.site(1), false)?,
        BARGE_SITE => {
            g.sled[p] -= 1;
            g.schedule_delivery(p, a.site(0));
        }
        PLATFORM_SAIL => {
            // return 1 sled stone, sail a ship to an already taken dock
            g.sled[p] -= 1;
            g.quarry[p] += 1;
            g.sail(r, p, a.n(0) as usize, a.site(1), false)?;
        }
        _ => return Err(CoreError::illegal(format!("no answer for decision kind {kind}"))),
    }
    Ok(())
}

// ------------------------------------------------------------------------ game end
/// How many cards seat `p` holds.
pub fn held_total(g: &Game, p: usize) -> i32 {
    g.hand[p].iter().map(|&k| k as i32).sum()
}

/// Decorations, statues, unused blue cards, stone ornaments (docs/rules.md §2.5, 3).
pub fn score_game_end(g: &mut Game, r: &Rules) {
    let pts = &r.cards;
    for p in 0..g.n {
        if held_total(g, p) == 0 {
            continue;
        }
        for (j, site) in (PYRAMID..5).enumerate() {
            let k = g.hand[p][(PYRAMID_DECORATION as usize) + j] as i32;
            if k != 0 {
                let stones = sites::stones(g, site);
                g.score(p, SRC_CARD_DECORATION, k * (stones.div_euclid(pts.per_decoration)));
            }
        }
        let statues = pts.statues(g.hand[p][STATUE as usize] as i32);
        g.score(p, SRC_CARD_STATUE, statues);
        g.score(p, SRC_CARD_UNUSED_BLUE, g.blue[p] * pts.unused_blue);
        g.score(p, SRC_CARD_ORNAMENT, g.hand[p][STONE_ORNAMENT as usize] as i32 * g.sled[p]);
    }
}
