//! The search bot: information-set MCTS over determinized copies of the game
//! (determinize.rs), random or greedy rollouts, truncated ones scored by evaluate.rs or the
//! learned value (value.rs); bot.rs reads a bot's spec and runs a search per decision.

pub mod bot;
pub mod determinize;
pub mod evaluate;
pub mod tree;
pub mod value;
