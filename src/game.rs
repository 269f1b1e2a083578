//! The game: one value (`#[derive(Clone)]`, fixed-size storage), its decision points and the
//! one transition, [`Game::apply`] (the same games, decision by decision, as the Python engine
//! that came before it: docs/rules.md has the rules).
//!
//! The module is long because the state, the flow and the tasks are one unit: every task and
//! the turn read and write the same fields, and a split would only pass the game around
//! between files; the contract for the site modules below belongs beside the fields it names.
//!
//! # The contract for the site modules (src/sites/*.rs)
//!
//! Every site module has the same functions (src/sites/mod.rs dispatches by site index);
//! those that change the game take `g: &mut Game` and `r: &Rules` (the board data: the
//! module's own parsed side is `r.sites.<site>`), and reach their own state as
//! `g.sites.<site>` (`g.sites.market`, `g.sites.burial_chamber`...). Copy the small values
//! you need out of `g.sites.<site>` before calling a method of `g` (no long-lived borrows).
//! They return `Res` (`Result<(), CoreError>`): a `CoreError::rules` with the Python
//! engine's message where it raises a RulesError.
//!
//! - **Score**: `g.score(seat, SRC_PYRAMID, points)` (sources: rules.rs `SRC_*`); zero
//!   points record nothing, as in Python.
//! - **Ask a question**: build the options (a slice of [`Action`]s, in Python's order), then
//!   `g.ask(kind, seat, &options, ctx)` and return at once; `kind` is a code of kinds.rs
//!   that kinds.rs says your site answers, `ctx` a [`Context`] (`[i32; 4]`, the Python
//!   context tuple's ints, unused items 0). The answer comes back to your module's
//!   `answer(g, r, kind, action, ctx)` with the same `ctx`. A question asked while
//!   unloading is answered before the next stone is unloaded (the engine keeps the rest of
//!   the ship as a task under it). Never ask twice in one call.
//! - **Actions**: `Action::new(kind_name, &[Arg::Int(i), Arg::Name(id)])`; a name shown in an
//!   action is interned once, in your module's `parse` (`names.intern("pyramid")`), and its
//!   id kept in your `Config`. Cards: `action::take_card(r, card)`, `keep_card(r, card)`; a
//!   card as an argument is `Arg::Name(r.card_name(card))`, read back with `r.card_arg(&a, i)`
//!   ("sail" names both an action kind and a card: one id).
//! - **Push a task** (work to run after the current step, last pushed runs first: Python's
//!   `g.push(fn, *args)`): `g.push(Task::Site { site: TEMPLE as u8, args: [..] })` comes back
//!   to your module's `run_task(g, r, args)`; `g.push(Task::Gain { p, card })` is
//!   Python's `g.push(cards.gain, p, card)`.
//! - **Cards**: `g.draw(r)?` is the top market card (`Option<Card>`: None when the draw
//!   pile and the discard pile are both empty; an empty draw pile is the shuffled discard
//!   pile); `cards::gain(g, r, p, card)?` gives a card to seat p (a red card acts at once);
//!   `g.discard.push(card)` discards.
//! - **Stones**: `g.quarry[p]`, `g.sled[p]` (i32, per seat), `g.sled_to_capacity(p, k)`,
//!   `g.schedule_from_quarry(p, site)`, `g.schedule_delivery(p, site)`,
//!   `g.put_on_ship(p, s, k)`, `g.empty_slots(ships_mask)`; `g.get_with_move` is Pyramid D's
//!   "get move" option.
//! - **Chance at setup**: `g.chance_pick(Purpose::Tomb, &population, k)?` gives the indexes
//!   (into `population`) of the k items drawn in order (Python's `g.chance_pick`).
//! - `g.n` players, `g.round` (1-based; rounds + 1 at game end), `g.rounds`.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::action::{self, Action, Arg};
use crate::cards;
use crate::chance;
use crate::kinds::{self, Kind, LEVER_UNLOAD, NONE, PROPHECY, TURN};
use crate::prophecies::{self, Prophecies};
use crate::result::best_seats;
use crate::rules::{Card, CoreError, Rules, Source, BURIAL_CHAMBER, OBELISK, PYRAMID, TEMPLE};
use crate::sites::{self, Sites};
use crate::stream::Stream;
use crate::turn::{push_places, push_sails};

/// At most 4 players.
pub const SEATS: usize = 4;
pub const SHIPS: usize = 4;
pub const DOCKS: usize = 5;
/// 4 ships of at most 4 slots: slot k of ship s at 4 s + k.
pub const SLOTS: usize = 16;
/// Card kinds a hand's row holds.
pub const HAND: usize = 32;
/// The market deck's most cards (cards.*.count at most 20, rules/limits.py).
pub const DECK: usize = 512;
/// game.rounds at most 6 (rules/limits.py).
pub const ROUNDS: usize = 6;
/// The most options a decision offers.
pub const OPTIONS: usize = 128;
/// The task stack's depth.
pub const STACK: usize = 64;
/// A question's context: the Python context tuple's ints.
pub const CONTEXT: usize = 4;
pub type Context = [i32; CONTEXT];
/// Far above any game the board limits allow: a round that cannot end.
pub const MAX_DECISIONS: u32 = 100_000;

pub type Res = Result<(), CoreError>;
pub type Options = ArrayVec<Action, OPTIONS>;

/// Work that may need a decision, on the task stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    EndTurn,
    AfterSail,
    UnloadShip { s: u8, site: u8, start: u8 },
    UnloadStone { s: u8, k: u8, site: u8 },
    LeverNext { s: u8, site: u8, p: u8 },
    Deliver { site: u8, owner: u8 },
    RoundEnd { site: u8 },
    NextRound { start: u8 },
    /// cards.gain(p, card)
    Gain { p: u8, card: Card },
    /// a site's own task: its module's run_task(g, r, args)
    Site { site: u8, args: Context },
}

/// A score event (docs/rules.md §2.6): game-end events carry round = rounds + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub seat: u8,
    pub source: Source,
    pub points: i32,
    pub round: u8,
}

/// What chance_pick draws for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Scaffold = 0,
    Tomb = 1,
    Prophecies = 2,
}

impl Purpose {
    pub const ALL: [Purpose; 3] = [Purpose::Scaffold, Purpose::Tomb, Purpose::Prophecies];

    pub fn name(self) -> &'static str {
        match self {
            Purpose::Scaffold => "scaffold",
            Purpose::Tomb => "tomb",
            Purpose::Prophecies => "prophecies",
        }
    }

    fn lists(self) -> &'static str {
        match self {
            Purpose::Scaffold => "Pyramid C's scaffold tiles in play, by number, in the order they are turned up",
            Purpose::Tomb => "Burial Chamber D's tomb tokens, in the order they are turned up",
            Purpose::Prophecies => "the prophecy cards in play",
        }
    }

    fn drawn_by(self) -> &'static str {
        match self {
            Purpose::Scaffold => "Pyramid C",
            Purpose::Tomb => "Burial Chamber D",
            Purpose::Prophecies => "the prophecies module",
        }
    }
}

/// How a game is set up (the arguments of Python's `Game(...)` beside the board).
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub players: usize,
    /// the seed as Python's `str(seed)`
    pub seed: String,
    pub expansion: Option<bool>,
    pub prophecies: bool,
    pub round_cards: Option<Vec<[u8; 4]>>,
    /// the deck, top first
    pub deck: Option<Vec<Card>>,
    pub scenario: bool,
    /// pinned setup outcomes, by purpose
    pub pins: [Option<Vec<Arg>>; 3],
    /// pinned reshuffles, each the new draw pile top first
    pub reshuffles: Vec<Vec<Card>>,
    /// keep no score events (a search's games): totals only
    pub no_events: bool,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    pub n: usize,
    pub seed: Arc<str>,
    pub expansion: bool,
    pub prophecies_on: bool,
    pub scenario: bool,
    pub rounds: usize,
    pub stones_total: i32,
    pub get_stones: i32,

    // per seat
    pub sled: [i32; SEATS],
    pub quarry: [i32; SEATS],
    pub sled_cap: [i32; SEATS],
    pub blue: [i32; SEATS],
    /// bit j: a BLUE0 + j card held
    pub blue_kinds: [u8; SEATS],
    pub red_kept: [i32; SEATS],
    pub cards_taken: [i32; SEATS],
    pub totals: [i32; SEATS],
    /// held cards: hand[p][card]
    pub hand: [[u8; HAND]; SEATS],
    /// cards taken, by card: took[p][card]
    pub took: [[u16; HAND]; SEATS],

    // ships and docks
    /// owner, -1 empty, -2 unloaded
    pub slots: [i8; SLOTS],
    pub ship_size: [u8; SHIPS],
    pub ship_min: [u8; SHIPS],
    pub ship_load: [u8; SHIPS],
    /// the site a ship sailed to, -1 none
    pub ship_dock: [i8; SHIPS],
    pub dock_used: [u8; DOCKS],
    /// bit 4 s + k: slot k of ship s is empty and the ship has not sailed
    pub open_mask: u16,
    /// open slots (open_mask's bits)
    pub ship_free: i32,
    /// unsailed ships holding their minimum
    pub ships_ready: u8,
    /// docks with no ship yet
    pub docks_free: u8,
    pub sailed: u8,
    pub ship_sizes: [u8; 4],
    pub round_cards: ArrayVec<[u8; 4], ROUNDS>,

    // cards
    /// the draw pile: its top is the END
    pub deck: ArrayVec<Card, DECK>,
    pub deck_initial: Vec<Card>,
    pub discard: ArrayVec<Card, DECK>,
    pub pinned_reshuffles: Arc<Vec<Vec<Card>>>,
    /// every reshuffle's new draw pile, top first
    pub reshuffles: Vec<Vec<Card>>,
    pub rng_reshuffle: Option<Box<Stream>>,
    pub pins: Arc<[Option<Vec<Arg>>; 3]>,
    /// the set-up picks by purpose (population indexes), for transcripts
    pub chance_setup: [Option<Vec<usize>>; 3],

    // scoring
    pub events: Vec<Event>,
    pub keep_events: bool,

    // flow
    pub round: usize,
    pub current: usize,
    pub start_player: usize,
    pub passes: usize,
    pub last_sailer: i32,
    pub round_over: bool,
    pub skip_advance: bool,
    pub over: bool,
    pub decisions: u32,
    pub stack: ArrayVec<Task, STACK>,
    pub to_move: i32,
    pub kind: Kind,
    pub options: Options,
    pub context: Context,
    /// Pyramid D: the turn offers "get move" beside "get"
    pub get_with_move: bool,
    /// A turn's options are not built: a playout draws them by index (`apply_drawn`);
    /// `options()` is then empty at a turn.
    pub lazy_turns: bool,
    pub prophecy: Option<Prophecies>,

    pub sites: Sites,
}

fn ship_minimum(size: u8) -> u8 {
    if size > 1 {
        size - 1
    } else {
        1
    }
}

impl Game {
    /// A new game at its first decision.
    pub fn new(rules: Arc<Rules>, setup: &Setup) -> Result<Game, CoreError> {
        let r: &Rules = &rules;
        let n = setup.players;
        if !(2..=4).contains(&n) {
            return Err(CoreError::rules(format!("players: expected 2, 3 or 4, got {n}")));
        }
        let expansion = setup.expansion.unwrap_or_else(|| {
            setup.prophecies || r.sides.iter().any(|s| matches!(s, crate::rules::Side::C | crate::rules::Side::D))
        });
        let gt = &r.game;
        let stones = if expansion && n == 2 { gt.stones_two_colour } else { gt.stones };
        let mut sled = [0; SEATS];
        let mut quarry = [0; SEATS];
        let mut sled_cap = [0; SEATS];
        for p in 0..n {
            sled[p] = gt.starting_sled[p];
            quarry[p] = stones - gt.starting_sled[p];
            sled_cap[p] = gt.sled_capacity;
        }
        // Round cards (docs/rules.md §1.1): the "deal" stream shuffles the round cards, then
        // the deck, both always.
        let pool = r.round_cards(n);
        let mut deal = chance::stream(&setup.seed, "deal");
        let mut dealt: Vec<[u8; 4]> = pool.to_vec();
        chance::fast_shuffle(&mut deal, &mut dealt);
        let rounds = gt.rounds;
        let round_cards: Vec<[u8; 4]> = match &setup.round_cards {
            None => {
                if !(1 <= rounds && rounds < pool.len()) {
                    return Err(CoreError::rules(format!(
                        "game.rounds: expected 1 to {} (one of the {} round cards is removed at setup), got {}",
                        pool.len() - 1,
                        pool.len(),
                        rounds
                    )));
                }
                dealt[1..1 + rounds].to_vec()
            }
            Some(given) => crate::setup_checks::check_round_cards(given, pool, rounds, n, setup.scenario)?,
        };
        let base_deck = r.cards.deck_of(expansion);
        let mut shuffled = base_deck.to_vec();
        chance::fast_shuffle(&mut deal, &mut shuffled);
        let deck: Vec<Card> = match &setup.deck {
            None => shuffled,
            Some(given) => {
                let mut d = crate::setup_checks::check_deck(r, given, base_deck, setup.scenario)?;
                d.reverse();
                d
            }
        };
        if deck.len() > DECK {
            return Err(CoreError::rules(format!("cards: at most {DECK} cards in the deck, got {}", deck.len())));
        }
        let sites = sites::new(r, n)?;
        let mut g = Game {
            rules: rules.clone(),
            n,
            seed: Arc::from(setup.seed.as_str()),
            expansion,
            prophecies_on: setup.prophecies,
            scenario: setup.scenario,
            rounds,
            stones_total: stones,
            get_stones: gt.get_stones,
            sled,
            quarry,
            sled_cap,
            blue: [0; SEATS],
            blue_kinds: [0; SEATS],
            red_kept: [0; SEATS],
            cards_taken: [0; SEATS],
            totals: [0; SEATS],
            hand: [[0; HAND]; SEATS],
            took: [[0; HAND]; SEATS],
            slots: [-1; SLOTS],
            ship_size: [0; SHIPS],
            ship_min: [0; SHIPS],
            ship_load: [0; SHIPS],
            ship_dock: [-1; SHIPS],
            dock_used: [0; DOCKS],
            open_mask: 0,
            ship_free: 0,
            ships_ready: 0,
            docks_free: 0b11111,
            sailed: 0,
            ship_sizes: [0; 4],
            round_cards: round_cards.iter().copied().collect(),
            deck_initial: deck.iter().rev().copied().collect(),
            deck: deck.iter().copied().collect(),
            discard: ArrayVec::new(),
            pinned_reshuffles: Arc::new(setup.reshuffles.clone()),
            reshuffles: Vec::new(),
            rng_reshuffle: None,
            pins: Arc::new(setup.pins.clone()),
            chance_setup: [None, None, None],
            // room for a whole game's events at once (no regrowth while it is played)
            events: Vec::with_capacity(if setup.no_events { 0 } else { 64 }),
            keep_events: !setup.no_events,
            round: 0,
            current: 0,
            start_player: 0,
            passes: 0,
            last_sailer: -1,
            round_over: false,
            skip_advance: false,
            over: false,
            decisions: 0,
            stack: ArrayVec::new(),
            to_move: -1,
            kind: NONE,
            options: ArrayVec::new(),
            context: [0; CONTEXT],
            get_with_move: false,
            lazy_turns: false,
            prophecy: None,
            sites,
        };
        sites::setup(&mut g, r)?;
        if setup.prophecies {
            prophecies::setup(&mut g, r)?;
        }
        g.check_used()?;
        g.start_round(r, 0)?;
        g.advance(r)?;
        Ok(g)
    }

    // ------------------------------------------------------------------ for the rules
    /// Record a score event (docs/rules.md §2.6); zero points record nothing.
    #[inline]
    pub fn score(&mut self, seat: usize, source: Source, points: i32) {
        if points != 0 {
            assert!(seat < self.n, "score: no seat {seat} in a {}-player game ({})", self.n, source);
            if self.keep_events {
                self.events.push(Event { seat: seat as u8, source, points, round: self.round as u8 });
            }
            self.totals[seat] += points;
        }
    }

    /// Stop at a decision point: `player` chooses one of `options`; the answer goes, with
    /// `ctx`, to whoever answers `kind` (kinds.rs).
    pub fn ask(&mut self, kind: Kind, player: usize, options: &[Action], ctx: Context) {
        debug_assert!(self.kind == NONE, "a second question before the first was answered");
        self.kind = kind;
        self.to_move = player as i32;
        self.options.clear();
        self.options.try_extend_from_slice(options).expect("more options than game::OPTIONS");
        self.context = ctx;
    }

    /// `ask` with the options already built in `self.options` by the caller (cleared, then
    /// pushed in order): a long list is written once, into the game's own row.
    pub fn ask_built(&mut self, kind: Kind, player: usize, ctx: Context) {
        debug_assert!(self.kind == NONE, "a second question before the first was answered");
        self.kind = kind;
        self.to_move = player as i32;
        self.context = ctx;
    }

    /// Schedule a task; the last pushed runs first.
    #[inline]
    pub fn push(&mut self, task: Task) {
        self.stack.push(task);
    }

    /// The pending question's kind by name ("turn", "market_pick"...), None when none.
    pub fn kind_name(&self) -> Option<&'static str> {
        kinds::name(self.kind)
    }

    /// Top card of the market draw pile; an empty pile is the shuffled discard pile.
    #[inline]
    pub fn draw(&mut self, _r: &Rules) -> Result<Option<Card>, CoreError> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return Ok(None);
            }
            self.reshuffle()?;
        }
        Ok(self.deck.pop())
    }

    /// The discard pile becomes the draw pile (docs/rules.md §2.1): the next pinned order if
    /// the caller gave one, else shuffled by the "reshuffle" stream.
    #[cold]
    #[inline(never)]
    fn reshuffle(&mut self) -> Res {
        let i = self.reshuffles.len();
        let mut deck: Vec<Card>;
        if i < self.pinned_reshuffles.len() {
            let order = &self.pinned_reshuffles[i];
            let mut a = order.clone();
            let mut b: Vec<Card> = self.discard.to_vec();
            a.sort();
            b.sort();
            if a != b {
                let mut names: Vec<&str> =
                    self.discard.iter().map(|&c| self.rules.cards.names[c as usize].as_str()).collect();
                names.sort();
                let message = format!(
                    "reshuffle {}: expected an order of the discard pile's {} cards ({}), got {:?}",
                    i + 1,
                    self.discard.len(),
                    names.join(", "),
                    order
                );
                return Err(CoreError::chance(message, i as i32));
            }
            deck = order.iter().rev().copied().collect();
        } else {
            if self.rng_reshuffle.is_none() {
                self.rng_reshuffle = Some(Box::new(chance::stream(&self.seed, "reshuffle")));
            }
            deck = self.discard.to_vec();
            chance::fast_shuffle(self.rng_reshuffle.as_mut().unwrap(), &mut deck);
        }
        self.discard.clear();
        self.deck.clear();
        self.deck.try_extend_from_slice(&deck).expect("deck size");
        deck.reverse();
        self.reshuffles.push(deck);
        Ok(())
    }

    /// `k` distinct items of `population` in order (their indexes): pinned by the caller or
    /// drawn from the purpose's stream.
    pub fn chance_pick(&mut self, purpose: Purpose, population: &[Arg], k: usize) -> Result<Vec<usize>, CoreError> {
        let out = match &self.pins[purpose as usize] {
            None => chance::stream(&self.seed, purpose.name()).sample(population.len(), k),
            Some(given) => {
                let what = format!("chance.{}", purpose.name());
                let shown = |a: &Arg| -> String {
                    match *a {
                        Arg::Int(x) => x.to_string(),
                        Arg::Name(x) => format!("'{}'", self.rules.names.text(x)),
                        Arg::None => "None".into(),
                    }
                };
                // a bad item as errors.py's `describe` words it: its kind, then its value
                let described = |a: &Arg| -> String {
                    match *a {
                        Arg::Int(x) => format!("an integer ({x})"),
                        Arg::Name(_) => format!("a string ({})", shown(a)),
                        Arg::None => "NoneType".into(),
                    }
                };
                let pop: Vec<String> = population.iter().map(shown).collect();
                let mut idx = Vec::new();
                for x in given {
                    match population.iter().position(|y| y == x) {
                        Some(i) => idx.push(i),
                        None => {
                            let message = format!("{what}: {} is not one of [{}]", described(x), pop.join(", "));
                            return Err(CoreError::chance(message, -1));
                        }
                    }
                }
                let mut sorted = idx.clone();
                sorted.sort();
                sorted.dedup();
                if sorted.len() != idx.len() || idx.len() != k {
                    let got: Vec<String> = given.iter().map(shown).collect();
                    let message = format!(
                        "{what}: expected {k} distinct items of [{}] ({}), got [{}]",
                        pop.join(", "),
                        purpose.lists(),
                        got.join(", ")
                    );
                    return Err(CoreError::chance(message, -1));
                }
                idx
            }
        };
        self.chance_setup[purpose as usize] = Some(out.clone());
        Ok(out)
    }

    /// Every pinned setup outcome was drawn: a pin for a side not in play is a mistake.
    fn check_used(&self) -> Res {
        for p in Purpose::ALL {
            if self.pins[p as usize].is_some() && self.chance_setup[p as usize].is_none() {
                let message =
                    format!("chance.{}: this game draws none ({} is not in play)", p.name(), p.drawn_by());
                return Err(CoreError::chance(message, -1));
            }
        }
        Ok(())
    }

    /// Move up to `stones` from the quarry to the sled, within capacity; returns how many.
    pub fn sled_to_capacity(&mut self, p: usize, stones: i32) -> i32 {
        let room = self.sled_cap[p] - self.sled[p];
        let k = stones.min(room).min(self.quarry[p]);
        if k > 0 {
            self.quarry[p] -= k;
            self.sled[p] += k;
            k
        } else {
            0
        }
    }

    /// A red card or bonus sends a stone from the quarry to a site (if any): a task.
    pub fn schedule_from_quarry(&mut self, p: usize, site: usize) {
        if self.quarry[p] > 0 {
            self.quarry[p] -= 1;
            self.stack.push(Task::Deliver { site: site as u8, owner: p as u8 });
        }
    }

    /// A stone of p, already taken from where it was (the Barge: the sled), is sent to a
    /// site: a task, like every delivery.
    pub fn schedule_delivery(&mut self, p: usize, site: usize) {
        self.stack.push(Task::Deliver { site: site as u8, owner: p as u8 });
    }

    /// Place actions for every empty slot of the unsailed ships in `ships` (bit s: ship s;
    /// 0b1111 all), ship by ship, bow first.
    pub fn empty_slots(&self, ships: u8) -> ArrayVec<Action, SLOTS> {
        let mut out = ArrayVec::new();
        push_places(&mut out, self.open_mask, ships);
        out
    }

    /// Ask `player` to place a stone on an empty slot of the unsailed ships in `ships` (as
    /// `empty_slots`), the options built in the game's own row; false (nothing asked) when
    /// there is no such slot.
    pub fn ask_place(&mut self, kind: Kind, player: usize, ships: u8, ctx: Context) -> bool {
        self.options.clear();
        push_places(&mut self.options, self.open_mask, ships);
        if self.options.is_empty() {
            return false;
        }
        self.ask_built(kind, player, ctx);
        true
    }

    /// Ask `player` to sail one of the ships in `ships` (as `sail_actions`), the options
    /// built in the game's own row.
    pub fn ask_sail(&mut self, kind: Kind, player: usize, ships: u8, ctx: Context) {
        self.options.clear();
        push_sails(&mut self.options, self.ships_ready & ships, self.docks_free);
        self.ask_built(kind, player, ctx);
    }

    /// Sail actions: the ships in `ships` (bit s) holding their minimum, ship by ship, each
    /// to every free dock in site order.
    pub fn sail_actions(&self, ships: u8) -> ArrayVec<Action, 20> {
        let mut out = ArrayVec::new();
        push_sails(&mut out, self.ships_ready & ships, self.docks_free);
        out
    }

    /// A stone of `p` goes onto slot k of ship s (its origin already debited).
    pub fn put_on_ship(&mut self, p: usize, s: usize, k: usize) {
        self.slots[4 * s + k] = p as i8;
        let load = self.ship_load[s] + 1;
        self.ship_load[s] = load;
        self.ship_free -= 1;
        self.open_mask &= !(1u16 << (4 * s + k));
        if load == self.ship_min[s] {
            self.ships_ready |= 1 << s;
        }
    }

    /// The seat after `p` in turn order.
    #[inline]
    pub fn next_seat(&self, p: usize) -> usize {
        let q = p + 1;
        // p < n: only the last seat wraps (no division)
        if q < self.n {
            q
        } else {
            0
        }
    }

    /// Each ship's slots this round (owner, -1 empty, -2 unloaded).
    pub fn ship_slots(&self, s: usize) -> &[i8] {
        &self.slots[4 * s..4 * s + self.ship_size[s] as usize]
    }

    /// Ship s's slots become `slots` (a scenario's, as Python's `set_ship_slots`: the size and
    /// the slots only).
    pub fn set_ship_slots(&mut self, s: usize, slots: &[i8]) -> Res {
        if slots.len() > 4 {
            return Err(CoreError::value(format!("ship {s}: at most 4 slots, got {}", slots.len())));
        }
        self.ship_size[s] = slots.len() as u8;
        self.slots[4 * s..4 * s + slots.len()].copy_from_slice(slots);
        Ok(())
    }

    /// Run the game-end scoring on this game as it stands (a search's estimate of an
    /// unfinished copy: the copy is spent, it cannot be played on).
    pub fn score_game_end_now(&mut self) -> Res {
        let rules = self.rules.clone();
        self.game_end(&rules)
    }

    /// Stones of `p` still on a ship (unsailed, or sailed and not yet unloaded).
    pub fn ship_stones_of(&self, p: usize) -> i32 {
        let mut k = 0;
        for s in 0..SHIPS {
            for j in 0..self.ship_size[s] as usize {
                if self.slots[4 * s + j] == p as i8 {
                    k += 1;
                }
            }
        }
        k
    }

    /// Seats sharing the win: highest total, then most stones on the sled (docs/rules.md §2.5).
    pub fn winners(&self) -> Vec<usize> {
        best_seats(&self.totals[..self.n], &self.sled[..self.n])
    }

    /// The legal choices at this decision point, in a fixed order.
    pub fn options(&self) -> &[Action] {
        &self.options
    }

    // ------------------------------------------------------------------ the transition
    /// Perform `a` for `to_move` and advance to the next decision point.
    pub fn apply(&mut self, a: Action) -> Res {
        if !self.options.contains(&a) {
            let names = &self.rules.names;
            let legal: Vec<String> = self.options.iter().map(|x| x.text(names)).collect();
            return Err(CoreError::illegal(format!(
                "{} is not legal for seat {} at a {} decision; legal: {}",
                a.text(names),
                self.to_move,
                self.kind_name().unwrap_or("None"),
                legal.join(", ")
            )));
        }
        self.perform(a)
    }

    /// After the state was changed by hand (a scenario, a test): the decision anew, from the
    /// pending tasks or the current player's turn.
    pub fn resume(&mut self) -> Res {
        let rules = self.rules.clone();
        self.kind = NONE;
        self.options.clear();
        self.advance(&rules)
    }

    /// Perform option `i` of this decision (no legality scan).
    pub fn apply_index(&mut self, i: usize) -> Res {
        let a = self.options[i];
        self.perform(a)
    }

    /// [`Game::apply_index`] with the game's rules at hand (`r` is `self.rules`): a search
    /// holds them once, not an Arc's count changed at every decision.
    pub fn apply_index_in(&mut self, r: &Rules, i: usize) -> Res {
        let a = self.options[i];
        self.perform_in(r, a)
    }

    /// Perform the legal action `a`.
    pub fn perform(&mut self, a: Action) -> Res {
        let rules = self.rules.clone();
        self.perform_in(&rules, a)
    }

    /// [`Game::perform`] with the game's rules at hand (`r` is `self.rules`).
    pub fn perform_in(&mut self, r: &Rules, a: Action) -> Res {
        debug_assert!(std::ptr::eq(r, &*self.rules), "perform_in: another game's rules");
        self.count_decision(r)?;
        let kind = self.kind;
        self.kind = NONE;
        if kind == TURN {
            let p = self.to_move as usize;
            crate::turn::turn(self, r, p, a)?;
        } else {
            answer(self, r, kind, a)?;
        }
        self.advance(r)
    }

    /// Run tasks until a decision is needed or the game is over.
    #[inline(always)]
    pub(crate) fn advance(&mut self, r: &Rules) -> Res {
        if self.kind != NONE {
            return Ok(());
        }
        if self.lazy_turns && self.stack.is_empty() && !self.over && self.prophecy.is_none() {
            // most of a playout's decisions: nothing pending, the next turn is drawn by index
            // (the loop below would come to the same)
            self.kind = TURN;
            self.to_move = self.current as i32;
            self.options.clear();
            return Ok(());
        }
        self.run_tasks(r)
    }

    /// `advance`'s loop: the pending tasks, then the next turn (or the game's end).
    #[inline(never)]
    fn run_tasks(&mut self, r: &Rules) -> Res {
        loop {
            if let Some(t) = self.stack.pop() {
                run_task(self, r, t)?;
                if self.kind != NONE {
                    return Ok(());
                }
                continue;
            }
            if self.over {
                self.to_move = -1;
                self.options.clear();
                return Ok(());
            }
            let p = self.current;
            if self.prophecy.is_some() {
                prophecies::hook(self, r, p);
                if self.kind != NONE {
                    return Ok(());
                }
            }
            self.kind = TURN;
            self.to_move = p as i32;
            if self.lazy_turns {
                self.options.clear(); // drawn by index from the state (apply_drawn)
            } else {
                self.turn_options(r, p);
            }
            return Ok(());
        }
    }

    /// One more decision taken: a round that cannot end is an error, not a hang.
    #[inline]
    pub(crate) fn count_decision(&mut self, r: &Rules) -> Res {
        self.decisions += 1;
        if self.decisions > MAX_DECISIONS {
            return Err(self.endless(r));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn endless(&self, r: &Rules) -> CoreError {
        let changed = if r.overridden.is_empty() {
            String::new()
        } else {
            format!(" (overridden: {})", r.overridden.join(", "))
        };
        CoreError::rules(format!(
            "round {} did not end after {} decisions: the board data lets a round go on forever{}",
            self.round,
            thousands(self.decisions - 1),
            changed
        ))
    }

    // ------------------------------------------------------------------ the flow of play
    fn start_round(&mut self, r: &Rules, start: usize) -> Res {
        self.round += 1;
        let sizes = self.round_cards[self.round - 1];
        self.ship_sizes = sizes;
        self.slots = [-1; SLOTS];
        let mut mask = 0u16;
        let mut free = 0;
        for (s, &size) in sizes.iter().enumerate() {
            self.ship_size[s] = size;
            self.ship_min[s] = ship_minimum(size);
            self.ship_load[s] = 0;
            self.ship_dock[s] = -1;
            mask |= ((1u16 << size) - 1) << (4 * s);
            free += size as i32;
        }
        self.open_mask = mask;
        self.ship_free = free;
        self.ships_ready = 0;
        self.docks_free = 0b11111;
        self.dock_used = [0; DOCKS];
        self.sailed = 0;
        self.passes = 0;
        self.start_player = start;
        self.current = start;
        for site in 0..5 {
            sites::round_start(self, r, site)?;
        }
        Ok(())
    }

    /// Ship s docks at `site` and is unloaded at once, bow to stern (docs/rules.md §2.3); with
    /// the Lever, the sailing player picks the order.
    pub fn sail(&mut self, r: &Rules, p: usize, s: usize, site: usize, lever: bool) -> Res {
        self.ship_dock[s] = site as i8;
        self.dock_used[site] += 1;
        self.ships_ready &= !(1 << s);
        self.docks_free &= !(1 << site);
        self.sailed += 1;
        self.last_sailer = p as i32;
        self.ship_free -= (self.ship_sizes[s] - self.ship_load[s]) as i32;
        self.open_mask &= !(15u16 << (4 * s));
        if lever {
            self.stack.push(Task::AfterSail);
            self.stack.push(Task::LeverNext { s: s as u8, site: site as u8, p: p as u8 });
            return Ok(());
        }
        let depth = self.stack.len();
        unload_ship(self, r, s, site, 0)?;
        if waits(self, depth) {
            self.stack.insert(depth, Task::AfterSail);
        } else {
            after_sail(self);
        }
        Ok(())
    }

    /// Round end (docs/rules.md §2.4): the temple first (before the market's leftovers are
    /// discarded: a temple draw must not find them), then the other sites; then the next round
    /// or the game's end.
    pub(crate) fn end_round(&mut self, next_start: usize) {
        self.round_over = true;
        self.stack.push(Task::NextRound { start: next_start as u8 });
        for &site in ROUND_END_ORDER.iter().rev() {
            self.stack.push(Task::RoundEnd { site: site as u8 });
        }
    }

    /// Final scoring, in the rulebook's order (docs/rules.md §2.5).
    pub fn game_end(&mut self, r: &Rules) -> Res {
        self.round = self.rounds + 1;
        for site in [BURIAL_CHAMBER, OBELISK, TEMPLE] {
            sites::game_end(self, r, site)?;
        }
        cards::score_game_end(self, r);
        if self.prophecy.is_some() {
            prophecies::score(self, r);
        }
        self.over = true;
        Ok(())
    }
}

/// The sites' round ends: the temple first, then the others in site order.
const ROUND_END_ORDER: [usize; 5] = [TEMPLE, 0, PYRAMID, BURIAL_CHAMBER, OBELISK];

fn thousands(x: u32) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

// ---------------------------------------------------------------------- tasks
fn run_task(g: &mut Game, r: &Rules, t: Task) -> Res {
    match t {
        Task::EndTurn => {
            end_turn(g);
            Ok(())
        }
        Task::AfterSail => {
            after_sail(g);
            Ok(())
        }
        Task::UnloadShip { s, site, start } => unload_ship(g, r, s as usize, site as usize, start as usize),
        Task::UnloadStone { s, k, site } => {
            let i = 4 * s as usize + k as usize;
            let owner = g.slots[i];
            g.slots[i] = -2;
            sites::deliver(g, r, site as usize, owner as usize)
        }
        Task::LeverNext { s, site, p } => {
            lever_next(g, s as usize, site as usize, p as usize);
            Ok(())
        }
        Task::Deliver { site, owner } => sites::deliver(g, r, site as usize, owner as usize),
        Task::RoundEnd { site } => sites::round_end(g, r, site as usize),
        Task::NextRound { start } => next_round(g, r, start as usize),
        Task::Gain { p, card } => cards::gain(g, r, p as usize, card),
        Task::Site { site, args } => sites::run_task(g, r, site as usize, args),
    }
}

/// The work done since the stack was `depth` deep asked a question or left tasks: what
/// comes next waits under them.
#[inline]
pub(crate) fn waits(g: &Game, depth: usize) -> bool {
    g.kind != NONE || g.stack.len() > depth
}

fn after_sail(g: &mut Game) {
    if g.sailed == 4 && !g.round_over {
        g.end_round(g.next_seat(g.last_sailer as usize));
        g.skip_advance = true;
    }
}

/// Unload ship s from slot `start` on, bow to stern: a delivery that asks a question or
/// starts tasks is finished before the next stone (the rest waits under it as a task).
fn unload_ship(g: &mut Game, r: &Rules, s: usize, site: usize, start: usize) -> Res {
    let size = g.ship_size[s] as usize;
    let depth = g.stack.len();
    for k in start..size {
        let owner = g.slots[4 * s + k];
        if owner < 0 {
            continue;
        }
        g.slots[4 * s + k] = -2;
        sites::deliver(g, r, site, owner as usize)?;
        if g.kind != NONE || g.stack.len() > depth {
            if k + 1 < size {
                g.stack.insert(depth, Task::UnloadShip { s: s as u8, site: site as u8, start: (k + 1) as u8 });
            }
            return Ok(());
        }
    }
    Ok(())
}

/// Lever: the sailing player picks which remaining stone is unloaded next.
fn lever_next(g: &mut Game, s: usize, site: usize, p: usize) {
    let mut opts: ArrayVec<Action, 4> = ArrayVec::new();
    for k in 0..g.ship_size[s] as usize {
        if g.slots[4 * s + k] >= 0 {
            opts.push(action::unload(k));
        }
    }
    if !opts.is_empty() {
        g.ask(LEVER_UNLOAD, p, &opts, [s as i32, site as i32, p as i32, 0]);
    }
}

fn next_round(g: &mut Game, r: &Rules, next_start: usize) -> Res {
    g.round_over = false;
    // Stones left on ships that never sailed (a full cycle of passes) go back to their
    // owners' quarries; a ship that sailed was unloaded to the last stone.
    for s in 0..SHIPS {
        if g.ship_dock[s] >= 0 {
            continue;
        }
        for k in 0..g.ship_size[s] as usize {
            let o = g.slots[4 * s + k];
            if o >= 0 {
                g.quarry[o as usize] += 1;
                g.slots[4 * s + k] = -2;
            }
        }
    }
    if g.round >= g.rounds {
        g.game_end(r)
    } else {
        g.start_round(r, next_start)
    }
}

pub(crate) fn end_turn(g: &mut Game) {
    if g.skip_advance {
        // the 4th ship sailed: the next round's start player is already set
        g.skip_advance = false;
        return;
    }
    let n = g.n;
    if g.passes >= n {
        // a full cycle of passes ends the round at once (docs/rules.md §2.2)
        g.end_round(g.next_seat(g.current));
        return;
    }
    g.current = g.next_seat(g.current);
}

/// The answer to a question goes, by its kind, to the site that answers it, else to the
/// blue cards, the Lever or the prophecies.
fn answer(g: &mut Game, r: &Rules, kind: Kind, a: Action) -> Res {
    let ctx = g.context;
    let site = kinds::answered_by(kind);
    if site >= 0 {
        return sites::answer(g, r, site as usize, kind, a, ctx);
    }
    match kind {
        LEVER_UNLOAD => {
            let (s, site, p) = (ctx[0] as u8, ctx[1] as u8, ctx[2] as u8);
            g.stack.push(Task::LeverNext { s, site, p });
            g.stack.push(Task::UnloadStone { s, k: a.n(0) as u8, site });
            Ok(())
        }
        PROPHECY => {
            prophecies::answer(g, a, ctx);
            Ok(())
        }
        _ => cards::answer(g, r, kind, a, ctx),
    }
}

