//! The random bot: `legal[int(rng.random() * len(legal))]`.

use crate::stream::Stream;

/// The index of the uniform choice among `n` legal actions, from the bot's own stream.
#[inline]
pub fn uniform(rng: &mut Stream, n: usize) -> usize {
    (rng.random() * n as f64) as usize
}
