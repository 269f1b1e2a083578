//! CPython 3.11's `random.Stream`, draw for draw: the Mersenne Twister MT19937 of
//! `_randommodule.c`, its seeding (an int, or a str by version 2: the str's UTF-8 bytes followed
//! by their SHA-512 digest, read as one big-endian int), and the methods of `random.py` the
//! engine and the bots call (the engine's own shuffles are in chance.rs). The same seed gives
//! the same numbers as Python, so the core plays the Python engine's games.
//!
//! The module is long for its tests: each method is pinned against values CPython itself
//! printed, since one wrong draw changes every game after it.

use sha2::{Digest, Sha512};
use std::collections::HashSet;
use std::fmt;

/// MT19937's state words and its shift.
pub const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_B0DF;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7FFF_FFFF;

/// What Python would raise (ValueError, IndexError) for a bad argument, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamError(pub String);

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StreamError {}

/// A `random.Stream`: 624 words and the index of the next one.
///
/// A seeded stream's first generation of 624 words is twisted lazily, a stretch of
/// [`TWIST_AHEAD`] words at a time as they are drawn: a game's streams draw few words each,
/// so most of it would be made for nothing. `twisted` counts the words of the current
/// generation made so far (`index <= twisted`); the words past it still hold the generation
/// before, which is what the twist of the later words reads (it is the in-place twist of
/// `_randommodule.c`, split at any word). A stream that drew a whole generation (a search's)
/// twists each later one at once, in the loops that run fastest.
///
/// Each word is tempered as it is twisted, in the same loop, into `out`: a draw reads its
/// output word from there, with nothing to compute.
#[derive(Clone)]
pub struct Stream {
    mt: [u32; N],
    /// `temper(mt[k])` for the words twisted so far (`k < twisted`)
    out: [u32; N],
    index: usize,
    twisted: usize,
    /// no generation begun since seeding: the next one is twisted lazily
    fresh: bool,
}

/// The words twisted at once when a draw reaches the end of the twisted ones.
const TWIST_AHEAD: usize = 32;

impl PartialEq for Stream {
    fn eq(&self, other: &Stream) -> bool {
        self.state() == other.state()
    }
}

impl Eq for Stream {}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stream {{ index: {} }}", self.index)
    }
}

/// `init_genrand(19650218)`, where every `init_by_array` starts: the same words for every
/// seed, worked out once at compile time.
const GENRAND_19650218: [u32; N] = {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        i += 1;
    }
    mt
};

/// One word of the twist from the word it replaces and the next (the odd case as a mask).
#[inline(always)]
fn twist(hi: u32, lo: u32) -> u32 {
    let y = (hi & UPPER) | (lo & LOWER);
    (y >> 1) ^ (0u32.wrapping_sub(y & 1) & MATRIX_A)
}

/// `genrand_uint32`'s tempering of a state word.
#[inline(always)]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9D2C_5680;
    y ^= (y << 15) & 0xEFC6_0000;
    y ^ (y >> 18)
}

/// The last word of a generation, whose partners are the new first ones.
#[inline(always)]
fn last_word(mt: &mut [u32; N], out: &mut [u32; N]) {
    mt[N - 1] = mt[M - 1] ^ twist(mt[N - 1], mt[0]);
    out[N - 1] = temper(mt[N - 1]);
}

/// 0, -1, ..., -(N - 1) (wrapping): `init_by_array`'s second loop subtracts each word's index.
const MINUS_INDEXES: [u32; N] = {
    let mut t = [0u32; N];
    let mut i = 0;
    while i < N {
        t[i] = (i as u32).wrapping_neg();
        i += 1;
    }
    t
};

/// A key's words are repeated to at least this many, so its stretches are long.
const KEY_STRETCH: usize = 64;

/// One word of `init_by_array`: the word `m` mixed with the one before, `prev`.
#[inline(always)]
fn mix(m: u32, prev: u32, mul: u32, add: u32) -> u32 {
    (m ^ (prev ^ (prev >> 30)).wrapping_mul(mul)).wrapping_add(add)
}

/// `out[k] = mix(src[k], out[k - 1], mul, add[k])` in order, `prev` before the first; the
/// last word. Eight words a pass: counting the loop would be a good part of a word's cost.
#[inline(always)]
fn mix_from(out: &mut [u32], src: &[u32], add: &[u32], mul: u32, mut prev: u32) -> u32 {
    let (mut o, mut s, mut a) = (out.chunks_exact_mut(8), src.chunks_exact(8), add.chunks_exact(8));
    for ((o4, s4), a4) in (&mut o).zip(&mut s).zip(&mut a) {
        for k in 0..8 {
            prev = mix(s4[k], prev, mul, a4[k]);
            o4[k] = prev;
        }
    }
    for ((o1, &s1), &a1) in o.into_remainder().iter_mut().zip(s.remainder()).zip(a.remainder()) {
        prev = mix(s1, prev, mul, a1);
        *o1 = prev;
    }
    prev
}

/// [`mix_from`] with the words mixed in place.
#[inline(always)]
fn mix_in(words: &mut [u32], add: &[u32], mul: u32, mut prev: u32) -> u32 {
    let (mut w, mut a) = (words.chunks_exact_mut(8), add.chunks_exact(8));
    for (w4, a4) in (&mut w).zip(&mut a) {
        for k in 0..8 {
            prev = mix(w4[k], prev, mul, a4[k]);
            w4[k] = prev;
        }
    }
    for (w1, &a1) in w.into_remainder().iter_mut().zip(a.remainder()) {
        prev = mix(*w1, prev, mul, a1);
        *w1 = prev;
    }
    prev
}

/// `twist_generation` compiled for AVX2 (the same words, more of them an instruction).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn twist_whole_avx2(mt: &mut [u32; N], out: &mut [u32; N]) {
    twist_generation(mt, out);
}

/// A whole generation (`genrand_uint32`'s loops, their bounds constant), tempered.
#[inline(always)]
fn twist_generation(mt: &mut [u32; N], out: &mut [u32; N]) {
    // the words whose `kk + M` partner is still of the old generation
    for kk in 0..N - M {
        let w = mt[kk + M] ^ twist(mt[kk], mt[kk + 1]);
        mt[kk] = w;
        out[kk] = temper(w);
    }
    // the partner `kk + M - N` is new: in two stretches, each reading words made before it
    let (new, rest) = mt.split_at_mut(N - M);
    for (kk, o) in out[N - M..2 * (N - M)].iter_mut().enumerate() {
        let w = new[kk] ^ twist(rest[kk], rest[kk + 1]);
        rest[kk] = w;
        *o = temper(w);
    }
    let (new, rest) = mt.split_at_mut(2 * (N - M));
    for (kk, o) in out[2 * (N - M)..N - 1].iter_mut().enumerate() {
        let w = new[N - M + kk] ^ twist(rest[kk], rest[kk + 1]);
        rest[kk] = w;
        *o = temper(w);
    }
    last_word(mt, out);
}

impl Stream {
    /// A stream with every word 0, to be seeded in place ([`Stream::seed_text`]).
    pub const fn zeroed() -> Stream {
        Stream { mt: [0; N], out: [0; N], index: N, twisted: N, fresh: true }
    }

    /// `init_by_array`: seeded by 32-bit words, least significant first.
    pub fn from_key(key: &[u32]) -> Stream {
        let mut s = Stream::zeroed();
        s.seed_key(key);
        s
    }

    /// Seed this stream anew by `init_by_array(key)`, in place.
    pub fn seed_key(&mut self, key: &[u32]) {
        self.index = N;
        self.twisted = N;
        self.fresh = true;
        self.mix_key(key);
    }

    /// `init_by_array`'s two loops over the words of `init_genrand(19650218)` (read from
    /// the table on the first pass: nothing is copied first). They run in stretches where
    /// neither the state's index nor the key's wraps (no test per word), the key's words
    /// with their index added beforehand and repeated to a stretch of at least 64 words.
    fn mix_key(&mut self, key: &[u32]) {
        let len = key.len().max(1);
        // the key's words (a missing key is the key [0]) with their index added, repeated
        let mut short = [0u32; 2 * KEY_STRETCH];
        let mut long = Vec::new();
        let period = if len <= KEY_STRETCH { len * KEY_STRETCH.div_ceil(len) } else { len };
        let keyed: &mut [u32] = if period <= short.len() {
            &mut short[..period]
        } else {
            long.resize(period, 0);
            &mut long
        };
        for (jj, (k, &w)) in keyed.iter_mut().zip(key).enumerate() {
            *k = w.wrapping_add(jj as u32);
        }
        for r in 1..period / len {
            keyed.copy_within(..len, r * len);
        }
        let mt = &mut self.mt;
        let mut prev = GENRAND_19650218[0];
        // the first loop's first pass, words 1 to N - 1
        let (mut i, mut j) = (1usize, 0usize);
        while i < N {
            let run = (N - i).min(period - j);
            let (out, src) = (&mut mt[i..i + run], &GENRAND_19650218[i..i + run]);
            prev = mix_from(out, src, &keyed[j..j + run], 1_664_525, prev);
            i += run;
            j += run;
            if j >= period {
                j = 0;
            }
        }
        mt[0] = mt[N - 1];
        i = 1;
        // the rest of the first loop, over the words it wrote
        let mut left = N.max(len) - (N - 1);
        while left > 0 {
            let run = left.min(N - i).min(period - j);
            prev = mix_in(&mut mt[i..i + run], &keyed[j..j + run], 1_664_525, prev);
            i += run;
            j += run;
            left -= run;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= period {
                j = 0;
            }
        }
        let mut left = N - 1;
        while left > 0 {
            let run = left.min(N - i);
            // each word's own index is subtracted: added, negated, from a table
            prev = mix_in(&mut mt[i..i + run], &MINUS_INDEXES[i..i + run], 1_566_083_941, prev);
            i += run;
            left -= run;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = UPPER;
    }

    /// `random.Stream(n)` for an int: its absolute value's 32-bit words (0 is one word, 0).
    pub fn from_int(n: i128) -> Stream {
        Stream::from_magnitude_be(&n.unsigned_abs().to_be_bytes())
    }

    /// Seeded by a non-negative int given as big-endian bytes (leading zeros allowed).
    pub fn from_magnitude_be(bytes: &[u8]) -> Stream {
        let mut s = Stream::zeroed();
        s.seed_magnitude_be(bytes);
        s
    }

    /// [`Stream::from_magnitude_be`] in place.
    fn seed_magnitude_be(&mut self, bytes: &[u8]) {
        let mut short = [0u32; 64];
        let mut long = Vec::new();
        let count = bytes.len().div_ceil(4);
        let words: &mut [u32] = if count <= short.len() {
            &mut short[..count]
        } else {
            long.resize(count, 0);
            &mut long
        };
        for (w, c) in words.iter_mut().zip(bytes.rchunks(4)) {
            *w = c.iter().fold(0u32, |w, &b| (w << 8) | u32::from(b));
        }
        // leading zero words dropped (0 is one word, 0)
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |k| k + 1).min(words.len());
        self.seed_key(&words[..used]);
    }

    /// `random.Stream(s)` for a str (seed version 2).
    pub fn from_text(s: &str) -> Stream {
        let mut out = Stream::zeroed();
        out.seed_text(&[s.as_bytes()]);
        out
    }

    /// Seed this stream anew, in place, as `random.Stream(s)` for the str `s` whose UTF-8
    /// bytes are `parts` one after the other (no string is built, no stream moved).
    pub fn seed_text(&mut self, parts: &[&[u8]]) {
        let mut sha = Sha512::new();
        for part in parts {
            sha.update(part);
        }
        let digest = sha.finalize();
        let text: usize = parts.iter().map(|p| p.len()).sum();
        let total = text + digest.len();
        let mut short = [0u8; 192];
        let mut long = Vec::new();
        let bytes: &mut [u8] = if total <= short.len() {
            &mut short[..total]
        } else {
            long.resize(total, 0);
            &mut long
        };
        let mut at = 0;
        for part in parts {
            bytes[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        bytes[at..].copy_from_slice(&digest);
        self.seed_magnitude_be(bytes);
    }

    /// The state as `getstate()` gives it: the 624 words and the index (its tuple's 625 ints).
    pub fn state(&self) -> ([u32; N], usize) {
        let mut whole = self.clone();
        whole.twist_to(N);
        (whole.mt, whole.index)
    }

    /// From `getstate()`'s words and index; an index past 624 is refused, as `setstate` does.
    pub fn from_state(mt: [u32; N], index: usize) -> Result<Stream, StreamError> {
        if index > N {
            return Err(StreamError("invalid state".into()));
        }
        let mut out = [0u32; N];
        for (o, &w) in out.iter_mut().zip(&mt) {
            *o = temper(w);
        }
        Ok(Stream { mt, out, index, twisted: N, fresh: false })
    }

    /// Twist the current generation's words up to `end` (`genrand_uint32`'s loops, from the
    /// word `twisted` on), each tempered into `out`.
    fn twist_to(&mut self, end: usize) {
        let (mt, out) = (&mut self.mt, &mut self.out);
        let from = self.twisted;
        for kk in from..end.min(N - M) {
            let w = mt[kk + M] ^ twist(mt[kk], mt[kk + 1]);
            mt[kk] = w;
            out[kk] = temper(w);
        }
        for kk in from.max(N - M)..end.min(N - 1) {
            let w = mt[kk + M - N] ^ twist(mt[kk], mt[kk + 1]);
            mt[kk] = w;
            out[kk] = temper(w);
        }
        if end == N && from < N {
            last_word(mt, out);
        }
        self.twisted = self.twisted.max(end);
    }

    /// Twist the words the next draw needs: a stretch of the lazy first generation, or a
    /// whole later one. Out of the draws' way (they inline the rest).
    #[cold]
    #[inline(never)]
    fn twist_more(&mut self) {
        if self.index < N {
            self.twist_to((self.index + TWIST_AHEAD).min(N));
            return;
        }
        self.index = 0;
        if self.fresh {
            self.fresh = false;
            self.twisted = 0;
            self.twist_to(TWIST_AHEAD);
        } else {
            self.twist_whole();
        }
    }

    /// A whole generation, by the widest vectors the processor has: its words are
    /// independent enough to be twisted and tempered eight at a time.
    fn twist_whole(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (checked just above), all the function needs.
            unsafe { twist_whole_avx2(&mut self.mt, &mut self.out) }; // AVX2 checked above
            self.twisted = N;
            return;
        }
        twist_generation(&mut self.mt, &mut self.out);
        self.twisted = N;
    }

    /// The next 32-bit word (`genrand_uint32`).
    #[inline(always)]
    pub fn next32(&mut self) -> u32 {
        if self.index >= self.twisted {
            self.twist_more();
        }
        let y = self.out[self.index];
        self.index += 1;
        y
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    #[inline(always)]
    pub fn random(&mut self) -> f64 {
        // exact: a whole number below 2^53 times a power of two
        self.random_bits53() as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// The whole number `random()` is 2^53 times: 27 bits of one word, then 26 of the next.
    #[inline(always)]
    pub fn random_bits53(&mut self) -> u64 {
        let i = self.index;
        let (a, b) = if i + 2 <= self.twisted {
            // both words twisted already (the common case): one test, not two
            let w = &self.out[i..i + 2];
            self.index = i + 2;
            (w[0], w[1])
        } else {
            (self.next32(), self.next32())
        };
        bits53(a, b)
    }

    /// `int(random() * n)` for a small n (at most 2^32), as the engine and the bots draw an
    /// index (`legal[int(rng.random() * len(legal))]`, the engine's shuffle): the same float
    /// product, truncated by the cheaper signed conversion (it lies in [0, n]).
    #[inline(always)]
    pub fn random_index(&mut self, n: usize) -> usize {
        index_of(self.random_bits53(), n)
    }

    /// The next `count` output words at once, to be used in order (each `random()` is two),
    /// when they are all of one generation; else None and nothing drawn. A shuffle draws
    /// from them without a test per draw.
    #[inline]
    pub fn take_words(&mut self, count: usize) -> Option<&[u32]> {
        if self.index + count > self.twisted && !self.twist_for(count) {
            return None;
        }
        let i = self.index;
        self.index = i + count;
        Some(&self.out[i..i + count])
    }

    /// Twist the next `count` words for [`Stream::take_words`] (a generation begun if the
    /// last one is spent); false if they do not fit in this generation.
    #[cold]
    #[inline(never)]
    fn twist_for(&mut self, count: usize) -> bool {
        if self.index >= N {
            self.twist_more();
        }
        let end = self.index + count;
        if end > N {
            return false;
        }
        if end > self.twisted {
            self.twist_to(end.max((self.index + TWIST_AHEAD).min(N)));
        }
        true
    }

    /// `getrandbits(k)` for k <= 64 (words least significant first, the last one's top bits).
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits: at most 64 bits here, got {k}");
        let mut out = 0u64;
        let mut shift = 0;
        let mut left = k;
        while left > 0 {
            let mut r = self.next32();
            if left < 32 {
                r >>= 32 - left;
            }
            out |= u64::from(r) << shift;
            shift += 32;
            left = left.saturating_sub(32);
        }
        out
    }

    /// `_randbelow(n)` for n > 0: `getrandbits(n.bit_length())` until below n.
    #[inline]
    pub fn randbelow(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "randbelow(0)");
        let k = usize::BITS - n.leading_zeros();
        if k <= 32 {
            // getrandbits(k) for k <= 32 is one word's top k bits
            loop {
                let r = (self.next32() >> (32 - k)) as usize;
                if r < n {
                    return r;
                }
            }
        }
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(start, stop, step)`, with Python's errors for an empty range or step 0.
    pub fn randrange(&mut self, start: i64, stop: i64, step: i64) -> Result<i64, StreamError> {
        let width = i128::from(stop) - i128::from(start);
        if step == 1 {
            if width > 0 {
                return Ok((i128::from(start) + self.randbelow(width as usize) as i128) as i64);
            }
            return Err(StreamError(format!(
                "empty range for randrange() ({start}, {stop}, {width})"
            )));
        }
        let step128 = i128::from(step);
        let n = match step.cmp(&0) {
            std::cmp::Ordering::Greater => floor_div(width + step128 - 1, step128),
            std::cmp::Ordering::Less => floor_div(width + step128 + 1, step128),
            std::cmp::Ordering::Equal => {
                return Err(StreamError("zero step for randrange()".into()));
            }
        };
        if n <= 0 {
            return Err(StreamError("empty range for randrange()".into()));
        }
        Ok((i128::from(start) + step128 * self.randbelow(n as usize) as i128) as i64)
    }

    /// `choice(seq)`: None for an empty sequence (Python raises IndexError).
    pub fn choice<'a, T>(&mut self, seq: &'a [T]) -> Option<&'a T> {
        if seq.is_empty() {
            return None;
        }
        Some(&seq[self.randbelow(seq.len())])
    }

    /// `shuffle(x)`: Python's own (`_randbelow` swaps from the end).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i + 1);
            items.swap(i, j);
        }
    }

    /// The indices `sample(range(n), k)` gives (k <= n), by CPython's two algorithms: a pool
    /// when a list of n is smaller than a set of k, else a set of the indices chosen.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        self.try_sample(n, k).expect("sample larger than population")
    }

    /// [`Stream::sample`], with Python's error for k > n.
    pub fn try_sample(&mut self, n: usize, k: usize) -> Result<Vec<usize>, StreamError> {
        if k > n {
            return Err(StreamError("Sample larger than population or is negative".into()));
        }
        let mut setsize = 21usize; // a small set's size minus an empty list's
        if k > 5 {
            // 4 ** ceil(log(k * 3, 4)), as Python's float log computes it
            let exponent = ((k as f64 * 3.0).ln() / 4f64.ln()).ceil() as u32;
            setsize += 4usize.pow(exponent);
        }
        let mut out = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow(n - i);
                out.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = HashSet::with_capacity(k);
            for _ in 0..k {
                let mut j = self.randbelow(n);
                while selected.contains(&j) {
                    j = self.randbelow(n);
                }
                selected.insert(j);
                out.push(j);
            }
        }
        Ok(out)
    }

}

/// `random()`'s whole number from its two words (27 bits of the first, 26 of the second).
#[inline(always)]
pub fn bits53(first: u32, second: u32) -> u64 {
    (u64::from(first >> 5) << 26) | u64::from(second >> 6)
}

/// `int(random() * n)` for the draw `random() = bits / 2^53` and a small n (at most 2^32).
#[inline(always)]
pub fn index_of(bits: u64, n: usize) -> usize {
    debug_assert!(n as u64 <= 1 << 32, "index_of: n too large for the cast");
    // the product of `random()` and n, rounded once as Python's float product is
    truncate((bits as f64 * (1.0 / 9_007_199_254_740_992.0)) * n as f64)
}

/// `int(x)` for an `x` in [0, 2^63): one truncating conversion, without the checks of an
/// `as` cast for NaN and the ends of the range, which such an `x` never reaches.
#[inline(always)]
fn truncate(x: f64) -> usize {
    debug_assert!((0.0..9.2e18).contains(&x), "truncate: {x} out of range");
    // SAFETY: `x` is finite and its truncation fits an i64 (the callers' products lie in [0, n]).
    let i: i64 = unsafe { x.to_int_unchecked() }; // finite, fits an i64
    i as usize
}

/// Python's `a // b` (rounds toward minus infinity).
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Known values printed by CPython 3.11.7 (`random.Stream(...)`).
    #[test]
    fn int_seed_matches_python() {
        // random.Stream(42).random(), .getrandbits(32)
        let mut r = Stream::from_int(42);
        assert_eq!(r.random(), 0.6394267984578837);
        let mut r = Stream::from_int(42);
        assert_eq!(r.getrandbits(32), 2_746_317_213);
        // random.Stream(0).random() and random.Stream(-5) == random.Stream(5)
        assert_eq!(Stream::from_int(0).random(), 0.8444218515250481);
        assert_eq!(Stream::from_int(-5).random(), Stream::from_int(5).random());
    }

    #[test]
    fn str_seed_matches_python() {
        // random.Stream("7/deal").random(); random.Stream("").random()
        assert_eq!(Stream::from_text("7/deal").random(), TEXT_7_DEAL);
        assert_eq!(Stream::from_text("").random(), TEXT_EMPTY);
    }

    const TEXT_7_DEAL: f64 = 0.8346694531256192;
    const TEXT_EMPTY: f64 = 0.9602256525641875;

    #[test]
    fn methods_match_python() {
        // r = random.Stream(1): r.randrange(10), r.choice("abcdef"), r.sample(range(100), 5),
        // then x = list(range(10)); r.shuffle(x)
        let mut r = Stream::from_int(1);
        assert_eq!(r.randrange(0, 10, 1), Ok(2));
        assert_eq!(r.choice(&['a', 'b', 'c', 'd', 'e', 'f']), Some(&'e'));
        assert_eq!(r.sample(100, 5), SAMPLE_1);
        let mut x: Vec<u32> = (0..10).collect();
        r.shuffle(&mut x);
        assert_eq!(x, SHUFFLE_1);
    }

    const SAMPLE_1: [usize; 5] = [97, 8, 32, 15, 63];
    const SHUFFLE_1: [u32; 10] = [2, 5, 4, 3, 0, 1, 8, 6, 9, 7];

    // These pin the draws against CPython 3.11.7 (`random.Random`) past the cases above: a
    // pair of words across a generation's end, a whole later generation, getrandbits and
    // _randbelow beyond one word.
    #[test]
    fn draws_across_generations_match_python() {
        // r = random.Random("0:7/search"); v = [r.random() for _ in range(1000)]
        let mut r = Stream::from_text("0:7/search");
        let v: Vec<f64> = (0..1000).map(|_| r.random()).collect();
        let at = [0, 311, 312, 313, 623, 999].map(|k| v[k]);
        assert_eq!(at, [0.42960827237907695, 0.5020677569758263, 0.6806488905645741, 0.9939764680766059, 0.7912299132621369, 0.8172316484424399]);
        // r = random.Random(12345); r.getrandbits(32); then 700 random(): the 312th takes
        // the generation's last word and the next one's first
        let mut r = Stream::from_int(12345);
        r.getrandbits(32);
        let v: Vec<f64> = (0..700).map(|_| r.random()).collect();
        assert_eq!([v[311], v[312], v[699]], [0.47729454168159424, 0.8496407769765478, 0.03669965028694577]);
    }

    #[test]
    fn getrandbits_and_randbelow_match_python() {
        // r = random.Random(99); [r._randbelow(n) for n in ...]
        let mut r = Stream::from_int(99);
        let ns = [1, 2, 3, 7, 1000, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1_000_000_000_000, 1 << 53];
        let got: Vec<usize> = ns.iter().map(|&n| r.randbelow(n)).collect();
        assert_eq!(got, [0, 1, 0, 4, 183, 988_970_880, 1_067_004_398, 371_851_742, 3_131_164_401, 753_899_099_570, 8_813_992_830_644_948]);
        // r = random.Random(7); [r.getrandbits(k) for k in ...]
        let mut r = Stream::from_int(7);
        let got: Vec<u64> = [1, 5, 31, 32, 33, 63, 64].iter().map(|&k| r.getrandbits(k)).collect();
        assert_eq!(got, [0, 30, 323_946_139, 1_695_753_998, 2_795_742_288, 7_574_918_311_415_852_851, 1_736_392_818_365_009_963]);
    }

    #[test]
    fn taken_words_are_the_next_draws() {
        // in a lazy generation, after a whole one, at a generation's end (None), and fresh
        for pre in [0, 5, 100, 311, 312, 400] {
            let mut a = Stream::from_text("take");
            let mut b = a.clone();
            for _ in 0..pre {
                a.next32();
                b.next32();
            }
            let n = 2 * (N - 300);
            let words: Vec<u32> = (0..n).map(|_| b.next32()).collect();
            match a.take_words(n) {
                Some(taken) => assert_eq!(taken, &words[..], "after {pre} words"),
                None => {
                    assert!((pre % N) + n > N, "after {pre} words: refused words that fit");
                    assert_eq!(a.next32(), words[0]);
                    continue;
                }
            }
            assert_eq!(a.next32(), b.next32(), "after {pre} words: the draw after them");
        }
    }

    #[test]
    fn errors_are_pythons() {
        let mut r = Stream::from_int(3);
        assert_eq!(
            r.randrange(5, 5, 1).unwrap_err().0,
            "empty range for randrange() (5, 5, 0)"
        );
        assert!(r.try_sample(3, 4).is_err());
        assert_eq!(r.choice::<u8>(&[]), None);
    }

    /// `init_by_array` as _randommodule.c writes it, word by word.
    fn init_by_array(key: &[u32]) -> [u32; N] {
        let mut mt = [0u32; N];
        mt[0] = 19_650_218;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len().max(1);
        for _ in 0..N.max(len) {
            let w = key.get(j).copied().unwrap_or(0);
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525)).wrapping_add(w).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = UPPER;
        mt
    }

    #[test]
    fn seeding_by_stretches_is_init_by_array() {
        for len in [0, 1, 2, 19, 63, 64, 65, 127, 128, 129, 623, 624, 625, 1000, 1249] {
            let key: Vec<u32> = (0..len as u32).map(|x| x.wrapping_mul(2_654_435_761) ^ 0xDEAD_BEEF).collect();
            assert_eq!(Stream::from_key(&key).state().0, init_by_array(&key), "a key of {len} words");
        }
    }

    /// `genrand_uint32` as _randommodule.c writes it: the whole generation at once.
    fn words_eagerly(mut mt: [u32; N], count: usize) -> Vec<u32> {
        let twist = |hi: u32, lo: u32| {
            let y = (hi & UPPER) | (lo & LOWER);
            (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        let mut out = Vec::new();
        let mut index = N;
        for _ in 0..count {
            if index >= N {
                for kk in 0..N - 1 {
                    mt[kk] = mt[(kk + M) % N] ^ twist(mt[kk], mt[kk + 1]);
                }
                mt[N - 1] = mt[M - 1] ^ twist(mt[N - 1], mt[0]);
                index = 0;
            }
            let mut y = mt[index];
            index += 1;
            y ^= y >> 11;
            y ^= (y << 7) & 0x9D2C_5680;
            y ^= (y << 15) & 0xEFC6_0000;
            out.push(y ^ (y >> 18));
        }
        out
    }

    #[test]
    fn the_lazy_twist_draws_the_eager_words_and_state() {
        let seeded = Stream::from_text("0:7/deal");
        let words = words_eagerly(seeded.state().0, 3 * N + 5);
        let mut r = seeded.clone();
        for (k, &w) in words.iter().enumerate() {
            assert_eq!(r.next32(), w, "word {k}");
            if k % 97 == 0 {
                // the state read mid-generation goes on with the same words
                let (mt, index) = r.state();
                let mut s = Stream::from_state(mt, index).unwrap();
                assert_eq!(s, r);
                assert_eq!(s.next32(), words[k + 1]);
            }
        }
    }

    #[test]
    fn seeding_in_place_is_seeding_anew() {
        // a used stream seeded again, from parts, is the stream of the joined text
        let mut r = Stream::from_text("used");
        for _ in 0..3 * N {
            r.next32();
        }
        r.seed_text(&[b"0:17", b":bot", b"2"]);
        let fresh = Stream::from_text("0:17:bot2");
        assert!(r == fresh);
        assert_eq!(r.random(), Stream::from_text("0:17:bot2").random());
        // a text longer than the stack buffer
        let long = "x".repeat(300);
        let mut s = Stream::zeroed();
        s.seed_text(&[long.as_bytes()]);
        assert_eq!(s.random(), Stream::from_magnitude_be(&[long.as_bytes(), &Sha512::digest(long.as_bytes())[..]].concat()).random());
    }

    #[test]
    fn state_round_trips() {
        let mut r = Stream::from_text("x");
        r.random();
        let (mt, index) = r.state();
        let mut s = Stream::from_state(mt, index).unwrap();
        assert_eq!(s.random(), r.random());
        assert!(Stream::from_state(mt, N + 1).is_err());
    }

    // The AVX2 build of a generation is chosen at run time: the portable one, which a
    // processor without AVX2 runs, must make the same words.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn generation_is_the_same_by_avx2_and_without() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut s = Stream::from_text("generation");
        s.twist_to(N);
        let (mut mt_a, mut out_a) = (s.mt, s.out);
        let (mut mt_b, mut out_b) = (s.mt, s.out);
        for _ in 0..3 {
            // SAFETY: the processor has AVX2 (checked above).
            unsafe { twist_whole_avx2(&mut mt_a, &mut out_a) }; // AVX2 checked above
            twist_generation(&mut mt_b, &mut out_b);
            assert_eq!((mt_a, out_a), (mt_b, out_b));
        }
    }

    // `truncate` stands for the checked `as` cast on the products `index_of` makes.
    #[test]
    fn index_of_is_the_checked_cast() {
        let top = (1u64 << 53) - 1;
        for bits in [0, 1, 12_345, 1 << 52, top - 1, top] {
            for n in [1usize, 2, 3, 7, 40, 511, 1 << 20, 1 << 32] {
                let x = bits as f64 * (1.0 / 9_007_199_254_740_992.0) * n as f64;
                assert_eq!(index_of(bits, n), x as usize, "bits {bits}, n {n}");
            }
        }
    }
}
