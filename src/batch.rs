//! A batch of one cell's games played in the core (sim/batches.py `simulate`): the games
//! [start, stop) seeded as engine/play.py, the lineup rotated through the seats as
//! `Cell.seat_bots`, the outcome as columns, one row per game and seat in (game, seat) order.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::game::{Game, Setup, SEATS};
use crate::play::{bot_rng, chance_seed};
use crate::result::result_of;
use crate::rules::{CoreError, Rules, SOURCES};
use crate::stream::Stream;

/// The bots the core plays a batch with. A bot joins here (and in sim/core_batch.py's
/// `CORE_BOTS`) once a differential check proves it plays Python's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreBot {
    Random,
}

impl CoreBot {
    pub fn from_name(name: &str) -> Result<Self, CoreError> {
        match name {
            "random" => Ok(CoreBot::Random),
            _ => Err(CoreError::Value(format!("bot {name:?} is not played by the core (it plays: random)"))),
        }
    }

    /// One decision of game `g` for the seat to move, from that seat's stream.
    #[inline]
    fn play(self, g: &mut Game, rng: &mut Stream) -> Result<(), CoreError> {
        match self {
            // bots/base.py `uniform`: legal[int(rng.random() * len(legal))]
            CoreBot::Random => g.apply_drawn(rng.random()),
        }
    }
}

/// Bots by seat in game `game`: seat s gets table[(s + game) % m], the lineup repeated to
/// m = max(len(lineup), players) entries (config `Cell.seat_bots`).
pub fn seat_bots<T: Copy>(lineup: &[T], players: usize, game: u64) -> ArrayVec<T, SEATS> {
    let k = lineup.len();
    let m = k.max(players) as u64;
    (0..players).map(|s| lineup[(((s as u64 + game) % m) as usize) % k]).collect()
}

/// What a batch sends back: per row (game, seat), the outcome's fields.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Columns {
    pub game: Vec<i64>,
    pub seat: Vec<i32>,
    pub score: Vec<i32>,
    pub rank: Vec<i32>,
    pub win_share: Vec<f64>,
    pub sled: Vec<i32>,
    pub decisions: Vec<i32>,
    pub lead_changes: Vec<i32>,
    pub margin: Vec<i32>,
    /// points by source, SOURCES' order
    pub pts: Vec<Vec<i32>>,
    /// points scored in round r (index r - 1), for the board's rounds
    pub rounds: Vec<Vec<i32>>,
    pub round_end: Vec<i32>,
    /// cards taken, by card code (Rules.cards.names)
    pub took: Vec<Vec<i32>>,
}

/// Play games [start, stop) of a cell with `players` seats and this lineup.
pub fn play_batch(
    rules: &Arc<Rules>,
    players: usize,
    root: &str,
    (start, stop): (u64, u64),
    lineup: &[CoreBot],
    expansion: Option<bool>,
    prophecies: bool,
) -> Result<Columns, CoreError> {
    if lineup.is_empty() {
        return Err(CoreError::Value("a batch needs a lineup of at least one bot".into()));
    }
    let rows = (stop.saturating_sub(start)) as usize * players;
    let cards = rules.cards.names.len();
    let mut c = Columns {
        pts: vec![Vec::with_capacity(rows); SOURCES.len()],
        took: vec![Vec::with_capacity(rows); cards],
        ..Columns::default()
    };
    for game in start..stop {
        let setup = Setup {
            players,
            seed: chance_seed(root, game),
            expansion,
            prophecies,
            no_events: false,
            ..Setup::default()
        };
        let mut g = Box::new(Game::new(rules.clone(), &setup)?);
        g.lazy_turns = true; // the turns' options drawn from the state, never built
        let bots = seat_bots(lineup, players, game);
        let mut rngs: ArrayVec<Stream, SEATS> = (0..players).map(|p| bot_rng(root, game, p)).collect();
        while !g.over {
            let p = g.to_move as usize;
            bots[p].play(&mut g, &mut rngs[p])?;
        }
        let r = result_of(&g)?;
        let rounds = r.by_round[0].len() - 1;
        if c.rounds.is_empty() {
            c.rounds = vec![Vec::with_capacity(rows); rounds];
        }
        for p in 0..players {
            c.game.push(game as i64);
            c.seat.push(p as i32);
            c.score.push(r.totals[p]);
            c.rank.push(r.ranks[p] as i32);
            c.win_share.push(r.win_share[p]);
            c.sled.push(r.sled[p]);
            c.decisions.push(r.decisions as i32);
            c.lead_changes.push(r.lead_changes as i32);
            c.margin.push(r.margin);
            for (s, col) in c.pts.iter_mut().enumerate() {
                col.push(r.by_source[p][s]);
            }
            for (k, col) in c.rounds.iter_mut().enumerate() {
                col.push(r.by_round[p][k]);
            }
            c.round_end.push(r.by_round[p][rounds]);
            for (card, col) in c.took.iter_mut().enumerate() {
                col.push(i32::from(r.took[p][card]));
            }
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lineup_rotates_as_cell_seat_bots() {
        // config Cell.seat_bots: a 3-bot lineup at 4 players is the table [a, b, c, a]
        assert_eq!(seat_bots(&[0, 1, 2], 4, 0).as_slice(), &[0, 1, 2, 0]);
        assert_eq!(seat_bots(&[0, 1, 2], 4, 1).as_slice(), &[1, 2, 0, 0]);
        assert_eq!(seat_bots(&[0, 1], 3, 2).as_slice(), &[0, 0, 1]);
        assert_eq!(seat_bots(&[0, 1, 2, 3, 4], 2, 3).as_slice(), &[3, 4]);
    }

    #[test]
    fn only_proved_bots_play_in_the_core() {
        assert_eq!(CoreBot::from_name("random").unwrap(), CoreBot::Random);
        assert!(CoreBot::from_name("greedy").is_err());
    }
}
