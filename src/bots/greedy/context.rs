//! The greedy bot's evaluation context: per game and seat,
//! what it knows and caches between decisions: its weights, the site evaluators (`sites/`),
//! the card prices (`cards`), the free sites' tables and every ship's evaluation.
//!
//! Reads only the public fields of the `Game` (the seat's view, engine/view.py): counters,
//! ships, docks, the sites' public state, hands through `cards::hand` (every seat's held
//! cards are public).

use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::cards::CardValues;
use super::sites::{self, Eval, POS};
use crate::bots::weights::{Weights, DENY, OPTIMISM, STONES};
use crate::game::Game;

pub const STONE: f64 = 1.0;
pub const DECAY: f64 = 0.55;

/// DECAY**k (`powf`, worked out once for the small k a sled holds).
#[inline]
pub fn dpow(k: i32) -> f64 {
    static TABLE: OnceLock<[f64; 32]> = OnceLock::new();
    let table = TABLE.get_or_init(|| std::array::from_fn(|k| DECAY.powf(k as f64)));
    match table.get(k as usize) {
        Some(&x) if k >= 0 => x,
        _ => DECAY.powf(k as f64),
    }
}

/// Ship s's slots: owner, -1 empty, -2 unloaded.
pub type Slots = ArrayVec<i8, 4>;

/// A ship's placement values (`ShipRes::pv`).
#[derive(Clone, Debug)]
pub enum Pv {
    /// the per-slot gains (special cases)
    List(ArrayVec<Option<f64>, 4>),
    /// the free sites (positions in `free`) that set the max and the min
    HiLo(usize, usize),
}

/// One ship's evaluation.
#[derive(Clone, Debug)]
pub struct ShipRes {
    pub e: f64,
    pub base: ArrayVec<f64, 5>,
    pub pv: Pv,
    pub best_place: Option<f64>,
    /// the slots of the best places
    pub places: ArrayVec<u8, 4>,
    pub best_sail: Option<f64>,
    /// the sites of the best sails
    pub sails: ArrayVec<u8, 5>,
    pub slots: Slots,
}

pub struct Ctx {
    pub me: usize,
    pub n: usize,
    pub rounds: usize,
    pub w: Weights,
    pub cop: f64,
    pub lam: f64,
    pub mu: f64,
    pub lam1: f64,
    pub mu1: f64,
    pub pv_b: f64,
    pub pv_c: f64,
    pub three: bool,
    pub stone: f64,
    pub stone_now: f64,
    // the counters, read at every decision (begin)
    pub sled: [i32; 4],
    pub quarry: [i32; 4],
    pub sled_cap: [i32; 4],
    pub dock: [i8; 4],
    pub used: [u8; 5],
    pub slots: [Slots; 4],
    pub get_stones: i32,
    pub round: usize,
    pub sailed: usize,
    pub ekey: Vec<i64>,
    /// a buffer for the next key (begin's and the sites' refresh), so keys are not allocated
    pub spare_key: Vec<i64>,
    pub epoch: i64,
    pub ckey: Option<[i64; 3]>,
    pub free: ArrayVec<usize, 5>,
    /// the free sites' tables' versions (`Eval::ver`): a change drops the ship evaluations
    pub free_tabs: ArrayVec<u64, 5>,
    pub free_epoch: i64,
    pub sizes: [u8; 4],
    pub mins: [u8; 4],
    pub cards: CardValues,
    pub evals: Vec<Eval>,
    pub volatile: ArrayVec<usize, 5>,
    pub ship_res: [Option<ShipRes>; 4],
    pub stones_cache: Option<[f64; 5]>,
    pub slope_cache: Option<(Option<[f64; 4]>, f64)>,
}

impl Ctx {
    pub fn new(w: Weights, g: &Game, me: usize) -> Result<Ctx, String> {
        let n = g.n;
        let cop = -w.0[DENY] / (n as f64 - 1.0);
        let lam = w.0[OPTIMISM] * 2.0 / n as f64;
        let mu = if n == 2 { 1.0 } else { 0.5 };
        let stone = STONE * w.0[STONES];
        let mut c = Ctx {
            me,
            n,
            rounds: g.rounds,
            w,
            cop,
            lam,
            mu,
            lam1: 1.0 - lam,
            mu1: 1.0 - mu,
            pv_b: (1.0 - lam) * mu,
            pv_c: (1.0 - lam) * (1.0 - mu),
            three: mu < 1.0,
            stone,
            stone_now: stone,
            sled: [0; 4],
            quarry: [0; 4],
            sled_cap: [0; 4],
            dock: [-1; 4],
            used: [0; 5],
            slots: Default::default(),
            get_stones: g.get_stones,
            round: 0,
            sailed: 0,
            ekey: Vec::new(),
            spare_key: Vec::new(),
            epoch: 0,
            ckey: None,
            free: ArrayVec::new(),
            free_tabs: ArrayVec::new(),
            free_epoch: -1,
            sizes: [0; 4],
            mins: [0; 4],
            cards: CardValues::new(&w, g, me),
            evals: Vec::new(),
            volatile: ArrayVec::new(),
            ship_res: [None, None, None, None],
            stones_cache: None,
            slope_cache: None,
        };
        for i in 0..5 {
            let ev = Eval::new(&c, g, i)?;
            if ev.volatile() {
                c.volatile.push(i);
            }
            c.evals.push(ev);
        }
        Ok(c)
    }

    /// Per decision: start a new epoch when the cheap key says something moved.
    pub fn begin(&mut self, g: &Game) {
        let n = self.n;
        self.sled[..n].copy_from_slice(&g.sled[..n]);
        self.quarry[..n].copy_from_slice(&g.quarry[..n]);
        self.sled_cap[..n].copy_from_slice(&g.sled_cap[..n]);
        for s in 0..4 {
            self.dock[s] = g.ship_dock[s];
            self.slots[s] = g.ship_slots(s).iter().copied().collect();
        }
        self.used.copy_from_slice(&g.dock_used[..5]);
        let rnd = g.round;
        let sailed = g.sailed as usize;
        let taken: i64 = g.cards_taken[..n].iter().map(|&x| x as i64).sum();
        let mut key = std::mem::take(&mut self.spare_key);
        key.clear();
        key.extend([rnd as i64, sailed as i64, taken, g.discard.len() as i64]);
        for k in 0..self.volatile.len() {
            let i = self.volatile[k];
            sites::key_into(self, g, i, &mut key);
            key.push(-999_999); // a separator between the volatile sites' keys
        }
        if key == self.ekey {
            self.spare_key = key;
            return;
        }
        let old = std::mem::replace(&mut self.ekey, key);
        let full;
        if rnd != self.round {
            self.sizes = g.ship_sizes;
            self.mins.copy_from_slice(&g.ship_min[..4]);
            self.round = rnd;
            full = true;
        } else {
            full = old.len() < 2 || self.ekey[2..] != old[2..];
        }
        self.spare_key = old;
        if sailed != self.sailed || full {
            self.sailed = sailed;
            self.stone_now = if rnd >= self.rounds {
                self.stone * (0.5 * (1.0 - sailed as f64 / 4.0))
            } else {
                self.stone
            };
        }
        if full {
            let ckey = [self.ekey[0], self.ekey[1], self.ekey[2]];
            if Some(ckey) != self.ckey {
                self.ckey = Some(ckey);
                super::cards::new_epoch(self);
                self.stones_cache = None;
            }
            self.epoch += 1;
        }
        self.set_free(g);
    }

    /// Mid-unload decisions: sites may have changed without a new epoch key.
    pub fn touch(&mut self, g: &Game) {
        self.epoch += 1;
        self.set_free(g);
    }

    /// The sites a ship can still sail to, and their tables (others stay lazy).
    pub fn set_free(&mut self, g: &Game) {
        let epoch = self.epoch;
        if epoch == self.free_epoch {
            if !self.free.iter().any(|&i| self.used[i] != 0) {
                return;
            }
            let mut new = ArrayVec::new();
            let mut tabs = ArrayVec::new();
            for (x, &i) in self.free.iter().enumerate() {
                if self.used[i] == 0 {
                    new.push(i);
                    tabs.push(self.free_tabs[x]);
                }
            }
            self.free = new;
            self.free_tabs = tabs;
        } else {
            let mut free = ArrayVec::<usize, 5>::new();
            let mut tabs = ArrayVec::<u64, 5>::new();
            for i in 0..5 {
                if self.used[i] == 0 {
                    if self.evals[i].epoch != epoch {
                        self.evals[i].epoch = epoch;
                        sites::refresh(self, g, i);
                    }
                    free.push(i);
                    tabs.push(self.evals[i].ver);
                }
            }
            self.free_epoch = epoch;
            if free == self.free && tabs == self.free_tabs {
                return;
            }
            self.free = free;
            self.free_tabs = tabs;
        }
        self.slope_cache = None;
        self.ship_res = [None, None, None, None];
    }

    /// Free site x's table (x: a position in `free`).
    #[inline]
    pub fn tab(&self, x: usize) -> &[f64; 16] {
        &self.evals[self.free[x]].obj
    }

    /// My stone's mean value over the free sites per position (3-4 players), and an empty
    /// ship's expected value for my first stone.
    pub fn slope(&mut self) -> (Option<[f64; 4]>, f64) {
        if let Some(s) = self.slope_cache {
            return s;
        }
        let me = self.me * POS;
        let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
        let mut lo = self.tab(0)[me];
        let mut hi = lo;
        for x in 0..self.free.len() {
            let t = self.tab(x);
            let v = t[me];
            s0 += v;
            s1 += t[me + 1];
            s2 += t[me + 2];
            s3 += t[me + 3];
            if v < lo {
                lo = v;
            } else if v > hi {
                hi = v;
            }
        }
        let k = self.free.len() as f64;
        let means = if self.three { Some([s0 / k, s1 / k, s2 / k, s3 / k]) } else { None };
        if let Some(m) = means {
            lo = self.mu * lo + self.mu1 * m[0];
        }
        let s = (means, self.lam * hi + self.lam1 * lo);
        self.slope_cache = Some(s);
        s
    }

    /// Share of the game still to play (1 at the start, 0 at the end).
    pub fn left_fraction(&self) -> f64 {
        let v = ((self.rounds as i64 - self.round as i64 + 1) as f64 - self.sailed as f64 / 4.0)
            / self.rounds as f64;
        if 0.0 > v {
            0.0
        } else {
            v
        }
    }

    /// Stones expected at site i at game end (decorations): now plus its pace so far.
    pub fn expected_stones(&mut self, g: &Game, i: usize) -> f64 {
        if self.stones_cache.is_none() {
            let done = (self.round as i64 - 1) as f64 + self.sailed as f64 / 4.0;
            let left = self.rounds as f64 - done;
            let mut st = [0.0; 5];
            for (j, x) in st.iter_mut().enumerate().skip(1) {
                let s = crate::sites::stones(g, j) as f64;
                *x = s + (s + 4.0) / (done + 2.0) * left;
            }
            self.stones_cache = Some(st);
        }
        self.stones_cache.unwrap()[i]
    }

    /// Worth to p of k stones moved from the quarry to the sled (capacity caps).
    pub fn stones_worth(&self, p: usize, k: i32) -> f64 {
        let sled = self.sled[p];
        let k = k.min(self.sled_cap[p] - sled).min(self.quarry[p]);
        let base = self.stone_now;
        let mut v = 0.0;
        for j in sled..sled + k {
            v += base * dpow(j);
        }
        v
    }

    /// Worth of the (k+1)-th stone on my sled.
    #[inline]
    pub fn sled_value(&self, k: i32) -> f64 {
        if k < 0 {
            return 0.0;
        }
        self.stone_now * dpow(k)
    }

    /// Ship s's evaluation (cached while its slots and the free tables stand).
    pub fn ship(&mut self, s: usize) -> &ShipRes {
        let fresh = match &self.ship_res[s] {
            Some(r) => r.slots != self.slots[s],
            None => true,
        };
        if fresh {
            let r = self.compute_ship(s);
            self.ship_res[s] = Some(r);
        }
        self.ship_res[s].as_ref().unwrap()
    }

    fn compute_ship(&mut self, s: usize) -> ShipRes {
        let slots = self.slots[s].clone();
        let size = slots.len();
        let owners: ArrayVec<usize, 4> = slots.iter().filter(|&&o| o >= 0).map(|&o| o as usize).collect();
        let m = owners.len();
        let groups = open_groups(&slots);
        let sailable = m >= if size > 1 { size - 1 } else { 1 };
        let k = self.free.len();
        if k == 0 {
            let pv = slots.iter().map(|&o| if o == -1 { Some(0.0) } else { None }).collect();
            let places = groups.iter().flat_map(|g| g.1.iter().copied()).collect();
            return ShipRes {
                e: 0.0, base: ArrayVec::new(), pv: Pv::List(pv), best_place: Some(0.0), places,
                best_sail: None, sails: ArrayVec::new(), slots,
            };
        }
        if m == 0 {
            let g = self.slope().1;
            return ShipRes {
                e: 0.0,
                base: (0..k).map(|_| 0.0).collect(),
                pv: Pv::List((0..size).map(|_| Some(g)).collect()),
                best_place: Some(g),
                places: (0..size as u8).collect(),
                best_sail: None,
                sails: ArrayVec::new(),
                slots,
            };
        }
        let mut base = ArrayVec::<f64, 5>::new();
        let (mut mx, mut mn, mut tot) = (0.0, 0.0, 0.0);
        let (mut x, mut y, mut cnt) = (0, 0, 0);
        for i in 0..k {
            let t = self.tab(i);
            let mut v = t[owners[0] * POS];
            for (jj, &o) in owners.iter().enumerate().skip(1) {
                v += t[o * POS + jj];
            }
            base.push(v);
            tot += v;
            if i == 0 {
                mx = v;
                mn = v;
                cnt = 1;
            } else if v > mx {
                mx = v;
                x = i;
                cnt = 1;
            } else if v < mn {
                mn = v;
                y = i;
            } else if v == mx {
                cnt += 1;
            }
        }
        let lam = self.lam;
        let three = self.three;
        let e = if three {
            lam * mx + self.lam1 * (self.mu * mn + self.mu1 * tot / k as f64)
        } else {
            lam * mx + self.lam1 * mn
        };
        let (sails, best_sail) = if sailable {
            let sails: ArrayVec<u8, 5> = if cnt == 1 {
                std::iter::once(self.free[x] as u8).collect()
            } else {
                (0..k).filter(|&i| base[i] >= mx - 1e-9).map(|i| self.free[i] as u8).collect()
            };
            let bs = mx - e;
            if m == size {
                return ShipRes {
                    e, base, pv: Pv::List(ArrayVec::new()), best_place: None, places: ArrayVec::new(),
                    best_sail: Some(bs), sails, slots,
                };
            }
            (sails, Some(bs))
        } else {
            (ArrayVec::new(), None)
        };
        if groups.is_empty() {
            return ShipRes {
                e, base, pv: Pv::List((0..size).map(|_| None).collect()), best_place: None,
                places: ArrayVec::new(), best_sail, sails, slots,
            };
        }
        let (bp, best) = self.group_values(&groups, x, y, |_, _| {});
        ShipRes { e, base, pv: Pv::HiLo(x, y), best_place: Some(bp), places: best, best_sail, sails, slots }
    }

    /// My stone's value per group of slots (the sites at free positions x, y set the max and
    /// the min); `each(v, slots)` sees every group's; returns the best and its slots.
    fn group_values(
        &mut self,
        groups: &[(usize, ArrayVec<u8, 4>)],
        x: usize,
        y: usize,
        mut each: impl FnMut(f64, &[u8]),
    ) -> (f64, ArrayVec<u8, 4>) {
        let me = self.me * POS;
        let lam = self.lam;
        let three = self.three;
        let (mean, b, c) = if three {
            (self.slope().0.unwrap(), self.pv_b, self.pv_c)
        } else {
            ([0.0; 4], self.lam1, 0.0)
        };
        let hi = *self.tab(x);
        let lo = *self.tab(y);
        let mut bp = -1e18;
        let mut best = ArrayVec::new();
        for (j, ks) in groups {
            let mut v = lam * hi[me + j] + b * lo[me + j];
            if three {
                v += c * mean[*j];
            }
            each(v, ks);
            if v > bp + 1e-9 {
                bp = v;
                best = ks.clone();
            } else if v >= bp - 1e-9 {
                best.extend(ks.iter().copied());
            }
        }
        (bp, best)
    }

    /// Ship s: my stone's gain per slot (None where no stone can go).
    pub fn slot_gains(&mut self, s: usize) -> ArrayVec<Option<f64>, 4> {
        let r = self.ship(s);
        let (x, y) = match &r.pv {
            Pv::List(v) => return v.clone(),
            Pv::HiLo(x, y) => (*x, *y),
        };
        let slots = r.slots.clone();
        let groups = open_groups(&slots);
        let mut out: ArrayVec<Option<f64>, 4> = (0..slots.len()).map(|_| None).collect();
        self.group_values(&groups, x, y, |v, ks| {
            for &k in ks {
                out[k as usize] = Some(v);
            }
        });
        out
    }
}

/// A ship's open slots grouped: (j, slot indexes) per run of open slots with j stones
/// before them (a stone placed in any slot of a run unloads (j+1)-th).
fn open_groups(slots: &[i8]) -> ArrayVec<(usize, ArrayVec<u8, 4>), 4> {
    let mut groups: ArrayVec<(usize, ArrayVec<u8, 4>), 4> = ArrayVec::new();
    let mut j = 0;
    for (k, &o) in slots.iter().enumerate() {
        if o >= 0 {
            j += 1;
        } else if o == -1 {
            match groups.last_mut() {
                Some(gr) if gr.0 == j => gr.1.push(k as u8),
                _ => {
                    let mut v = ArrayVec::new();
                    v.push(k as u8);
                    groups.push((j, v));
                }
            }
        }
    }
    groups
}
