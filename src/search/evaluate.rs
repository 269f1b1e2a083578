//! The score of a truncated rollout: each seat's estimated final
//! points (points so far, the game-end scoring of the position as it stands, the stones
//! still to deliver), and the win share the tree is credited with.

#![allow(clippy::needless_range_loop)] // seats by index

use crate::game::{Game, SEATS, SHIPS};
use crate::rules::CoreError;

/// Worth of the first stone on an empty sled, in points (as the greedy bot prices it).
pub const STONE: f64 = 1.0;
/// Each further stone on the sled is worth this much of the previous one (greedy's DECAY).
pub const DECAY: f64 = 0.55;

/// Each seat's estimated final points. A finished game: its final totals. Otherwise the
/// game is spent (its game-end scoring is run on it): pass a copy you throw away.
pub fn estimate_points(g: &mut Game) -> Result<[f64; SEATS], CoreError> {
    let n = g.n;
    let mut out = [0.0; SEATS];
    if g.over {
        for p in 0..n {
            out[p] = g.totals[p] as f64;
        }
        return Ok(out);
    }
    let rounds = g.rounds as f64;
    let left = f64::max(0.0, ((g.rounds + 1) as f64 - g.round as f64 - g.sailed as f64 / 4.0) / rounds);
    let mut stones = [0.0; SEATS];
    for s in 0..SHIPS {
        for &o in g.ship_slots(s) {
            if o >= 0 {
                stones[o as usize] += STONE;
            }
        }
    }
    for p in 0..n {
        let mut v = 0.0;
        let mut w = STONE * left;
        for _ in 0..g.sled[p] {
            v += w;
            w *= DECAY;
        }
        stones[p] += v;
    }
    g.score_game_end_now()?;
    for p in 0..n {
        out[p] = g.totals[p] as f64 + stones[p];
    }
    Ok(out)
}

/// The win share of the leader(s) by points, then stones on the sled (engine/result.py
/// `best_seats` and `win_shares`, without a list).
pub fn winner_shares(pts: &[f64], sled: &[i32]) -> [f64; SEATS] {
    let mut best = pts[0];
    let mut most = sled[0];
    for p in 1..pts.len() {
        let x = pts[p];
        if x > best || (x == best && sled[p] > most) {
            best = x;
            most = sled[p];
        }
    }
    let k = (0..pts.len()).filter(|&p| pts[p] == best && sled[p] == most).count();
    let share = 1.0 / k as f64;
    let mut out = [0.0; SEATS];
    for p in 0..pts.len() {
        if pts[p] == best && sled[p] == most {
            out[p] = share;
        }
    }
    out
}

/// Each seat's win share by `estimate_points` (ties: more stones on the sled, then a split).
/// Spends an unfinished `g` like `estimate_points`.
pub fn estimate_shares(g: &mut Game) -> Result<[f64; SEATS], CoreError> {
    let sled = g.sled;
    let n = g.n;
    let pts = estimate_points(g)?;
    Ok(winner_shares(&pts[..n], &sled[..n]))
}
