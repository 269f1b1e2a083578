//! The prophecy choice, priced: where to place a scarab, or
//! whether to keep it. The prophecies' state is public.

use super::cards;
use super::context::Ctx;
use super::sites::rounds_left;
use crate::action::{Action, SCARAB};
use crate::bots::weights::PROPHECY;
use crate::game::Game;

/// `seq[i]`, a negative index counting from the end.
fn at(seq: &[i32], i: i64) -> f64 {
    let k = if i < 0 { seq.len() as i64 + i } else { i };
    seq[k as usize] as f64
}

pub fn prophecy_scores(c: &mut Ctx, g: &Game, legal: &[Action]) -> Result<Vec<f64>, String> {
    let r = &g.rules;
    let state = g.prophecy.as_ref().ok_or("prophecy: no prophecies in this game")?;
    let table = &r.prophecies;
    let (me, n) = (c.me, c.n);
    let mut w: i64 = -1;
    for (k, rounds) in table.windows.iter().enumerate() {
        if rounds.contains(&(c.round as i64)) {
            w = k as i64;
        }
    }
    let windows = table.fulfilled.len() as i64;
    let sigma = 0.8 + 1.2 * rounds_left(c) as f64;
    let weight = c.w.0[PROPHECY];
    let spare = (windows - 1 - w) >= state.left[me] as i64;
    let mut keep = 0.0;
    if spare && w + 1 < windows {
        let x = 0.55 * at(&table.fulfilled, w + 1) + 0.45 * at(&table.failed, w + 1);
        if x > 0.0 {
            keep = x;
        }
    }
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        if a.kind != SCARAB {
            out.push(weight * keep);
            continue;
        }
        let god = r.names.text(a.name(0).ok_or("scarab: a god")?);
        let cnt = god_counts(c, g, god)?;
        let mut other = i32::MIN;
        for (q, &x) in cnt.iter().enumerate().take(n) {
            if q != me && x > other {
                other = x;
            }
        }
        let lead = cnt[me] - other;
        let x = (lead as f64 + 0.5) / sigma;
        let p = if cnt[me] != 0 || rounds_left(c) > 1 { 1.0 / (1.0 + (-x).exp()) } else { 0.0 };
        out.push(weight * (p * at(&table.fulfilled, w) + (1.0 - p) * at(&table.failed, w)));
    }
    Ok(out)
}

fn god_counts(c: &mut Ctx, g: &Game, god: &str) -> Result<[i32; 4], String> {
    let n = c.n;
    let mut out = [0; 4];
    match god {
        "amun" => out[..n].copy_from_slice(&g.red_kept[..n]),
        "hathor" => {
            for (p, x) in out.iter_mut().enumerate().take(n) {
                let h = cards::hand(c, g, p);
                *x = h.iter().map(|&k| k as i32).sum::<i32>() + g.red_kept[p];
            }
        }
        "anubis" => out[..n].copy_from_slice(&c.sled[..n]),
        _ => {
            let site = match god {
                "ra" => 2,
                "horus" => 1,
                "osiris" => 3,
                "thoth" => 4,
                _ => return Err(format!("no scripted-bot handler for the god {god:?}")),
            };
            for (p, x) in out.iter_mut().enumerate().take(n) {
                *x = crate::sites::stones_of(g, site, p);
            }
        }
    }
    Ok(out)
}
