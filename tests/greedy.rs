//! The core's greedy bot: its choice is a best-priced option (the turn's shortcut agrees with
//! pricing every action), its prices are one per option, its personas and errors.

mod common;

use _core::bots::greedy::Greedy;
use _core::bots::play::Bot;
use _core::play::new_game;
use _core::kinds::TURN;
use _core::play::bot_rng;

#[test]
fn every_choice_is_a_best_priced_option() {
    for (sides, players) in [("A-A-A-A-A", 3), ("D-D-D-D-D", 3), ("B-C-D-A-B", 2), ("C-B-A-D-C", 4)] {
        let rules = common::rules(sides);
        for game in 0..2 {
            let mut g = new_game(&rules, players, "5", game, None, game % 2 == 1).unwrap();
            let mut bots: Vec<Greedy> = (0..players).map(|_| Greedy::persona("greedy").unwrap()).collect();
            let mut rngs: Vec<_> = (0..players).map(|p| bot_rng("5", game, p)).collect();
            let (mut turns, mut others) = (0, 0);
            while !g.over {
                let p = g.to_move as usize;
                let scores = bots[p].scores(&g).unwrap();
                assert_eq!(scores.len(), g.options().len());
                let i = bots[p].choose(&g, &mut rngs[p]).unwrap();
                if scores.len() > 1 {
                    let top = scores.iter().cloned().fold(f64::MIN, f64::max);
                    assert!(scores[i] >= top - 1e-9, "{sides} game {game}: chose {i} of {scores:?}");
                    if g.kind == TURN {
                        turns += 1;
                    } else {
                        others += 1;
                    }
                }
                g.apply_index(i).unwrap();
            }
            assert!(turns > 20, "{sides}: {turns} turns with a choice");
            let _ = others;
        }
    }
}

#[test]
fn bots_by_name() {
    assert!(matches!(Bot::named("random"), Ok(Bot::Random)));
    assert!(matches!(Bot::named("market"), Ok(Bot::Greedy(_))));
    assert!(matches!(Bot::named("mcts400"), Ok(Bot::Search(_))));
    assert!(matches!(Bot::named("expert"), Ok(Bot::Search(_))));
    let e = Bot::named("mcts").err().unwrap().to_string();
    assert!(e.starts_with("unknown bot \"mcts\""), "{e}");
}
