//! Playing one game with random bots, seeded as the Python package does (engine/play.py,
//! docs/engine.md "Architecture: randomness"): the game's chance from `"{root}:{game}"`,
//! seat p's choices from its own stream `"{root}:{game}:bot{p}"`.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::game::{Game, Setup, SEATS};
use crate::rules::{CoreError, Rules};
use crate::stream::Stream;

/// The seed of a game's chance streams: (root seed, game index) only.
pub fn chance_seed(root: &str, game: u64) -> String {
    format!("{root}:{game}")
}

/// Seat p's random stream in game `game`.
pub fn bot_rng(root: &str, game: u64, seat: usize) -> Stream {
    Stream::from_text(&format!("{root}:{game}:bot{seat}"))
}

/// The random bot's choice: `legal[int(rng.random() * len(legal))]` (bots/base.py `uniform`).
#[inline]
pub fn uniform(rng: &mut Stream, n: usize) -> usize {
    (rng.random() * n as f64) as usize
}

/// Game `game` of a cell played to the end by random bots in every seat (boxed: a game is
/// large, and a box moves for free).
pub fn play_random(
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
    let mut g = Box::new(Game::new(rules.clone(), &setup)?);
    g.lazy_turns = true; // the turns' options drawn from the state, never built
    let mut rngs: ArrayVec<Stream, SEATS> = (0..players).map(|p| bot_rng(root, game, p)).collect();
    while !g.over {
        let x = rngs[g.to_move as usize].random();
        g.apply_drawn(x)?;
    }
    Ok(g)
}
