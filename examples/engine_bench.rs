//! The engine's speed probe for callgrind: run a kind of game N and 3N times under
//! `valgrind --tool=callgrind --dump-instr=no` and take the difference over 2N (start-up
//! cancelled). Games are seeded as a study's (root "0", game k); boards are the package's.
//!
//!     cargo run --release --example engine_bench random A 3 200    # random bots, 3 players
//!     cargo run --release --example engine_bench greedy D 3 5      # greedy in every seat
//!     cargo run --release --example engine_bench sizes             # the state's sizes in bytes
//!
//! (`search_bench` measures the search.)

use std::mem::size_of;
use std::time::Instant;

use _core::action::Action;
use _core::bots::play::{play, Bot};
use _core::game::{Game, Options};
use _core::play::{new_game, play_random};

#[path = "../tests/common/mod.rs"]
mod common;

fn sizes() {
    println!("Game {}", size_of::<Game>());
    println!("Action {}", size_of::<Action>());
    println!("Options {}", size_of::<Options>());
    println!("Sites {}", size_of::<_core::sites::Sites>());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args[1].as_str();
    if what == "sizes" {
        sizes();
        return;
    }
    let sides = if args[2].len() == 1 { [args[2].as_str(); 5].join("-") } else { args[2].clone() };
    let rules = common::rules(&sides);
    let players: usize = args[3].parse().unwrap();
    let n: u64 = args[4].parse().unwrap();
    let t = Instant::now();
    let mut decisions = 0u64;
    for game in 0..n {
        let (k, totals) = match what {
            "random" => {
                let g = play_random(&rules, players, "0", game, None, false).unwrap();
                (g.decisions, g.totals)
            }
            "greedy" => {
                let mut g = new_game(&rules, players, "0", game, None, false).unwrap();
                let mut bots: Vec<Bot> = (0..players).map(|_| Bot::named("greedy").unwrap()).collect();
                play(&mut g, &mut bots, "0", game, |_, _| {}).unwrap();
                (g.decisions, g.totals)
            }
            _ => panic!("engine_bench random|greedy|sizes"),
        };
        decisions += k as u64;
        std::hint::black_box(totals);
    }
    let s = t.elapsed().as_secs_f64();
    println!("{what} {sides} {players}p: {n} games, {decisions} decisions, {:.0} games/s", n as f64 / s);
}
