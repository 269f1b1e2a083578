//! Replay bot games recorded from the Python engine the core replaced, in the core: at every
//! decision the same seat, kind and options, and the core's bot for that
//! seat (from the same spec, drawing from the same seat stream) choosing the same option;
//! at the end the same totals (or the same error).
//!
//!     cargo run --release --example replay_bots /tmp/greedy.jsonl
//!
//! A trace: board, players, root, game, prophecies, expansion, `bots` (each seat's spec:
//! a name or a table, as bots.make_bot takes), decisions, totals, error. Neither the
//! recorder nor any trace is in the repository: it checks a traces file you have.

mod replay;

use serde_json::Value;

use _core::bots::play::{Bot, Spec};
use _core::play::{bot_rng, new_game};

fn replay(t: &Value) -> Result<(), String> {
    let rules = replay::rules(t)?;
    let players = t["players"].as_u64().unwrap() as usize;
    let (root, game) = (t["root"].as_str().unwrap(), t["game"].as_u64().unwrap());
    let specs: Vec<Spec> =
        t["bots"].as_array().unwrap().iter().map(Spec::from_value).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    let mut bots: Vec<Bot> = specs.iter().map(Spec::bot).collect();
    let mut g = new_game(&rules, players, root, game, t["expansion"].as_bool(), t["prophecies"].as_bool().unwrap())
        .map_err(|e| format!("setup: {e}"))?;
    let mut rngs: Vec<_> = (0..players).map(|p| bot_rng(root, game, p)).collect();
    for (d, dec) in t["decisions"].as_array().unwrap().iter().enumerate() {
        let i = replay::check_decision(&g, d, dec)?;
        let p = g.to_move as usize;
        let mine = bots[p].choose(&g, &mut rngs[p]).map_err(|e| format!("decision {d}: core bot error: {e}"))?;
        if mine != i {
            let scores = match &mut bots[p] {
                Bot::Greedy(b) => format!("; core scores {:?}", b.scores(&g)),
                _ => String::new(),
            };
            let opts = &dec[2];
            return Err(format!(
                "decision {d} (round {}, seat {p} {}, {}): python chose {} ({i}), the core {} ({mine}){scores}",
                g.round, specs[p].name(), dec[1], opts[i], opts[mine]
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
    Ok(())
}

fn main() {
    let label = |t: &Value| {
        format!("game {} sides {} bots {} prophecies {} expansion {}", t["game"], replay::sides(t), t["bots"], t["prophecies"], t["expansion"])
    };
    replay::run("bot games recorded from the Python engine", label, replay);
}
