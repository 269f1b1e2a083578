//! A timed batch (`Record::cpu`, `ladder play --timed`): the same games as the untimed one,
//! and each seat's CPU seconds in its bot, more for a bot that thinks longer.

mod common;

use _core::batch::{play_batch, Columns, Record};
use _core::bots::play::Spec;

#[test]
fn a_timed_batch_plays_the_same_games_and_times_each_seat() {
    let rules = common::rules("D-A-C-A-A");
    let lineup = [Spec::named("mcts30").unwrap(), Spec::Random, Spec::named("greedy").unwrap()];
    let plain = play_batch(&rules, 3, "5", (0, 4), &lineup, None, true, Record::default()).unwrap();
    let record = Record { actions: true, cpu: true };
    let timed = play_batch(&rules, 3, "5", (0, 4), &lineup, None, true, record).unwrap();
    assert!(plain.cpu.is_empty());
    assert_eq!(timed.cpu.len(), timed.game.len());
    assert!(timed.cpu.iter().all(|&s| s > 0.0), "every seat spent CPU: {:?}", timed.cpu);
    let untimed = Columns { cpu: Vec::new(), actions: Vec::new(), ..timed.clone() };
    assert_eq!(untimed, Columns { actions: Vec::new(), ..plain });
    // the search spends more than random and greedy in every game (the lineup rotates:
    // game g's seat s plays lineup[(s + g) % 3])
    for game in 0..4 {
        let row = |bot: usize| game * 3 + (bot + 3 - game % 3) % 3;
        let (mcts, random, greedy) = (timed.cpu[row(0)], timed.cpu[row(1)], timed.cpu[row(2)]);
        assert!(mcts > greedy && mcts > random, "game {game}: mcts {mcts}, random {random}, greedy {greedy}");
    }
}

#[test]
fn random_bots_timed_play_the_games_of_the_blind_batch() {
    // untimed random bots play src/play.rs's random game (turns drawn, never built)
    let rules = common::rules("B-D-A-C-B");
    let blind = play_batch(&rules, 4, "9", (3, 9), &[Spec::Random], Some(true), true, Record::default()).unwrap();
    let timed = play_batch(&rules, 4, "9", (3, 9), &[Spec::Random], Some(true), true, Record { actions: false, cpu: true })
        .unwrap();
    assert_eq!(Columns { cpu: Vec::new(), ..timed.clone() }, blind);
    assert!(timed.cpu.iter().all(|&s| s > 0.0));
}
