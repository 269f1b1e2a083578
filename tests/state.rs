//! The state under the Python names (src/state.rs): an export written back by `edit` changes
//! nothing, an edit shows in the export and in play, a seat's view holds no hidden part, and
//! the scenario steps run the engine's own rules.

mod common;

use serde_json::{json, Value};

use _core::game::Game;
use _core::state;

const SIDES: [&str; 6] = ["A-A-A-A-A", "B-B-B-B-B", "C-C-C-C-C", "D-D-D-D-D", "D-C-B-A-C", "B-D-A-C-B"];

fn step(g: &mut Game, x: &mut u64) {
    *x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let n = g.options().len();
    g.apply_index((*x >> 33) as usize % n).expect("a legal option");
}

/// The settable public, hidden and flow fields of an export, as one edit.
fn as_edit(export: &Value) -> Value {
    let mut game = export["game"].as_object().unwrap().clone();
    for part in ["hidden", "flow"] {
        for (k, v) in export[part]["game"].as_object().unwrap() {
            game.insert(k.clone(), v.clone());
        }
    }
    for read_only in [
        "n", "over", "kind", "options", "events", "prophecy", "ship_sizes", "deck_size", "expansion", "prophecies",
        "scenario", "rounds", "stones_total", "get_stones", "took", "deck_initial", "reshuffles", "chance_setup",
    ] {
        game.remove(read_only);
    }
    let mut sites = serde_json::Map::new();
    for (i, name) in state::SITE_NAMES.iter().enumerate() {
        let mut fields = serde_json::Map::new();
        for part in [&export["sites"][i], &export["hidden"]["sites"][i], &export["flow"]["sites"][i]] {
            for (k, v) in part.as_object().unwrap() {
                fields.insert(k.clone(), v.clone());
            }
        }
        for read_only in ["name", "side", "stones", "stones_of", "pair_count", "done", "free", "width"] {
            fields.remove(read_only);
        }
        sites.insert(name.to_string(), Value::Object(fields));
    }
    game.insert("sites".into(), Value::Object(sites));
    Value::Object(game)
}

#[test]
fn an_export_written_back_changes_nothing_and_play_goes_on_the_same() {
    for (k, sides) in SIDES.iter().enumerate() {
        let mut g = common::game(sides, 2 + k % 3, &k.to_string(), k % 2 == 0);
        let mut x = k as u64;
        while !g.over {
            let before = state::export(&g);
            let mut edited = g.clone();
            state::edit(&mut edited, &as_edit(&before)).expect("an export is a valid edit");
            assert_eq!(state::export(&edited), before, "{sides} at decision {}", g.decisions);
            let mut y = x;
            step(&mut g, &mut x);
            step(&mut edited, &mut y);
            assert_eq!(state::export(&edited), state::export(&g), "{sides} after decision {}", g.decisions);
            for _ in 0..5 {
                if !g.over {
                    step(&mut g, &mut x);
                }
            }
        }
    }
}

#[test]
fn a_seat_sees_no_hidden_part_and_only_its_own_options() {
    for sides in SIDES {
        let mut g = common::game(sides, 3, "7", true);
        let mut x = 7;
        while !g.over {
            let all = state::export(&g);
            for seat in 0..3 {
                let seen = state::seen(&g, seat);
                assert_eq!(seen["sites"], all["sites"]);
                let text = seen.to_string();
                assert!(!text.contains("\"deck\"") && !text.contains("round_cards"), "{sides}: {text}");
                for (i, hidden) in all["hidden"]["sites"].as_array().unwrap().iter().enumerate() {
                    for name in hidden.as_object().unwrap().keys() {
                        assert!(seen["sites"][i].get(name).is_none(), "{sides}: seat {seat} sees {name}");
                    }
                }
                let options = seen["game"]["options"].as_array().unwrap();
                assert_eq!(!options.is_empty(), g.to_move == seat as i32, "{sides}: seat {seat}");
            }
            step(&mut g, &mut x);
        }
    }
}

#[test]
fn an_edit_shows_in_the_export_and_in_play() {
    let mut g = common::game("C-A-A-A-A", 3, "1", false);
    state::edit(&mut g, &json!({"sled": [0, 5, 2], "sites": {"market": {"coins": [0, 1, 2], "left": 1}}})).unwrap();
    let e = state::export(&g);
    assert_eq!(e["game"]["sled"], json!([0, 5, 2]));
    assert_eq!(e["sites"][0]["coins"], json!([0, 1, 2]));
    assert_eq!(e["sites"][0]["left"], json!(1));
    // seat 0 has an empty sled: after the turn is recomputed it cannot place a stone
    state::refresh_turn(&mut g).unwrap();
    let texts: Vec<String> = g.options().iter().map(|a| a.text(&g.rules.names)).collect();
    assert!(texts.iter().all(|t| !t.starts_with("place")), "{texts:?}");
    assert!(texts.contains(&"get".to_string()));
}

#[test]
fn a_bad_edit_names_what_is_wrong() {
    let mut g = common::game("D-A-A-A-D", 3, "1", false);
    let err = |g: &mut Game, v: Value| state::edit(g, &v).unwrap_err().to_string();
    assert!(err(&mut g, json!({"sledd": [1, 2, 3]})).contains("game has no field \"sledd\""));
    assert!(err(&mut g, json!({"sled": [1, 2]})).contains("sled: expected 3 items, got 2"));
    assert!(err(&mut g, json!({"discard": ["statue", "nope"]})).contains("unknown card \"nope\""));
    assert!(err(&mut g, json!({"sites": {"quarry": {}}})).contains("unknown site \"quarry\""));
    assert!(err(&mut g, json!({"sites": {"obelisk": {"free": []}}})).contains("obelisk.D.free is read only"));
    state::edit(&mut g, &json!({"sites": {"market": {"stacks": [[], ["lever"]]}}})).unwrap();
    state::edit(&mut g, &json!({"sites": {"market": {"stack_count": [0, 1]}}})).unwrap();
    assert!(err(&mut g, json!({"sites": {"market": {"stack_count": [2, 1]}}}))
        .contains("market.D: stack_count [2, 1] is not the stacks' sizes [0, 1]"));
}

#[test]
fn deliver_runs_the_site_rule_and_stops_at_its_question() {
    // Pyramid B: the stone's owner chooses the pyramid
    let mut g = common::game("A-B-A-A-A", 3, "1", false);
    state::deliver(&mut g, 1, 2).unwrap();
    assert_eq!((g.kind_name(), g.to_move), (Some("pyramid_choice"), 2));
    g.apply_index(1).unwrap(); // the middle pyramid
    assert_eq!(state::export(&g)["sites"][1]["pyramids"], json!([[], [2], []]));
    assert_eq!(g.kind_name(), Some("turn"));
}

#[test]
fn a_round_end_scores_as_the_rules_say() {
    // Temple A (§6.1): the visible stones score at round end
    let mut g = common::game("A-A-A-A-A", 2, "1", false);
    for owner in [0, 1, 0] {
        state::deliver(&mut g, 2, owner).unwrap();
    }
    let before = g.totals;
    state::round_end(&mut g, 2).unwrap();
    let gained: Vec<i32> = (0..2).map(|p| g.totals[p] - before[p]).collect();
    assert!(gained[0] > 0 && gained[1] > 0, "{gained:?}");
    assert_eq!(gained[0], 2 * gained[1]);
}

#[test]
fn end_round_moves_on_to_the_next_round() {
    let mut g = common::game("A-A-A-A-A", 3, "1", false);
    state::end_round(&mut g, 2).unwrap();
    assert_eq!((g.round, g.current, g.to_move, g.kind_name()), (2, 2, 2, Some("turn")));
}

#[test]
fn turn_options_do_not_change_the_game() {
    let g = common::game("A-A-A-A-A", 3, "1", false);
    let before = state::export(&g);
    let of_1 = state::turn_options(&g, 1).unwrap();
    assert!(!of_1.is_empty());
    assert_eq!(state::export(&g), before);
    assert!(state::turn_options(&g, 3).is_err());
}
