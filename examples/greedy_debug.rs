//! Print a greedy seat's view of the tables at one decision of a trace (tools/greedy_traces.py,
//! tools/search_traces.py):
//!
//!     cargo run --release --example greedy_debug TRACES LINE DECISION
use std::io::BufRead;
use std::sync::Arc;

use _core::bots::play::{Bot, Spec};
use _core::play::bot_rng;
use _core::rules::Rules;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (line, at): (usize, usize) = (args[2].parse().unwrap(), args[3].parse().unwrap());
    let file = std::fs::File::open(&args[1]).unwrap();
    let text = std::io::BufReader::new(file).lines().nth(line).unwrap().unwrap();
    let t: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rules = Arc::new(Rules::from_value(&t["board"]).unwrap());
    let players = t["players"].as_u64().unwrap() as usize;
    let (root, game) = (t["root"].as_str().unwrap(), t["game"].as_u64().unwrap());
    let mut bots: Vec<Bot> = t["bots"].as_array().unwrap().iter().map(|b| Spec::from_value(b).unwrap().bot()).collect();
    let mut g = _core::play::new_game(&rules, players, root, game, t["expansion"].as_bool(), t["prophecies"].as_bool().unwrap()).unwrap();
    let mut rngs: Vec<_> = (0..players).map(|p| bot_rng(root, game, p)).collect();
    for _ in 0..at {
        let p = g.to_move as usize;
        let i = bots[p].choose(&g, &mut rngs[p]).unwrap();
        g.apply_index(i).unwrap();
    }
    let p = g.to_move as usize;
    let opts: Vec<String> = g.options().iter().map(|a| a.text(&rules.names)).collect();
    println!("{opts:?}");
    if let Bot::Greedy(b) = &mut bots[p] {
        println!("{:?}", b.scores(&g));
        let c = b.context_of(p).unwrap();
        println!("sled {:?} mins {:?} used {:?} slots {:?} free {:?} dock {:?} stone_now {}", c.sled, c.mins, c.used, c.slots, c.free, c.dock, c.stone_now);
        for (i, ev) in c.evals.iter().enumerate() {
            println!("{i} {:?} key {:?}", &ev.obj[..8], ev.key);
        }
    }
}
