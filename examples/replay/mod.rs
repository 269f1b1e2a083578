//! What the replay examples share (replay_traces.rs, replay_bots.rs): reading a traces file
//! of games recorded from the Python engine the core replaced, one JSON object a line,
//! checking each decision the core reaches against the recorded one, and the summary (the
//! first differences, the exit code).

use std::io::BufRead;
use std::sync::Arc;

use serde_json::Value;

use _core::game::Game;
use _core::rules::Rules;

/// The board a trace was played on, as the core's rules.
pub fn rules(t: &Value) -> Result<Arc<Rules>, String> {
    Rules::from_value(&t["board"]).map(Arc::new).map_err(|e| format!("board: {e}"))
}

/// A trace's side combination, "A-B-C-D-A".
pub fn sides(t: &Value) -> String {
    let sides: Vec<&str> = t["board"]["sides"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    sides.join("-")
}

/// Decision `d` of a trace, `[to_move, kind, [option texts], chosen index]`, against the
/// core's game: the same seat, kind and options in order; the recorded chosen index.
pub fn check_decision(g: &Game, d: usize, dec: &Value) -> Result<usize, String> {
    let to_move = dec[0].as_i64().unwrap();
    let kind = dec[1].as_str().unwrap_or("");
    let opts: Vec<&str> = dec[2].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    let mine: Vec<String> = g.options().iter().map(|a| a.text(&g.rules.names)).collect();
    let my_kind = g.kind_name().unwrap_or("");
    if g.to_move as i64 != to_move || my_kind != kind || mine != opts {
        return Err(format!(
            "decision {d} (round {}): python seat {to_move} {kind} {opts:?}; core seat {} {my_kind} {mine:?}",
            g.round, g.to_move
        ));
    }
    Ok(dec[3].as_u64().unwrap() as usize)
}

/// Replay every trace of the file named by the first argument with `replay` (Ok: the game
/// is the same), print the first ten differences labelled by `label` and a summary line,
/// and exit 1 if any game differs.
pub fn run(what: &str, label: impl Fn(&Value) -> String, replay: impl Fn(&Value) -> Result<(), String>) {
    let path = std::env::args().nth(1).unwrap_or_else(|| panic!("a traces file ({what})"));
    let file = std::fs::File::open(&path).expect("the traces file");
    let (mut games, mut differ, mut decisions, mut at_decision) = (0, 0, 0, 0);
    for line in std::io::BufReader::new(file).lines() {
        let t: Value = serde_json::from_str(&line.unwrap()).expect("a JSON line");
        games += 1;
        decisions += t["decisions"].as_array().unwrap().len();
        if let Err(e) = replay(&t) {
            differ += 1;
            if e.starts_with("decision") || e.starts_with("setup") {
                at_decision += 1;
            }
            if differ <= 10 {
                println!("{}: {e}", label(&t));
            }
        }
    }
    println!("{games} games, {decisions} decisions: {differ} differ ({at_decision} at a decision or the setup)");
    if differ > 0 {
        std::process::exit(1);
    }
}
