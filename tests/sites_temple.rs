//! The Temple's sides on hand-built states (docs/rules.md §6), as tests/test_temple_sides.py:
//! each side's points worked out by hand from the rulebook's numbers.

mod sites_common;

use _core::game::Game;
use _core::rules::{SRC_TEMPLE, TEMPLE};
use _core::sites::temple::Temple;
use sites_common::*;

fn temple_points(g: &Game) -> Vec<i32> {
    (0..g.n).map(|p| points(g, p, SRC_TEMPLE)).collect()
}

/// The layered temple holding `owners` in delivery order (quarries debited).
fn layered(g: &mut Game, owners: &[usize]) {
    for &o in owners {
        g.quarry[o] -= 1;
        unload(g, TEMPLE, o);
    }
}

/// Put `top` on the draw pile, its first card on top.
fn on_top(g: &mut Game, top: &[&str]) {
    for name in top.iter().rev() {
        let c = card(&g.rules, name);
        g.deck.push(c);
    }
}

#[test]
fn temple_a_scores_each_visible_stone() {
    // §6.1 "each visible stone scores 1 point for its owner"; §6 "The width is ... 5 with 3
    // or 4": 7 stones, columns 0 and 1 covered by seat 2's -> seat 2: 3, seat 0: 1, seat 1: 1.
    let mut g = game("A-A-A-A-A", 3, None, None);
    layered(&mut g, &[0, 1, 2, 0, 1, 2, 2]);
    round_end(&mut g, TEMPLE);
    assert_eq!(temple_points(&g), [1, 1, 3]);
    assert_eq!(g.sites.temple.stones_of(2), 3);
}

#[test]
fn temple_b_rewards_by_column() {
    // §6.2 "columns 1 to 5 p1, s2, p2, card, p1": visible seat 2, 2, 2, 0, 1 -> seat 2: p1 +
    // 1 stone (the sled holds 4 of 5) + p2 = 3 points; seat 0 the statue; seat 1 p1.
    let mut g = game("A-A-B-A-A", 3, None, None);
    layered(&mut g, &[0, 1, 2, 0, 1, 2, 2]);
    on_top(&mut g, &["statue"]);
    g.sled[2] = 4;
    let q2 = g.quarry[2];
    let statues = held(&g, 0, "statue");
    round_end(&mut g, TEMPLE);
    assert_eq!(temple_points(&g), [0, 1, 3]);
    assert_eq!((g.sled[2], g.quarry[2]), (5, q2 - 1));
    assert_eq!(held(&g, 0, "statue"), statues + 1);
    assert_eq!(kind(&g), "turn");
}

#[test]
fn temple_c_choices_and_draw3_left_to_right() {
    // §6.3 "p2|s4, draw3, p2|s4, draw3, p2|s4", "instead of Temple A's point", columns
    // settled left to right: visible seats 0, 1, 2, 0, 1.
    let mut g = game("A-A-C-A-A", 3, None, None);
    layered(&mut g, &[0, 1, 2, 0, 1]);
    on_top(&mut g, &["lever", "statue", "chisel", "statue", "statue", "statue"]);
    g.sled[2] = 2;
    let q2 = g.quarry[2];
    round_end(&mut g, TEMPLE);
    assert_eq!((kind(&g), g.to_move), ("temple_bonus", 0));
    assert_eq!(names(&g), ["points 2", "stones 4"]);
    answer(&mut g, "points 2");
    assert_eq!((kind(&g), g.to_move), ("temple_keep", 1));
    assert_eq!(names(&g), ["keep lever", "keep statue", "keep chisel"]);
    let discarded = g.discard.len();
    answer(&mut g, "keep statue");
    assert_eq!(discard(&g)[discarded..], ["lever", "chisel"]);
    assert_eq!((kind(&g), g.to_move), ("temple_bonus", 2));
    answer(&mut g, "stones 4"); // 2 + 3 = the sled's 5
    assert_eq!((g.sled[2], g.quarry[2]), (5, q2 - 3));
    // column 3: three statues, no choice; column 4: seat 1 chooses
    assert_eq!((kind(&g), g.to_move), ("temple_bonus", 1));
    answer(&mut g, "points 2");
    assert_eq!(kind(&g), "turn");
    assert_eq!(temple_points(&g), [2, 2, 0]);
}

#[test]
fn temple_c_draw3_with_a_short_pile_keeps_the_one_card() {
    let mut g = game("A-A-C-A-A", 3, None, None);
    layered(&mut g, &[2, 0]); // column 1 (draw3) is seat 0's
    g.deck.clear();
    g.discard.clear();
    on_top(&mut g, &["statue"]);
    let statues = held(&g, 0, "statue");
    round_end(&mut g, TEMPLE);
    answer(&mut g, "stones 4");
    assert_eq!(held(&g, 0, "statue"), statues + 1);
    assert_eq!(temple_points(&g), [0, 0, 0]);
    assert_eq!(kind(&g), "turn");
}

fn arena(g: &mut Game) -> &mut _core::sites::temple::Arena {
    let Temple::D(a) = &mut g.sites.temple else { panic!() };
    a
}

#[test]
fn arena_chariots_skip_occupied_spaces_and_the_round_pays_two_places() {
    // §6.4 arrowheads "1 2 1 3 ...": seat 0 on 1, seat 1 on 2, seat 2's 1 lands on seat 0's
    // space, then seat 1's: on to 3; seat 0's 3 -> 4. Round end: "the leading chariot scores
    // 2, the second 1".
    let mut g = game("A-A-D-A-A", 3, None, None);
    for o in [0, 1, 2, 0] {
        unload(&mut g, TEMPLE, o);
    }
    assert_eq!(arena(&mut g).chariots[..3], [4, 2, 3]);
    round_end(&mut g, TEMPLE);
    assert_eq!(temple_points(&g), [2, 0, 1]);
}

#[test]
fn arena_overflow_finish_and_finish_point() {
    // §6.4 "Once every stone space is taken, each further stone moves its owner's chariot 1
    // space ... A stone delivered by a player already on the finish scores 1 point".
    let mut g = game("A-A-D-A-A", 3, None, None);
    let a = arena(&mut g);
    a.filled = 12;
    a.chariots[..3].copy_from_slice(&[10, 11, 0]);
    unload(&mut g, TEMPLE, 0); // 11 is seat 1's: on to the finish (12)
    unload(&mut g, TEMPLE, 1); // 12: the finish holds any number
    unload(&mut g, TEMPLE, 0); // already on the finish: 1 point
    assert_eq!(arena(&mut g).chariots[..3], [12, 12, 0]);
    assert_eq!(temple_points(&g), [1, 0, 0]);
}

#[test]
fn arena_round_end_places_and_game_end_track() {
    // §6.4 "Several chariots on the finish all lead, 2 points each, and no second place is
    // paid; chariots still on the start never place"; "(0 with two players)"; game end "each
    // chariot scores its space's value 0 0 1 1 2 3 4 5 6 7 8 9 10".
    let cases: [(usize, &[i32], &[i32]); 7] = [
        (3, &[12, 12, 5], &[2, 2, 0]),
        (4, &[12, 12, 12, 3], &[2, 2, 2, 0]),
        (3, &[12, 7, 0], &[2, 1, 0]),
        (3, &[3, 0, 0], &[2, 0, 0]),
        (4, &[2, 9, 4, 0], &[0, 2, 1, 0]),
        (2, &[5, 3], &[2, 0]),
        (2, &[12, 12], &[2, 2]),
    ];
    for (players, chariots, expected) in cases {
        let mut g = game("A-A-D-A-A", players, None, None);
        arena(&mut g).chariots[..players].copy_from_slice(chariots);
        round_end(&mut g, TEMPLE);
        assert_eq!(temple_points(&g), expected, "{players} players, chariots {chariots:?}");
    }
    let mut g = game("A-A-D-A-A", 3, None, None);
    arena(&mut g).chariots[..3].copy_from_slice(&[12, 4, 0]);
    let r = g.rules.clone();
    _core::sites::game_end(&mut g, &r, TEMPLE).unwrap();
    assert_eq!(temple_points(&g), [10, 2, 0]);
}
