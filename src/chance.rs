//! Chance (engine/chance.py): a stream per purpose, seeded by `"{seed}/{purpose}"` only,
//! and the shuffles the engine draws with.
//!
//! (The spine's minimal version, the signatures the engine calls; C1 owns this module.)

use crate::stream::Stream;

/// The chance stream of one purpose of the game seeded `seed` (the seed as Python's `str`).
pub fn stream(seed: &str, purpose: &str) -> Stream {
    Stream::from_text(&format!("{seed}/{purpose}"))
}

/// engine/chance.py `fast_shuffle`: order by uniform keys drawn in order (`random()` per
/// item), ties keeping the original order (a stable sort).
pub fn fast_shuffle<T: Copy>(rng: &mut Stream, items: &mut [T]) {
    let n = items.len();
    let mut keyed: Vec<(f64, usize)> = (0..n).map(|i| (rng.random(), i)).collect();
    keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let old: Vec<T> = items.to_vec();
    for (k, &(_, i)) in keyed.iter().enumerate() {
        items[k] = old[i];
    }
}

/// engine/chance.py `shuffle`: Fisher-Yates from `random()`.
pub fn shuffle<T>(rng: &mut Stream, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = (rng.random() * (i + 1) as f64) as usize;
        items.swap(i, j);
    }
}
