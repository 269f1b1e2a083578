//! The seeded games of tests/fingerprints.json (tests/test_fingerprint.py explains them)
//! played in the core by its own bots: every decision (seat, kind, action, how many were
//! legal) and the totals hash to the fingerprints the Python engine recorded.

mod common;

use sha2::{Digest, Sha256};

use _core::bots::play::{play, Bot};
use _core::play::new_game;

/// tests/test_fingerprint.py's CASES: (sides, bots, prophecies, expansion, games).
type Case = (&'static str, &'static [&'static str], bool, Option<bool>, u64);

const CASES: [Case; 12] = [
    ("A-A-A-A-A", &["greedy", "random"], false, None, 3),
    ("A-A-A-A-A", &["greedy", "market", "greedy"], false, Some(true), 2),
    ("B-B-B-B-B", &["pyramid", "temple", "burial"], false, None, 2),
    ("B-B-B-B-B", &["greedy", "obelisk", "random", "balanced"], true, None, 1),
    ("C-C-C-C-C", &["greedy", "greedy", "market", "obelisk"], false, None, 1),
    ("C-C-C-C-C", &["greedy", "random"], true, None, 2),
    ("D-D-D-D-D", &["greedy", "balanced", "random"], true, None, 2),
    ("D-D-D-D-D", &["market", "greedy"], false, None, 2),
    ("A-B-C-D-A", &["greedy", "temple", "random"], false, None, 2),
    ("D-C-B-A-D", &["burial", "greedy", "pyramid", "greedy"], true, None, 1),
    ("B-D-A-C-B", &["greedy", "greedy"], false, None, 2),
    ("C-A-D-B-C", &["balanced", "random", "greedy"], false, None, 2),
];

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// One case's fingerprint (test_fingerprint.py's PLAY), played in the core.
fn fingerprint(sides: &str, bots: &[&str], prophecies: bool, expansion: Option<bool>, games: u64) -> String {
    let rules = common::rules(sides);
    let mut h = Sha256::new();
    for i in 0..games {
        let mut g = new_game(&rules, bots.len(), "97", i, expansion, prophecies).unwrap();
        let mut seats: Vec<Bot> = bots.iter().map(|b| Bot::named(b).unwrap()).collect();
        let mut lines = Vec::new();
        play(&mut g, &mut seats, "97", i, |g, k| {
            let a = g.options()[k].text(&g.rules.names);
            lines.push(format!("{} {}: {a} of {}", g.to_move, g.kind_name().unwrap(), g.options().len()));
        })
        .unwrap();
        let totals: Vec<String> = g.totals[..g.n].iter().map(|t| t.to_string()).collect();
        lines.push(format!("totals [{}]", totals.join(", ")));
        h.update((lines.join("\n") + "\n").as_bytes());
    }
    format!("{:x}", h.finalize())
}

#[test]
fn the_core_bots_play_the_recorded_fingerprints() {
    let path = format!("{}/tests/fingerprints.json", env!("CARGO_MANIFEST_DIR"));
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut differ = Vec::new();
    for (sides, bots, prophecies, expansion, games) in CASES {
        let exp = match expansion {
            None => "None",
            Some(b) => py_bool(b),
        };
        let key = format!("{sides} {} prophecies={} expansion={exp}", bots.join(","), py_bool(prophecies));
        let want = recorded[&key].as_str().unwrap_or_else(|| panic!("{key}: not in fingerprints.json"));
        if fingerprint(sides, bots, prophecies, expansion, games) != want {
            differ.push(key);
        }
    }
    assert!(differ.is_empty(), "the core plays other games than recorded: {differ:?}");
}

#[test]
fn the_fingerprint_sees_a_changed_decision() {
    // one game more, or the bots swapped, and the hash is another
    let (sides, bots, prophecies, expansion, games) = CASES[0];
    let base = fingerprint(sides, bots, prophecies, expansion, games);
    assert_ne!(base, fingerprint(sides, bots, prophecies, expansion, games + 1));
    let swapped: Vec<&str> = bots.iter().rev().copied().collect();
    assert_ne!(base, fingerprint(sides, &swapped, prophecies, expansion, games));
}
