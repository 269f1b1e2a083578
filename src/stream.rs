//! CPython's `random.Random`, the same numbers: MT19937 seeded from a str (version 2:
//! the text's bytes followed by their sha512, as one big integer), `random()`,
//! `getrandbits(k)` for k <= 32, `_randbelow` and `sample`.
//!
//! (The spine's minimal version, the signatures the engine calls; C1 owns this module.)

use sha2::{Digest, Sha512};

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_B0DF;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7FFF_FFFF;

#[derive(Clone)]
pub struct Stream {
    mt: [u32; N],
    index: usize,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stream(index {})", self.index)
    }
}

impl Stream {
    fn init_genrand(s: u32) -> Stream {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Stream { mt, index: N }
    }

    /// `init_by_array` (CPython's `random_seed` with a key of 32-bit words, least
    /// significant first).
    pub fn from_key(key: &[u32]) -> Stream {
        let mut s = Stream::init_genrand(19_650_218);
        let mt = &mut s.mt;
        let mut i = 1usize;
        let mut j = 0usize;
        let len = key.len().max(1);
        let mut k = N.max(len);
        while k > 0 {
            let kj = if key.is_empty() { 0 } else { key[j] };
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(kj)
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        mt[0] = 0x8000_0000;
        s
    }

    /// `random.Random(text)`: seed version 2 for a str.
    pub fn from_text(text: &str) -> Stream {
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(&Sha512::digest(text.as_bytes()));
        // the big-endian integer's 32-bit words, least significant first
        let mut key = Vec::with_capacity(bytes.len() / 4 + 1);
        let mut end = bytes.len();
        while end > 0 {
            let start = end.saturating_sub(4);
            let mut w = 0u32;
            for &b in &bytes[start..end] {
                w = (w << 8) | b as u32;
            }
            key.push(w);
            end = start;
        }
        while key.len() > 1 && *key.last().unwrap() == 0 {
            key.pop();
        }
        Stream::from_key(&key)
    }

    fn refill(&mut self) {
        let mt = &mut self.mt;
        for kk in 0..N {
            let y = (mt[kk] & UPPER) | (mt[(kk + 1) % N] & LOWER);
            mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ ((y & 1) * MATRIX_A);
        }
        self.index = 0;
    }

    /// The next 32-bit word (genrand_uint32).
    #[inline]
    pub fn next32(&mut self) -> u32 {
        if self.index >= N {
            self.refill();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9D2C_5680;
        y ^= (y << 15) & 0xEFC6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: 53 random bits in [0, 1).
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = (self.next32() >> 5) as f64;
        let b = (self.next32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for 0 < k <= 32.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        self.next32() >> (32 - k)
    }

    /// `_randbelow(n)` for n >= 1: getrandbits of n's bit length until below n.
    pub fn randbelow(&mut self, n: usize) -> usize {
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `sample(range(n), k)`: the indexes random.sample picks from a population of n.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "sample larger than population");
        let mut setsize = 21usize;
        if k > 5 {
            // 4 ** ceil(log(3 k, 4))
            let x = ((3 * k) as f64).ln() / 4f64.ln();
            setsize += 4usize.pow(x.ceil() as u32);
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
            let mut selected = std::collections::HashSet::new();
            for _ in 0..k {
                let mut j = self.randbelow(n);
                while selected.contains(&j) {
                    j = self.randbelow(n);
                }
                selected.insert(j);
                out.push(j);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_random_from_a_str_seed() {
        // python3: r = random.Random('0/deal'); r.random(), r.random()
        let mut r = Stream::from_text("0/deal");
        assert_eq!(r.random(), 0.9248963576378825);
        assert_eq!(r.random(), 0.9928746408808428);
        // r = random.Random('7/prophecies'); r.sample(list(range(7)), 3)
        assert_eq!(Stream::from_text("7/prophecies").sample(7, 3), vec![5, 2, 0]);
        assert_eq!(Stream::from_text("x").getrandbits(32), 2709212627);
    }
}
