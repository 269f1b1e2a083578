//! The bots that play many games in the core (bots/base.py, bots/greedy, bots/weights.py):
//! the random bot and the greedy bot with its personas. A bot reads only what its seat may
//! see (the Python View: engine/view.py, engine/seen.py): it gets the whole `Game` but reads
//! public fields only (never a deck's order, a face-down stack or another seat's looked card).

pub mod greedy;
pub mod play;
pub mod random;
pub mod weights;
