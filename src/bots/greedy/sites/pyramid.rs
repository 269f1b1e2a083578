//! The Pyramid's four sides, priced. Reads the public
//! pyramids, tile, corridor and figure.

use super::{Built, Memo, POS};
use crate::action::Action;
use crate::bots::greedy::cards;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::{Kind, PYRAMID_SHIP_SLOT};
use crate::sites::pyramid::{Config, Pyramid, Reward};

/// A quarry stone put on a ship for free (Pyramid B "ship").
const SHIP_BONUS: f64 = 0.8;

pub fn key(c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    match &g.sites.pyramid {
        Pyramid::A(p) => out.push(p.placed as i64),
        Pyramid::B(p) => {
            let Config::B { spaces, .. } = &g.rules.sites.pyramid else { unreachable!() };
            out.extend(p.laid[..spaces.len()].iter().map(|&x| x as i64));
            out.push(c.cards.epoch);
        }
        Pyramid::C(p) => {
            out.push(p.tile as i64);
            out.push(p.on_tile.len() as i64);
            out.push(c.cards.epoch);
        }
        Pyramid::D(p) => {
            out.push(p.filled as i64);
            out.push(p.figure as i64);
        }
    }
}

/// A pyramid reward to player o.
pub fn reward_value(c: &mut Ctx, g: &Game, o: usize, r: Reward) -> f64 {
    match r {
        Reward::Points(n) => n as f64,
        Reward::Stones(n) => c.stones_worth(o, n),
        Reward::Card => cards::unknown(c, g, o, 1),
        Reward::Ship => SHIP_BONUS,
        Reward::None => 0.0,
    }
}

fn space_value(c: &mut Ctx, g: &Game, o: usize, i: usize, k: usize) -> f64 {
    let Config::B { spaces, .. } = &g.rules.sites.pyramid else { unreachable!() };
    let sp = &spaces[i];
    if k >= sp.len() {
        return -1.0;
    }
    let (pts, r) = sp[k];
    pts as f64 + reward_value(c, g, o, r)
}

fn free_after(spaces: &[i8], size: usize, start: usize, k: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for step in 1..=size {
        let i = (start + step) % size;
        if spaces[i] < 0 {
            out.push(i);
            if out.len() == k {
                break;
            }
        }
    }
    out
}

pub fn build(c: &mut Ctx, g: &Game) -> Built {
    let mut own = [[0.0; POS]; 4];
    let n = c.n;
    match (&g.sites.pyramid, &g.rules.sites.pyramid) {
        (Pyramid::A(p), Config::A { points, overflow }) => {
            let i = p.placed;
            let mut pts = [0.0; POS];
            for (j, x) in pts.iter_mut().enumerate() {
                *x = if i + j < points.len() { points[i + j] } else { *overflow } as f64;
            }
            own[..n].fill(pts);
        }
        (Pyramid::B(p), Config::B { spaces, overflow, .. }) => {
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let mut filled: Vec<usize> = p.laid[..spaces.len()].iter().map(|&x| x as usize).collect();
                let mut vals: Vec<f64> = Vec::with_capacity(filled.len());
                for (i, &f) in filled.iter().enumerate() {
                    vals.push(space_value(c, g, o, i, f));
                }
                let mut moved: Option<usize> = None;
                for x in row.iter_mut() {
                    if let Some(m) = moved.take() {
                        vals[m] = space_value(c, g, o, m, filled[m]);
                    }
                    let mut best = vals[0];
                    let mut i = 0;
                    for (k, &v) in vals.iter().enumerate().skip(1) {
                        if v > best {
                            best = v;
                            i = k;
                        }
                    }
                    if best < 0.0 {
                        *x = *overflow as f64;
                        continue;
                    }
                    filled[i] += 1;
                    moved = Some(i);
                    *x = best;
                }
            }
        }
        (Pyramid::C(p), Config::C { tiles, majority, overflow, .. }) => {
            if p.tile < 0 {
                own[..n].fill([*overflow as f64; POS]);
                return Built::own(own);
            }
            let rewards = &tiles[p.tile as usize];
            let on = &p.on_tile;
            let size = rewards.len();
            let maj = *majority;
            let count = |q: usize| on.iter().filter(|&&x| x as usize == q && x >= 0).count() as i64;
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let mine = count(o);
                let mut others = 0;
                for q in 0..n {
                    if q != o {
                        others = others.max(count(q));
                    }
                }
                for (j, x) in row.iter_mut().enumerate() {
                    let idx = on.len() + j;
                    *x = if idx < size {
                        let mut v = reward_value(c, g, o, rewards[idx]);
                        let rest = (size - idx - 1) as i64;
                        let before = clamp01(0.5 + (mine - others) as f64 / (rest + 3) as f64);
                        let after = clamp01(0.5 + (mine + 1 - others) as f64 / (rest + 2) as f64);
                        v += maj as f64 * (after - before);
                        v
                    } else {
                        1.5 + maj as f64 / size as f64
                    };
                }
            }
        }
        (Pyramid::D(p), Config::D { points, overflow }) => {
            let nxt = free_after(&p.spaces, p.size, p.figure, POS);
            let mut pts = [*overflow as f64; POS];
            for (j, &i) in nxt.iter().enumerate() {
                pts[j] = points[i] as f64;
            }
            own[..n].fill(pts);
        }
        _ => unreachable!("pyramid: side and config differ"),
    }
    Built::own(own)
}

/// x clamped to [0, 1] by two comparisons in this order (a NaN passes through).
fn clamp01(x: f64) -> f64 {
    let y = if 0.0 > x { 0.0 } else { x };
    if 1.0 < y {
        1.0
    } else {
        y
    }
}

/// `get move` (Pyramid D): the next pyramid stone lands one free space further on.
pub fn get_extra(c: &mut Ctx, g: &Game) -> Result<f64, String> {
    let (Pyramid::D(p), Config::D { points, .. }) = (&g.sites.pyramid, &g.rules.sites.pyramid) else {
        return Err("no scripted-bot handler for a get with an extra on this pyramid".into());
    };
    let ev = &mut c.evals[1];
    let Memo::Corridor { filled, figure, delta } = &mut ev.memo else { unreachable!() };
    if p.filled as i64 != *filled || p.figure as i64 != *figure {
        *filled = p.filled as i64;
        *figure = p.figure as i64;
        let nxt = free_after(&p.spaces, p.size, p.figure, 2);
        *delta = if nxt.len() == 2 { Some((points[nxt[1]] - points[nxt[0]]) as f64) } else { None };
    }
    let Some(delta) = *delta else { return Ok(0.0) };
    let wme = ev.wme;
    let (me, n) = (c.me, c.n);
    let (mut mine, mut total) = (0, 0);
    for s in 0..4 {
        if c.dock[s] < 0 {
            for &x in &c.slots[s] {
                if x == me as i8 {
                    mine += 1;
                }
                if x != -1 && x != -2 {
                    total += 1;
                }
            }
        }
    }
    let share = if total > 0 { mine as f64 / total as f64 } else { 1.0 / n as f64 };
    let cop = c.cop;
    Ok(delta * (share * wme + (1.0 - share) * cop * (n - 1) as f64 / n as f64))
}

pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    if kind == PYRAMID_SHIP_SLOT {
        let mut out = Vec::with_capacity(legal.len());
        for a in legal {
            let v = c.slot_gains(a.n(0) as usize)[a.n(1) as usize];
            out.push(v.ok_or("pyramid_ship_slot: a slot no stone can take")?);
        }
        return Ok(out);
    }
    let (Pyramid::B(p), Config::B { choices, .. }) = (&g.sites.pyramid, &g.rules.sites.pyramid) else {
        return Err("pyramid_choice: not Pyramid B".into());
    };
    let me = c.me;
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        let i = choices.iter().position(|x| x == a).ok_or("pyramid_choice: an unknown pyramid")?;
        let k = p.laid[i] as usize;
        let nxt = space_value(c, g, me, i, k + 1);
        let v = space_value(c, g, me, i, k) - 0.25 * if 0.0 > nxt { 0.0 } else { nxt };
        out.push(v);
    }
    Ok(out)
}
