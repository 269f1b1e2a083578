//! Chance: every random outcome of a game comes from a stream of its own
//! purpose, seeded by `"{seed}/{purpose}"` only (the seed as Python's `str` gives it), so no
//! outcome depends on how another purpose consumed its draws. The shuffles the engine draws
//! with: `fast_shuffle` (the deal and the reshuffle), `shuffle`, `deal`, `redeal`, `pooled`
//! (dealing hidden things anew). Pins, pick and the pinned reshuffles are the game's
//! (game.rs `chance_pick`, `reshuffle`, `check_used`), with the engine's messages.

use arrayvec::ArrayVec;

use crate::stream::{bits53, index_of, Stream, StreamError};

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
    match rng.take_words(2 * items.len()) {
        Some(words) => {
            for (i, w) in words.chunks_exact(2).enumerate() {
                keys.push(bits53(w[0], w[1]) << INDEX_BITS | i as u64);
            }
        }
        None => {
            for i in 0..items.len() {
                keys.push(rng.random_bits53() << INDEX_BITS | i as u64);
            }
        }
    }
    keys.sort_unstable();
    let old: ArrayVec<T, { 1 << INDEX_BITS }> = items.iter().copied().collect();
    for (slot, &k) in items.iter_mut().zip(&keys) {
        *slot = old[(k & ((1 << INDEX_BITS) - 1)) as usize];
    }
}

/// `shuffle`: Fisher-Yates from `random()` (`j = int(x * (i + 1))`). The draws are taken
/// at once when the stream's generation holds them all.
pub fn shuffle<T>(rng: &mut Stream, items: &mut [T]) {
    let n = items.len();
    if n < 2 {
        return;
    }
    match rng.take_words(2 * (n - 1)) {
        Some(words) => {
            // the swaps' partners a stretch at a time, each worked out on its own (a loop
            // the compiler runs on vectors), then the swaps in their order
            let mut partners = [0u32; STRETCH];
            let mut i = n - 1;
            for stretch in words.chunks(2 * STRETCH) {
                let m = stretch.len() / 2;
                partners_of(stretch, i + 1, &mut partners[..m]);
                for &j in &partners[..m] {
                    items.swap(i, j as usize);
                    i -= 1;
                }
            }
        }
        None => {
            for i in (1..n).rev() {
                items.swap(i, rng.random_index(i + 1));
            }
        }
    }
}

/// The partners a shuffle works out at once.
const STRETCH: usize = 64;

/// `int(random() * top)`, `int(random() * (top - 1))`, ... for the draws of `words` (two
/// words each), into `out`: `index_of`'s numbers, the draw's whole number made from its
/// two halves in floats (exact: it is below 2^53) and truncated through an i32 (`top` is a
/// shuffle's length, far below 2^31).
#[inline]
fn partners_of(words: &[u32], top: usize, out: &mut [u32]) {
    const HALF: f64 = (1u64 << 26) as f64;
    const SCALE: f64 = 1.0 / 9_007_199_254_740_992.0;
    debug_assert!(top < 1 << 31, "partners_of: {top} items");
    let top = top as i32;
    for (t, (o, w)) in out.iter_mut().zip(words.chunks_exact(2)).enumerate() {
        let x = (f64::from((w[0] >> 5) as i32) * HALF + f64::from((w[1] >> 6) as i32)) * SCALE;
        let j = x * f64::from(top - t as i32);
        debug_assert_eq!(j as u32, index_of(bits53(w[0], w[1]), (top - t as i32) as usize) as u32);
        // SAFETY: `j` is finite and in [0, top], far inside an i32's range.
        *o = unsafe { j.to_int_unchecked::<i32>() } as u32; // j in [0, top]: fits
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

    // These pin the shuffles against CPython 3.11.7 where their draws are taken at once (a
    // fresh stream, a lazy generation, a whole later one) and where they are not (across a
    // generation's end): r = random.Random(text), `pre` r.random() calls, then the shuffle
    // of list(range(n)) and one more r.random().
    #[test]
    fn shuffles_across_generations_match_python() {
        let cases: [(usize, [u8; 40], f64); 5] = [
            (0, [23, 4, 12, 20, 11, 26, 8, 25, 38, 18, 36, 39, 22, 9, 13, 16, 3, 15, 2, 10, 5, 27, 21, 6, 33, 1, 29, 14, 24, 28, 37, 17, 19, 0, 32, 35, 30, 31, 7, 34], 0.8318155625256413),
            (100, [9, 24, 19, 29, 16, 27, 6, 31, 22, 12, 4, 3, 37, 1, 13, 33, 23, 15, 17, 28, 26, 0, 2, 7, 18, 38, 39, 36, 14, 20, 30, 8, 11, 34, 10, 32, 25, 35, 5, 21], 0.06569064212213216),
            (290, [36, 25, 33, 15, 26, 5, 18, 0, 9, 24, 12, 39, 7, 20, 6, 3, 11, 31, 34, 28, 17, 8, 27, 13, 10, 4, 23, 1, 35, 21, 30, 16, 2, 29, 32, 14, 22, 38, 37, 19], 0.2546975501535744),
            (320, [28, 21, 5, 2, 15, 36, 39, 4, 0, 8, 34, 11, 13, 27, 6, 18, 25, 26, 37, 9, 23, 19, 24, 32, 33, 35, 14, 20, 17, 22, 7, 10, 3, 38, 16, 30, 12, 1, 31, 29], 0.7653834507064909),
            (600, [34, 38, 2, 24, 14, 23, 6, 3, 20, 12, 22, 5, 10, 21, 8, 9, 1, 26, 27, 33, 7, 13, 18, 39, 29, 11, 16, 17, 28, 25, 0, 32, 35, 36, 30, 4, 31, 37, 15, 19], 0.18620658823236969),
        ];
        for (pre, want, next) in cases {
            let mut r = Stream::from_text("shuffle");
            for _ in 0..pre {
                r.random();
            }
            let mut x: Vec<u8> = (0..40).collect();
            shuffle(&mut r, &mut x);
            assert_eq!((x, r.random()), (want.to_vec(), next), "after {pre} draws");
        }
        // keys = [r.random() for _ in range(30)]; sorted(range(30), key=keys.__getitem__)
        let cases: [(usize, [u8; 30], f64); 2] = [
            (0, [8, 6, 17, 2, 22, 15, 25, 3, 21, 1, 16, 0, 11, 14, 9, 29, 7, 12, 24, 5, 26, 20, 10, 23, 19, 13, 18, 28, 27, 4], 0.9239689203592212),
            (310, [10, 27, 3, 23, 25, 12, 11, 4, 26, 19, 14, 2, 15, 18, 1, 7, 24, 8, 22, 5, 16, 20, 6, 29, 17, 9, 21, 28, 13, 0], 0.3284209673477204),
        ];
        for (pre, want, next) in cases {
            let mut r = Stream::from_text("fast");
            for _ in 0..pre {
                r.random();
            }
            let mut x: Vec<u8> = (0..30).collect();
            fast_shuffle(&mut r, &mut x);
            assert_eq!((x, r.random()), (want.to_vec(), next), "fast_shuffle after {pre} draws");
        }
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
