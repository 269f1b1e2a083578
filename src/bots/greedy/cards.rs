//! Card pricing (`CardBook`, `CardValues`): what a market card is worth to each player now,
//! from public state only (hands are public; the deck's order is not, only its make-up).

use super::context::Ctx;
use super::fast_map::FastMap;
use super::sites;
use crate::bots::weights::{site_key, Weights, CARD_BLUE, CARD_DECORATION, CARD_OTHER, CARD_STATUE, MARKET};
use crate::game::{Game, HAND};
use crate::rules::{self, Card};

/// How a card is priced: (kind, parameter, weight key).
#[derive(Clone, Copy, Debug)]
enum How {
    Red(usize),
    Statue,
    Decoration(usize),
    Blue(f64),
    Cargo,
    Quarry,
    Ornament,
}

fn how(card: Card) -> How {
    match card {
        rules::ENTRANCE => How::Red(1),
        rules::SARCOPHAGUS => How::Red(3),
        rules::PAVED_PATH => How::Red(4),
        rules::PRIVATE_QUARRY => How::Quarry,
        c if (rules::PYRAMID_DECORATION..rules::PYRAMID_DECORATION + 4).contains(&c) => {
            How::Decoration((c - rules::PYRAMID_DECORATION) as usize + 1)
        }
        rules::STATUE => How::Statue,
        rules::CHISEL => How::Blue(2.0 - 1.0),
        rules::LEVER => How::Blue(1.6 - 1.0),
        rules::HAMMER => How::Blue(1.7 - 1.0),
        rules::SAIL => How::Blue(2.0 - 1.0),
        rules::BARGE => How::Blue(1.4 - 1.0),
        rules::LOADING_PLATFORM => How::Blue(1.4 - 1.0),
        rules::CARGO_SLED => How::Cargo,
        _ => How::Ornament,
    }
}

const CARDS: usize = 17;

/// One bot's card prices without its weights, kept while `Ctx.ckey` stands.
#[derive(Default)]
pub struct Book {
    pub key: Option<[i64; 3]>,
    pub neutral: [[Option<f64>; CARDS]; 4],
    pub hands: [Option<[u8; HAND]>; 4],
    pub unknown: FastMap<(usize, i32, usize), f64>,
    pub draws: FastMap<(usize, usize), Vec<(f64, i32)>>,
    pub left: f64,
}

pub struct CardValues {
    pub epoch: i64,
    pub book: Book,
    weighted: [Option<f64>; CARDS],
    comp: Option<Vec<(Card, i32)>>,
    unknown_mine: FastMap<(i32, usize), f64>,
    draws_mine: FastMap<(usize, usize), Vec<(f64, i32)>>,
    statue_table: Vec<i32>,
    statue_extra: i32,
    unused_blue: i32,
    per_decoration: i32,
    cargo: i32,
    mine: [(f64, f64); 4],
    red_w: [f64; 5],
    pub unit: bool,
}

impl CardValues {
    pub fn new(w: &Weights, g: &Game, _me: usize) -> CardValues {
        let t = &g.rules.cards;
        let w = &w.0;
        let mine = [
            (w[MARKET], w[CARD_STATUE]),
            (w[MARKET], w[CARD_DECORATION]),
            (w[MARKET], w[CARD_BLUE]),
            (w[MARKET], w[CARD_OTHER]),
        ];
        let mut red_w = [1.0; 5];
        for s in [1, 3, 4] {
            red_w[s] = w[site_key(s)];
        }
        let unit = mine.iter().all(|&(a, b)| a == 1.0 && b == 1.0) && [1, 3, 4].iter().all(|&s| red_w[s] == 1.0);
        CardValues {
            epoch: 0,
            book: Book { left: 1.0, ..Book::default() },
            weighted: [None; CARDS],
            comp: None,
            unknown_mine: FastMap::default(),
            draws_mine: FastMap::default(),
            statue_table: t.statue_table.clone(),
            statue_extra: t.statue_extra,
            unused_blue: t.unused_blue,
            per_decoration: t.per_decoration,
            cargo: t.cargo_capacity,
            mine,
            red_w,
            unit,
        }
    }

    fn statues(&self, k: i32) -> i32 {
        let t = &self.statue_table;
        if k <= 0 {
            return 0;
        }
        if k as usize <= t.len() {
            t[k as usize - 1]
        } else {
            t[t.len() - 1] + self.statue_extra * (k - t.len() as i32)
        }
    }

    fn weigh(&mut self, card: Card, v: f64) -> f64 {
        if let Some(x) = self.weighted[card as usize] {
            return x;
        }
        let got = match how(card) {
            How::Red(site) => v * self.red_w[site],
            h => {
                let (wm, wk) = self.mine[match h {
                    How::Statue => 0,
                    How::Decoration(_) => 1,
                    How::Blue(_) => 2,
                    _ => 3,
                }];
                v * wm * wk
            }
        };
        self.weighted[card as usize] = Some(got);
        got
    }
}

/// A new epoch of card prices: the weighted prices cleared, the book rebuilt when its key
/// changed.
pub fn new_epoch(c: &mut Ctx) {
    c.cards.epoch += 1;
    c.cards.weighted = [None; CARDS];
    if c.ckey != c.cards.book.key {
        c.cards.book.key = c.ckey;
        c.cards.book.neutral = [[None; CARDS]; 4];
        c.cards.book.hands = [None; 4];
        c.cards.book.left = c.left_fraction();
    }
}

/// Seat p's held cards (public), kept while the card key stands.
pub fn hand(c: &mut Ctx, g: &Game, p: usize) -> [u8; HAND] {
    if let Some(h) = c.cards.book.hands[p] {
        return h;
    }
    let h = g.hand[p];
    c.cards.book.hands[p] = Some(h);
    h
}

/// The neutral worth to p (no weights) of a card.
fn raw_value(c: &mut Ctx, g: &Game, p: usize, card: Card) -> f64 {
    let cv = &c.cards;
    match how(card) {
        How::Red(site) => {
            sites::ensure(c, g, site);
            let ev = &c.evals[site];
            if ev.built {
                ev.raw[p][0]
            } else {
                1.5
            }
        }
        How::Statue => {
            let k = hand(c, g, p)[rules::STATUE as usize] as i32;
            let cv = &c.cards;
            (cv.statues(k + 1) - cv.statues(k)) as f64
        }
        How::Decoration(site) => {
            let per = cv.per_decoration as f64;
            c.expected_stones(g, site) / per
        }
        How::Blue(arg) => cv.unused_blue as f64 + arg * cv.book.left,
        How::Cargo => 0.3 * cv.cargo as f64 * cv.book.left,
        How::Quarry => 1.0 + 0.4 * cv.book.left,
        How::Ornament => 2.0,
    }
}

/// The neutral worth of a card to p, kept in the book (for every player at once when it
/// does not depend on the player).
fn price(c: &mut Ctx, g: &Game, p: usize, card: Card) -> f64 {
    let v = raw_value(c, g, p, card);
    match how(card) {
        How::Red(_) | How::Statue => c.cards.book.neutral[p][card as usize] = Some(v),
        _ => {
            for row in c.cards.book.neutral.iter_mut() {
                row[card as usize] = Some(v);
            }
        }
    }
    v
}

fn neutral(c: &mut Ctx, g: &Game, p: usize, card: Card) -> f64 {
    match c.cards.book.neutral[p][card as usize] {
        Some(v) => v,
        None => price(c, g, p, card),
    }
}

/// What a card is worth to p now (mine weighted by my weights).
pub fn value(c: &mut Ctx, g: &Game, p: usize, card: Card) -> f64 {
    let v = neutral(c, g, p, card);
    if p == c.me && !c.cards.unit {
        return c.cards.weigh(card, v);
    }
    v
}

/// [value(p, card) for card in cards], in one call (the neutral prices first, then weights).
pub fn values(c: &mut Ctx, g: &Game, p: usize, cards: &[Card]) -> Vec<f64> {
    let mut out: Vec<f64> = cards.iter().map(|&card| neutral(c, g, p, card)).collect();
    if p == c.me && !c.cards.unit {
        for (x, &card) in out.iter_mut().zip(cards) {
            *x = c.cards.weigh(card, *x);
        }
    }
    out
}

/// What each face-up card and each face-down lot (the best of k blind cards) is worth to p,
/// best first.
pub fn offers(c: &mut Ctx, g: &Game, p: usize, cards: &[Card], lots: &[usize]) -> Vec<f64> {
    let mut s = values(c, g, p, cards);
    for &k in lots {
        if k > 0 {
            s.push(unknown(c, g, p, k as i32));
        }
    }
    sort_desc(&mut s);
    s
}

/// Floats sorted high to low (stable: equal floats keep their order).
pub fn sort_desc(s: &mut [f64]) {
    s.sort_by(|a, b| b.partial_cmp(a).expect("no NaN prices"));
}

/// Expected worth to p of the best of k cards drawn blind (the deck's make-up).
pub fn unknown(c: &mut Ctx, g: &Game, p: usize, k: i32) -> f64 {
    let rnd = c.round;
    let mine = p == c.me && !c.cards.unit;
    let got = if mine { c.cards.unknown_mine.get(&(k, rnd)) } else { c.cards.book.unknown.get(&(p, k, rnd)) };
    if let Some(&v) = got {
        return v;
    }
    let known_len = if mine { c.cards.unknown_mine.len() } else { c.cards.book.unknown.len() };
    if known_len > 64 {
        if mine {
            c.cards.unknown_mine.clear();
        } else {
            c.cards.book.unknown.clear();
        }
    }
    let vals = draws(c, g, p, rnd, mine);
    let total: i32 = vals.iter().map(|x| x.1).sum();
    let (mut acc, mut cum, mut prev) = (0.0, 0, 0.0);
    for &(val, cnt) in &vals {
        cum += cnt;
        let f = (cum as f64 / total as f64).powf(k as f64);
        acc += val * (f - prev);
        prev = f;
    }
    if mine {
        c.cards.unknown_mine.insert((k, rnd), acc);
    } else {
        c.cards.book.unknown.insert((p, k, rnd), acc);
    }
    acc
}

/// (worth to p, copies) of every card of the deck, lowest first, priced once a round.
fn draws(c: &mut Ctx, g: &Game, p: usize, rnd: usize, mine: bool) -> Vec<(f64, i32)> {
    let got = if mine { c.cards.draws_mine.get(&(p, rnd)) } else { c.cards.book.draws.get(&(p, rnd)) };
    if let Some(v) = got {
        return v.clone();
    }
    let known = if mine { &mut c.cards.draws_mine } else { &mut c.cards.book.draws };
    if known.len() > 16 {
        known.clear();
    }
    if c.cards.comp.is_none() {
        // (card, copies) in first-seen deck order, fewest copies first (a stable sort)
        let mut comp: Vec<(Card, i32)> = Vec::new();
        for card in g.rules.cards.deck(g.expansion) {
            match comp.iter_mut().find(|x| x.0 == card) {
                Some(x) => x.1 += 1,
                None => comp.push((card, 1)),
            }
        }
        comp.sort_by_key(|x| x.1);
        c.cards.comp = Some(comp);
    }
    let comp = c.cards.comp.clone().unwrap();
    let mut vals: Vec<(f64, i32)> = Vec::with_capacity(comp.len());
    for &(card, cnt) in &comp {
        let v = if mine { value(c, g, p, card) } else { neutral(c, g, p, card) };
        vals.push((v, cnt));
    }
    vals.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("no NaN prices"));
    let known = if mine { &mut c.cards.draws_mine } else { &mut c.cards.book.draws };
    known.insert((p, rnd), vals.clone());
    vals
}
