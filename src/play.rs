//! Setting up and playing one game of a cell, seeded as the Python package does
//! (docs/engine.md "Architecture: randomness"): the game's chance from `"{root}:{game}"`,
//! seat p's choices from its own stream `"{root}:{game}:bot{p}"`.

use std::sync::Arc;

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
    let mut rng = Stream::zeroed();
    seed_bot_rng(&mut rng, root, game, seat);
    rng
}

/// Seed `rng` in place as seat p's stream in game `game`: `"{root}:{game}:bot{seat}"`.
pub fn seed_bot_rng(rng: &mut Stream, root: &str, game: u64, seat: usize) {
    let (mut g, mut p) = ([0u8; 20], [0u8; 20]);
    let parts = [root.as_bytes(), b":", decimal(game, &mut g), b":bot", decimal(seat as u64, &mut p)];
    rng.seed_text(&parts);
}

/// `x` in decimal, written at the end of `buf`.
fn decimal(mut x: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            return &buf[at..];
        }
    }
}

/// Game `game` of a cell with `players` seats, set up as the Python package's engine/play.py does (boxed: a game
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
    // seeded where they lie: a stream is 2.5 KB, not worth a move
    let mut rngs = [const { Stream::zeroed() }; SEATS];
    for (p, rng) in rngs[..players].iter_mut().enumerate() {
        seed_bot_rng(rng, root, game, p);
    }
    while !g.over {
        let x = rngs[g.to_move as usize].random();
        g.apply_drawn_in(rules, x)?; // the game's own rules (new_game shares them)
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_stream_is_seeded_by_its_text() {
        assert_eq!(decimal(0, &mut [0; 20]), b"0");
        assert_eq!(decimal(u64::MAX, &mut [0; 20]), u64::MAX.to_string().as_bytes());
        for (root, game, seat) in [("0", 0, 0), ("root-7", 1234567, 3), ("", u64::MAX, 2)] {
            let mut mine = bot_rng(root, game, seat);
            let mut text = Stream::from_text(&format!("{root}:{game}:bot{seat}"));
            assert_eq!((mine.random(), mine.random()), (text.random(), text.random()));
        }
    }
}
