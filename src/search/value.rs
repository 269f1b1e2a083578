//! A learned value for truncated rollouts (the `-v` switch): each seat's win share as a
//! conditional logit over the seats, `softmax(w . features(seat))`, with weights fitted by
//! tools/train_value.py to the winners of games the core plays and kept in
//! imhotep_stats/data/search_value.json (read once, at build time).

#![allow(clippy::needless_range_loop)] // seats by index, as evaluate.rs reads them

use std::sync::OnceLock;

use crate::game::{Game, SEATS};
use crate::rules::CoreError;
use crate::search::evaluate::estimate_points;

/// The features of a seat, in the weights file's order.
pub const FEATURES: [&str; 8] = [
    "estimate",          // evaluate.rs's estimated final points
    "estimate_progress", // the same times the share of the game played
    "points",            // points so far
    "sled_left",         // stones on the sled times the share of the game left
    "quarry_left",       // stones in the quarry times the share of the game left
    "ship_stones",       // stones on ships not yet unloaded
    "hand",              // cards held
    "cards_taken",       // cards taken so far
];
pub const K: usize = FEATURES.len();

const WEIGHTS_JSON: &str = include_str!("../../imhotep_stats/data/search_value.json");

/// The fitted weights, checked against FEATURES.
pub fn weights() -> &'static [f64; K] {
    static W: OnceLock<[f64; K]> = OnceLock::new();
    W.get_or_init(|| parse_weights(WEIGHTS_JSON).expect("imhotep_stats/data/search_value.json"))
}

/// `{"features": [names], "weights": [numbers]}` with the names of FEATURES in order.
pub fn parse_weights(text: &str) -> Result<[f64; K], String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("search_value.json: {e}"))?;
    let names: Vec<&str> = v["features"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
    if names != FEATURES {
        return Err(format!("search_value.json features: expected {FEATURES:?}, got {names:?}"));
    }
    let w: Vec<f64> = v["weights"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
    w.try_into().map_err(|w: Vec<f64>| format!("search_value.json weights: expected {K} numbers, got {}", w.len()))
}

/// The share of the game still to play (1 at the start, 0 at the end), as evaluate.rs
/// discounts stones by it.
fn left(g: &Game) -> f64 {
    let rounds = g.rounds as f64;
    (((g.rounds + 1) as f64 - g.round as f64 - g.sailed as f64 / 4.0) / rounds).clamp(0.0, 1.0)
}

/// Each seat's features. Spends an unfinished `g` (its game-end scoring is run on it, as
/// `estimate_points` does): pass a copy you throw away.
pub fn features(g: &mut Game) -> Result<[[f64; K]; SEATS], CoreError> {
    let n = g.n;
    let rest = left(g);
    let mut out = [[0.0; K]; SEATS];
    for p in 0..n {
        out[p][2] = g.totals[p] as f64;
        out[p][3] = g.sled[p] as f64 * rest;
        out[p][4] = g.quarry[p] as f64 * rest;
        out[p][5] = g.ship_stones_of(p) as f64;
        out[p][6] = g.hand[p].iter().map(|&c| c as f64).sum();
        out[p][7] = g.cards_taken[p] as f64;
    }
    let est = estimate_points(g)?;
    for p in 0..n {
        out[p][0] = est[p];
        out[p][1] = est[p] * (1.0 - rest);
    }
    Ok(out)
}

/// Each seat's win share by the conditional logit over `n` seats' features.
pub fn shares_of(f: &[[f64; K]], w: &[f64; K]) -> [f64; SEATS] {
    let n = f.len();
    let mut z = [0.0; SEATS];
    for p in 0..n {
        z[p] = (0..K).map(|k| w[k] * f[p][k]).sum();
    }
    let top = z[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut out = [0.0; SEATS];
    let mut total = 0.0;
    for p in 0..n {
        out[p] = (z[p] - top).exp();
        total += out[p];
    }
    for p in 0..n {
        out[p] /= total;
    }
    out
}

/// Each seat's win share by the learned value; a finished game's own shares are not this
/// function's business (the search credits those). Spends an unfinished `g`.
pub fn value_shares(g: &mut Game) -> Result<[f64; SEATS], CoreError> {
    let n = g.n;
    let f = features(g)?;
    Ok(shares_of(&f[..n], weights()))
}
