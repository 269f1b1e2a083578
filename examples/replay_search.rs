//! Replay the Python search's games (tools/search_traces.py) in the core: at every decision
//! the same seat, kind and options' texts, and the core's search, drawing from the same seat
//! stream, choosing the same option; at the end the same totals.
//!
//!     cargo run --release --example replay_search /tmp/search.jsonl

use std::io::BufRead;
use std::sync::Arc;

use serde_json::Value;

use _core::game::{Game, Setup};
use _core::play::bot_rng;
use _core::rules::Rules;
use _core::search::bot::MctsBot;

fn replay(t: &Value) -> Result<usize, String> {
    let rules = Arc::new(Rules::from_value(&t["board"]).map_err(|e| format!("board: {e}"))?);
    let setup = Setup {
        players: t["players"].as_u64().unwrap() as usize,
        seed: t["seed"].as_str().unwrap().to_string(),
        prophecies: t["prophecies"].as_bool().unwrap(),
        ..Setup::default()
    };
    let mut g = Game::new(rules.clone(), &setup).map_err(|e| format!("setup: {e}"))?;
    let spec = t["bot"].as_str().unwrap();
    let bot = MctsBot::from_name(spec).map_err(|e| e.to_string())?.ok_or(format!("not a search bot: {spec}"))?;
    let (root, game) = (t["root"].as_str().unwrap(), t["game"].as_u64().unwrap());
    let mut rngs: Vec<_> = (0..setup.players).map(|p| bot_rng(root, game, p)).collect();
    let decisions = t["decisions"].as_array().unwrap();
    for (d, dec) in decisions.iter().enumerate() {
        let to_move = dec[0].as_i64().unwrap();
        let kind = dec[1].as_str().unwrap_or("");
        let opts: Vec<&str> = dec[2].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let mine: Vec<String> = g.options().iter().map(|a| a.text(&rules.names)).collect();
        let my_kind = g.kind_name().unwrap_or("");
        if g.to_move as i64 != to_move || my_kind != kind || mine != opts {
            return Err(format!(
                "decision {d} (round {}): python seat {to_move} {kind} {opts:?}; core seat {} {my_kind} {mine:?}",
                g.round, g.to_move
            ));
        }
        let i = dec[3].as_u64().unwrap() as usize;
        let p = g.to_move as usize;
        let chosen = bot.choose(&g, &mut rngs[p], None).map_err(|e| format!("decision {d}: core error {e}"))?;
        if chosen != i {
            return Err(format!("decision {d} (round {}, seat {p}, {kind}): python chose {} ({i}), the core {} ({chosen})",
                g.round, opts[i], opts[chosen]));
        }
        g.apply_index(i).map_err(|e| format!("decision {d}: core error {e}"))?;
    }
    if !g.over {
        return Err("python's game is over, the core's is not".into());
    }
    let totals: Vec<Value> = g.totals[..g.n].iter().map(|&x| Value::from(x)).collect();
    if &totals != t["totals"].as_array().unwrap() {
        return Err(format!("totals: python {}, core {totals:?}", t["totals"]));
    }
    Ok(decisions.len())
}

fn main() {
    let path = std::env::args().nth(1).expect("a traces file (tools/search_traces.py)");
    let file = std::fs::File::open(path).expect("the traces file");
    let (mut games, mut differ, mut decisions) = (0, 0, 0);
    for line in std::io::BufReader::new(file).lines() {
        let t: Value = serde_json::from_str(&line.unwrap()).expect("a JSON line");
        games += 1;
        let sides: Vec<&str> = t["board"]["sides"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let what = format!("game {} {} {} players {} prophecies {}", t["game"], sides.join("-"), t["bot"], t["players"], t["prophecies"]);
        match replay(&t) {
            Ok(k) => {
                decisions += k;
                println!("{what}: same ({k} decisions)");
            }
            Err(e) => {
                differ += 1;
                println!("{what}: {e}");
            }
        }
    }
    println!("{games} search games, {decisions} decisions alike: {differ} differ");
    if differ > 0 {
        std::process::exit(1);
    }
}
