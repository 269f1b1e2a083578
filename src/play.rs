//! Setting up and playing one game of a cell, seeded as the Python package does (engine/play.py,
//! docs/engine.md "Architecture: randomness"): the game's chance from `"{root}:{game}"`,
//! seat p's choices from its own stream `"{root}:{game}:bot{p}"`.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::game::{Game, Setup, SEATS};
use crate::rules::{CoreError, Rules};
use crate::stream::Stream;

/// The random bot's choice (tests and tools reach it here, beside the streams).
pub use crate::bots::random::uniform;

/// The seed of a game's chance streams: (root seed, game index) only.
pub fn chance_seed(root: &str, game: u64) -> String {
    format!("{root}:{game}")
}

/// Seat p's random stream in game `game`.
pub fn bot_rng(root: &str, game: u64, seat: usize) -> Stream {
    Stream::from_text(&format!("{root}:{game}:bot{seat}"))
}

/// Game `game` of a cell with `players` seats, set up as engine/play.py does (boxed: a game
/// is large, and a box moves for free).
pub fn new_game(
    rules: &Arc<Rules>,
    players: usize,
    root: &str,
    game: u64,
    expansion: Option<bool>,
    prophecies: bool,
) -> Result<Box<Game>, CoreError> {
    let setup = Setup {
        players,
        seed: chance_seed(root, game),
        expansion,
        prophecies,
        no_events: false,
        ..Setup::default()
    };
    Ok(Box::new(Game::new(rules.clone(), &setup)?))
}

/// Game `game` of a cell played to the end by random bots in every seat.
pub fn play_random(
    rules: &Arc<Rules>,
    players: usize,
    root: &str,
    game: u64,
    expansion: Option<bool>,
    prophecies: bool,
) -> Result<Box<Game>, CoreError> {
    let mut g = new_game(rules, players, root, game, expansion, prophecies)?;
    g.lazy_turns = true; // the turns' options drawn from the state, never built
    let mut rngs: ArrayVec<Stream, SEATS> = (0..players).map(|p| bot_rng(root, game, p)).collect();
    while !g.over {
        let x = rngs[g.to_move as usize].random();
        g.apply_drawn_in(rules, x)?; // the game's own rules (new_game shares them)
    }
    Ok(g)
}
