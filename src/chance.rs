//! Chance: every random outcome of a game comes from a stream of its own
//! purpose, seeded by `"{seed}/{purpose}"` only (the seed as Python's `str` gives it), so no
//! outcome depends on how another purpose consumed its draws. The shuffles the engine draws
//! with: `fast_shuffle` (the deal and the reshuffle), `shuffle`, `deal`, `redeal`, `pooled`
//! (dealing hidden things anew). Pins, pick and the pinned reshuffles are the game's
//! (game.rs `chance_pick`, `reshuffle`, `check_used`), with the engine's messages.

use arrayvec::ArrayVec;

use crate::stream::{Stream, StreamError};

/// The setup outcomes a caller may pin, and what each one lists.
pub const PINNABLE: [(&str, &str); 3] = [
    ("scaffold", "Pyramid C's scaffold tiles in play, by number, in the order they are turned up"),
    ("tomb", "Burial Chamber D's tomb tokens, in the order they are turned up"),
    ("prophecies", "the prophecy cards in play"),
];

/// What a pinned outcome lists ("" for a name that is not pinnable).
pub fn pin_lists(purpose: &str) -> &'static str {
    PINNABLE.iter().find(|(p, _)| *p == purpose).map_or("", |(_, what)| what)
}

/// The chance stream of one purpose of the game seeded `seed` (the seed as Python's `str`).
pub fn stream(seed: &str, purpose: &str) -> Stream {
    let mut rng = Stream::zeroed();
    rng.seed_text(&[seed.as_bytes(), b"/", purpose.as_bytes()]);
    rng
}

/// `fast_shuffle`: order by `random()` keys drawn in order (ties keep the
/// original order, as Python's stable sort does).
///
/// A key is sorted as its 53 bits (`random()` is that whole number over 2^53, so the order
/// is the floats' order) with the item's index below them: equal draws stay in their order
/// and one unstable sort of integers does.
pub fn fast_shuffle<T: Copy>(rng: &mut Stream, items: &mut [T]) {
    const INDEX_BITS: u32 = 11;
    assert!(items.len() <= 1 << INDEX_BITS, "fast_shuffle: at most 2048 items (a deck holds game::DECK)");
    let mut keys: ArrayVec<u64, { 1 << INDEX_BITS }> = ArrayVec::new();
    for i in 0..items.len() {
        keys.push(rng.random_bits53() << INDEX_BITS | i as u64);
    }
    keys.sort_unstable();
    let old: ArrayVec<T, { 1 << INDEX_BITS }> = items.iter().copied().collect();
    for (slot, &k) in items.iter_mut().zip(&keys) {
        *slot = old[(k & ((1 << INDEX_BITS) - 1)) as usize];
    }
}

/// `shuffle`: Fisher-Yates from `random()` (`j = int(x * (i + 1))`).
pub fn shuffle<T>(rng: &mut Stream, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = (rng.random() * (i + 1) as f64) as usize;
        items.swap(i, j);
    }
}

/// `pooled`: the places' items in sorted order.
pub fn pooled<T: Ord + Clone>(places: &[Vec<T>]) -> Vec<T> {
    let mut pool: Vec<T> = places.iter().flatten().cloned().collect();
    pool.sort();
    pool
}

/// `deal`: shuffle `pool` and deal it into `places`, each keeping its size.
pub fn deal<T: Clone>(rng: &mut Stream, pool: &mut [T], places: &mut [Vec<T>]) -> Result<(), StreamError> {
    let n: usize = places.iter().map(Vec::len).sum();
    if n != pool.len() {
        return Err(StreamError(format!("deal: {} items for places of {n}", pool.len())));
    }
    shuffle(rng, pool);
    let mut it = pool.iter();
    for place in places.iter_mut() {
        for slot in place.iter_mut() {
            // the counts agree (checked above)
            *slot = it.next().expect("deal: counted").clone();
        }
    }
    Ok(())
}

/// `redeal`: pool the places' items, shuffle, deal back.
pub fn redeal<T: Ord + Clone>(rng: &mut Stream, places: &mut [Vec<T>]) {
    let mut pool = pooled(places);
    deal(rng, &mut pool, places).expect("redeal: the pool is the places' own items");
}

#[cfg(test)]
mod tests {
    use super::*;

    // Known values printed by CPython 3.11.7 with the engine's functions:
    // x = list(range(8)); fast_shuffle(stream(7, "deal"), x); and shuffle(stream(7, "tomb"), y)
    #[test]
    fn shuffles_match_the_python_engine() {
        let mut x: Vec<u8> = (0..8).collect();
        fast_shuffle(&mut stream("7", "deal"), &mut x);
        assert_eq!(x, FAST_7_DEAL);
        let mut y: Vec<u8> = (0..8).collect();
        shuffle(&mut stream("7", "tomb"), &mut y);
        assert_eq!(y, SHUFFLE_7_TOMB);
    }

    /// `fast_shuffle` as the Python engine words it: a stable sort by float keys.
    fn fast_shuffle_by_floats<T: Copy>(rng: &mut Stream, items: &mut [T]) {
        let keys: Vec<f64> = (0..items.len()).map(|_| rng.random()).collect();
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        let old = items.to_vec();
        for (slot, &i) in items.iter_mut().zip(&order) {
            *slot = old[i];
        }
    }

    #[test]
    fn fast_shuffle_is_the_stable_sort_by_floats() {
        for n in [0, 1, 2, 7, 34, 100, 512] {
            for seed in 0..20 {
                let mut a: Vec<u16> = (0..n).collect();
                let mut b = a.clone();
                fast_shuffle(&mut stream(&seed.to_string(), "deal"), &mut a);
                fast_shuffle_by_floats(&mut stream(&seed.to_string(), "deal"), &mut b);
                assert_eq!(a, b, "{n} items, seed {seed}");
            }
        }
    }

    const FAST_7_DEAL: [u8; 8] = [7, 1, 4, 3, 2, 0, 5, 6];
    const SHUFFLE_7_TOMB: [u8; 8] = [7, 0, 4, 5, 3, 1, 6, 2];

    #[test]
    fn deal_refuses_a_pool_of_the_wrong_size() {
        let mut pool = vec![1, 2];
        assert_eq!(
            deal(&mut stream("1", "x"), &mut pool, &mut [vec![0]]).unwrap_err().0,
            "deal: 2 items for places of 1"
        );
    }

    #[test]
    fn redeal_keeps_sizes_and_items() {
        let mut places = vec![vec![3, 1], vec![], vec![2, 5, 4]];
        redeal(&mut stream("9", "redeal"), &mut places);
        assert_eq!(places.iter().map(Vec::len).collect::<Vec<_>>(), [2, 0, 3]);
        assert_eq!(pooled(&places), [1, 2, 3, 4, 5]);
    }
}
