//! A batch's `searched` column: the search iterations each seat's bot ran in its game
//! (what `imhotep-stats bench` turns into iterations per second), 0 for bots that do not
//! search.

mod common;

use _core::batch::{play_batch, Record};
use _core::bots::play::Spec;

#[test]
fn a_batch_counts_each_seats_search_iterations() {
    let rules = common::rules("A-A-A-A-A");
    let lineup = [Spec::named("mcts5").unwrap(), Spec::named("greedy").unwrap()];
    let c = play_batch(&rules, 2, "7", (0, 2), &lineup, None, false, Record::default()).unwrap();
    assert_eq!(c.searched.len(), c.game.len());
    for (row, &n) in c.searched.iter().enumerate() {
        // the lineup rotates: game g's seat s plays lineup[(s + g) % 2]
        let search_seat = (c.seat[row] as i64 + c.game[row]) % 2 == 0;
        if search_seat {
            // 5 iterations a decision with more than one option, none stopped early
            assert!(n > 0 && n % 5 == 0, "row {row}: {n}");
        } else {
            assert_eq!(n, 0, "row {row}: greedy does not search");
        }
    }
    let random = play_batch(&rules, 2, "7", (0, 1), &[Spec::Random], None, false, Record::default()).unwrap();
    assert_eq!(random.searched, [0, 0]);
}
