//! The learned policy of the root priors (src/search/policy.rs, the `-p` switch): its
//! weights file, its features and shares, its name and table, and that it changes only the
//! bots that ask for it.

mod common;

use _core::bots::greedy::Greedy;
use _core::bots::weights::Weights;
use _core::game::Game;
use _core::search::bot::{MctsBot, Pricer};
use _core::search::policy::{features, parse_weights, priors_of, weights, FEATURES, K};
use _core::stream::Stream;

/// A 2-player position after `n` random decisions, with more than one option.
fn position(sides: &str, n: u32) -> Game {
    let mut g = common::game(sides, 2, "5", false);
    let mut rng = Stream::from_text("walk");
    while g.decisions < n || g.options().len() < 2 {
        let i = (rng.random() * g.options().len() as f64) as usize;
        g.apply_index(i).unwrap();
    }
    g
}

#[test]
fn the_shipped_weights_parse_and_a_wrong_file_is_refused() {
    assert!(weights().iter().all(|w| w.is_finite()));
    let renamed = format!(r#"{{"features": ["x"{}], "weights": [{}]}}"#, r#", "y""#.repeat(K - 1), ["0"; K].join(","));
    assert!(parse_weights(&renamed).unwrap_err().contains("features"));
    let names: Vec<String> = FEATURES.iter().map(|f| format!("{f:?}")).collect();
    let short = format!(r#"{{"features": [{}], "weights": [1, 2]}}"#, names.join(","));
    assert!(parse_weights(&short).unwrap_err().contains(&format!("expected {K} numbers, got 2")));
}

#[test]
fn the_price_weights_alone_give_the_greedy_softmax() {
    // weight 1 on the prices and 0 elsewhere is the expert's prior (a softmax at 1 point)
    let mut w = [0.0; K];
    w[0] = 1.0;
    w[2] = 1.0;
    let expert = MctsBot::expert();
    for n in [0, 7, 25, 60] {
        let g = position("A-A-A-A-A", n);
        let prices = Greedy::new(Weights::default()).prices(&g).unwrap();
        let mine = priors_of(&features(&g, &prices), &w);
        let theirs = expert.priors(&g, Some(&mut Greedy::new(Weights::default()) as &mut dyn Pricer)).unwrap().unwrap();
        assert_eq!(mine.len(), g.options().len());
        for (a, b) in mine.iter().zip(&theirs) {
            assert!((a - b).abs() < 1e-12, "{mine:?} {theirs:?}");
        }
    }
}

#[test]
fn features_say_the_kind_of_action_and_the_top_price() {
    let g = position("A-A-A-A-A", 0); // the first turn: place, get (and no sail yet)
    let prices = Greedy::new(Weights::default()).prices(&g).unwrap();
    let f = features(&g, &prices);
    let top = prices.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for ((x, a), v) in f.iter().zip(g.options()).zip(&prices) {
        assert_eq!(x[4..9].iter().sum::<f64>(), 1.0, "one kind of turn action: {x:?}");
        assert_eq!(x[0], *v);
        assert_eq!(x[3] == 1.0, *v == top);
        assert_eq!(x[4] == 1.0, a.kind == _core::action::PLACE);
    }
}

#[test]
fn the_policy_is_named_with_p_after_the_bias() {
    let b = MctsBot::from_name("mcts1900-b1-p-s").unwrap().unwrap();
    assert!(b.settings.policy && b.settings.stop);
    assert_eq!(MctsBot::default_name(&b.settings), "mcts1900-b1-p-s");
    assert!(!MctsBot::from_name("mcts1900-b1-s").unwrap().unwrap().settings.policy);
    assert!(!MctsBot::expert().settings.policy);
    let err = MctsBot::from_name("mcts400-p").unwrap_err();
    assert!(format!("{err:?}").contains("give -bB"));
    assert!(MctsBot::from_name("mcts400-b1-px").unwrap().is_none());
}

#[test]
fn the_policy_changes_the_priors_of_the_bots_that_ask_for_it() {
    let g = position("D-D-D-D-D", 30);
    let priors = |name: &str| {
        let b = MctsBot::from_name(name).unwrap().unwrap();
        b.priors(&g, Some(&mut Greedy::new(Weights::default()) as &mut dyn Pricer)).unwrap().unwrap()
    };
    let learned = priors("mcts100-b1-p");
    assert!((learned.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert_ne!(learned, priors("mcts100-b1"));
}

#[test]
fn the_policy_by_table_as_python_sends_it() {
    let table = |text: &str| MctsBot::from_spec(serde_json::from_str::<serde_json::Value>(text).unwrap().as_object().unwrap());
    let b = table(r#"{"base": "mcts", "iterations": 12, "bias": 1, "policy": true}"#).unwrap();
    assert!(b.settings.policy);
    assert_eq!(b.name, "mcts12-b1-p");
    assert!(table(r#"{"base": "expert", "policy": true}"#).unwrap().settings.policy);
    let err = |text: &str| format!("{:?}", table(text).unwrap_err());
    assert!(err(r#"{"base": "mcts", "policy": true}"#).contains("bot spec policy: the learned policy gives the root priors: give bias too"));
    assert!(err(r#"{"base": "mcts", "bias": 1, "policy": "yes"}"#).contains("bot spec policy: expected true or false"));
}
