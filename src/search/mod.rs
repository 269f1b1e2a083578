//! The search bot (bots/search): information-set MCTS over determinized copies of the game
//! (determinize.rs), random rollouts, truncated ones scored by evaluate.rs, played with the
//! same draws as the Python search so that it plays the same games.

pub mod bot;
pub mod determinize;
pub mod evaluate;
pub mod tree;
pub mod value;
