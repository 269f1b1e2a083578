//! Playing one game with bots in the core, seeded as engine/play.py: the game's chance from
//! `"{root}:{game}"`, seat p's choices from its own stream `"{root}:{game}:bot{p}"`.

use std::sync::Arc;

use super::greedy::Greedy;
use super::random::uniform;
use crate::game::{Game, Setup};
use crate::play::{bot_rng, chance_seed};
use crate::rules::Rules;
use crate::stream::Stream;

/// A seat's bot: the random bot or a greedy-family bot.
pub enum Bot {
    Random,
    Greedy(Box<Greedy>),
}

impl Bot {
    /// A bot by its registered name: "random" or a built-in persona ("greedy", "market"...).
    pub fn named(name: &str) -> Result<Bot, String> {
        if name == "random" {
            return Ok(Bot::Random);
        }
        Greedy::persona(name)
            .map(|g| Bot::Greedy(Box::new(g)))
            .ok_or_else(|| format!("unknown bot {name:?} (the core knows random and the greedy personas)"))
    }

    /// The index of the option this bot takes for the seat to move.
    pub fn choose(&mut self, g: &Game, rng: &mut Stream) -> Result<usize, String> {
        match self {
            Bot::Random => Ok(uniform(rng, g.options().len())),
            Bot::Greedy(b) => b.choose(g, rng),
        }
    }
}

/// Game `game` of a study with root `root`, set up as engine/play.py does.
pub fn new_game(rules: &Arc<Rules>, players: usize, root: &str, game: u64, expansion: Option<bool>, prophecies: bool) -> Result<Game, String> {
    let setup = Setup { players, seed: chance_seed(root, game), expansion, prophecies, ..Setup::default() };
    Game::new(rules.clone(), &setup).map_err(|e| e.to_string())
}

/// Play a game to the end with `bots` (one per seat); `on_decision(g, i)` sees each choice
/// before it is applied.
pub fn play(g: &mut Game, bots: &mut [Bot], root: &str, game: u64, mut on_decision: impl FnMut(&Game, usize)) -> Result<(), String> {
    let mut rngs: Vec<Stream> = (0..g.n).map(|p| bot_rng(root, game, p)).collect();
    while !g.over {
        let p = g.to_move as usize;
        let i = bots[p].choose(g, &mut rngs[p])?;
        on_decision(g, i);
        g.apply_index(i).map_err(|e| e.to_string())?;
    }
    Ok(())
}
