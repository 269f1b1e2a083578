//! The turn, priced: every turn action on one scale, the change it
//! makes to my objective, and the blue cards played from the hand.

use arrayvec::ArrayVec;

use super::cards;
use super::context::{dpow, Ctx, ShipRes};
use super::sites::{self, POS};
use crate::action::{Action, GET, PASS, PLACE, PLAY, SAIL};
use crate::game::Game;
use crate::rules::{self, Card};
use crate::stream::Stream;

type Res4 = [Option<ShipRes>; 4];

/// The undocked ships' evaluations (None for docked ones).
fn ship_results(c: &mut Ctx) -> Res4 {
    let mut res: Res4 = [None, None, None, None];
    for (s, r) in res.iter_mut().enumerate() {
        if c.dock[s] < 0 {
            *r = Some(c.ship(s).clone());
        }
    }
    res
}

/// The turn's best action without scoring every legal one.
pub fn turn_fast(c: &mut Ctx, g: &Game, legal: &[Action], rng: &mut Stream) -> Result<usize, String> {
    let me = c.me;
    let sled = c.sled[me];
    let place_cost = if sled > 0 { c.stone_now * dpow(sled - 1) } else { c.sled_value(sled - 1) };
    let mut best = -1e18;
    // every place, sail, get and play can tie: at most 16 + 20 + 2 + 6
    let mut cands: ArrayVec<Action, 64> = ArrayVec::new();
    for s in 0..4 {
        if c.dock[s] >= 0 {
            continue;
        }
        let r = c.ship(s);
        if sled != 0 {
            if let Some(v) = r.best_place {
                let v = v - place_cost;
                if v > best + 1e-9 {
                    best = v;
                    cands.clear();
                    cands.extend(r.places.iter().map(|&k| Action::place(s, k as usize)));
                } else if v >= best - 1e-9 {
                    cands.extend(r.places.iter().map(|&k| Action::place(s, k as usize)));
                }
            }
        }
        if let Some(v) = r.best_sail {
            if v > best + 1e-9 {
                best = v;
                cands.clear();
                cands.extend(r.sails.iter().map(|&i| Action::sail(s, i as usize)));
            } else if v >= best - 1e-9 {
                cands.extend(r.sails.iter().map(|&i| Action::sail(s, i as usize)));
            }
        }
    }
    let n = legal.len();
    let mut i = 0;
    if legal[0].kind == GET {
        let gv = get_value(c, sled, me);
        while i < n {
            let a = legal[i];
            if a.kind != GET {
                break;
            }
            let v = if a.has_args() { gv + get_extra(c, g, &a)? } else { gv };
            if v > best + 1e-9 {
                best = v;
                cands.clear();
                cands.push(a);
            } else if v >= best - 1e-9 {
                cands.push(a);
            }
            i += 1;
        }
    }
    if legal[n - 1].kind == PLAY {
        let res = ship_results(c);
        let mut j = n - 1;
        loop {
            let a = legal[j];
            if a.kind != PLAY {
                break;
            }
            let v = card_play(c, g, card_of(g, &a)?, &res, sled)?;
            if v > best + 1e-9 {
                best = v;
                cands.clear();
                cands.push(a);
            } else if v >= best - 1e-9 {
                cands.push(a);
            }
            if j == i {
                break;
            }
            j -= 1;
        }
    }
    if !cands.is_empty() {
        let a = if cands.len() == 1 { cands[0] } else { cands[(rng.random() * cands.len() as f64) as usize] };
        if let Some(k) = legal.iter().position(|x| *x == a) {
            return Ok(k);
        }
    }
    let scores = turn(c, g, legal)?;
    Ok(pick(&scores, rng))
}

/// The best score's index; ties (1e-9) broken by the bot's stream.
pub fn pick(scores: &[f64], rng: &mut Stream) -> usize {
    let mut top = scores[0];
    for &s in &scores[1..] {
        if s > top {
            top = s;
        }
    }
    let idx: ArrayVec<usize, { crate::game::OPTIONS }> =
        (0..scores.len()).filter(|&i| scores[i] >= top - 1e-9).collect();
    if idx.len() == 1 {
        idx[0]
    } else {
        idx[(rng.random() * idx.len() as f64) as usize]
    }
}

fn card_of(g: &Game, a: &Action) -> Result<Card, String> {
    a.name(0).and_then(|x| g.rules.card_of(x)).ok_or_else(|| "play: a card".to_string())
}

/// Score every turn action on one scale: the change in my objective.
pub fn turn(c: &mut Ctx, g: &Game, legal: &[Action]) -> Result<Vec<f64>, String> {
    let me = c.me;
    let res = ship_results(c);
    let sled = c.sled[me];
    let place_cost = c.sled_value(sled - 1);
    let mut out = Vec::with_capacity(legal.len());
    let mut any_cards = false;
    for a in legal {
        match a.kind {
            PLACE => {
                let v = c.slot_gains(a.n(0) as usize)[a.n(1) as usize].ok_or("place: a slot no stone can take")?;
                out.push(v - place_cost);
            }
            SAIL => {
                let r = res[a.n(0) as usize].as_ref().ok_or("sail: a docked ship")?;
                let site = a.site(1);
                let x = c.free.iter().position(|&i| i == site).ok_or("sail: a taken dock")?;
                out.push(r.base[x] - r.e);
            }
            GET => {
                let mut v = get_value(c, sled, me);
                if a.has_args() {
                    v += get_extra(c, g, a)?;
                }
                out.push(v);
            }
            PLAY => {
                any_cards = true;
                out.push(0.0);
            }
            PASS => out.push(0.0),
            _ => return Err(format!("no scripted-bot handler for turn action {}", a.text(&g.rules.names))),
        }
    }
    if any_cards {
        for (i, a) in legal.iter().enumerate() {
            if a.kind == PLAY {
                out[i] = card_play(c, g, card_of(g, a)?, &res, sled)?;
            }
        }
    }
    Ok(out)
}

fn get_value(c: &Ctx, sled: i32, me: usize) -> f64 {
    let mut gain = c.get_stones;
    let room = c.sled_cap[me] - sled;
    if room < gain {
        gain = room;
    }
    if c.quarry[me] < gain {
        gain = c.quarry[me];
    }
    let base = c.stone_now;
    let mut v = 0.0;
    for j in sled..sled + gain {
        v += base * dpow(j);
    }
    v
}

/// Extras of a get action (Pyramid D's figure move): the pyramid evaluator prices them.
pub fn get_extra(c: &mut Ctx, g: &Game, _a: &Action) -> Result<f64, String> {
    sites::pyramid::get_extra(c, g)
}

/// Every open slot's gain for my stone, best first (Chisel, Hammer).
fn places(c: &mut Ctx, res: &Res4) -> Vec<f64> {
    let mut out = Vec::new();
    for (s, r) in res.iter().enumerate() {
        if r.is_some() {
            out.extend(c.slot_gains(s).iter().flatten());
        }
    }
    cards::sort_desc(&mut out);
    out
}

fn owners_of(slots: &[i8]) -> ArrayVec<usize, 4> {
    slots.iter().filter(|&&o| o >= 0).map(|&o| o as usize).collect()
}

/// A blue card now: its best use minus what holding it is worth.
fn card_play(c: &mut Ctx, g: &Game, card: Card, res: &Res4, sled: i32) -> Result<f64, String> {
    let me = c.me;
    let keep = cards::value(c, g, me, card);
    Ok(match card {
        rules::CHISEL => {
            let p = places(c, res);
            if p.len() < 2 {
                return Ok(-keep);
            }
            p[0] + p[1] - c.sled_value(sled - 1) - c.sled_value(sled - 2) + c.sled_value(0) - keep
        }
        rules::HAMMER => {
            let p = places(c, res);
            let gain = get_value(c, sled, me);
            gain + p.first().copied().unwrap_or(0.0) - keep
        }
        rules::LEVER => {
            let mut best = -1e9;
            for s in 0..4 {
                if let Some(r) = &res[s] {
                    let owners = owners_of(&c.slots[s]);
                    if owners.len() >= c.mins[s] as usize {
                        let e0 = r.e;
                        let orders = lever_orders(me, &owners);
                        for x in 0..c.free.len() {
                            let v = lever_obj(c.tab(x), &orders) - e0;
                            if v > best {
                                best = v;
                            }
                        }
                    }
                }
            }
            best - keep
        }
        rules::SAIL => {
            let mut best = -1e9;
            for s in 0..4 {
                let Some(r) = &res[s] else { continue };
                let owners = owners_of(&c.slots[s]);
                let m = owners.len();
                if m < c.sizes[s] as usize && m + 1 >= c.mins[s] as usize {
                    let e0 = r.e;
                    for j in 0..=m {
                        let mut new: ArrayVec<usize, 5> = ArrayVec::new();
                        new.extend(owners[..j].iter().copied());
                        new.push(me);
                        new.extend(owners[j..].iter().copied());
                        for x in 0..c.free.len() {
                            let t = c.tab(x);
                            let mut v = 0.0;
                            for (k, &o) in new.iter().enumerate() {
                                v += t[o * POS + k];
                            }
                            let v = v - e0;
                            if v > best {
                                best = v;
                            }
                        }
                    }
                }
            }
            best - c.sled_value(sled - 1) - keep
        }
        rules::BARGE => {
            let mut best = -1e9;
            for i in 1..5 {
                sites::ensure(c, g, i);
                let v = c.evals[i].obj[me * POS];
                if v > best {
                    best = v;
                }
            }
            best - c.sled_value(sled - 1) - c.sled_value(sled - 2) - c.sled_value(sled - 3) - keep
        }
        rules::LOADING_PLATFORM => {
            let mut best = -1e9;
            for s in 0..4 {
                let Some(r) = &res[s] else { continue };
                if !c.slots[s].contains(&(me as i8)) {
                    continue;
                }
                let owners = owners_of(&c.slots[s]);
                if owners.len() < c.mins[s] as usize {
                    continue;
                }
                for i in 0..5 {
                    if c.used[i] == 1 {
                        let v = sites::batch_obj(c, g, i, &owners) - r.e;
                        if v > best {
                            best = v;
                        }
                    }
                }
            }
            best - c.sled_value(sled - 1) - keep
        }
        _ => return Err(format!("no scripted-bot handler for blue card {}", g.rules.cards.names[card as usize])),
    })
}

/// Lever: the better of the normal order, my stones first and my stones last.
pub fn lever_value(c: &mut Ctx, g: &Game, owners: &[usize], i: usize) -> f64 {
    let me = c.me;
    let mine: Vec<usize> = owners.iter().copied().filter(|&o| o == me).collect();
    let rest: Vec<usize> = owners.iter().copied().filter(|&o| o != me).collect();
    let a = sites::batch_obj(c, g, i, owners);
    let b = sites::batch_obj(c, g, i, &[&mine[..], &rest[..]].concat());
    let d = sites::batch_obj(c, g, i, &[&rest[..], &mine[..]].concat());
    let mut best = a;
    if b > best {
        best = b;
    }
    if d > best {
        best = d;
    }
    best
}

fn lever_orders(me: usize, owners: &[usize]) -> [Vec<usize>; 3] {
    let mine: Vec<usize> = owners.iter().copied().filter(|&o| o == me).collect();
    let rest: Vec<usize> = owners.iter().copied().filter(|&o| o != me).collect();
    let flat = |order: Vec<usize>| order.iter().enumerate().map(|(j, &o)| o * POS + j).collect::<Vec<_>>();
    [flat(owners.to_vec()), flat([&mine[..], &rest[..]].concat()), flat([&rest[..], &mine[..]].concat())]
}

fn lever_obj(t: &[f64; 16], orders: &[Vec<usize>; 3]) -> f64 {
    let mut best = 0.0;
    let mut first = true;
    for order in orders {
        let mut v = 0.0;
        for &x in order {
            v += t[x];
        }
        if first || v > best {
            best = v;
            first = false;
        }
    }
    best
}
