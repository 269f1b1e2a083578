//! The bots that play many games in the core: the random bot and the greedy bot with its
//! personas (their weights: bots/weights.rs). A bot reads only what its seat may
//! see (docs/engine.md "The read model"): it gets the whole `Game` but reads
//! public fields only (never a deck's order, a face-down stack or another seat's looked card).

pub mod greedy;
pub mod play;
pub mod random;
pub mod weights;
