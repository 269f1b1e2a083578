//! A batch of one cell's games played in the core (sim/batches.py `simulate`): the games
//! [start, stop) set up as engine/play.py (src/play.rs), the lineup of bot specs rotated
//! through the seats as `Cell.seat_bots`, the outcome as columns, one row per game and seat
//! in (game, seat) order; on request each seat's CPU seconds in its bot (`ladder play
//! --timed`).

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::bots::play::{Bot, Spec};
use crate::game::SEATS;
use crate::play::{bot_rng, new_game, play_random};
use crate::result::result_of;
use crate::rules::{CoreError, Rules, SOURCES};
use crate::stream::Stream;

/// Bots by seat in game `game`: seat s gets table[(s + game) % m], the lineup repeated to
/// m = max(len(lineup), players) entries (config `Cell.seat_bots`).
pub fn seat_bots<T>(lineup: &[T], players: usize, game: u64) -> ArrayVec<&T, SEATS> {
    let k = lineup.len();
    let m = k.max(players) as u64;
    (0..players).map(|s| &lineup[(((s as u64 + game) % m) as usize) % k]).collect()
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
    /// per game, the options chosen in order (their transcript texts), when asked for
    pub actions: Vec<Vec<String>>,
    /// search iterations the seat's bot ran in the game (0 for a bot that does not search)
    pub searched: Vec<i64>,
    /// with [`Record::cpu`]: the seat's CPU seconds in its bot over the game
    pub cpu: Vec<f64>,
}

/// What a batch records beside the outcome.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// each game's chosen options' texts (`Columns::actions`)
    pub actions: bool,
    /// each seat's CPU seconds in its bot (`Columns::cpu`): the thread's CPU time around
    /// every decision its bot makes
    pub cpu: bool,
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): what the thread ran,
/// so neither the clock nor other work on the machine counts.
#[cfg(unix)]
pub fn thread_cpu_ns() -> Result<u64, CoreError> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: the call writes only `t`, which outlives it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) }; // writes only `t`
    if rc != 0 {
        return Err(CoreError::value("timing a batch: the thread's CPU clock cannot be read".into()));
    }
    Ok(t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

/// No thread CPU clock here: a timed batch is refused.
#[cfg(not(unix))]
pub fn thread_cpu_ns() -> Result<u64, CoreError> {
    Err(CoreError::value("timing a batch needs a thread CPU clock (a unix system)".into()))
}

/// Play games [start, stop) of a cell with `players` seats and this lineup (a fresh bot
/// per seat and game, as sim/batches.py); `record`: what to keep beside the outcome (the
/// games are the same whatever it asks).
#[allow(clippy::too_many_arguments)]
pub fn play_batch(
    rules: &Arc<Rules>,
    players: usize,
    root: &str,
    (start, stop): (u64, u64),
    lineup: &[Spec],
    expansion: Option<bool>,
    prophecies: bool,
    record: Record,
) -> Result<Columns, CoreError> {
    let Record { actions, cpu } = record;
    if lineup.is_empty() {
        return Err(CoreError::value("a batch needs a lineup of at least one bot".into()));
    }
    let rows = (stop.saturating_sub(start)) as usize * players;
    let cards = rules.cards.names.len();
    let mut c = Columns {
        pts: vec![Vec::with_capacity(rows); SOURCES.len()],
        took: vec![Vec::with_capacity(rows); cards],
        ..Columns::default()
    };
    // random bots only, nothing recorded: src/play.rs's random game (turns drawn, never built)
    let blind = !actions && !cpu && lineup.iter().all(Spec::draws_blind);
    for game in start..stop {
        let mut searched = [0i64; SEATS];
        let mut spent = [0u64; SEATS];
        let g = if blind {
            play_random(rules, players, root, game, expansion, prophecies)?
        } else {
            let mut g = new_game(rules, players, root, game, expansion, prophecies)?;
            let mut rngs: ArrayVec<Stream, SEATS> = (0..players).map(|p| bot_rng(root, game, p)).collect();
            let mut bots: ArrayVec<Bot, SEATS> = seat_bots(lineup, players, game).into_iter().map(Spec::bot).collect();
            let mut chosen = Vec::new();
            while !g.over {
                let p = g.to_move as usize;
                let i = if cpu {
                    let t = thread_cpu_ns()?;
                    let i = bots[p].choose(&g, &mut rngs[p])?;
                    spent[p] += thread_cpu_ns()?.saturating_sub(t);
                    i
                } else {
                    bots[p].choose(&g, &mut rngs[p])?
                };
                if actions {
                    chosen.push(g.options()[i].text(&rules.names));
                }
                g.apply_index(i)?;
            }
            if actions {
                c.actions.push(chosen);
            }
            for (p, b) in bots.iter().enumerate() {
                searched[p] = b.searched() as i64;
            }
            g
        };
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
        c.searched.extend_from_slice(&searched[..players]);
        if cpu {
            c.cpu.extend(spent[..players].iter().map(|&ns| ns as f64 * 1e-9));
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
        let seats = |lineup: &[i32], players, game| -> Vec<i32> {
            seat_bots(lineup, players, game).into_iter().copied().collect()
        };
        assert_eq!(seats(&[0, 1, 2], 4, 0), [0, 1, 2, 0]);
        assert_eq!(seats(&[0, 1, 2], 4, 1), [1, 2, 0, 0]);
        assert_eq!(seats(&[0, 1], 3, 2), [0, 0, 1]);
        assert_eq!(seats(&[0, 1, 2, 3, 4], 2, 3), [3, 4]);
    }
}
