//! The `mcts` bot (bots/search/bot.py): a search per decision with more than one option,
//! its settings from a spec name (`mcts400`, `mcts400-t40`, `mcts1900-b1-s`...) or the
//! reference bot `expert`.

use crate::game::Game;
use crate::rules::CoreError;
use crate::search::tree::{search, Settings, NO_LIMIT};
use crate::stream::Stream;

pub const DEFAULT_ITERATIONS: u32 = 400;
/// UCB1's c for rewards in [0, 1].
pub const DEFAULT_EXPLORATION: f64 = 0.7;
/// Points: greedy's prices -> root priors, softmax at this scale.
pub const PRIOR_TEMPERATURE: f64 = 1.0;

/// The prices a greedy evaluator gives the options of a decision (the root priors' source):
/// one number per option of `g`, in order, as seat `g.to_move` sees the game.
pub trait Pricer {
    fn prices(&mut self, g: &Game) -> Result<Vec<f64>, CoreError>;
}

/// A search bot.
#[derive(Clone, Debug)]
pub struct MctsBot {
    pub name: String,
    pub settings: Settings,
    /// greedy rollouts (not in the core)
    pub greedy_rollout: bool,
}

impl MctsBot {
    pub fn new(name: &str, settings: Settings) -> MctsBot {
        MctsBot { name: name.to_string(), settings, greedy_rollout: false }
    }

    /// The reference bot: 1,900 iterations, greedy priors at the root, the early stop.
    pub fn expert() -> MctsBot {
        MctsBot::new(
            "expert",
            Settings { iterations: 1900, exploration: DEFAULT_EXPLORATION, depth: NO_LIMIT, bias: 1.0, margin: 0.0, stop: true },
        )
    }

    /// A bot from its name: `expert`, or `mcts<N>[-random|-greedy][-t<T>][-b<B>][-m<M>][-s][-c<C>]`
    /// (bot.py's NAME); None if `name` is not of that form.
    pub fn from_name(name: &str) -> Result<Option<MctsBot>, CoreError> {
        if name == "expert" {
            return Ok(Some(MctsBot::expert()));
        }
        let Some(rest) = name.strip_prefix("mcts") else { return Ok(None) };
        let digits = |s: &str| s.bytes().take_while(|b| b.is_ascii_digit()).count();
        // a number: digits, optionally . and digits
        let number = |s: &str| -> usize {
            let k = digits(s);
            if k > 0 && s[k..].starts_with('.') && digits(&s[k + 1..]) > 0 {
                k + 1 + digits(&s[k + 1..])
            } else {
                k
            }
        };
        let k = digits(rest);
        if k == 0 {
            return Ok(None);
        }
        let Ok(iterations) = rest[..k].parse::<u64>() else { return Ok(None) };
        let mut s = &rest[k..];
        let mut greedy = false;
        if let Some(t) = s.strip_prefix("-random") {
            s = t;
        } else if let Some(t) = s.strip_prefix("-greedy") {
            s = t;
            greedy = true;
        }
        let take = |s: &mut &str, tag: &str, int: bool| -> Option<f64> {
            let t = s.strip_prefix(tag)?;
            let k = if int { digits(t) } else { number(t) };
            if k == 0 {
                return None;
            }
            let v = t[..k].parse::<f64>().ok()?;
            *s = &t[k..];
            Some(v)
        };
        let truncate = take(&mut s, "-t", true);
        let bias = take(&mut s, "-b", false).unwrap_or(0.0);
        let margin = take(&mut s, "-m", false).unwrap_or(0.0);
        let stop = if let Some(t) = s.strip_prefix("-s") {
            s = t;
            true
        } else {
            false
        };
        let explore = take(&mut s, "-c", false).unwrap_or(0.0);
        if !s.is_empty() {
            return Ok(None);
        }
        if iterations < 1 {
            return Err(CoreError::Value(format!("bot {name:?}: the iteration budget must be at least 1")));
        }
        if truncate == Some(0.0) {
            return Err(CoreError::Value(format!("bot {name:?}: a truncated rollout plays at least 1 decision (-t1)")));
        }
        if margin > 1.0 {
            return Err(CoreError::Value(format!("bot {name:?}: the margin weight (-m) is at most 1")));
        }
        let settings = Settings {
            iterations: iterations.min(u32::MAX as u64) as u32,
            exploration: if explore != 0.0 { explore } else { DEFAULT_EXPLORATION },
            depth: truncate.map_or(NO_LIMIT, |t| t as i64),
            bias,
            margin,
            stop,
        };
        Ok(Some(MctsBot { name: name.to_string(), settings, greedy_rollout: greedy }))
    }

    /// The greedy prices of the options as shares (softmax), or None without bias.
    pub fn priors(&self, g: &Game, pricer: Option<&mut dyn Pricer>) -> Result<Option<Vec<f64>>, CoreError> {
        if self.settings.bias == 0.0 {
            return Ok(None);
        }
        let price = pricer.ok_or_else(|| CoreError::Value(format!("bot {:?}: root priors need the greedy evaluator", self.name)))?;
        let prices = price.prices(g)?;
        let top = prices.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = prices.iter().map(|v| ((v - top) / PRIOR_TEMPERATURE).exp()).collect();
        let total: f64 = weights.iter().sum();
        Ok(Some(weights.iter().map(|w| w / total).collect()))
    }

    /// The index of the option seat `g.to_move` chooses, drawing from its stream `rng`.
    pub fn choose(&self, g: &Game, rng: &mut Stream, pricer: Option<&mut dyn Pricer>) -> Result<usize, CoreError> {
        if g.options.len() == 1 {
            return Ok(0);
        }
        if self.greedy_rollout {
            return Err(CoreError::Value(format!("bot {:?}: greedy rollouts are not in the core", self.name)));
        }
        let priors = self.priors(g, pricer)?;
        let tree = search(g, g.to_move as usize, rng, &self.settings, priors.as_deref())?;
        Ok(tree.best_action(&g.options))
    }
}

/// Play `g` to the end with `bots[p]` drawing from `rngs[p]` for seat p (engine/play.py's
/// loop), `pricers[p]` its root priors' source if any; the option index chosen at each
/// decision.
pub fn play(
    g: &mut Game,
    bots: &[MctsBot],
    rngs: &mut [Stream],
    pricers: &mut [Option<Box<dyn Pricer>>],
) -> Result<Vec<usize>, CoreError> {
    let mut chosen = Vec::new();
    while !g.over {
        let p = g.to_move as usize;
        let pricer = pricers.get_mut(p).and_then(|x| x.as_deref_mut());
        let i = bots[p].choose(g, &mut rngs[p], pricer.map(|x| x as &mut dyn Pricer))?;
        chosen.push(i);
        g.apply_index(i)?;
    }
    Ok(chosen)
}
