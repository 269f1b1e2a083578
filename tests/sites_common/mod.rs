//! Hand-built positions for the site tests (as imhotep_stats/engine/scenario.py): a game with
//! a given deck (top first) and round cards, a stone delivered as from a ship, a site's round
//! end run as the engine runs it; the decisions read and answered by their notation.

#![allow(dead_code)]

use _core::action::Action;
use _core::game::{Game, Setup, Task};
use _core::kinds;
use _core::rules::{Card, Source};
use _core::sites;

#[path = "../common/mod.rs"]
mod common;

pub use common::rules;

/// Filler below the cards a test lays out, so the pile never runs dry (as the Python tests).
pub const FILLER: [&str; 12] = [
    "pyramid_decoration", "temple_decoration", "burial_chamber_decoration", "obelisk_decoration",
    "pyramid_decoration", "temple_decoration", "burial_chamber_decoration", "obelisk_decoration",
    "statue", "statue", "statue", "statue",
];

/// A scenario game: `deck` top first (None: shuffled), `round_cards` (None: dealt).
pub fn game(sides: &str, players: usize, deck: Option<&[&str]>, round_cards: Option<Vec<[u8; 4]>>) -> Game {
    let r = rules(sides);
    let deck = deck.map(|names| names.iter().map(|n| card(&r, n)).collect());
    let setup = Setup { players, seed: "1".into(), scenario: true, deck, round_cards, ..Setup::default() };
    Game::new(r, &setup).expect("a new game")
}

pub fn card(r: &_core::rules::Rules, name: &str) -> Card {
    r.cards.code(name).unwrap_or_else(|| panic!("no card {name}"))
}

/// A stone of `owner` arrives at `site`, as from a ship; the tasks it schedules run and the
/// game stops at the next decision.
pub fn unload(g: &mut Game, site: usize, owner: usize) {
    let r = g.rules.clone();
    g.kind = kinds::NONE;
    sites::deliver(g, &r, site, owner).expect("a delivery");
    if g.kind == kinds::NONE {
        g.resume().expect("the game goes on");
    }
}

/// Site `site`'s round end, run as the engine runs it, then on to the next decision.
pub fn round_end(g: &mut Game, site: usize) {
    g.push(Task::RoundEnd { site: site as u8 });
    g.resume().expect("the game goes on");
}

/// The options' notation.
pub fn names(g: &Game) -> Vec<String> {
    g.options().iter().map(|a| a.text(&g.rules.names)).collect()
}

pub fn kind(g: &Game) -> &'static str {
    g.kind_name().unwrap_or("None")
}

/// Answer the pending decision with the action written `text`.
pub fn answer(g: &mut Game, text: &str) {
    let a = Action::parse(text, &g.rules.names).unwrap_or_else(|| panic!("no action {text}"));
    g.apply(a).unwrap_or_else(|e| panic!("{e}"));
}

/// Seat `seat`'s points from one source so far.
pub fn points(g: &Game, seat: usize, source: Source) -> i32 {
    g.events.iter().filter(|e| e.seat as usize == seat && e.source == source).map(|e| e.points).sum()
}

/// Seat `seat`'s held cards of `name`.
pub fn held(g: &Game, seat: usize, name: &str) -> u8 {
    g.hand[seat][card(&g.rules, name) as usize]
}

/// The discard pile's card names, bottom first.
pub fn discard(g: &Game) -> Vec<String> {
    g.discard.iter().map(|&c| g.rules.cards.names[c as usize].clone()).collect()
}

pub fn card_names(g: &Game, cards: &[Card]) -> Vec<String> {
    cards.iter().map(|&c| g.rules.cards.names[c as usize].clone()).collect()
}
