//! The `mcts` bot: a search per decision with more than one option,
//! its settings from a spec name (`mcts400`, `mcts400-t40`, `mcts1900-b1-s`...) or the
//! reference bot `expert`.

use serde_json::{Map, Value};

use crate::bots::greedy::Greedy;
use crate::bots::weights::Weights;
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

/// The greedy bot's prices (default weights) are the expert's priors.
impl Pricer for Greedy {
    fn prices(&mut self, g: &Game) -> Result<Vec<f64>, CoreError> {
        self.scores(g).map_err(CoreError::Value)
    }
}

/// A search bot's settings and name (the spec; one bot value serves every game).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsBot {
    pub name: String,
    pub settings: Settings,
}

/// A plain search's settings (`base = "mcts"`, a name `mcts<N>` with no switch).
pub const PLAIN: Settings = Settings {
    iterations: DEFAULT_ITERATIONS,
    exploration: DEFAULT_EXPLORATION,
    depth: NO_LIMIT,
    bias: 0.0,
    margin: 0.0,
    stop: false,
    greedy_rollout: false,
    value: false,
};

/// The reference bot's settings (`expert`): 1,900 iterations, greedy priors at the
/// root, the early stop.
pub const EXPERT: Settings = Settings { iterations: 1900, bias: 1.0, stop: true, ..PLAIN };

/// The keys a search spec table may hold.
pub const SPEC_KEYS: [&str; 10] =
    ["base", "bias", "exploration", "iterations", "margin", "name", "rollout", "stop", "truncate", "value"];

impl MctsBot {
    pub fn new(name: &str, settings: Settings) -> MctsBot {
        MctsBot { name: name.to_string(), settings }
    }

    /// The reference bot.
    pub fn expert() -> MctsBot {
        MctsBot::new("expert", EXPERT)
    }

    /// The name of a bot of these settings (`mcts400-t40-b1-s`): `from_name` reads it back.
    pub fn default_name(s: &Settings) -> String {
        let mut name = format!("mcts{}", s.iterations);
        if s.greedy_rollout {
            name += "-greedy";
        }
        if s.depth != NO_LIMIT {
            name += &format!("-t{}", s.depth);
        }
        if s.value {
            name += "-v";
        }
        if s.bias != 0.0 {
            name += &format!("-b{}", g_format(s.bias));
        }
        if s.margin != 0.0 {
            name += &format!("-m{}", g_format(s.margin));
        }
        if s.stop {
            name += "-s";
        }
        if s.exploration != DEFAULT_EXPLORATION {
            name += &format!("-c{}", g_format(s.exploration));
        }
        name
    }

    /// A bot from a config table with `base = "mcts"` (plain search's defaults) or
    /// `base = "expert"` (the reference bot's); a bad key or value is an error that names
    /// the key.
    pub fn from_spec(spec: &Map<String, Value>) -> Result<MctsBot, CoreError> {
        let err = |m: String| Err(CoreError::Value(m));
        let base = spec.get("base").and_then(Value::as_str).unwrap_or("mcts");
        let mut unknown: Vec<&String> = spec.keys().filter(|k| !SPEC_KEYS.contains(&k.as_str())).collect();
        unknown.sort();
        if let Some(k) = unknown.first() {
            return err(format!(
                "bot spec: unknown key '{k}' for base '{base}' (known: {})",
                SPEC_KEYS.join(", ")
            ));
        }
        let mut s = if base == "expert" { EXPERT } else { PLAIN };
        let number = |v: &Value| v.as_f64().filter(|_| v.is_number());
        if let Some(v) = spec.get("iterations") {
            match v.as_u64() {
                Some(n) if n >= 1 && !v.is_boolean() => s.iterations = n.min(u32::MAX as u64) as u32,
                _ => return err(format!("bot spec iterations: expected an integer >= 1, got {v}")),
            }
        }
        if let Some(v) = spec.get("rollout") {
            match v.as_str() {
                Some("random") => s.greedy_rollout = false,
                Some("greedy") => s.greedy_rollout = true,
                _ => return err(format!("bot spec rollout: expected one of random, greedy, got {v}")),
            }
        }
        if let Some(v) = spec.get("exploration") {
            match number(v) {
                Some(x) if x >= 0.0 => s.exploration = x,
                _ => return err(format!("bot spec exploration: expected a number >= 0, got {v}")),
            }
        }
        if let Some(v) = spec.get("truncate").filter(|v| !v.is_null()) {
            match v.as_u64() {
                Some(t) if t >= 1 => s.depth = t as i64,
                _ => {
                    return err(format!(
                        "bot spec truncate: expected an integer >= 1 (decisions a rollout plays before it is scored), got {v}"
                    ))
                }
            }
        }
        if let Some(v) = spec.get("bias") {
            match number(v) {
                Some(x) if x >= 0.0 => s.bias = x,
                _ => return err(format!("bot spec bias: expected a number >= 0, got {v}")),
            }
        }
        if let Some(v) = spec.get("margin") {
            match number(v) {
                Some(x) if (0.0..=1.0).contains(&x) => s.margin = x,
                _ => return err(format!("bot spec margin: expected a number from 0 to 1, got {v}")),
            }
        }
        if let Some(v) = spec.get("stop") {
            match v.as_bool() {
                Some(b) => s.stop = b,
                None => return err(format!("bot spec stop: expected true or false, got {v}")),
            }
        }
        if let Some(v) = spec.get("value") {
            match v.as_bool() {
                Some(b) => s.value = b,
                None => return err(format!("bot spec value: expected true or false, got {v}")),
            }
        }
        if s.value && s.depth == NO_LIMIT {
            return err("bot spec value: the learned value scores truncated rollouts: give truncate too".into());
        }
        let name = match spec.get("name") {
            None | Some(Value::Null) if base == "expert" => "expert".to_string(),
            None | Some(Value::Null) => MctsBot::default_name(&s),
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            Some(v) => return err(format!("bot spec name: expected a non-empty string, got {v}")),
        };
        Ok(MctsBot::new(&name, s))
    }

    /// A bot from its name: `expert`, or `mcts<N>[-random|-greedy][-t<T>][-v][-b<B>][-m<M>][-s][-c<C>]`
    /// (`-v`: the learned value scores truncated rollouts, value.rs);
    /// None if `name` is not of that form.
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
        let value = match s.strip_prefix("-v") {
            Some(t) if !t.starts_with(|c: char| c.is_ascii_alphanumeric()) => {
                s = t;
                true
            }
            _ => false,
        };
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
        if value && truncate.is_none() {
            return Err(CoreError::Value(format!("bot {name:?}: the learned value (-v) scores truncated rollouts: give -tN before it")));
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
            greedy_rollout: greedy,
            value,
        };
        Ok(Some(MctsBot::new(name, settings)))
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
        self.choose_counted(g, rng, pricer).map(|(i, _)| i)
    }

    /// `choose`'s index and the search iterations it ran (0 for a single option; fewer
    /// than the budget when it stopped early): a batch's `searched` column.
    pub fn choose_counted(&self, g: &Game, rng: &mut Stream, pricer: Option<&mut dyn Pricer>) -> Result<(usize, u64), CoreError> {
        if g.options.len() == 1 {
            return Ok((0, 0));
        }
        let priors = self.priors(g, pricer)?;
        let tree = search(g, g.to_move as usize, rng, &self.settings, priors.as_deref())?;
        let ran = tree.root_children().map(|(_, n)| u64::from(n)).sum();
        Ok((tree.best_action(&g.options), ran))
    }
}

/// A number as Python's `f"{x:g}"` writes the spec values it names (1, 0.5, 1.25).
fn g_format(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e16 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A search bot for one game: the settings and, with root priors, its own greedy pricer
/// (a batch makes a fresh one every game).
pub struct SearchBot {
    pub bot: MctsBot,
    pricer: Option<Greedy>,
    /// search iterations run so far in this game (bench: iterations per second)
    pub searched: u64,
}

impl SearchBot {
    pub fn new(bot: MctsBot) -> SearchBot {
        let pricer = (bot.settings.bias != 0.0).then(|| Greedy::new(Weights::default()));
        SearchBot { bot, pricer, searched: 0 }
    }

    /// The index of the option seat `g.to_move` chooses, drawing from its stream `rng`.
    pub fn choose(&mut self, g: &Game, rng: &mut Stream) -> Result<usize, CoreError> {
        let (i, ran) = self.bot.choose_counted(g, rng, self.pricer.as_mut().map(|p| p as &mut dyn Pricer))?;
        self.searched += ran;
        Ok(i)
    }
}
