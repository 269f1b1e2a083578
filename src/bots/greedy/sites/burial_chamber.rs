//! The Burial Chamber's four sides, priced. Reads the
//! public rows, mound and tomb (never the face-down tokens).

use super::{logits, rank_estimate, rounds_left, Built, Side2, POS};
use crate::action::Action;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::Kind;
use crate::sites::burial_chamber::{BurialChamber, Config};
use crate::sites::scoring::group_points;

pub fn key(c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    match &g.sites.burial_chamber {
        BurialChamber::A(s) => out.extend(s.owners.iter().map(|&x| x as i64)),
        BurialChamber::B(s) => {
            out.push(s.owners.len() as i64);
            out.push(c.round as i64);
        }
        BurialChamber::C(s) => out.push(s.count.iter().map(|&x| x as i64).sum()),
        BurialChamber::D(s) => {
            let Config::D { rows, columns, .. } = &g.rules.sites.burial_chamber else { unreachable!() };
            out.extend(s.grid[..rows * columns].iter().map(|&x| x as i64));
            out.push(-7);
            out.extend(s.face_up.iter().map(|&x| x as i64));
            out.push(-7);
            out.extend(s.count[..c.n].iter().map(|&x| x as i64));
        }
    }
}

/// Burial A: the group sizes of the stones placed so far (a union-find).
fn groups(owners: &[i8], rows: usize) -> (Vec<usize>, Vec<usize>) {
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = Vec::with_capacity(owners.len());
    let mut size: Vec<usize> = Vec::with_capacity(owners.len());
    for i in 0..owners.len() {
        parent.push(i);
        size.push(1);
        let o = owners[i];
        let up = if !i.is_multiple_of(rows) { i as i64 - 1 } else { -1 };
        for nb in [i as i64 - rows as i64, up] {
            if nb >= 0 && owners[nb as usize] == o {
                let (mut a, mut b) = (find(&mut parent, nb as usize), find(&mut parent, i));
                if a != b {
                    if size[a] < size[b] {
                        std::mem::swap(&mut a, &mut b);
                    }
                    parent[b] = a;
                    size[a] += size[b];
                }
            }
        }
    }
    (parent, size)
}

/// Points o gains by a stone at index i (neighbours already on the board only); `uf` the
/// stones' (parent, size), `rows` and the group points' (table, extra).
fn gain_a(seq: &[i8], uf: (&mut [usize], &[usize]), rows: usize, i: usize, o: usize, points: (&[i32], i32)) -> f64 {
    let (parent, size) = uf;
    let (table, extra) = points;
    let n0 = seq.len() as i64;
    let up = if !i.is_multiple_of(rows) { i as i64 - 1 } else { -1 };
    let mut roots: Vec<usize> = Vec::new();
    for nb in [i as i64 - rows as i64, up] {
        if 0 <= nb && nb < n0 && seq[nb as usize] as i64 == o as i64 {
            let mut r = nb as usize;
            while parent[r] != r {
                r = parent[r];
            }
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
    }
    let (mut total, mut before) = (1i64, 0i64);
    for r in roots {
        let s = size[r] as i64;
        total += s;
        before += group_points(s as usize, table, extra) as i64;
    }
    let gg = (group_points(total as usize, table, extra) as i64 - before) as f64;
    gg + 0.35 * ((i % rows != rows - 1) as i32 as f64) + 0.35
}

/// Burial C: the area value o gains by a stone on space s (the areas it joins, merged).
fn gain_c(g: &Game, s: usize, o: usize) -> f64 {
    let (BurialChamber::C(st), Config::C { mound, level_cap, .. }) = (&g.sites.burial_chamber, &g.rules.sites.burial_chamber) else {
        unreachable!()
    };
    let cap = *level_cap as i64;
    let owner = &st.owner;
    let level = |t: usize| mound.space[t].0 as i64;
    let mut seen = vec![false; mound.space.len()];
    seen[s] = true;
    let (mut size, mut lo, mut hi) = (1i64, level(s), level(s));
    let mut before = 0i64;
    for &start in &mound.adj[s] {
        if seen[start] || owner[start] as i64 != o as i64 {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let (mut k, mut a_lo, mut a_hi) = (0i64, level(start), level(start));
        while let Some(t) = stack.pop() {
            k += 1;
            let lv = level(t);
            a_lo = a_lo.min(lv);
            a_hi = a_hi.max(lv);
            for &u in &mound.adj[t] {
                if !seen[u] && owner[u] as i64 == o as i64 {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        before += k * (a_hi - a_lo + 1).min(cap);
        size += k;
        lo = lo.min(a_lo);
        hi = hi.max(a_hi);
    }
    (size * (hi - lo + 1).min(cap) - before) as f64 + 0.3
}

/// Burial D: the growth in value of o's groups by a stone on token's space.
fn gain_d(g: &Game, token: usize, o: usize) -> f64 {
    let (BurialChamber::D(st), Config::D { rows, columns, group_table, group_extra, .. }) =
        (&g.sites.burial_chamber, &g.rules.sites.burial_chamber)
    else {
        unreachable!()
    };
    let size = rows * columns;
    let cols = *columns;
    let adj = |cell: usize| {
        let (r, cc) = (cell / cols, cell % cols);
        let mut nbs: arrayvec::ArrayVec<usize, 4> = arrayvec::ArrayVec::new();
        if r > 0 {
            nbs.push(cell - cols);
        }
        if cell + cols < size {
            nbs.push(cell + cols);
        }
        if cc > 0 {
            nbs.push(cell - 1);
        }
        if cc < cols - 1 {
            nbs.push(cell + 1);
        }
        nbs
    };
    let group = |k: i64| group_points(k as usize, group_table, *group_extra) as f64;
    let cell = token - 1;
    let mut todo: Vec<i8> = st.grid[..size].to_vec();
    todo[cell] = -9;
    let o = o as i8;
    let mut total = 1i64;
    let mut before = 0.0;
    for nb in adj(cell) {
        if todo[nb] != o {
            continue;
        }
        let mut k = 0i64;
        let mut stack = vec![nb];
        todo[nb] = -9;
        while let Some(t) = stack.pop() {
            k += 1;
            for u in adj(t) {
                if todo[u] == o {
                    todo[u] = -9;
                    stack.push(u);
                }
            }
        }
        total += k;
        before += group(k);
    }
    group(total) - before
}

pub fn build(c: &mut Ctx, g: &Game) -> Built {
    let n = c.n;
    let mut own = [[0.0; POS]; 4];
    match (&g.sites.burial_chamber, &g.rules.sites.burial_chamber) {
        (BurialChamber::A(s), Config::A { rows, group_table, group_extra }) => {
            let owners = &s.owners[..];
            let (mut parent, size) = groups(owners, *rows);
            let n0 = owners.len();
            for (o, row) in own.iter_mut().enumerate().take(n) {
                for (j, x) in row.iter_mut().enumerate() {
                    *x = gain_a(owners, (&mut parent, &size), *rows, n0 + j, o, (group_table, *group_extra));
                }
            }
        }
        (BurialChamber::B(s), Config::B { rows, row_points }) => {
            let rows = *rows;
            let mut counts = vec![vec![0i32; n]; rows];
            for (i, &o) in s.owners.iter().enumerate() {
                counts[i % rows][o as usize] += 1;
            }
            let logit = logits(0.4 + 0.45 * rounds_left(c) as f64);
            let base: Vec<[f64; 4]> = counts.iter().map(|cc| rank_estimate(cc, row_points, &logit, 1)).collect();
            let n0 = s.owners.len();
            let mut side = Side2::new(c.me);
            for j in 0..POS {
                let r = (n0 + j) % rows;
                for o in 0..n {
                    counts[r][o] += 1;
                    let est = rank_estimate(&counts[r], row_points, &logit, 1);
                    counts[r][o] -= 1;
                    let b = &base[r];
                    own[o][j] = est[o] - b[o];
                    for q in 0..n {
                        if q != o {
                            side.add(o, j, q, est[q] - b[q]);
                        }
                    }
                }
            }
            return Built { own, side: side.done() };
        }
        (BurialChamber::C(s), Config::C { overflow_points, .. }) => {
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let b = if s.open.is_empty() {
                    *overflow_points as f64
                } else {
                    let mut b = f64::NEG_INFINITY;
                    for (k, &sp) in s.open.iter().enumerate() {
                        let v = gain_c(g, sp as usize, o);
                        if k == 0 || v > b {
                            b = v;
                        }
                    }
                    b
                };
                *row = [b, b * 0.9, b * 0.8, b * 0.75];
            }
        }
        (BurialChamber::D(s), Config::D { no_token_points, absent_penalty, .. }) => {
            for (o, row) in own.iter_mut().enumerate().take(n) {
                let mut vals: Vec<f64> = s.face_up.iter().map(|&t| gain_d(g, t as usize, o)).collect();
                crate::bots::greedy::cards::sort_desc(&mut vals);
                let absent = if s.count[o] == 0 { -absent_penalty as f64 } else { 0.0 };
                for (j, x) in row.iter_mut().enumerate() {
                    let v = if j < vals.len() { (vals[0] + vals[j]) * 0.5 } else { *no_token_points as f64 };
                    *x = v + if j == 0 { absent } else { 0.0 };
                }
            }
        }
        _ => unreachable!("burial chamber: side and config differ"),
    }
    Built::own(own)
}

pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    let (me, n) = (c.me, c.n);
    let deny = -c.cop * (n - 1) as f64;
    let wme = c.evals[3].wme;
    // my gain, less 0.3 of the best gain it takes from one opponent (the first seat's on ties)
    let price = |gain: &dyn Fn(usize) -> f64| {
        let mut block = 0.0;
        let mut first = true;
        for q in (0..n).filter(|&q| q != me) {
            let v = gain(q);
            if first || v > block {
                block = v;
                first = false;
            }
        }
        wme * gain(me) + 0.3 * deny * block
    };
    match &g.rules.sites.burial_chamber {
        Config::C { mound, .. } if kind == crate::kinds::MOUND_SPACE => {
            Ok(legal.iter().map(|a| price(&|q| gain_c(g, mound.space_of(a), q))).collect())
        }
        Config::D { .. } if kind == crate::kinds::TOMB_TOKEN => {
            Ok(legal.iter().map(|a| price(&|q| gain_d(g, a.n(0) as usize, q))).collect())
        }
        _ => Err(format!("no scripted-bot handler for {:?} on this burial chamber", crate::kinds::name(kind))),
    }
}
