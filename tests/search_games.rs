//! The search bot's recorded games (tests/search_games.txt, tools/search_hash.py) played by
//! the core's search: the same number of choices, the same sha256 of the choices in order,
//! the same totals.

mod common;

use sha2::{Digest, Sha256};

use _core::game::{Game, Setup};
use _core::play::{bot_rng, chance_seed};
use _core::search::bot::{play, MctsBot};

/// One recorded line played anew: "sides players bot choices digest [totals]".
fn replay(sides: &str, players: usize, bot: &str) -> String {
    let setup = Setup { players, seed: chance_seed("7", players as u64), ..Setup::default() };
    let mut g = Game::new(common::rules(sides), &setup).expect("a new game");
    let bots: Vec<MctsBot> = (0..players).map(|_| MctsBot::from_name(bot).unwrap().unwrap()).collect();
    let mut rngs: Vec<_> = (0..players).map(|p| bot_rng("7", 0, p)).collect();
    let mut texts = Vec::new();
    // the choices' texts, each read before it is applied
    let mut g2 = g.clone();
    let chosen = play(&mut g, &bots, &mut rngs, &mut []).expect("a game played");
    for &i in &chosen {
        texts.push(g2.options()[i].text(&g2.rules.names));
        g2.apply_index(i).unwrap();
    }
    let digest = Sha256::digest(texts.join("\n").as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let totals: Vec<String> = g.totals[..players].iter().map(|t| t.to_string()).collect();
    format!("{sides} {players} {bot} {} {hex} [{}]", chosen.len(), totals.join(", "))
}

#[test]
fn the_core_search_plays_the_recorded_games() {
    let path = format!("{}/tests/search_games.txt", env!("CARGO_MANIFEST_DIR"));
    let recorded = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    assert_eq!(lines.len(), 5);
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        let played = replay(f[0], f[1].parse().unwrap(), f[2]);
        assert_eq!(played, line);
    }
}
