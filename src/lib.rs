//! The core of imhotep-stats: the game state, every rule, the bots that play many games and
//! the search, compiled. Python (the `imhotep_stats` package) loads the board data, hands it
//! here once per cell and keeps everything a designer touches.

pub mod chance;
pub mod stream;

#[cfg(feature = "python")]
mod py;
