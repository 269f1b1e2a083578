//! The greedy bot and its personas: one-step look-ahead over a cheap value model (ties
//! broken at 1e-9 by the bot's stream). Its floating-point operations keep their order:
//! the recorded games (tests/fingerprints.json, docs/engine.md "Same games") depend on it.
//!
//! `context` (Ctx: what a bot knows and caches per game and seat), `cards` (card pricing),
//! `sites/` (one module per site), `turn` (the turn's actions and the blue cards),
//! `prophecies`; here the bot and the sub-decisions.
//!
//! The bot reads the `Game` but only its public fields (what the seat's view shows,
//! engine/view.py): counters, ships, docks, hands, the sites' public state; never a deck's
//! order nor a face-down card.

#![allow(clippy::needless_range_loop)] // the evaluators index seats and positions together

pub mod cards;
pub mod context;
mod fast_map;
pub mod prophecies;
pub mod sites;
pub mod turn;

use arrayvec::ArrayVec;

use crate::action::Action;
use crate::bots::weights::Weights;
use crate::game::Game;
use crate::kinds::{self, Kind};
use crate::stream::Stream;
use context::Ctx;
use sites::POS;

/// A greedy-family bot for one game: a context per seat it plays (built at first sight).
/// Use a fresh one (or `new_game`) for every game.
pub struct Greedy {
    pub weights: Weights,
    ctx: [Option<Box<Ctx>>; 4],
}

impl Greedy {
    pub fn new(weights: Weights) -> Greedy {
        Greedy { weights, ctx: [None, None, None, None] }
    }

    /// A built-in persona by name ("greedy", "balanced", "pyramid", ...).
    pub fn persona(name: &str) -> Option<Greedy> {
        Weights::persona(name).map(Greedy::new)
    }

    /// Forget the contexts (the next game is another).
    pub fn new_game(&mut self) {
        self.ctx = [None, None, None, None];
    }

    /// The context of a seat (built at its first decision), for tests and tools.
    pub fn context_of(&self, seat: usize) -> Option<&Ctx> {
        self.ctx[seat].as_deref()
    }

    fn context(&mut self, g: &Game, seat: usize) -> Result<&mut Ctx, String> {
        if self.ctx[seat].is_none() {
            self.ctx[seat] = Some(Box::new(Ctx::new(self.weights, g, seat)?));
        }
        Ok(self.ctx[seat].as_mut().unwrap())
    }

    /// The index of the option the seat to move takes in `g.options()`.
    pub fn choose(&mut self, g: &Game, rng: &mut Stream) -> Result<usize, String> {
        let seat = g.to_move as usize;
        let legal = g.options();
        let c = self.context(g, seat)?;
        if legal.len() == 1 {
            return Ok(0);
        }
        c.begin(g);
        if g.kind == kinds::TURN {
            return turn::turn_fast(c, g, legal, rng);
        }
        let scores = site_scores(c, g, g.kind, legal)?;
        Ok(turn::pick(&scores, rng))
    }

    /// Every legal action's price on one scale (the change in my objective), for the seat
    /// to move: the search's root priors.
    pub fn scores(&mut self, g: &Game) -> Result<Vec<f64>, String> {
        let seat = g.to_move as usize;
        let legal = g.options();
        let c = self.context(g, seat)?;
        c.begin(g);
        if g.kind == kinds::TURN {
            return turn::turn(c, g, legal);
        }
        site_scores(c, g, g.kind, legal)
    }
}

/// Decisions whose prices are card values or ships only (no site refresh).
fn no_refresh(kind: Kind) -> bool {
    use kinds::*;
    matches!(kind, MARKET_PICK | MARKET_KEEP | TEMPLE_KEEP | CHISEL_PLACE | HAMMER_PLACE | PROPHECY)
}

fn site_scores(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    use kinds::*;
    if !no_refresh(kind) {
        c.touch(g);
    }
    match kind {
        HAMMER_GET => {
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                out.push(if a.has_args() { turn::get_extra(c, g, a)? } else { 0.0 });
            }
            Ok(out)
        }
        PROPHECY => prophecies::prophecy_scores(c, g, legal),
        CHISEL_PLACE | HAMMER_PLACE => {
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                let v = c.slot_gains(a.n(0) as usize)[a.n(1) as usize];
                out.push(v.ok_or("place: a slot no stone can take")?);
            }
            Ok(out)
        }
        SAIL_PLACE => {
            let me = c.me;
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                let (s, k) = (a.n(0) as usize, a.n(1) as usize);
                let mut slots = c.slots[s].clone();
                slots[k] = me as i8;
                let owners: ArrayVec<usize, 4> = slots.iter().filter(|&&o| o >= 0).map(|&o| o as usize).collect();
                let mut best: Option<f64> = None;
                for x in 0..c.free.len() {
                    let i = c.free[x];
                    let v = sites::batch_obj(c, g, i, &owners);
                    if best.is_none() || v > best.unwrap() {
                        best = Some(v);
                    }
                }
                out.push(best.unwrap_or(0.0));
            }
            Ok(out)
        }
        SAIL_SAIL | LEVER_SAIL | PLATFORM_SAIL => {
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                let owners: ArrayVec<usize, 4> =
                    c.slots[a.n(0) as usize].iter().filter(|&&o| o >= 0).map(|&o| o as usize).collect();
                let i = a.site(1);
                out.push(if kind == LEVER_SAIL {
                    turn::lever_value(c, g, &owners, i)
                } else {
                    sites::batch_obj(c, g, i, &owners)
                });
            }
            Ok(out)
        }
        LEVER_UNLOAD => {
            let s = (0..4)
                .find(|&s| c.dock[s] >= 0 && c.slots[s].iter().any(|&o| o >= 0))
                .ok_or("lever_unload: no docked ship with stones")?;
            let slots = c.slots[s].clone();
            let site = c.dock[s] as usize;
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                let k = a.n(0) as usize;
                let mut order: ArrayVec<usize, 4> = ArrayVec::new();
                order.push(slots[k] as usize);
                for (j, &o) in slots.iter().enumerate() {
                    if o >= 0 && j != k {
                        order.push(o as usize);
                    }
                }
                out.push(sites::batch_obj(c, g, site, &order));
            }
            Ok(out)
        }
        BARGE_SITE => {
            let me = c.me;
            let mut out = Vec::with_capacity(legal.len());
            for a in legal {
                let i = a.site(0);
                sites::ensure(c, g, i);
                out.push(c.evals[i].obj[me * POS]);
            }
            Ok(out)
        }
        _ => sites::decide(c, g, kind, legal),
    }
}
