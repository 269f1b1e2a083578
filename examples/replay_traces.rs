//! Replay games recorded from the Python engine the core replaced, in the core, and report
//! the first difference of each game that differs: at a decision (to_move, kind, the
//! options' texts in order) or at the end (score events, totals, winners).
//!
//!     cargo run --release --example replay_traces /tmp/traces.jsonl [--ignore SOURCE]...
//!
//! A trace of random bots is followed with the core's own bot streams (src/play.rs): each
//! choice drawn here must be the one the recorded bot made. Neither the recorder nor any
//! trace is in the repository: it checks a traces file you have.
//!
//! `--ignore SOURCE` (e.g. burial_chamber) leaves that source's score events out of both
//! sides' (the totals and winners are then not compared).

mod replay;

use serde_json::Value;

use _core::game::{Game, Setup};
use _core::rules::SOURCES;

fn replay(t: &Value, ignore: &[String]) -> Result<(), String> {
    let rules = replay::rules(t)?;
    let setup = Setup {
        players: t["players"].as_u64().unwrap() as usize,
        seed: t["seed"].as_str().unwrap().to_string(),
        prophecies: t["prophecies"].as_bool().unwrap(),
        ..Setup::default()
    };
    let py_error = t["error"].as_str();
    let mut g = match Game::new(rules.clone(), &setup) {
        Ok(g) => g,
        Err(e) => return Err(format!("setup: core error {e}; python {py_error:?}")),
    };
    let mut rngs: Vec<_> = match t["bots"].as_object() {
        Some(b) => {
            let (root, game) = (b["root"].as_str().unwrap(), b["game"].as_u64().unwrap());
            (0..setup.players).map(|p| Some(_core::play::bot_rng(root, game, p))).collect()
        }
        None => vec![None; setup.players],
    };
    for (d, dec) in t["decisions"].as_array().unwrap().iter().enumerate() {
        let i = replay::check_decision(&g, d, dec)?;
        if let Some(rng) = rngs[g.to_move as usize].as_mut() {
            let mine = _core::bots::random::uniform(rng, g.options().len());
            if mine != i {
                return Err(format!("decision {d}: python's bot chose option {i}, the core's {mine}"));
            }
        }
        if let Err(e) = g.apply_index(i) {
            return Err(format!("decision {d}: core error {e}; python {py_error:?}"));
        }
    }
    if let Some(e) = py_error {
        return Err(format!("python raised {e}; the core did not"));
    }
    if !g.over {
        return Err(format!("python's game is over, the core's is not (seat {} {:?})", g.to_move, g.kind_name()));
    }
    let kept = |e: &&Value| !ignore.iter().any(|s| e[1].as_str() == Some(s.as_str()));
    let mine: Vec<Value> = g
        .events
        .iter()
        .map(|e| serde_json::json!([e.seat, SOURCES[e.source as usize], e.points, e.round]))
        .collect();
    let mine: Vec<Value> = mine.iter().filter(kept).cloned().collect();
    let theirs: Vec<Value> = t["events"].as_array().unwrap().iter().filter(kept).cloned().collect();
    if mine != theirs {
        let k = mine.iter().zip(theirs.iter()).position(|(a, b)| a != b).unwrap_or(mine.len().min(theirs.len()));
        return Err(format!(
            "score event {k}: python {:?}, core {:?} ({} and {} events)",
            theirs.get(k),
            mine.get(k),
            theirs.len(),
            mine.len()
        ));
    }
    let winners: Vec<Value> = g.winners().iter().map(|&p| Value::from(p)).collect();
    if ignore.is_empty() && &winners != t["winners"].as_array().unwrap() {
        return Err(format!("winners: python {}, core {winners:?}", t["winners"]));
    }
    if ignore.is_empty() {
        let res = _core::result::result_of(&g).map_err(|e| e.to_string())?;
        let took: Vec<serde_json::Map<String, Value>> = res
            .took
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(_, &k)| k > 0)
                    .map(|(c, &k)| (rules.cards.names[c].clone(), Value::from(k)))
                    .collect()
            })
            .collect();
        let mine = serde_json::json!({
            "by_round": res.by_round, "ranks": res.ranks, "lead_changes": res.lead_changes,
            "margin": res.margin, "decisions": res.decisions, "took": took,
        });
        if mine != t["result"] {
            return Err(format!("result: python {}, core {mine}", t["result"]));
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ignore: Vec<String> =
        args.windows(2).filter(|w| w[0] == "--ignore").map(|w| w[1].clone()).collect();
    let label = |t: &Value| {
        format!("seed {} sides {} players {} prophecies {}", t["seed"].as_str().unwrap(), replay::sides(t), t["players"], t["prophecies"])
    };
    replay::run("games recorded from the Python engine", label, |t| replay(t, &ignore));
}
