//! The Market (docs/rules.md §4): its four sides. An unloaded stone
//! goes back to its owner's quarry, just before its owner takes the card it pays for (so a
//! red card taken can use that stone at once).
//!
//! Decisions, all made by the unloaded stone's owner (a choice with a single option is not
//! asked, it is carried out at once, except Market A's pick, which Python always asks):
//!
//! | kind          | side    | options (notation)                                               |
//! |---------------|---------|------------------------------------------------------------------|
//! | `market_pick` | A, B, D | `take statue`: a face-up card (identical cards are one option)    |
//! | `market_pick` | B       | `take pair`: the face-down pair (then `market_keep`)              |
//! | `market_pick` | C       | `take statue`, `take statue 2` (the copy in space 2, when several |
//! |               |         | spaces hold it and a coin may still be paid), `take 1 2` (a coin) |
//! | `market_pick` | D       | `take stack 0`: look at face-down stack 0 (then `market_keep`)    |
//! | `market_keep` | B, D    | `keep chisel`: the card kept from the pair / stack looked at      |

use arrayvec::ArrayVec;
use serde_json::Value;

use crate::action::{keep_card, take_card, Action, Arg, Name, TAKE};
use crate::cards;
use crate::game::{Context, Game, Options, Res, Task, SEATS};
use crate::kinds::{Kind, MARKET_KEEP, MARKET_PICK};
use crate::rules::{int, Card, CoreError, Names, Rules, Side};

/// rules/limits.py bounds: market.*.display <= 8, hidden_pair <= 4, stacks <= 4,
/// stack_size <= 10.
pub const DISPLAY: usize = 8;
pub const PAIR: usize = 4;
pub const STACKS: usize = 4;
pub const STACK: usize = 10;

/// The side's board data, parsed once per cell (`Rules.sites.market`).
#[derive(Clone, Debug)]
pub enum Config {
    /// 4.1: `display` face-up cards each round.
    A { display: usize },
    /// 4.2: `display` face-up cards and a face-down pair of `pair` cards ("take pair").
    B { display: usize, pair: usize, take_pair: Action },
    /// 4.3: `display` cards in fixed spaces; `coins` per player at setup.
    C { display: usize, coins: i32 },
    /// 4.4: `display` face-up singles and `stacks` face-down stacks of `stack_size`
    /// ("take stack i": `stack` is the name id of "stack").
    D { display: usize, stacks: usize, stack_size: usize, stack: Name },
}

fn size(values: &Value, key: &str, at: &str, most: usize) -> Result<usize, CoreError> {
    let x = int(values, key, at)?;
    if x < 0 || x as usize > most {
        return Err(CoreError::value(format!("{at}.{key}: expected 0 to {most}, got {x}")));
    }
    Ok(x as usize)
}

/// Parse the chosen side's values (`values.market` of the board JSON), interning the names
/// its actions show.
pub fn parse(names: &mut Names, side: Side, values: &Value) -> Result<Config, CoreError> {
    let at = format!("market.{}", side.letter());
    let display = size(values, "display", &at, DISPLAY)?;
    Ok(match side {
        Side::A => Config::A { display },
        Side::B => {
            let pair = size(values, "hidden_pair", &at, PAIR)?;
            let take_pair = Action::new1(TAKE, Arg::Name(names.intern("pair")));
            Config::B { display, pair, take_pair }
        }
        Side::C => Config::C { display, coins: int(values, "coins", &at)? as i32 },
        Side::D => Config::D {
            display,
            stacks: size(values, "stacks", &at, STACKS)?,
            stack_size: size(values, "stack_size", &at, STACK)?,
            stack: names.intern("stack"),
        },
    })
}

#[derive(Clone, Debug, Default)]
pub struct MarketA {
    pub display: ArrayVec<Card, DISPLAY>,
}

#[derive(Clone, Debug, Default)]
pub struct MarketB {
    pub display: ArrayVec<Card, DISPLAY>,
    /// hidden: the face-down pair (its size is public)
    pub hidden_pair: ArrayVec<Card, PAIR>,
    /// the pair taken and looked at, while its owner chooses the card to keep (Python
    /// keeps it in the question's context)
    pub looked: ArrayVec<Card, PAIR>,
}

#[derive(Clone, Debug, Default)]
pub struct MarketC {
    /// the card in each space (the first `size` spaces), None once taken
    pub display: [Option<Card>; DISPLAY],
    pub size: usize,
    /// cards still in the display
    pub left: i32,
    pub coins: [i32; SEATS],
    pub seats: usize,
}

#[derive(Clone, Debug, Default)]
pub struct MarketD {
    pub display: ArrayVec<Card, DISPLAY>,
    /// hidden: the face-down stacks (their sizes are public)
    pub hidden_stacks: [ArrayVec<Card, STACK>; STACKS],
    pub stacks: usize,
}

/// The site's state in a game (`Game.sites.market`).
#[derive(Clone, Debug)]
pub enum Market {
    A(MarketA),
    B(MarketB),
    C(MarketC),
    D(MarketD),
}

impl Market {
    pub fn new(r: &Rules, players: usize) -> Result<Market, CoreError> {
        Ok(match r.sites.market {
            Config::A { .. } => Market::A(MarketA::default()),
            Config::B { .. } => Market::B(MarketB::default()),
            Config::C { display, coins } => {
                let mut c = [0; SEATS];
                c[..players].fill(coins);
                Market::C(MarketC { display: [None; DISPLAY], size: display, left: 0, coins: c, seats: players })
            }
            Config::D { stacks, .. } => Market::D(MarketD { stacks, ..MarketD::default() }),
        })
    }

    /// The market holds no stones (they go back to the quarry).
    pub fn stones(&self) -> i32 {
        0
    }

    pub fn stones_of(&self, _p: usize) -> i32 {
        0
    }

    /// Market D's public stack sizes.
    pub fn stack_count(&self) -> ArrayVec<usize, STACKS> {
        match self {
            Market::D(m) => m.hidden_stacks[..m.stacks].iter().map(|s| s.len()).collect(),
            _ => ArrayVec::new(),
        }
    }
}

fn a(g: &mut Game) -> &mut MarketA {
    match &mut g.sites.market {
        Market::A(m) => m,
        _ => unreachable!("market: not side A"),
    }
}

fn b(g: &mut Game) -> &mut MarketB {
    match &mut g.sites.market {
        Market::B(m) => m,
        _ => unreachable!("market: not side B"),
    }
}

fn c(g: &mut Game) -> &mut MarketC {
    match &mut g.sites.market {
        Market::C(m) => m,
        _ => unreachable!("market: not side C"),
    }
}

fn d(g: &mut Game) -> &mut MarketD {
    match &mut g.sites.market {
        Market::D(m) => m,
        _ => unreachable!("market: not side D"),
    }
}

/// `take <card>` for the cards `names`, in order; identical cards are one choice (which
/// copy is taken changes nothing).
fn take_options(r: &Rules, cards: &[Card], opts: &mut Options) {
    for card in distinct(cards) {
        opts.push(take_card(r, card));
    }
}

/// `keep <card>` for each distinct card of `hand`, in order, into `opts` (the game's row).
fn keep_options(opts: &mut Options, r: &Rules, hand: &[Card]) {
    opts.clear();
    for card in distinct(hand) {
        opts.push(keep_card(r, card));
    }
}

/// Each card of `cards` once, in order of first appearance (card codes are below HAND).
fn distinct(cards: &[Card]) -> impl Iterator<Item = Card> + '_ {
    let mut seen = 0u32;
    cards.iter().copied().filter(move |&card| {
        let bit = 1u32 << card;
        let new = seen & bit == 0;
        seen |= bit;
        new
    })
}

/// Remove the first `card` of `list` (Python's `list.remove`).
fn remove<const N: usize>(list: &mut ArrayVec<Card, N>, card: Card) {
    let i = list.iter().position(|&x| x == card).expect("market: the card is not there");
    list.remove(i);
}

/// Set-up work that needs the game: none (the display is dealt at each round's start).
pub fn setup(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

pub fn round_start(g: &mut Game, r: &Rules) -> Res {
    match r.sites.market {
        Config::A { display } => {
            for _ in 0..display {
                if let Some(card) = g.draw(r)? {
                    a(g).display.push(card);
                }
            }
        }
        Config::B { display, pair, .. } => {
            for _ in 0..display {
                if let Some(card) = g.draw(r)? {
                    b(g).display.push(card);
                }
            }
            for _ in 0..pair {
                if let Some(card) = g.draw(r)? {
                    b(g).hidden_pair.push(card);
                }
            }
        }
        Config::C { .. } => {
            let size = c(g).size;
            for i in 0..size {
                if c(g).display[i].is_none() {
                    let card = g.draw(r)?;
                    c(g).display[i] = card;
                }
            }
            let m = c(g);
            m.left = m.display[..size].iter().filter(|x| x.is_some()).count() as i32;
        }
        Config::D { display, stack_size, .. } => {
            let have = d(g).display.len();
            for _ in 0..display.saturating_sub(have) {
                if let Some(card) = g.draw(r)? {
                    d(g).display.push(card);
                }
            }
            for i in 0..d(g).stacks {
                while d(g).hidden_stacks[i].len() < stack_size {
                    match g.draw(r)? {
                        Some(card) => d(g).hidden_stacks[i].push(card),
                        None => break,
                    }
                }
            }
        }
    }
    Ok(())
}

/// A stone of `owner` arrives: back to the quarry, then the owner takes a card. The
/// options are built in the game's own row (`ask_built`), not copied into it.
pub fn deliver(g: &mut Game, r: &Rules, owner: usize) -> Res {
    g.quarry[owner] += 1;
    let ctx = [owner as i32, 0, 0, 0];
    match r.sites.market {
        Config::A { .. } => {
            let Market::A(m) = &g.sites.market else { unreachable!("market: not side A") };
            if !m.display.is_empty() {
                g.options.clear();
                take_options(r, &m.display, &mut g.options);
                g.ask_built(MARKET_PICK, owner, ctx);
            }
        }
        Config::B { take_pair, .. } => {
            let Market::B(m) = &g.sites.market else { unreachable!("market: not side B") };
            g.options.clear();
            take_options(r, &m.display, &mut g.options);
            if !m.hidden_pair.is_empty() {
                g.options.push(take_pair);
            }
            if g.options.len() > 1 {
                g.ask_built(MARKET_PICK, owner, ctx);
            } else if let Some(&one) = g.options.first() {
                pick_b(g, r, one, owner)?;
            }
        }
        Config::C { .. } => {
            if c(g).left == 0 {
                // the display is empty: the top card of the draw pile (4.3)
                if let Some(card) = g.draw(r)? {
                    cards::gain(g, r, owner, card)?;
                }
                return Ok(());
            }
            let opts = options_c(g, r, owner);
            if opts.len() > 1 {
                g.ask(MARKET_PICK, owner, &opts, ctx);
            } else {
                answer_c(g, r, opts[0], owner)?;
            }
        }
        Config::D { stack, .. } => {
            let Market::D(m) = &g.sites.market else { unreachable!("market: not side D") };
            g.options.clear();
            take_options(r, &m.display, &mut g.options);
            for i in 0..m.stacks {
                if !m.hidden_stacks[i].is_empty() {
                    g.options.push(stack_action(stack, i));
                }
            }
            if g.options.len() > 1 {
                g.ask_built(MARKET_PICK, owner, ctx);
            } else if let Some(&one) = g.options.first() {
                pick_d(g, r, one, owner)?;
            }
        }
    }
    Ok(())
}

fn stack_action(stack: Name, i: usize) -> Action {
    Action::new2(TAKE, Arg::Name(stack), Arg::Int(i as _))
}

/// The answer `a` to this site's question of `kind`, asked with `ctx` (the owner first).
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a_: Action, ctx: Context) -> Res {
    let owner = ctx[0] as usize;
    match r.sites.market {
        Config::A { .. } => {
            let card = r.card_arg(&a_, 0);
            remove(&mut a(g).display, card);
            cards::gain(g, r, owner, card)
        }
        Config::B { .. } => {
            if kind == MARKET_KEEP {
                keep_b(g, r, a_, owner)
            } else {
                pick_b(g, r, a_, owner)
            }
        }
        Config::C { .. } => answer_c(g, r, a_, owner),
        Config::D { .. } => {
            if kind == MARKET_KEEP {
                keep_d(g, r, a_, owner, ctx[1] as usize)
            } else {
                pick_d(g, r, a_, owner)
            }
        }
    }
}

// ------------------------------------------------------------------------ Market B (4.2)
fn pick_b(g: &mut Game, r: &Rules, a_: Action, owner: usize) -> Res {
    let Config::B { take_pair, .. } = r.sites.market else { unreachable!() };
    if a_ == take_pair {
        // the owner looks at the pair: it leaves the face-down place for the question
        let m = b(g);
        m.looked = std::mem::take(&mut m.hidden_pair);
        let looked = m.looked.clone();
        keep_options(&mut g.options, r, &looked);
        let ctx = [owner as i32, 0, 0, 0];
        if g.options.len() == 1 {
            return keep_b(g, r, g.options[0], owner);
        }
        g.ask_built(MARKET_KEEP, owner, ctx);
        return Ok(());
    }
    let card = r.card_arg(&a_, 0);
    remove(&mut b(g).display, card);
    cards::gain(g, r, owner, card)
}

/// Keep one card of the pair looked at; the others are discarded, in the pair's order.
fn keep_b(g: &mut Game, r: &Rules, a_: Action, owner: usize) -> Res {
    let card = r.card_arg(&a_, 0);
    let mut rest = std::mem::take(&mut b(g).looked);
    remove(&mut rest, card);
    g.discard.try_extend_from_slice(&rest).expect("discard pile size");
    cards::gain(g, r, owner, card)
}

// ------------------------------------------------------------------------ Market C (4.3)
/// The owner's choices while the display holds a card.
fn options_c(g: &mut Game, r: &Rules, owner: usize) -> Options {
    let m = c(g);
    let d = &m.display[..m.size];
    let coin_left = m.coins[..m.seats].iter().any(|&x| x != 0);
    // the spaces of each card, cards in the order of their first space
    let mut cards_seen: ArrayVec<Card, DISPLAY> = ArrayVec::new();
    for card in d.iter().flatten() {
        if !cards_seen.contains(card) {
            cards_seen.push(*card);
        }
    }
    let mut opts = Options::new();
    for &card in &cards_seen {
        let copies = d.iter().filter(|&&x| x == Some(card)).count();
        // which copy is taken only matters for the adjacency of later coin picks
        if copies == 1 || !coin_left {
            opts.push(take_card(r, card));
        } else {
            for (i, x) in d.iter().enumerate() {
                if *x == Some(card) {
                    opts.push(Action::new2(TAKE, Arg::Name(r.card_name(card)), Arg::Int(i as _)));
                }
            }
        }
    }
    if m.coins[owner] > 0 {
        for i in 0..m.size.saturating_sub(1) {
            if d[i].is_some() && d[i + 1].is_some() {
                opts.push(Action::new2(TAKE, Arg::Int(i as _), Arg::Int((i + 1) as _)));
            }
        }
    }
    opts
}

fn answer_c(g: &mut Game, r: &Rules, a_: Action, owner: usize) -> Res {
    if let Arg::Int(i) = a_.arg(0) {
        // a coin for two adjacent cards
        let (i, j) = (i as usize, a_.n(1) as usize);
        let m = c(g);
        let left = m.display[i].take().expect("market.C: an empty space");
        let right = m.display[j].take().expect("market.C: an empty space");
        m.left -= 2;
        m.coins[owner] -= 1;
        // one after the other, left card first: a red card's delivery is done before the
        // right card is taken
        g.push(Task::Gain { p: owner as u8, card: right });
        g.push(Task::Gain { p: owner as u8, card: left });
        return Ok(());
    }
    let card = r.card_arg(&a_, 0);
    let m = c(g);
    let i = match a_.arg(1) {
        Arg::Int(i) => i as usize,
        _ => m.display[..m.size].iter().position(|&x| x == Some(card)).expect("market.C: no such card"),
    };
    m.display[i] = None;
    m.left -= 1;
    cards::gain(g, r, owner, card)
}

// ------------------------------------------------------------------------ Market D (4.4)
fn pick_d(g: &mut Game, r: &Rules, a_: Action, owner: usize) -> Res {
    let Config::D { stack, .. } = r.sites.market else { unreachable!() };
    if a_.name(0) == Some(stack) && a_.arg_count() == 2 {
        let i = a_.n(1) as usize;
        let cards = d(g).hidden_stacks[i].clone();
        keep_options(&mut g.options, r, &cards);
        if g.options.len() == 1 {
            return keep_d(g, r, g.options[0], owner, i);
        }
        g.ask_built(MARKET_KEEP, owner, [owner as i32, i as i32, 0, 0]);
        return Ok(());
    }
    let card = r.card_arg(&a_, 0);
    remove(&mut d(g).display, card);
    cards::gain(g, r, owner, card)
}

/// Keep one card of stack i; the rest go back face down.
fn keep_d(g: &mut Game, r: &Rules, a_: Action, owner: usize, i: usize) -> Res {
    let card = r.card_arg(&a_, 0);
    remove(&mut d(g).hidden_stacks[i], card);
    cards::gain(g, r, owner, card)
}

pub fn round_end(g: &mut Game, _r: &Rules) -> Res {
    let discard = match &mut g.sites.market {
        Market::A(m) => std::mem::take(&mut m.display).into_iter().collect::<ArrayVec<Card, 16>>(),
        Market::B(m) => {
            let mut out: ArrayVec<Card, 16> = std::mem::take(&mut m.display).into_iter().collect();
            out.extend(std::mem::take(&mut m.hidden_pair));
            out
        }
        Market::C(m) => {
            let out = m.display[..m.size].iter().flatten().copied().collect();
            m.display = [None; DISPLAY];
            m.left = 0;
            out
        }
        Market::D(m) => std::mem::take(&mut m.display).into_iter().collect(),
    };
    g.discard.try_extend_from_slice(&discard).expect("discard pile size");
    Ok(())
}

pub fn game_end(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// The market pushes no task of its own (Market C's coin pick pushes `Task::Gain`).
pub fn run_task(_g: &mut Game, _r: &Rules, _args: Context) -> Res {
    Err(CoreError::illegal("market: no task".into()))
}

/// A "get" action with a site-specific extra: Pyramid D's only.
pub fn on_get(_g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    Err(CoreError::illegal("market: no get action of its own".into()))
}

// ------------------------------------------------------------------ hidden information
/// Which of Market D's stacks `seat` is looking at (its `market_keep`: the options show
/// it), or None.
fn looking(g: &Game, seat: usize) -> Option<usize> {
    if g.kind == MARKET_KEEP && g.to_move == seat as i32 {
        if let Market::D(_) = g.sites.market {
            return Some(g.context[1] as usize);
        }
    }
    None
}

/// The market cards face down here that `seat` has not looked at, place by place (engine's
/// `Site.hidden_cards`: pooled with the draw pile when dealt anew).
pub fn hidden_cards(g: &Game, seat: usize) -> ArrayVec<&[Card], STACKS> {
    let skip = looking(g, seat);
    let mut out = ArrayVec::new();
    match &g.sites.market {
        Market::B(m) => out.push(&m.hidden_pair[..]),
        Market::D(m) => {
            for (i, s) in m.hidden_stacks[..m.stacks].iter().enumerate() {
                if Some(i) != skip {
                    out.push(&s[..]);
                }
            }
        }
        _ => {}
    }
    out
}

/// `hidden_cards`' places, to be written in place (a deal keeps each place's size).
pub fn hidden_cards_mut(g: &mut Game, seat: usize) -> ArrayVec<&mut [Card], STACKS> {
    let skip = looking(g, seat);
    let mut out = ArrayVec::new();
    match &mut g.sites.market {
        Market::B(m) => out.push(&mut m.hidden_pair[..]),
        Market::D(m) => {
            for (i, s) in m.hidden_stacks[..m.stacks].iter_mut().enumerate() {
                if Some(i) != skip {
                    out.push(&mut s[..]);
                }
            }
        }
        _ => {}
    }
    out
}
