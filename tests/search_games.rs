//! The search bot's recorded games (tests/search_games.txt; the expert's and greedy
//! rollouts' in tests/expert_games.txt; tools/search_hash.py) played by the core: the same
//! number of choices, the same sha256 of the choices in order, the same totals.

mod common;

use sha2::{Digest, Sha256};

use _core::bots::play::{play, Bot, Spec};
use _core::game::{Game, Setup};
use _core::play::chance_seed;

/// One recorded line played anew: "sides players bot choices digest [totals]".
fn replay(sides: &str, players: usize, bot: &str) -> String {
    let setup = Setup { players, seed: chance_seed("7", players as u64), ..Setup::default() };
    let mut g = Game::new(common::rules(sides), &setup).expect("a new game");
    let spec = Spec::named(bot).unwrap();
    let mut bots: Vec<Bot> = (0..players).map(|_| spec.bot()).collect();
    // the choices' texts, each read before it is applied
    let mut texts = Vec::new();
    play(&mut g, &mut bots, "7", 0, |g, i| texts.push(g.options()[i].text(&g.rules.names))).expect("a game played");
    let digest = Sha256::digest(texts.join("\n").as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let totals: Vec<String> = g.totals[..players].iter().map(|t| t.to_string()).collect();
    format!("{sides} {players} {bot} {} {hex} [{}]", texts.len(), totals.join(", "))
}

fn plays_the_recorded(file: &str, games: usize) {
    let path = format!("{}/tests/{file}", env!("CARGO_MANIFEST_DIR"));
    let recorded = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), games);
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        let played = replay(f[0], f[1].parse().unwrap(), f[2]);
        assert_eq!(played, line);
    }
}

#[test]
fn the_core_search_plays_the_recorded_games() {
    plays_the_recorded("search_games.txt", 5);
}

#[test]
fn the_core_expert_plays_the_recorded_games() {
    // greedy priors at the root and the early stop (expert, mcts300-b1-s), greedy rollouts
    plays_the_recorded("expert_games.txt", 3);
}
