//! The search's speed probe: `mcts` searches fixed positions, the others play whole games.
//! Run it under callgrind with N and 3N units and take the difference (start-up cancelled).
//!
//!     cargo run --release --example search_bench mcts A 400 3     # 3 mcts400 decisions
//!     cargo run --release --example search_bench expert A 2 2     # 2 expert games, 2 players
//!
//! `mcts`: decision k is the first with more than one option after 30 decisions drawn
//! from `Stream::from_key(&[k])` in the 2-player game seeded `k:0`, searched with the stream
//! `Stream::from_key(&[k])`. `expert`/`mctsN`: whole games seeded as a study's (root 0),
//! every seat that bot (any spec: `greedy` too); prints the seconds a game.

use std::sync::Arc;
use std::time::Instant;

use _core::bots::play::{play, Bot, Spec};
use _core::game::{Game, Setup};
use _core::play::{chance_seed, new_game};
use _core::rules::Rules;
use _core::search::bot::MctsBot;
use _core::stream::Stream;

#[path = "../tests/common/mod.rs"]
mod common;

/// The package's board data for "A" (A-A-A-A-A) or a full side combination.
fn rules(sides: &str) -> Arc<Rules> {
    let sides = if sides.len() == 1 { [sides; 5].join("-") } else { sides.to_string() };
    common::rules(&sides)
}

/// The 2-player game seeded `seed:0` after `at` decisions drawn from `random.Random(seed)`.
fn position(rules: &Arc<Rules>, seed: u32, at: u32) -> Game {
    let setup = Setup { players: 2, seed: chance_seed(&seed.to_string(), 0), ..Setup::default() };
    let mut g = Game::new(rules.clone(), &setup).unwrap();
    let mut rng = Stream::from_key(&[seed]);
    while g.decisions < at && !g.over {
        let i = (rng.random() * g.options().len() as f64) as usize;
        g.apply_index(i).unwrap();
    }
    g
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args[1].as_str();
    let rules = rules(&args[2]);
    let t = Instant::now();
    if what == "mcts" {
        let iterations: u32 = args[3].parse().unwrap();
        let n: u32 = args[4].parse().unwrap();
        let bot = MctsBot::from_name(&format!("mcts{iterations}")).unwrap().unwrap();
        for k in 0..n {
            let mut g = position(&rules, k, 30);
            while g.options().len() == 1 {
                g.apply_index(0).unwrap();
            }
            let i = bot.choose(&g, &mut Stream::from_key(&[k]), None).unwrap();
            std::hint::black_box(i);
        }
        let spent = t.elapsed().as_secs_f64();
        println!("mcts{iterations}: {:.0} iterations per second", (iterations * n) as f64 / spent);
    } else {
        let players: usize = args[3].parse().unwrap();
        let n: u64 = args[4].parse().unwrap();
        let spec = Spec::named(what).expect("a bot's name");
        for game in 0..n {
            let mut g = new_game(&rules, players, "0", game, None, false).unwrap();
            let mut bots: Vec<Bot> = (0..players).map(|_| spec.bot()).collect();
            play(&mut g, &mut bots, "0", game, |_, _| {}).unwrap();
            std::hint::black_box(g.totals);
        }
        println!("{what}: {:.3} s a game", t.elapsed().as_secs_f64() / n as f64);
    }
}
