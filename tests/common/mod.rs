//! The package's own board data (imhotep_stats/data/*.toml) as the board JSON the Python side
//! hands the core (src/rules.rs), for the cargo tests: one source of the numbers.

#![allow(dead_code)]

use std::sync::Arc;

use serde_json::{json, Map, Value};

use _core::game::{Game, Setup};
use _core::rules::Rules;

const META: [&str; 3] = ["provenance", "provisional_keys", "quotes"];

fn read(name: &str) -> Value {
    let path = format!("{}/imhotep_stats/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::to_value(v).unwrap()
}

fn values(table: &Value) -> Value {
    let mut out = Map::new();
    for (k, v) in table.as_object().unwrap() {
        if !META.contains(&k.as_str()) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// The board JSON for `sides` ("A-B-C-D-A").
pub fn board_json(sides: &str) -> Value {
    let board = read("board.toml");
    let game = read("game.toml");
    let cards = read("cards.toml");
    let letters: Vec<&str> = sides.split('-').collect();
    let mut chosen = Map::new();
    for (i, site) in ["market", "pyramid", "temple", "burial_chamber", "obelisk"].iter().enumerate() {
        chosen.insert(site.to_string(), values(&board[site][letters[i]]));
    }
    let mut rc = Map::new();
    for p in ["2", "3", "4"] {
        rc.insert(p.into(), game["round_cards"][p]["cards"].clone());
    }
    json!({
        "sides": letters,
        "values": chosen,
        "game": values(&game["game"]),
        "prophecies": values(&game["prophecies"]),
        "round_cards": rc,
        "cards": cards["cards"],
        "statue_points": values(&cards["statue_points"]),
        "unused_blue_points": values(&cards["unused_blue_points"]),
        "decoration": values(&cards["decoration"]),
        "overridden": [],
    })
}

pub fn rules(sides: &str) -> Arc<Rules> {
    Arc::new(Rules::from_value(&board_json(sides)).expect("the package's board data parses"))
}

pub fn game(sides: &str, players: usize, seed: &str, prophecies: bool) -> Game {
    let setup = Setup { players, seed: seed.into(), prophecies, ..Setup::default() };
    Game::new(rules(sides), &setup).expect("a new game")
}
