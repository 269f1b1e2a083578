//! The Temple's four sides, priced. Reads the public layers'
//! owners and the Arena's chariots.

use super::{card_keep, rounds_left, Built, Side2, POS};
use crate::action::Action;
use crate::bots::greedy::cards;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::{Kind, TEMPLE_KEEP};
use crate::sites::temple::{Config, Reward, Temple};

pub fn key(c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    match &g.sites.temple {
        Temple::A(t) => {
            let (n0, w) = (t.filled as i64, t.width as i64);
            out.push(n0);
            out.push(c.round as i64);
            let lo = (n0 - w).max(0) as usize;
            let hi = ((n0 - w + POS as i64).max(0) as usize).min(t.filled);
            if lo < hi {
                out.extend(t.owners[lo..hi].iter().map(|&x| x as i64));
            }
        }
        Temple::B(t) | Temple::C(t) => {
            out.push(t.filled as i64);
            out.push(c.round as i64);
            out.push(c.cards.epoch);
        }
        Temple::D(a) => {
            out.push((a.filled + a.over) as i64);
            out.extend(a.chariots[..c.n].iter().map(|&x| x as i64));
            out.push(c.round as i64);
        }
    }
}

fn temple_reward(c: &mut Ctx, g: &Game, o: usize, r: Reward) -> f64 {
    match r {
        Reward::Points(k) => k as f64,
        Reward::Stones(k) => c.stones_worth(o, k),
        Reward::Draw(k) => cards::unknown(c, g, o, k),
    }
}

/// What a visible stone of o in this column pays each round end.
fn stone_points(c: &mut Ctx, g: &Game, column: usize, o: usize) -> f64 {
    match &g.rules.sites.temple {
        Config::A { visible_points, .. } => *visible_points as f64,
        Config::B(r) | Config::C(r) => {
            let mut v: Option<f64> = None;
            for &alt in &r.columns[column] {
                let x = temple_reward(c, g, o, alt);
                if v.is_none() || x > v.unwrap() {
                    v = Some(x);
                }
            }
            v.unwrap_or(r.visible_points as f64)
        }
        Config::D(_) => unreachable!("temple D has no layers"),
    }
}

pub fn build(c: &mut Ctx, g: &Game) -> Built {
    match &g.sites.temple {
        Temple::A(t) | Temple::B(t) | Temple::C(t) => build_layers(c, g, &t.owners[..t.filled], t.width),
        Temple::D(_) => build_arena(c, g),
    }
}

fn build_layers(c: &mut Ctx, g: &Game, seq: &[i8], w: usize) -> Built {
    let n = c.n;
    let left = c.rounds as i64 - c.round as i64 + 1;
    let n0 = seq.len();
    let rate = (n0 as f64 + 2.2 * 2.0) / ((c.round as i64 - 1).max(0) + 2) as f64;
    let wr = w as f64 / rate;
    let vis = 1.0 + if ((left - 1) as f64) <= wr { (left - 1) as f64 } else { wr };
    let lost = if (left as f64) <= 1.3 { left as f64 } else { 1.3 };
    let mut own = [[0.0; POS]; 4];
    let mut side = Side2::new(c.me);
    for j in 0..POS {
        let pos = n0 + j;
        let col = pos % w;
        let cc = pos as i64 - w as i64;
        let q: i64 = if cc >= 0 && (cc as usize) < n0 { seq[cc as usize] as i64 } else { -1 };
        let loss = if q >= 0 { lost * stone_points(c, g, col, q as usize) } else { 0.0 };
        for o in 0..n {
            own[o][j] = stone_points(c, g, col, o) * vis;
            if q == o as i64 {
                own[o][j] -= loss;
            } else if q >= 0 {
                side.add(o, j, q as usize, -loss);
            }
        }
    }
    Built { own, side: side.done() }
}

fn move_to(chariots: &[i32], o: usize, steps: i32, finish: i32) -> i32 {
    let pos = chariots[o];
    let mut to = (pos + steps).min(finish);
    while to < finish && chariots.contains(&to) {
        to += 1;
    }
    to
}

fn places(chariots: &[i32], table: &[i32], finish: i32) -> [f64; 4] {
    let mut out = [0.0; 4];
    let m = chariots.len();
    if chariots.iter().filter(|&&x| x == finish).count() > 1 {
        for p in 0..m {
            if chariots[p] == finish {
                out[p] = table[0] as f64;
            }
        }
        return out;
    }
    let mut left = [0i32; 4];
    left[..m].copy_from_slice(chariots);
    for &pts in table {
        let mut bp: i64 = -1;
        let mut best = 0;
        for p in 0..m {
            let pos = left[p];
            if pos > 0 && pos >= best {
                best = pos;
                bp = p as i64;
            }
        }
        if bp < 0 {
            break;
        }
        out[bp as usize] = pts as f64;
        left[bp as usize] = 0;
    }
    out
}

fn build_arena(c: &mut Ctx, g: &Game) -> Built {
    let (Temple::D(a), Config::D(cfg)) = (&g.sites.temple, &g.rules.sites.temple) else { unreachable!() };
    let n = c.n;
    let table: &[i32] = if n == 2 { &cfg.round_points_2p } else { &cfg.round_points };
    let track = &cfg.track_points;
    let finish = track.len() as i32 - 1;
    let mut chariots: Vec<i32> = a.chariots[..n].to_vec();
    let stones = a.filled + a.over;
    let heads = &cfg.arrowheads;
    let rl = rounds_left(c) as f64;
    let weight = if rl < 2.5 { rl } else { 2.5 } * 0.7;
    let base = places(&chariots, table, finish);
    let mut own = [[0.0; POS]; 4];
    let mut side = Side2::new(c.me);
    for j in 0..POS {
        let i = stones + j;
        let steps = if i < heads.len() { heads[i] } else { cfg.overflow_move };
        for o in 0..n {
            let pos = chariots[o];
            if pos >= finish {
                own[o][j] = cfg.finish_point as f64;
                continue;
            }
            let to = move_to(&chariots, o, steps, finish);
            chariots[o] = to;
            let pl = places(&chariots, table, finish);
            chariots[o] = pos;
            own[o][j] = (track[to as usize] - track[pos as usize]) as f64 + weight * (pl[o] - base[o]);
            for q in 0..n {
                if q != o && pl[q] != base[q] {
                    side.add(o, j, q, weight * (pl[q] - base[q]));
                }
            }
        }
    }
    Built { own, side: side.done() }
}

pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    if kind == TEMPLE_KEEP {
        return Ok(card_keep(c, g, legal));
    }
    let (Config::B(r) | Config::C(r)) = &g.rules.sites.temple else {
        return Err("temple_bonus: not Temple B or C".into());
    };
    let me = c.me;
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        let k = a.n(0);
        let rw = if a.kind == r.names[0] {
            Reward::Points(k)
        } else if a.kind == r.names[1] {
            Reward::Stones(k)
        } else if a.kind == r.names[2] {
            Reward::Draw(k)
        } else {
            out.push(0.0);
            continue;
        };
        out.push(temple_reward(c, g, me, rw));
    }
    Ok(out)
}
