//! Determinization for the search: a copy of the game in which everything
//! the searching seat cannot see is dealt anew from the search's own stream.
//!
//! Hidden: the draw pile's order, the round cards still to come, the face-down market cards
//! (Market B's pair, Market D's stacks but the one the seat is looking at), Pyramid C's
//! face-down tiles and Burial Chamber D's face-down tokens. Which items are face down is
//! public, so each group is pooled in a canonical (sorted) order, shuffled and dealt back
//! into the same places in the same sizes: nothing of the real order survives. The copy's
//! reshuffle stream is the search's stream, so later reshuffles are guesses too.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::chance;
use crate::game::{Game, DECK, ROUNDS};
use crate::rules::Card;
use crate::sites::burial_chamber::{BurialChamber, MoundState, Rows, Tomb};
use crate::sites::{market, pyramid};
use crate::stream::Stream;

/// The samples of one position for seat `me`: what does not depend on the draw is worked
/// out once (the face-down cards pooled in canonical order, the round cards turned up and
/// the pool of those to come, the position itself copied without its score events, its
/// pinned reshuffles or its chance stream), so a sample copies, shuffles and deals.
pub struct Sampler {
    base: Game,
    me: usize,
    cards: ArrayVec<Card, DECK>,
    seen: ArrayVec<[u8; 4], ROUNDS>,
    future: ArrayVec<[u8; 4], 16>,
    to_come: usize,
}

impl Sampler {
    pub fn new(g: &Game, me: usize) -> Sampler {
        let mut base = g.clone();
        base.keep_events = false;
        base.events = Vec::new();
        base.rng_reshuffle = None;
        base.pinned_reshuffles = Default::default();
        base.reshuffles = Vec::new(); // indexes pinned_reshuffles only, which is empty now
        base.deck_initial = Vec::new(); // a transcript's, never read in play
        // the face-down cards in canonical order: by name (the order of the names' bytes)
        let names = &g.rules.cards.names;
        let mut cards: ArrayVec<Card, DECK> = g.deck.iter().copied().collect();
        for place in market::hidden_cards(g, me) {
            cards.extend(place.iter().copied());
        }
        cards.sort_by(|a, b| names[*a as usize].cmp(&names[*b as usize]));
        let seen: ArrayVec<[u8; 4], ROUNDS> = g.round_cards[..g.round.min(g.round_cards.len())].iter().copied().collect();
        let future = unseen_round_cards(g, &seen);
        Sampler { base, me, cards, seen, future, to_come: g.rounds.saturating_sub(g.round) }
    }

    /// Make `d` a sample of the position (any game of this cell: its storage is reused),
    /// dealt from `rng`; `d`'s chance stream becomes `rng` (take it back with
    /// `d.rng_reshuffle.take()`).
    pub fn deal_into(&self, d: &mut Game, rng: Box<Stream>) {
        copy_game(d, &self.base);
        d.rng_reshuffle = Some(rng);
        self.deal(d);
    }

    /// A new sample whose chance stream is `rng`.
    pub fn sample(&self, rng: Box<Stream>) -> Game {
        let mut d = self.base.clone();
        d.rng_reshuffle = Some(rng);
        self.deal(&mut d);
        d
    }

    /// Deal the hidden parts of the copy `d` anew from its stream, in a fixed order of
    /// draws: the seed's 64 bits, the cards, the round cards to come, each site's own.
    fn deal(&self, d: &mut Game) {
        let mut rng = d.rng_reshuffle.take().expect("a sample's stream");
        // the sample's seed "search/<bits>": drawn, never used (its streams are this one)
        rng.next32();
        rng.next32();
        // copied in one go (an ArrayVec's clone of a long row copies item by item)
        let mut pool: ArrayVec<Card, DECK> = ArrayVec::new();
        pool.try_extend_from_slice(&self.cards).expect("the pool fits the deck's size");
        chance::shuffle(&mut rng, &mut pool);
        let k = d.deck.len();
        d.deck.copy_from_slice(&pool[..k]);
        let mut i = k;
        for place in market::hidden_cards_mut(d, self.me) {
            let m = place.len();
            place.copy_from_slice(&pool[i..i + m]);
            i += m;
        }
        debug_assert_eq!(i, pool.len(), "the face-down places changed since the sampler was made");
        let mut future = self.future.clone();
        chance::shuffle(&mut rng, &mut future);
        d.round_cards.clear();
        d.round_cards.extend(self.seen.iter().copied());
        d.round_cards.extend(future.iter().take(self.to_come).copied());
        pyramid::redeal_hidden(d, &mut rng);
        redeal_tokens(d, &mut rng);
        d.rng_reshuffle = Some(rng);
    }
}

/// The pool the rounds to come are drawn from, in canonical order: the printed pool less
/// those turned up (or, for round cards given by hand outside the pool, the cards to come).
fn unseen_round_cards(g: &Game, seen: &[[u8; 4]]) -> ArrayVec<[u8; 4], 16> {
    let mut future: ArrayVec<[u8; 4], 16> = g.rules.round_cards(g.n).iter().copied().collect();
    future.sort();
    for c in seen {
        match future.iter().position(|x| x == c) {
            Some(i) => {
                future.remove(i);
            }
            None => {
                let mut rest: ArrayVec<[u8; 4], 16> = g.round_cards[seen.len()..].iter().copied().collect();
                rest.sort();
                return rest;
            }
        }
    }
    future
}

/// Burial Chamber D's face-down tokens dealt anew: pooled in canonical (sorted) order,
/// shuffled and dealt back.
fn redeal_tokens(d: &mut Game, rng: &mut Stream) {
    if let BurialChamber::D(t) = &mut d.sites.burial_chamber {
        t.hidden_tokens.sort_unstable();
        chance::shuffle(rng, &mut t.hidden_tokens);
    }
}

/// `d` becomes a copy of `src` in place: each field copied into `d`'s own storage (the
/// arrays by their length), with no move of the whole game. Every field is named, so a
/// field added to `Game` does not compile here until it is copied.
fn copy_game(d: &mut Game, src: &Game) {
    let Game {
        rules,
        n,
        seed,
        expansion,
        prophecies_on,
        scenario,
        rounds,
        stones_total,
        get_stones,
        sled,
        quarry,
        sled_cap,
        blue,
        blue_kinds,
        red_kept,
        cards_taken,
        totals,
        hand,
        took,
        slots,
        ship_size,
        ship_min,
        ship_load,
        ship_dock,
        dock_used,
        open_mask,
        ship_free,
        ships_ready,
        docks_free,
        sailed,
        ship_sizes,
        round_cards,
        deck,
        deck_initial,
        discard,
        pinned_reshuffles,
        reshuffles,
        rng_reshuffle,
        pins,
        chance_setup,
        events,
        keep_events,
        round,
        current,
        start_player,
        passes,
        last_sailer,
        round_over,
        skip_advance,
        over,
        decisions,
        stack,
        to_move,
        kind,
        options,
        context,
        get_with_move,
        lazy_turns,
        prophecy,
        sites,
    } = src;
    share(&mut d.rules, rules);
    d.n = *n;
    share(&mut d.seed, seed);
    d.expansion = *expansion;
    d.prophecies_on = *prophecies_on;
    d.scenario = *scenario;
    d.rounds = *rounds;
    d.stones_total = *stones_total;
    d.get_stones = *get_stones;
    d.sled = *sled;
    d.quarry = *quarry;
    d.sled_cap = *sled_cap;
    d.blue = *blue;
    d.blue_kinds = *blue_kinds;
    d.red_kept = *red_kept;
    d.cards_taken = *cards_taken;
    d.totals = *totals;
    d.hand = *hand;
    d.took = *took;
    d.slots = *slots;
    d.ship_size = *ship_size;
    d.ship_min = *ship_min;
    d.ship_load = *ship_load;
    d.ship_dock = *ship_dock;
    d.dock_used = *dock_used;
    d.open_mask = *open_mask;
    d.ship_free = *ship_free;
    d.ships_ready = *ships_ready;
    d.docks_free = *docks_free;
    d.sailed = *sailed;
    d.ship_sizes = *ship_sizes;
    d.round_cards.clone_from(round_cards);
    d.deck.clone_from(deck);
    d.deck_initial.clone_from(deck_initial);
    d.discard.clone_from(discard);
    share(&mut d.pinned_reshuffles, pinned_reshuffles);
    d.reshuffles.clone_from(reshuffles);
    d.rng_reshuffle.clone_from(rng_reshuffle);
    share(&mut d.pins, pins);
    d.chance_setup.clone_from(chance_setup);
    d.events.clone_from(events);
    d.keep_events = *keep_events;
    d.round = *round;
    d.current = *current;
    d.start_player = *start_player;
    d.passes = *passes;
    d.last_sailer = *last_sailer;
    d.round_over = *round_over;
    d.skip_advance = *skip_advance;
    d.over = *over;
    d.decisions = *decisions;
    d.stack.clone_from(stack);
    d.to_move = *to_move;
    d.kind = *kind;
    d.options.clone_from(options);
    d.context = *context;
    d.get_with_move = *get_with_move;
    d.lazy_turns = *lazy_turns;
    d.prophecy.clone_from(prophecy);
    d.sites.market.clone_from(&sites.market);
    d.sites.pyramid.clone_from(&sites.pyramid);
    d.sites.temple.clone_from(&sites.temple);
    copy_burial_chamber(&mut d.sites.burial_chamber, &sites.burial_chamber);
    d.sites.obelisk.clone_from(&sites.obelisk);
}

/// `d` shares `src`'s value: already the same one (every sample after the first), it is
/// left alone, with no count taken and given back.
#[inline]
fn share<T: ?Sized>(d: &mut Arc<T>, src: &Arc<T>) {
    if !Arc::ptr_eq(d, src) {
        *d = src.clone();
    }
}

/// `d` becomes a copy of `src` in place. The site's derived `clone_from` clones a new value,
/// whose rows (ArrayVecs of up to 100 items) are copied item by item; copied here by
/// field, each row in one go. Each state's fields are named, as in `copy_game`.
fn copy_burial_chamber(d: &mut BurialChamber, src: &BurialChamber) {
    match (d, src) {
        (BurialChamber::A(d), BurialChamber::A(s)) | (BurialChamber::B(d), BurialChamber::B(s)) => {
            let Rows { owners } = s;
            d.owners.clone_from(owners);
        }
        (BurialChamber::C(d), BurialChamber::C(s)) => {
            let MoundState { owner, open, overflow, count } = s;
            d.owner = *owner;
            d.open.clone_from(open);
            d.overflow = *overflow;
            d.count = *count;
        }
        (BurialChamber::D(d), BurialChamber::D(s)) => {
            let Tomb { grid, face_up, edge, count, hidden_tokens } = s;
            d.grid = *grid;
            d.face_up.clone_from(face_up);
            d.edge = *edge;
            d.count = *count;
            d.hidden_tokens.clone_from(hidden_tokens);
        }
        (d, s) => d.clone_from(s),
    }
}
