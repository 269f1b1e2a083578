//! Random games in the core, timed: `cargo run --release --example random_games -- BOARD.json PLAYERS GAMES`
//! (the board JSON of src/rules.rs, e.g. from tools/core_traces.py's `board_json`).

use std::sync::Arc;
use std::time::Instant;

use _core::play::play_random;
use _core::rules::Rules;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let players: usize = args[2].parse().unwrap();
    let games: u64 = args[3].parse().unwrap();
    let rules = Arc::new(Rules::from_json(&std::fs::read_to_string(path).unwrap()).unwrap());
    let start = Instant::now();
    let mut decisions = 0u64;
    for game in 0..games {
        // as a study's batch: random bots seeded as engine/play.py
        let g = play_random(&rules, players, "0", game, None, false).unwrap();
        decisions += g.decisions as u64;
    }
    let s = start.elapsed().as_secs_f64();
    println!("{games} games, {decisions} decisions in {s:.3} s: {:.0} games/s", games as f64 / s);
}
