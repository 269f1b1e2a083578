//! Every bot the core plays, by spec (bots/__init__.py `make_bot`): the random bot, the
//! greedy bot with its personas and weights, and the search (`mcts...`, `expert`); and one
//! game played with them, seeded as docs/engine.md "Architecture: randomness" says: the game's chance from
//! `"{root}:{game}"`, seat p's choices from its own stream `"{root}:{game}:bot{p}"`.

use serde_json::{Map, Value};

use super::greedy::Greedy;
use super::random::uniform;
use super::weights::Weights;
use crate::game::Game;
use crate::play::bot_rng;
use crate::rules::CoreError;
use crate::search::bot::{MctsBot, SearchBot};
use crate::stream::Stream;

/// A bot's spec, checked once; `bot()` makes a fresh bot for each game from it.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    Random,
    Greedy { name: String, weights: Weights },
    Search(MctsBot),
}

fn spec_error<T>(message: String) -> Result<T, CoreError> {
    Err(CoreError::value(message))
}

impl Spec {
    /// A bot by its registered name: "random", a built-in persona ("greedy", "market"...),
    /// a search name (`mcts400`, `mcts100-greedy-t40`) or "expert".
    pub fn named(name: &str) -> Result<Spec, CoreError> {
        if name == "random" {
            return Ok(Spec::Random);
        }
        if let Some(weights) = Weights::persona(name) {
            return Ok(Spec::Greedy { name: name.to_string(), weights });
        }
        if let Some(bot) = MctsBot::from_name(name)? {
            return Ok(Spec::Search(bot));
        }
        spec_error(format!(
            "unknown bot {name:?} (the core knows random, the built-in personas, expert and mctsN such as mcts400)"
        ))
    }

    /// A spec as JSON: a name, or a table (bots/__init__.py `make_bot`): `{base, weights,
    /// name}` for a greedy-family bot whose base is a built-in persona, or a search table
    /// with `base = "mcts"` or `"expert"`.
    pub fn from_value(spec: &Value) -> Result<Spec, CoreError> {
        match spec {
            Value::String(name) => Spec::named(name),
            Value::Object(table) => Spec::from_table(table),
            other => spec_error(format!("bot spec: expected a name or a table, got {other}")),
        }
    }

    /// A spec from its JSON text.
    pub fn from_json(text: &str) -> Result<Spec, CoreError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| CoreError::value(format!("bot spec: not JSON ({e}): {text}")))?;
        Spec::from_value(&v)
    }

    fn from_table(table: &Map<String, Value>) -> Result<Spec, CoreError> {
        let base = table.get("base");
        if matches!(base.and_then(Value::as_str), Some("mcts" | "expert")) {
            return Ok(Spec::Search(MctsBot::from_spec(table)?));
        }
        let mut unknown: Vec<&String> = table.keys().filter(|k| !["base", "weights", "name"].contains(&k.as_str())).collect();
        unknown.sort();
        if let Some(k) = unknown.first() {
            return spec_error(format!("bot spec: unknown key '{k}' (known: base, name, weights)"));
        }
        let base = match base {
            None => "greedy",
            Some(Value::String(b)) => b.as_str(),
            Some(other) => return spec_error(format!("bot spec: base {other} is not a greedy-family bot")),
        };
        let Some(start) = Weights::persona(base) else {
            return spec_error(format!(
                "bot spec: base '{base}' is not a built-in greedy-family bot (send a persona registered in Python as base \"greedy\" with its full weights)"
            ));
        };
        let mut over: Vec<(&str, f64)> = Vec::new();
        match table.get("weights") {
            None => {}
            Some(Value::Object(w)) => {
                for (k, v) in w {
                    match v.as_f64().filter(|_| v.is_number()) {
                        Some(x) => over.push((k.as_str(), x)),
                        None => return spec_error(format!("bot spec weights.{k}: expected a number, got {v}")),
                    }
                }
            }
            Some(other) => return spec_error(format!("bot spec weights: expected a table of weights, got {other}")),
        }
        let weights = start.over(&over, "bot spec weights").map_err(CoreError::value)?;
        let name = match table.get("name") {
            None => format!("{base}+"),
            Some(Value::String(n)) if !n.is_empty() => n.clone(),
            Some(v) => return spec_error(format!("bot spec name: expected a non-empty string, got {v}")),
        };
        Ok(Spec::Greedy { name, weights })
    }

    /// The bot's name (reports).
    pub fn name(&self) -> &str {
        match self {
            Spec::Random => "random",
            Spec::Greedy { name, .. } => name,
            Spec::Search(b) => &b.name,
        }
    }

    /// Whether the bot reads only option counts (a game it plays alone may draw its turns'
    /// options by index: Game::lazy_turns).
    pub fn draws_blind(&self) -> bool {
        matches!(self, Spec::Random)
    }

    /// A fresh bot for one game.
    pub fn bot(&self) -> Bot {
        match self {
            Spec::Random => Bot::Random,
            Spec::Greedy { weights, .. } => Bot::Greedy(Box::new(Greedy::new(*weights))),
            Spec::Search(b) => Bot::Search(Box::new(SearchBot::new(b.clone()))),
        }
    }
}

/// A seat's bot for one game (it may keep caches for the game: make a fresh one per game).
pub enum Bot {
    Random,
    Greedy(Box<Greedy>),
    Search(Box<SearchBot>),
}

impl Bot {
    /// A fresh bot by its registered name.
    pub fn named(name: &str) -> Result<Bot, CoreError> {
        Spec::named(name).map(|s| s.bot())
    }

    /// The index of the option this bot takes for the seat to move, drawing from `rng` (the
    /// random bot draws at every decision, the others not at a decision with one option).
    pub fn choose(&mut self, g: &Game, rng: &mut Stream) -> Result<usize, CoreError> {
        match self {
            Bot::Random => Ok(uniform(rng, g.option_count())),
            Bot::Greedy(b) => b.choose(g, rng).map_err(CoreError::value),
            Bot::Search(b) => b.choose(g, rng),
        }
    }

    /// Search iterations this bot has run in its game (0 for the bots that do not search).
    pub fn searched(&self) -> u64 {
        match self {
            Bot::Search(b) => b.searched,
            _ => 0,
        }
    }
}

/// Play a game to the end with `bots` (one per seat), seat p drawing from its stream of
/// game `game` of root `root`; `on_decision(g, i)` sees each choice before it is applied.
pub fn play(g: &mut Game, bots: &mut [Bot], root: &str, game: u64, mut on_decision: impl FnMut(&Game, usize)) -> Result<(), CoreError> {
    let mut rngs: Vec<Stream> = (0..g.n).map(|p| bot_rng(root, game, p)).collect();
    while !g.over {
        let p = g.to_move as usize;
        let i = bots[p].choose(g, &mut rngs[p])?;
        on_decision(g, i);
        g.apply_index(i)?;
    }
    Ok(())
}
