//! A learned policy for the root priors (the `-p` switch): each option's prior is
//! `softmax(w . features(option))` over the decision's options, where the features are the
//! greedy bot's price of the option and what kind of action it is; the weights are fitted
//! by tools/train_policy.py to the root visit shares of the core's own searches and kept in
//! imhotep_stats/data/search_policy.json (read once, at build time).

use std::sync::OnceLock;

use crate::action::{Action, GET, PASS, PLACE, PLAY, SAIL, SITE0};
use crate::game::Game;
use crate::kinds;

/// The features of an option, in the weights file's order.
pub const FEATURES: [&str; 18] = [
    "price",          // the greedy bot's price of a turn action (points)
    "price_progress", // the same times the share of the game played
    "price_sub",      // the greedy bot's price of a sub-decision's option
    "top",            // 1 for the options of the highest price
    "place",          // a turn's kinds of action (1 or 0)
    "get",
    "sail",
    "play",
    "pass",
    "place_progress", // the same times the share of the game played
    "get_progress",
    "sail_progress",
    "play_progress",
    "sail_market", // a sail's (or a sub-decision's) destination site
    "sail_pyramid",
    "sail_temple",
    "sail_burial",
    "sail_obelisk",
];
pub const K: usize = FEATURES.len();

const WEIGHTS_JSON: &str = include_str!("../../imhotep_stats/data/search_policy.json");

/// The fitted weights, checked against FEATURES.
pub fn weights() -> &'static [f64; K] {
    static W: OnceLock<[f64; K]> = OnceLock::new();
    W.get_or_init(|| parse_weights(WEIGHTS_JSON).expect("imhotep_stats/data/search_policy.json"))
}

/// `{"features": [names], "weights": [numbers]}` with the names of FEATURES in order.
pub fn parse_weights(text: &str) -> Result<[f64; K], String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("search_policy.json: {e}"))?;
    let names: Vec<&str> = v["features"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
    if names != FEATURES {
        return Err(format!("search_policy.json features: expected {FEATURES:?}, got {names:?}"));
    }
    let w: Vec<f64> = v["weights"].as_array().map(|a| a.iter().filter_map(|x| x.as_f64()).collect()).unwrap_or_default();
    w.try_into().map_err(|w: Vec<f64>| format!("search_policy.json weights: expected {K} numbers, got {}", w.len()))
}

/// The share of the game played (0 at the start, 1 at the end), as value.rs counts it.
fn progress(g: &Game) -> f64 {
    let rounds = g.rounds as f64;
    1.0 - (((g.rounds + 1) as f64 - g.round as f64 - g.sailed as f64 / 4.0) / rounds).clamp(0.0, 1.0)
}

/// The site an action names as its second argument (a sail's dock), if any.
fn dock(a: &Action) -> Option<usize> {
    a.name(1).filter(|&x| (SITE0..SITE0 + 5).contains(&x)).map(|x| (x - SITE0) as usize)
}

/// Each option's features, from the options of `g` and their greedy `prices` (in order).
pub fn features(g: &Game, prices: &[f64]) -> Vec<[f64; K]> {
    let t = progress(g);
    let turn = g.kind == kinds::TURN;
    let top = prices.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    g.options()
        .iter()
        .zip(prices)
        .map(|(a, &v)| {
            let mut f = [0.0; K];
            if turn {
                f[0] = v;
                f[1] = v * t;
            } else {
                f[2] = v;
            }
            f[3] = if v >= top - 1e-9 { 1.0 } else { 0.0 };
            if turn {
                let kind = [PLACE, GET, SAIL, PLAY, PASS].iter().position(|&k| k == a.kind);
                if let Some(k) = kind {
                    f[4 + k] = 1.0;
                    if k < 4 {
                        f[9 + k] = t;
                    }
                }
            }
            if let Some(s) = dock(a) {
                f[13 + s] = 1.0;
            }
            f
        })
        .collect()
}

/// The options' priors: the softmax of `w . features` over them.
pub fn priors_of(f: &[[f64; K]], w: &[f64; K]) -> Vec<f64> {
    let z: Vec<f64> = f.iter().map(|x| (0..K).map(|k| w[k] * x[k]).sum()).collect();
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - top).exp()).collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|v| v / total).collect()
}
