//! The learned value of truncated rollouts (src/search/value.rs, the `-v` switch): its
//! weights file, its shares, its name, and that it changes only the bots that ask for it.

mod common;

use _core::search::bot::MctsBot;
use _core::search::tree::{search, NO_LIMIT};
use _core::search::value::{features, parse_weights, shares_of, weights, FEATURES, K};
use _core::stream::Stream;

#[test]
fn the_shipped_weights_parse_and_a_wrong_file_is_refused() {
    assert!(weights().iter().all(|w| w.is_finite()));
    assert!(weights().iter().any(|&w| w != 0.0));
    let renamed = format!(r#"{{"features": ["points"{}], "weights": [{}]}}"#, r#", "x""#.repeat(K - 1), ["0"; K].join(","));
    assert!(parse_weights(&renamed).unwrap_err().contains("features"));
    let names: Vec<String> = FEATURES.iter().map(|f| format!("{f:?}")).collect();
    let short = format!(r#"{{"features": [{}], "weights": [1, 2]}}"#, names.join(","));
    assert!(parse_weights(&short).unwrap_err().contains("expected 8 numbers, got 2"));
}

#[test]
fn shares_are_a_softmax_over_the_seats() {
    let mut w = [0.0; K];
    w[0] = 1.0;
    let mut f = vec![[0.0; K]; 3];
    f[0][0] = 2.0;
    f[1][0] = 1.0;
    f[2][0] = 1.0;
    let s = shares_of(&f, &w);
    assert!((s[..3].iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((s[0] / s[1] - std::f64::consts::E).abs() < 1e-9);
    assert_eq!(s[1], s[2]);
    assert_eq!(s[3], 0.0);
}

#[test]
fn features_read_the_position() {
    let mut g = common::game("A-A-A-A-A", 2, "7", false);
    let mut rng = Stream::from_text("walk");
    while g.decisions < 40 {
        let i = (rng.random() * g.options().len() as f64) as usize;
        g.apply_index(i).unwrap();
    }
    let (totals, sled, hand) = (g.totals, g.sled, g.hand);
    let f = features(&mut g.clone()).unwrap();
    for p in 0..2 {
        assert_eq!(f[p][2], totals[p] as f64);
        assert!(f[p][3] <= sled[p] as f64 && f[p][3] > 0.0 || sled[p] == 0);
        assert_eq!(f[p][6], hand[p].iter().map(|&c| c as f64).sum::<f64>());
        assert!(f[p][0] >= totals[p] as f64);
    }
}

#[test]
fn the_value_is_named_with_v_after_the_truncation() {
    let b = MctsBot::from_name("mcts400-t10-v-b1-s").unwrap().unwrap();
    assert!(b.settings.value);
    assert_eq!(b.settings.depth, 10);
    assert_eq!(MctsBot::default_name(&b.settings), "mcts400-t10-v-b1-s");
    assert!(!MctsBot::from_name("mcts400-t10-b1-s").unwrap().unwrap().settings.value);
    assert!(!MctsBot::expert().settings.value);
    let err = MctsBot::from_name("mcts400-v").unwrap_err();
    assert!(format!("{err:?}").contains("-tN"));
    assert!(MctsBot::from_name("mcts400-t10-vx").unwrap().is_none());
}

#[test]
fn the_value_changes_the_credit_of_truncated_rollouts_only() {
    let mut g = common::game("D-D-D-D-D", 2, "3", false);
    let mut rng = Stream::from_text("walk");
    while g.decisions < 30 || g.options().len() < 2 {
        let i = (rng.random() * g.options().len() as f64) as usize;
        g.apply_index(i).unwrap();
    }
    let me = g.to_move as usize;
    let run = |name: &str| {
        let b = MctsBot::from_name(name).unwrap().unwrap();
        let t = search(&g, me, &mut Stream::from_text("s"), &b.settings, None).unwrap();
        t.root_children().map(|(_, n)| n).collect::<Vec<u32>>()
    };
    assert_ne!(run("mcts300-t5"), run("mcts300-t5-v"));
    // rollouts to the end never reach the value
    let mut plain = MctsBot::from_name("mcts300").unwrap().unwrap().settings;
    let base = search(&g, me, &mut Stream::from_text("s"), &plain, None).unwrap();
    plain.value = true;
    assert_eq!(plain.depth, NO_LIMIT);
    let valued = search(&g, me, &mut Stream::from_text("s"), &plain, None).unwrap();
    let visits = |t: &_core::search::tree::Tree| t.root_children().map(|(_, n)| n).collect::<Vec<u32>>();
    assert_eq!(visits(&base), visits(&valued));
}

#[test]
fn the_value_by_table_as_python_sends_it() {
    let table = |text: &str| MctsBot::from_spec(serde_json::from_str::<serde_json::Value>(text).unwrap().as_object().unwrap());
    let b = table(r#"{"base": "mcts", "iterations": 12, "truncate": 6, "value": true}"#).unwrap();
    assert!(b.settings.value);
    assert_eq!(b.name, "mcts12-t6-v");
    assert!(!table(r#"{"base": "mcts", "truncate": 6, "value": false}"#).unwrap().settings.value);
    let err = |text: &str| format!("{:?}", table(text).unwrap_err());
    assert!(err(r#"{"base": "mcts", "value": true}"#).contains("give truncate"));
    assert!(err(r#"{"base": "mcts", "truncate": 6, "value": "yes"}"#).contains("bot spec value: expected true or false"));
}
