//! The Obelisk's four sides, priced. Reads the public heights,
//! pending stones, cards and the Passage's obelisks.

use super::{logits, rank_estimate, rounds_left, Built, POS};
use crate::action::Action;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::Kind;
use crate::sites::obelisk::{placements, Config, Obelisk};

pub fn key(c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    let n = c.n;
    match (&g.sites.obelisk, &g.rules.sites.obelisk) {
        (Obelisk::A(s), _) => {
            out.extend(s.heights[..n].iter().map(|&x| x as i64));
            out.push(c.round as i64);
        }
        (Obelisk::B(s), _) => {
            out.extend(s.pending[..n].iter().map(|&x| x as i64));
            out.push(s.taken as i64);
        }
        (Obelisk::C(s), Config::C { columns, .. }) => {
            out.push(s.next as i64);
            for p in 0..n {
                out.extend(s.cards[p][..*columns].iter().map(|&x| x as i64));
            }
            out.push(c.round as i64);
        }
        (Obelisk::D(s), Config::D { target, .. }) => {
            let k = target.len();
            out.extend(s.working[..n].iter().map(|&x| x as i64));
            out.extend(s.height[..k].iter().map(|&x| x as i64));
            out.extend(s.owner[..k].iter().map(|&x| x as i64));
            out.extend(s.placed[..n].iter().map(|&x| x as i64));
            out.push(c.round as i64);
        }
        _ => unreachable!("obelisk: side and config differ"),
    }
}

/// Obelisk C card: complete rows, minus a little for a ragged top (gaps to fill).
fn card_score(heights: &[i32], add: Option<&[i32]>, row_points: i32) -> f64 {
    let n = heights.len();
    let (mut low, mut high, mut total) = (0i64, 0i64, 0i64);
    for i in 0..n {
        let h = heights[i] as i64 + add.map_or(0, |a| a[i] as i64);
        if i == 0 || h < low {
            low = h;
        }
        if i == 0 || h > high {
            high = h;
        }
        total += h;
    }
    let rp = row_points as i64;
    (rp * low) as f64 + 0.4 * rp as f64 * (total - low * n as i64) as f64 / n as f64 - 0.3 * (high - low) as f64
}

fn future(c: &Ctx, placed: i32) -> f64 {
    let done = (c.round as i64 - 1).max(0) as f64 + 0.5;
    let pace = (placed as f64 + 1.5) / (done + 1.0);
    pace * rounds_left(c) as f64
}

fn worth(fut: f64, unf: i32, target: i32, points: i32, have: i32) -> f64 {
    let need = target - have;
    let p = if need <= 0 { 1.0 } else { min1(fut / need as f64).powf(1.5) };
    let m = if (need as f64) < fut { need as f64 } else { fut };
    p * points as f64 + (1.0 - p) * unf as f64 * (have as f64 + m)
}

/// x, at most 1 (a NaN gives 1).
fn min1(x: f64) -> f64 {
    if x < 1.0 {
        x
    } else {
        1.0
    }
}

pub fn build(c: &mut Ctx, g: &Game) -> Built {
    let n = c.n;
    let mut own = [[0.0; POS]; 4];
    match (&g.sites.obelisk, &g.rules.sites.obelisk) {
        (Obelisk::A(s), Config::A { points }) => {
            let table = points[n - 2].as_deref().unwrap_or(&[]);
            let left = c.rounds as i64 - c.round as i64 + 1;
            let logit = logits(0.35 + 0.55 * left.max(0) as f64);
            let mut heights = [0i32; 4];
            heights[..n].copy_from_slice(&s.heights[..n]);
            let h = &mut heights[..n];
            let base = rank_estimate(h, table, &logit, 1);
            let mut side = super::Side2::new(c.me);
            for o in 0..n {
                h[o] += 1;
                let est = rank_estimate(h, table, &logit, 1);
                h[o] -= 1;
                own[o] = [est[o] - base[o]; POS];
                for j in 0..POS {
                    for q in 0..n {
                        if q != o {
                            side.add(o, j, q, est[q] - base[q]);
                        }
                    }
                }
            }
            return Built { own, side: side.done() };
        }
        (Obelisk::B(s), Config::B { per, leftover, slot_points }) => {
            let per = *per as usize;
            for (o, row) in own.iter_mut().enumerate().take(n) {
                for (j, x) in row.iter_mut().enumerate() {
                    let idx = s.taken + j / per;
                    let mut v = if idx < slot_points.len() {
                        slot_points[idx] as f64 / per as f64
                    } else {
                        *leftover as f64
                    };
                    if s.pending[o] + 1 >= per as i32 && idx < slot_points.len() {
                        v = (slot_points[idx] - (per as i32 - 1) * leftover) as f64;
                    }
                    *x = if *leftover as f64 > v { *leftover as f64 } else { v };
                }
            }
        }
        (Obelisk::C(s), Config::C { columns, path, row_points, bonus, overflow, .. }) => {
            let bonus = match &bonus[n - 2] {
                Some(b) if !b.is_empty() => b[0] as f64 / 4.0,
                _ => 0.0,
            };
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let card = &s.cards[o][..*columns];
                for (j, x) in row.iter_mut().enumerate() {
                    let i = s.next + j;
                    *x = if i < path.len() {
                        let now = card_score(card, None, *row_points);
                        let mut best = 0.0;
                        for add in placements(*columns, &path[i], card) {
                            let v = card_score(card, Some(&add[..*columns]), *row_points) - now;
                            if v > best {
                                best = v;
                            }
                        }
                        best + bonus
                    } else {
                        *overflow as f64
                    };
                }
            }
        }
        (Obelisk::D(s), Config::D { target, points, unfinished, overflow, .. }) => {
            let free: Vec<usize> = (0..target.len()).filter(|&i| s.owner[i] < 0).collect();
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let fut = future(c, s.placed[o]);
                let w = s.working[o];
                let v = if w >= 0 {
                    let w = w as usize;
                    let (t, pts, h) = (target[w], points[w], s.height[w]);
                    worth(fut, *unfinished, t, pts, h + 1) - worth(fut, *unfinished, t, pts, h)
                } else if !free.is_empty() {
                    let mut best = 0.0;
                    for (k, &i) in free.iter().enumerate() {
                        let cv = worth(fut, *unfinished, target[i], points[i], 1);
                        if k == 0 || cv > best {
                            best = cv;
                        }
                    }
                    best / 2.0
                } else {
                    *overflow as f64
                };
                *row = [if 0.5 > v { 0.5 } else { v }; POS];
            }
        }
        _ => unreachable!("obelisk: side and config differ"),
    }
    Built::own(own)
}

pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    let me = c.me;
    let mut out = Vec::with_capacity(legal.len());
    match (&g.sites.obelisk, &g.rules.sites.obelisk) {
        (Obelisk::C(s), Config::C { columns, row_points, .. }) if kind == crate::kinds::OBELISK_TOKEN => {
            let card = &s.cards[me][..*columns];
            for a in legal {
                let add: Vec<i32> = (1..=*columns).map(|i| a.n(i)).collect();
                out.push(card_score(card, Some(&add), *row_points));
            }
        }
        (Obelisk::D(s), Config::D { unfinished, .. }) if kind == crate::kinds::OBELISK_CLAIM => {
            let fut = future(c, s.placed[me]);
            let unf = *unfinished as f64;
            for a in legal {
                let (h, pts) = (a.n(1), a.n(3));
                let d = (h - 1).max(1) as f64;
                let p = min1(fut / d).powf(1.5);
                let m = if ((h - 1) as f64) < fut { (h - 1) as f64 } else { fut };
                out.push(p * pts as f64 + (1.0 - p) * unf * (1.0 + m));
            }
        }
        _ => return Err(format!("no scripted-bot handler for {:?} on this obelisk", crate::kinds::name(kind))),
    }
    Ok(out)
}
