//! Replay the Python engine's greedy and persona games (tools/greedy_traces.py) in the core,
//! each seat choosing with the core's own bot from the same stream, and report the first
//! decision of each game where the core's bot (or the game) differs from Python's.
//!
//!     cargo run --release --example greedy_traces /tmp/greedy.jsonl

use std::io::BufRead;
use std::sync::Arc;

use serde_json::Value;

use _core::bots::play::Bot;
use _core::play::bot_rng;
use _core::rules::Rules;

fn replay(t: &Value) -> Result<usize, String> {
    let rules = Arc::new(Rules::from_value(&t["board"]).map_err(|e| format!("board: {e}"))?);
    let players = t["players"].as_u64().unwrap() as usize;
    let root = t["root"].as_str().unwrap();
    let game = t["game"].as_u64().unwrap();
    let names: Vec<&str> = t["bots"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    let mut bots: Vec<Bot> = names.iter().map(|b| Bot::named(b)).collect::<Result<_, _>>()?;
    let mut g = _core::bots::play::new_game(&rules, players, root, game, t["expansion"].as_bool(), t["prophecies"].as_bool().unwrap())?;
    let mut rngs: Vec<_> = (0..players).map(|p| bot_rng(root, game, p)).collect();
    let decisions = t["decisions"].as_array().unwrap();
    for (d, dec) in decisions.iter().enumerate() {
        let to_move = dec[0].as_i64().unwrap();
        let kind = dec[1].as_str().unwrap_or("");
        let opts: Vec<&str> = dec[2].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let mine: Vec<String> = g.options().iter().map(|a| a.text(&rules.names)).collect();
        let my_kind = g.kind_name().unwrap_or("");
        if g.to_move as i64 != to_move || my_kind != kind || mine != opts {
            return Err(format!(
                "decision {d} (round {}): the game differs: python seat {to_move} {kind} {opts:?}; core seat {} {my_kind} {mine:?}",
                g.round, g.to_move
            ));
        }
        let i = dec[3].as_u64().unwrap() as usize;
        let p = g.to_move as usize;
        let mine = bots[p].choose(&g, &mut rngs[p]).map_err(|e| format!("decision {d}: core bot error: {e}"))?;
        if mine != i {
            let scores = match &mut bots[p] {
                Bot::Greedy(b) => format!("{:?}", b.scores(&g)),
                Bot::Random => String::new(),
            };
            return Err(format!(
                "decision {d} (round {}, seat {p} {}, {kind}): python chose {:?}, the core {:?}; core scores {scores}",
                g.round, names[p], opts[i], opts[mine]
            ));
        }
        g.apply_index(i).map_err(|e| format!("decision {d}: core error {e}"))?;
    }
    if let Some(e) = t["error"].as_str() {
        return Err(format!("python raised {e}; the core did not"));
    }
    let totals: Vec<i64> = g.totals[..players].iter().map(|&x| x as i64).collect();
    let theirs: Vec<i64> = t["totals"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
    if !g.over || totals != theirs {
        return Err(format!("end: python totals {theirs:?}, core {totals:?} (over: {})", g.over));
    }
    Ok(decisions.len())
}

fn main() {
    let path = std::env::args().nth(1).expect("a traces file (tools/greedy_traces.py)");
    let file = std::fs::File::open(&path).expect("the traces file");
    let (mut games, mut differ, mut decisions) = (0, 0, 0);
    for line in std::io::BufReader::new(file).lines() {
        let t: Value = serde_json::from_str(&line.unwrap()).expect("a JSON line");
        games += 1;
        match replay(&t) {
            Ok(k) => decisions += k,
            Err(e) => {
                differ += 1;
                decisions += t["decisions"].as_array().unwrap().len();
                if differ <= 10 {
                    let sides: Vec<&str> = t["board"]["sides"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
                    println!(
                        "game {} sides {} bots {} prophecies {} expansion {}: {e}",
                        t["game"], sides.join("-"), t["bots"], t["prophecies"], t["expansion"]
                    );
                }
            }
        }
    }
    println!("{games} games, {decisions} decisions: {differ} differ");
    if differ > 0 {
        std::process::exit(1);
    }
}
