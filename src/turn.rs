//! The turn (docs/rules.md §2.2): its options, built as a list or counted and picked from
//! the state (a playout's: `Game::lazy_turns`), and its five actions.
//!
//! A turn drawn by index is played from the index itself: no `Action` is built to be read
//! back, and each action has one function, which the built option's path calls too.

use arrayvec::ArrayVec;

use crate::action::{self, Action, GET_ACTION, GET_MOVE, PASS_ACTION};
use crate::cards;
use crate::game::{end_turn, waits, Game, Res, Task, DOCKS, OPTIONS, SHIPS};
use crate::kinds::TURN;
use crate::rules::{Card, CoreError, Rules, BLUE0};
use crate::sites;

/// A turn's options by group, in the list's order: get (and Pyramid D's "get move"), a
/// place per open slot (when the sled has a stone), a sail per ready ship and free dock,
/// a play per playable blue card (`plays`: a mask, bit j for BLUE0 + j); none: pass.
/// `docks`: the free docks (a sail's index is ship by ship, then dock).
#[derive(Clone, Copy)]
pub(crate) struct Parts {
    gets: usize,
    places: usize,
    sails: usize,
    docks: usize,
    plays: u8,
}

impl Parts {
    #[inline]
    fn count(self) -> usize {
        (self.gets + self.places + self.sails + ones(self.plays)).max(1)
    }
}

impl Game {
    /// The number of options of this decision (a turn's counted from the state, without
    /// building them).
    pub fn option_count(&self) -> usize {
        if self.kind != TURN || !self.lazy_turns {
            return self.options.len();
        }
        self.turn_parts(self.to_move as usize).count()
    }

    #[inline]
    fn turn_parts(&self, p: usize) -> Parts {
        let sled = self.sled[p];
        let gets = if sled < self.sled_cap[p] && self.quarry[p] > 0 { 1 + self.get_with_move as usize } else { 0 };
        let places = if sled > 0 { self.ship_free as usize } else { 0 };
        let docks = ones(self.docks_free);
        let sails = ones(self.ships_ready) * docks;
        let plays = if self.blue[p] != 0 { cards::blue_playable(self, p) } else { 0 };
        Parts { gets, places, sails, docks, plays }
    }

    /// Option `i` of this decision (a turn's from the state, in `turn_options`' order).
    pub fn option_at(&self, i: usize) -> Action {
        if self.kind != TURN || !self.lazy_turns {
            return self.options[i];
        }
        let parts = self.turn_parts(self.to_move as usize);
        match self.turn_pick(parts, i) {
            Pick::Get => GET_ACTION,
            Pick::GetMove => GET_MOVE,
            Pick::Place(s, k) => Action::place(s, k),
            Pick::Sail(s, site) => Action::sail(s, site),
            Pick::Play(card) => action::play(&self.rules, card),
            Pick::Pass => PASS_ACTION,
        }
    }

    /// Turn option `i` from the turn's parts, in `turn_options`' order.
    #[inline]
    fn turn_pick(&self, parts: Parts, mut i: usize) -> Pick {
        if i < parts.gets {
            return if i == 0 { Pick::Get } else { Pick::GetMove };
        }
        i -= parts.gets;
        if i < parts.places {
            // open_mask's bits are the open slots, ship by ship, bow first
            let bit = nth_bit(self.open_mask, i);
            return Pick::Place(bit / 4, bit % 4);
        }
        i -= parts.places;
        if i < parts.sails {
            let docks = parts.docks;
            let s = nth_bit(u16::from(self.ships_ready), i / docks);
            return Pick::Sail(s, nth_bit(u16::from(self.docks_free), i % docks));
        }
        i -= parts.sails;
        if i < ones(parts.plays) {
            return Pick::Play(BLUE0 + nth_bit(u16::from(parts.plays), i) as Card);
        }
        Pick::Pass
    }

    /// Perform option `int(x * count)` for a draw 0 <= x < 1 (the random bot's pick,
    /// bots/random.rs `uniform`), without building a turn's options.
    pub fn apply_drawn(&mut self, x: f64) -> Res {
        let rules = self.rules.clone();
        self.apply_drawn_in(&rules, x)
    }

    /// [`Game::apply_drawn`] with the game's rules at hand (`r` is `self.rules`): a playout
    /// holds them once, not an Arc's count changed at every decision.
    pub fn apply_drawn_in(&mut self, r: &Rules, x: f64) -> Res {
        if self.kind != TURN || !self.lazy_turns {
            let i = drawn(x, self.options.len());
            return self.perform_in(r, self.options[i]);
        }
        // the turn's parts worked out once for the count and the pick
        let p = self.to_move as usize;
        let parts = self.turn_parts(p);
        let pick = self.turn_pick(parts, drawn(x, parts.count()));
        self.count_decision(r)?;
        self.kind = crate::kinds::NONE;
        play(self, r, p, pick)?;
        self.advance(r)
    }

    /// The legal turn actions (docs/rules.md §2.2), in a fixed order: get, place, sail, cards.
    pub(crate) fn turn_options(&mut self, r: &Rules, p: usize) {
        // built in place: the options are the game's own row (no list copied a turn)
        self.options.clear();
        let sled = self.sled[p];
        if sled < self.sled_cap[p] && self.quarry[p] > 0 {
            self.options.push(GET_ACTION);
            if self.get_with_move {
                self.options.push(GET_MOVE);
            }
        }
        if sled > 0 {
            push_places(&mut self.options, self.open_mask, 0b1111);
        }
        push_sails(&mut self.options, self.ships_ready, self.docks_free);
        if self.blue[p] != 0 {
            let mask = cards::blue_playable(self, p);
            for j in 0..6u8 {
                if mask >> j & 1 == 1 {
                    self.options.push(action::play(r, BLUE0 + j));
                }
            }
        }
        if self.options.is_empty() {
            self.options.push(PASS_ACTION);
        }
    }
}

/// A turn action, read from an option or picked by index.
#[derive(Clone, Copy)]
enum Pick {
    Get,
    GetMove,
    /// ship, slot
    Place(usize, usize),
    /// ship, site
    Sail(usize, usize),
    Play(Card),
    Pass,
}

/// A turn action (docs/rules.md §2.2) given as an option.
pub(crate) fn turn(g: &mut Game, r: &Rules, p: usize, a: Action) -> Res {
    let pick = match a.kind {
        action::PLACE => Pick::Place(a.n(0) as usize, a.n(1) as usize),
        action::GET if a.has_args() => Pick::GetMove,
        action::GET => Pick::Get,
        action::PASS => Pick::Pass,
        action::SAIL => Pick::Sail(a.n(0) as usize, a.site(1)),
        action::PLAY => Pick::Play(r.card_arg(&a, 0)),
        _ => return Err(CoreError::illegal(format!("unknown turn action {}", a.text(&r.names)))),
    };
    play(g, r, p, pick)
}

/// Simple actions end the turn at once; the others schedule the end of the turn under the
/// tasks they start. Always inlined: a playout's turn is this and the pick, one call.
#[inline(always)]
fn play(g: &mut Game, r: &Rules, p: usize, pick: Pick) -> Res {
    match pick {
        Pick::Place(s, k) => {
            g.passes = 0;
            g.sled[p] -= 1;
            g.put_on_ship(p, s, k);
            end_turn(g);
        }
        Pick::Get | Pick::GetMove => {
            g.passes = 0;
            g.sled_to_capacity(p, g.get_stones);
            if let Pick::GetMove = pick {
                sites::on_get(g, r, p, GET_MOVE)?;
            }
            end_turn(g);
        }
        Pick::Pass => {
            g.passes += 1;
            end_turn(g);
        }
        Pick::Sail(s, site) => {
            g.passes = 0;
            let depth = g.stack.len();
            g.sail(r, p, s, site, false)?;
            end_turn_after(g, depth);
        }
        Pick::Play(card) => {
            g.passes = 0;
            let depth = g.stack.len();
            cards::play_blue(g, r, p, card)?;
            end_turn_after(g, depth);
        }
    }
    Ok(())
}

/// The turn ends after the work done since the stack was `depth` deep: now, or under it.
#[inline]
fn end_turn_after(g: &mut Game, depth: usize) {
    if waits(g, depth) {
        g.stack.insert(depth, Task::EndTurn);
    } else {
        end_turn(g);
    }
}

/// The place actions of the open slots in `open` (Game.open_mask) of the ships in `ships`,
/// ship by ship, bow first.
// always inlined: each caller's mask of ships is then known where the loop runs
#[inline(always)]
pub(crate) fn push_places<const N: usize>(out: &mut ArrayVec<Action, N>, open: u16, ships: u8) {
    for s in 0..SHIPS {
        if ships >> s & 1 == 0 {
            continue;
        }
        let bits = open >> (4 * s) & 15;
        for k in 0..4 {
            if bits >> k & 1 == 1 {
                out.push(Action::place(s, k));
            }
        }
    }
}

/// The sail actions of the ships in `ready` to the docks in `free`, ship by ship, each to
/// its docks in site order.
// always inlined: each caller's mask of ships is then known where the loop runs
#[inline(always)]
pub(crate) fn push_sails<const N: usize>(out: &mut ArrayVec<Action, N>, ready: u8, free: u8) {
    if free == 0 {
        return;
    }
    for s in 0..SHIPS {
        if ready >> s & 1 == 0 {
            continue;
        }
        for i in 0..DOCKS {
            if free >> i & 1 == 1 {
                out.push(Action::sail(s, i));
            }
        }
    }
}

/// `int(x * n)` for a draw 0 <= x < 1 and n <= OPTIONS options (as 32-bit numbers: the
/// same value, without a 64-bit integer's conversions to and from a float).
#[inline]
pub(crate) fn drawn(x: f64, n: usize) -> usize {
    debug_assert!(n <= OPTIONS);
    (x * f64::from(n as u32)) as u32 as usize
}

/// The set bits of each byte: a turn's option counts are read from small masks at every
/// decision of a playout, and the build targets no popcount instruction.
const ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 1;
    while b < 256 {
        t[b] = t[b >> 1] + (b & 1) as u8;
        b += 1;
    }
    t
};

/// The position of each byte's set bit i (by byte, then i; 8 where the byte has no bit i).
const SELECT: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][i] = bit as u8;
                i += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The set bits of a byte.
#[inline]
fn ones(bits: u8) -> usize {
    ONES[bits as usize] as usize
}

/// The position of set bit `i` of `bits` (0: the lowest; `bits` has more than i set bits).
#[inline]
fn nth_bit(bits: u16, i: usize) -> usize {
    let low = (bits & 0xff) as usize;
    let below = ONES[low] as usize;
    if i < below {
        SELECT[low][i] as usize
    } else {
        8 + SELECT[(bits >> 8) as usize][(i - below) & 7] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bit_tables_agree_with_counting_bit_by_bit() {
        for bits in 0..=u16::MAX {
            if bits <= 0xff {
                assert_eq!(ones(bits as u8), bits.count_ones() as usize);
            }
            let mut rest = bits;
            for i in 0..bits.count_ones() as usize {
                assert_eq!(nth_bit(bits, i), rest.trailing_zeros() as usize, "bit {i} of {bits:#b}");
                rest &= rest - 1;
            }
        }
    }
}
