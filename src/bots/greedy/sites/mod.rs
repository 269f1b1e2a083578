//! The greedy bot's site evaluators: one module per site with its four sides, named like
//! the engine's; here their contract (`Eval`): per site a table `obj[owner * POS +
//! position]` (my objective for a stone of that owner unloaded at that position), rebuilt
//! only when the site's key changes.

use std::cell::RefCell;
use std::rc::Rc;

use super::context::Ctx;
use crate::action::Action;
use crate::game::Game;
use crate::kinds::Kind;
use crate::rules::Side;

pub mod burial_chamber;
pub mod market;
pub mod obelisk;
pub mod pyramid;
pub mod temple;

/// A ship unloads at most 4 stones.
pub const POS: usize = 4;

/// A build: the owners' own points, and what a stone does to the others
/// (the totals per entry and the part of them that is mine), or None.
pub struct Built {
    pub own: [[f64; POS]; 4],
    pub side: Option<([f64; 16], [f64; 16])>,
}

impl Built {
    pub fn own(own: [[f64; POS]; 4]) -> Built {
        Built { own, side: None }
    }
}

/// What a side builder keeps between builds.
#[derive(Clone, Debug, Default)]
pub enum Memo {
    #[default]
    None,
    /// Burial A's union-find over the stones placed so far
    UnionFind { parent: Vec<usize>, size: Vec<usize> },
    /// Burial D's gains for the grid with `empty` empty cells: token * 16 + owner -> gain
    Tomb { empty: i64, gains: super::fast_map::FastMap<i64, f64> },
    /// Pyramid D's get_extra memo
    Corridor { filled: i64, figure: i64, delta: Option<f64> },
}

pub struct Eval {
    pub index: usize,
    pub side: Side,
    pub epoch: i64,
    pub key: Option<Vec<i64>>,
    pub obj: [f64; 16],
    pub raw: [[f64; POS]; 4],
    /// raw holds a build
    pub built: bool,
    /// bumped at every rebuild (the context's ship evaluations are dropped when it changes)
    pub ver: u64,
    pub wme: f64,
    pub memo: Memo,
}

impl Eval {
    pub fn new(c: &Ctx, g: &Game, index: usize) -> Result<Eval, String> {
        let side = g.rules.sides[index];
        // the Market's card values are already weighted by the card valuer
        let wme = if index == 0 { 1.0 } else { c.w.0[crate::bots::weights::site_key(index)] };
        let memo = match (index, side) {
            (3, Side::A) => Memo::UnionFind { parent: Vec::new(), size: Vec::new() },
            (3, Side::D) => Memo::Tomb { empty: -1, gains: Default::default() },
            (1, Side::D) => Memo::Corridor { filled: -1, figure: -1, delta: None },
            _ => Memo::None,
        };
        Ok(Eval { index, side, epoch: -1, key: None, obj: [0.0; 16], raw: [[0.0; POS]; 4], built: false, ver: 0, wme, memo })
    }

    /// A site that changes without a delivery (Pyramid D's figure moves on a get).
    pub fn volatile(&self) -> bool {
        self.index == 1 && self.side == Side::D
    }
}

/// Site i's key (anything that changes whenever its value model changes), appended to `out`.
pub fn key_into(c: &Ctx, g: &Game, i: usize, out: &mut Vec<i64>) {
    match i {
        0 => market::key(c, g, out),
        1 => pyramid::key(c, g, out),
        2 => temple::key(c, g, out),
        3 => burial_chamber::key(c, g, out),
        _ => obelisk::key(c, g, out),
    }
}

fn build(c: &mut Ctx, g: &Game, i: usize) -> Built {
    match i {
        0 => market::build(c, g),
        1 => pyramid::build(c, g),
        2 => temple::build(c, g),
        3 => burial_chamber::build(c, g),
        _ => obelisk::build(c, g),
    }
}

/// Tables up to date for this epoch (checked lazily).
pub fn ensure(c: &mut Ctx, g: &Game, i: usize) {
    if c.evals[i].epoch != c.epoch {
        c.evals[i].epoch = c.epoch;
        refresh(c, g, i);
    }
}

/// Rebuild site i's tables if its key changed; true if it did.
pub fn refresh(c: &mut Ctx, g: &Game, i: usize) -> bool {
    // the key is made in the context's spare buffer, which takes the old key in turn
    let mut k = std::mem::take(&mut c.spare_key);
    k.clear();
    key_into(c, g, i, &mut k);
    if c.evals[i].key.as_ref() == Some(&k) {
        c.spare_key = k;
        return false;
    }
    if let Some(old) = c.evals[i].key.replace(k) {
        c.spare_key = old;
    }
    let b = build(c, g, i);
    let (me, cop, n) = (c.me, c.cop, c.n);
    let ev = &mut c.evals[i];
    let wme = ev.wme;
    let mut obj = [0.0; 16];
    match &b.side {
        None => {
            for o in 0..n {
                let coef = if o == me { wme } else { cop };
                for j in 0..POS {
                    obj[o * POS + j] = coef * b.own[o][j];
                }
            }
        }
        Some((tot, vec)) => {
            let dw = wme - cop;
            for o in 0..n {
                let coef = if o == me { wme } else { cop };
                for j in 0..POS {
                    let x = o * POS + j;
                    obj[x] = coef * b.own[o][j] + cop * tot[x] + dw * vec[x];
                }
            }
        }
    }
    ev.obj = obj;
    ev.raw = b.own;
    ev.built = true;
    ev.ver += 1;
    true
}

/// My objective for stones of `owners` unloaded at site i in this order.
pub fn batch_obj(c: &mut Ctx, g: &Game, i: usize, owners: &[usize]) -> f64 {
    ensure(c, g, i);
    let obj = &c.evals[i].obj;
    let mut v = 0.0;
    for (j, &o) in owners.iter().enumerate() {
        v += obj[o * POS + j];
    }
    v
}

/// The site whose evaluator answers `kind`.
pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    use crate::kinds::*;
    match kind {
        MARKET_PICK | MARKET_KEEP => market::decide(c, g, kind, legal),
        PYRAMID_CHOICE | PYRAMID_SHIP_SLOT => pyramid::decide(c, g, kind, legal),
        TEMPLE_BONUS | TEMPLE_KEEP => temple::decide(c, g, kind, legal),
        MOUND_SPACE | TOMB_TOKEN => burial_chamber::decide(c, g, kind, legal),
        OBELISK_TOKEN | OBELISK_CLAIM => obelisk::decide(c, g, kind, legal),
        _ => Err(format!("no scripted-bot handler for decision kind {:?}", crate::kinds::name(kind))),
    }
}

/// The side-tables builder: what a stone does to the others (their totals and my share of
/// them).
pub struct Side2 {
    pub tot: [f64; 16],
    pub vec: [f64; 16],
    me: usize,
}

impl Side2 {
    pub fn new(me: usize) -> Side2 {
        Side2 { tot: [0.0; 16], vec: [0.0; 16], me }
    }

    /// A stone of o at position j gives seat q `d` points.
    #[inline]
    pub fn add(&mut self, o: usize, j: usize, q: usize, d: f64) {
        let x = o * POS + j;
        self.tot[x] += d;
        if q == self.me {
            self.vec[x] += d;
        }
    }

    pub fn done(self) -> Option<([f64; 16], [f64; 16])> {
        Some((self.tot, self.vec))
    }
}

/// P(a player ahead by d ends above), d = -span..span, indexed by d + span. A site's
/// sigma takes one value per round, so the tables are made once per sigma and thread: a
/// table costs an `exp` per entry.
pub fn logits(sigma: f64) -> Rc<[f64]> {
    thread_local! {
        static TABLES: RefCell<Vec<(u64, Rc<[f64]>)>> = const { RefCell::new(Vec::new()) };
    }
    TABLES.with_borrow_mut(|tables| {
        if let Some((_, t)) = tables.iter().find(|(bits, _)| *bits == sigma.to_bits()) {
            return t.clone();
        }
        let t = logistic_table(sigma);
        tables.push((sigma.to_bits(), t.clone()));
        t
    })
}

fn logistic_table(sigma: f64) -> Rc<[f64]> {
    let span = 64i32;
    (-span..=span)
        .map(|d| {
            let x = d as f64 / sigma;
            if x > 30.0 {
                1.0
            } else if x < -30.0 {
                0.0
            } else {
                1.0 / (1.0 + (-x).exp())
            }
        })
        .collect()
}

/// Expected rank points for each player when the final heights are uncertain.
pub fn rank_estimate(heights: &[i32], table: &[i32], logit: &[f64], minimum: i32) -> [f64; 4] {
    let n = heights.len();
    let mut out = [0.0; 4];
    let last = table.len() as i64 - 1;
    let span = (logit.len() / 2) as i32;
    for p in 0..n {
        let hp = heights[p] + span;
        let mut beaten = 0.0;
        for q in 0..n {
            if q != p {
                beaten += logit[(hp - heights[q]) as usize];
            }
        }
        let pos = (n - 1) as f64 - beaten;
        let i = pos as i64;
        let frac = pos - i as f64;
        let a = if i <= last { table[i as usize] } else { 0 };
        let b = if i < last { table[(i + 1) as usize] } else { 0 };
        let mut v = a as f64 + (b - a) as f64 * frac;
        if heights[p] < minimum {
            v *= 0.5;
        }
        out[p] = v;
    }
    out
}

/// Round ends still to come, this round's included.
pub fn rounds_left(c: &Ctx) -> i64 {
    (c.rounds as i64 - c.round as i64 + 1).max(0)
}

/// The part of a site's key for tables built from card values.
pub fn card_key(c: &Ctx, out: &mut Vec<i64>) {
    match c.cards.book.key {
        Some(k) => out.extend_from_slice(&k),
        None => out.extend_from_slice(&[-1, -1, -1]),
    }
    out.push(if c.cards.unit { -1 } else { c.me as i64 });
}

/// market_keep / temple_keep: the card worth most to me.
pub fn card_keep(c: &mut Ctx, g: &Game, legal: &[Action]) -> Vec<f64> {
    let me = c.me;
    legal
        .iter()
        .map(|a| {
            let card = g.rules.card_of(a.name(0).expect("a card name")).expect("a card");
            super::cards::value(c, g, me, card)
        })
        .collect()
}
