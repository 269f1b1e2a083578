//! The Market's four sides, priced. A stone here buys a card:
//! owners pick in unloading order, the best option for them first. Reads the public display,
//! the face-down lots' sizes and the coins.

use super::{card_keep, card_key, Built, POS};
use crate::action::Action;
use crate::bots::greedy::cards::{self, sort_desc};
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::{Kind, MARKET_KEEP};
use crate::rules::Card;
use crate::sites::market::{Config, Market};

pub fn key(c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    match &g.sites.market {
        Market::A(m) => {
            out.extend(m.display.iter().map(|&x| x as i64));
        }
        Market::B(m) => {
            out.extend(m.display.iter().map(|&x| x as i64));
            out.push(-7);
            out.push(m.hidden_pair.len() as i64);
        }
        Market::C(m) => {
            out.extend(m.display[..m.size].iter().map(|x| x.map_or(-1, |v| v as i64)));
            out.push(-7);
            out.extend(m.coins[..m.seats].iter().map(|&x| x as i64));
        }
        Market::D(_) => {
            let Market::D(m) = &g.sites.market else { unreachable!() };
            out.extend(m.display.iter().map(|&x| x as i64));
            out.push(-7);
            out.extend(g.sites.market.stack_count().iter().map(|&x| x as i64));
        }
    }
    out.push(-8);
    card_key(c, out);
}

/// Blind markets (B's pair, D's stacks): each owner's options, best first, picked in order.
fn blind_row(s: &[f64]) -> [f64; POS] {
    let mut row = [0.0; POS];
    let k = s.len();
    for (j, x) in row.iter_mut().enumerate() {
        if j < k {
            let s0 = s[0];
            *x = s0 + (s[j] - s0) * 0.5;
        }
    }
    row
}

fn coin_value(c: &Ctx, m: &crate::sites::market::MarketC, o: usize) -> f64 {
    if m.coins[o] != 0 {
        1.2 * c.left_fraction()
    } else {
        0.0
    }
}

pub fn build(c: &mut Ctx, g: &Game) -> Built {
    let mut own = [[0.0; POS]; 4];
    match &g.sites.market {
        Market::A(m) => {
            let disp: Vec<Card> = m.display.to_vec();
            let k = disp.len();
            for (o, row) in own.iter_mut().enumerate().take(c.n) {
                let mut s = cards::values(c, g, o, &disp);
                sort_desc(&mut s);
                if k > 0 {
                    let s0 = s[0];
                    for (j, x) in s.iter().take(POS).enumerate() {
                        row[j] = s0 + (x - s0) * 0.5;
                    }
                }
            }
        }
        Market::B(m) => {
            let disp: Vec<Card> = m.display.to_vec();
            let lots = [m.hidden_pair.len()];
            for (o, row) in own.iter_mut().enumerate().take(c.n) {
                *row = blind_row(&cards::offers(c, g, o, &disp, &lots));
            }
        }
        Market::D(m) => {
            let disp: Vec<Card> = m.display.to_vec();
            let lots = g.sites.market.stack_count();
            for (o, row) in own.iter_mut().enumerate().take(c.n) {
                *row = blind_row(&cards::offers(c, g, o, &disp, &lots));
            }
        }
        Market::C(m) => {
            for (o, row) in own.iter_mut().enumerate().take(c.n) {
                let b = best_c(c, g, m, o);
                for (j, x) in row.iter_mut().enumerate() {
                    *x = b * (1.0 - 0.15 * j as f64);
                }
            }
        }
    }
    Built::own(own)
}

fn best_c(c: &mut Ctx, g: &Game, m: &crate::sites::market::MarketC, o: usize) -> f64 {
    let mut vals: Vec<Option<f64>> = Vec::new();
    let mut b: Option<f64> = None;
    for &card in &m.display[..m.size] {
        match card {
            None => vals.push(None),
            Some(card) => {
                let v = cards::value(c, g, o, card);
                vals.push(Some(v));
                if b.is_none() || v > b.unwrap() {
                    b = Some(v);
                }
            }
        }
    }
    let Some(mut b) = b else { return cards::unknown(c, g, o, 1) };
    if m.coins[o] != 0 {
        let cv = coin_value(c, m, o);
        for i in 0..vals.len().saturating_sub(1) {
            if let (Some(x), Some(y)) = (vals[i], vals[i + 1]) {
                let v = x + y - cv;
                if v > b {
                    b = v;
                }
            }
        }
    }
    b
}

fn card(g: &Game, a: &Action, i: usize) -> Option<Card> {
    a.name(i).and_then(|n| g.rules.card_of(n))
}

pub fn decide(c: &mut Ctx, g: &Game, kind: Kind, legal: &[Action]) -> Result<Vec<f64>, String> {
    let me = c.me;
    if kind == MARKET_KEEP {
        return Ok(card_keep(c, g, legal));
    }
    let mut out = Vec::with_capacity(legal.len());
    match (&g.sites.market, &g.rules.sites.market) {
        (Market::A(_), _) => {
            for a in legal {
                out.push(cards::value(c, g, me, card(g, a, 0).ok_or("market_pick: a card")?));
            }
        }
        (Market::B(m), _) => {
            for a in legal {
                match card(g, a, 0) {
                    Some(x) => out.push(cards::value(c, g, me, x)),
                    None => out.push(cards::unknown(c, g, me, m.hidden_pair.len() as i32)),
                }
            }
        }
        (Market::D(_), Config::D { stack, .. }) => {
            let counts = g.sites.market.stack_count();
            for a in legal {
                if a.name(0) == Some(*stack) && a.arg_count() == 2 {
                    out.push(cards::unknown(c, g, me, counts[a.n(1) as usize] as i32));
                } else {
                    out.push(cards::value(c, g, me, card(g, a, 0).ok_or("market_pick: a card")?));
                }
            }
        }
        (Market::C(m), _) => {
            let cv = coin_value(c, m, me);
            for a in legal {
                if a.n(0) >= 0 {
                    let x = m.display[a.n(0) as usize].ok_or("market C: an empty space")?;
                    let y = m.display[a.n(1) as usize].ok_or("market C: an empty space")?;
                    let v = cards::value(c, g, me, x) + cards::value(c, g, me, y) - cv;
                    out.push(v);
                } else {
                    out.push(cards::value(c, g, me, card(g, a, 0).ok_or("market_pick: a card")?));
                }
            }
        }
        _ => return Err("market: side and config differ".into()),
    }
    Ok(out)
}
