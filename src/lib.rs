//! The core of imhotep-stats: the game state, every rule, the bots that play many games and
//! the search, compiled. Python (the `imhotep_stats` package) loads the board data, hands it
//! here once per cell and keeps everything a designer touches.

// Every `unsafe` block says why it is sound, on the line above it.
#![deny(clippy::undocumented_unsafe_blocks)] // a lint's name: no unsafe code here

pub mod action;
pub mod batch;
pub mod bots;
pub mod cards;
pub mod chance;
pub mod game;
pub mod kinds;
pub mod play;
pub mod prophecies;
pub mod result;
pub mod rules;
pub mod search;
pub mod setup_checks;
pub mod sites;
pub mod state;
pub mod stream;
pub mod turn;

#[cfg(feature = "python")]
mod py;
#[cfg(feature = "python")]
mod py_batch;
#[cfg(feature = "python")]
mod py_bots;
