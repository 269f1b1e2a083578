//! Random games in the core, timed: `cargo run --release --example random_games -- SIDES PLAYERS GAMES`.

use std::sync::Arc;
use std::time::Instant;

use _core::game::{Game, Setup};
use _core::rules::Rules;
use _core::stream::Stream;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let players: usize = args[2].parse().unwrap();
    let games: u64 = args[3].parse().unwrap();
    let rules = Arc::new(Rules::from_json(&std::fs::read_to_string(path).unwrap()).unwrap());
    let start = Instant::now();
    let mut decisions = 0u64;
    for seed in 0..games {
        let setup = Setup { players, seed: seed.to_string(), no_events: true, ..Setup::default() };
        let mut g = Game::new(rules.clone(), &setup).unwrap();
        let mut rng = Stream::from_text(&seed.to_string());
        while !g.over {
            let n = g.options().len();
            g.apply_index((rng.random() * n as f64) as usize).unwrap();
        }
        decisions += g.decisions as u64;
    }
    let s = start.elapsed().as_secs_f64();
    println!("{games} games, {decisions} decisions in {s:.3} s: {:.0} games/s", games as f64 / s);
}
