//! The Pyramid's sides on hand-built states (docs/rules.md §5), as tests/test_pyramid_sides.py:
//! each side's points worked out by hand from the rulebook's numbers.

mod sites_common;

use _core::rules::{PYRAMID, SRC_PYRAMID};
use _core::sites::pyramid::Pyramid;
use sites_common::*;

const MARKET_A: [&str; 4] = ["statue"; 4]; // Market A's round-1 display takes the top 4 cards
const SIZES: [u8; 4] = [4, 3, 2, 1];

fn deck(top: &[&'static str]) -> Vec<&'static str> {
    MARKET_A.iter().chain(top).chain(FILLER.iter()).copied().collect()
}

fn to_pyramid(g: &mut _core::game::Game, owner: usize, which: &str) {
    unload(g, PYRAMID, owner);
    if kind(g) == "pyramid_choice" {
        assert_eq!(g.to_move, owner as i32);
        answer(g, &format!("pyramid {which}"));
    }
}

#[test]
fn pyramid_a_scores_by_fill_order_then_overflow() {
    // §5.1 "Points in fill order: 2 1 3 2 4 3 2 1 3 2 3 1 3 4"; §5 "Once a side is full,
    // every further stone scores 1 point (overflow)". Seat 0's stones 1, 3, 15: 2 + 3 + 1 = 6;
    // seat 1 the other 12: 1 + 2 + 4 + 3 + 2 + 1 + 3 + 2 + 3 + 1 + 3 + 4 = 29.
    let mut g = game("A-A-A-A-A", 2, None, None);
    for i in 0..15 {
        unload(&mut g, PYRAMID, if [0, 2, 14].contains(&i) { 0 } else { 1 });
    }
    assert_eq!((points(&g, 0, SRC_PYRAMID), points(&g, 1, SRC_PYRAMID)), (6, 29));
    assert_eq!((g.sites.pyramid.stones(), g.sites.pyramid.stones_of(0)), (15, 3));
}

#[test]
fn pyramid_b_left_with_its_card_then_only_the_open_pyramids() {
    // §5.2 left pyramid "2, 1 + card, 3, 2, 4": 12 points and the top market card.
    let mut g = game("A-B-A-A-A", 3, Some(&deck(&["lever"])), None);
    unload(&mut g, PYRAMID, 0);
    assert_eq!((kind(&g), g.to_move), ("pyramid_choice", 0));
    assert_eq!(names(&g), ["pyramid left", "pyramid middle", "pyramid right"]);
    answer(&mut g, "pyramid left");
    for _ in 0..4 {
        to_pyramid(&mut g, 0, "left");
    }
    assert_eq!(points(&g, 0, SRC_PYRAMID), 12);
    assert_eq!(held(&g, 0, "lever"), 1);
    unload(&mut g, PYRAMID, 1);
    assert_eq!(names(&g), ["pyramid middle", "pyramid right"]);
    answer(&mut g, "pyramid right"); // right's first space: 3
    assert_eq!(points(&g, 1, SRC_PYRAMID), 3);
}

#[test]
fn pyramid_b_ship_bonus_asks_for_the_slot() {
    // §5.2 middle "1 + stones3, 3, 2, 2 + ship, 5": the 4th space, 2 points and a quarry stone
    // onto an empty slot of the owner's choice.
    let mut g = game("A-B-A-A-A", 3, None, Some(vec![SIZES; 6]));
    for owner in [2, 2, 2] {
        to_pyramid(&mut g, owner, "middle");
    }
    let q = g.quarry[0];
    to_pyramid(&mut g, 0, "middle");
    assert_eq!((kind(&g), g.to_move), ("pyramid_ship_slot", 0));
    let expected: Vec<String> =
        (0..4).flat_map(|s| (0..SIZES[s]).map(move |k| format!("ship {s} {k}"))).collect();
    assert_eq!(names(&g), expected);
    answer(&mut g, "ship 2 1");
    assert_eq!(points(&g, 0, SRC_PYRAMID), 2);
    assert_eq!((g.slots[4 * 2 + 1], g.ship_load[2], g.quarry[0]), (0, 1, q - 1));
}

#[test]
fn pyramid_b_forced_choice_then_overflow() {
    // §5.2 right "3, 2, 1 + card, 3, 3 + stones3" = 12 with no question once it is the only
    // open pyramid; all full: 1 point a stone.
    let mut g = game("A-B-A-A-A", 3, Some(&deck(&["lever", "hammer"])), None);
    let Pyramid::B(p) = &mut g.sites.pyramid else { panic!() };
    p.laid = [5, 5, 0, 0];
    p.open.retain(|i| *i == 2);
    g.sled[2] = 0;
    for _ in 0..5 {
        unload(&mut g, PYRAMID, 2);
        assert_eq!(kind(&g), "turn");
    }
    assert_eq!(points(&g, 2, SRC_PYRAMID), 12);
    assert_eq!((held(&g, 2, "lever"), g.sled[2]), (1, 3));
    unload(&mut g, PYRAMID, 0);
    unload(&mut g, PYRAMID, 0);
    assert_eq!(points(&g, 0, SRC_PYRAMID), 2);
}

#[test]
fn pyramid_c_rewards_majority_tie_and_overflow() {
    // §5.3 tiles "1: p1, s2, p2, card; 2: p2, p1, card, p3; 3: s3, p2, p2, p1": "the player
    // with the most stones on it scores 3 (several tied for most: 1 each)".
    let mut g = game("A-C-A-A-A", 3, Some(&deck(&["lever", "hammer"])), None);
    let Pyramid::C(p) = &mut g.sites.pyramid else { panic!() };
    p.tile = 0;
    p.hidden_stack = [2u8, 1].into_iter().collect(); // tile 2 next, then tile 3
    p.tiles_left = 2;
    g.sled = [0; 4];
    // tile 1, seats 0, 1, 0, 2: seat 0 1 + 2 + majority 3 = 6; seat 1 2 stones; seat 2 the lever
    for p in [0, 1, 0, 2] {
        unload(&mut g, PYRAMID, p);
    }
    assert_eq!([0, 1, 2].map(|p| points(&g, p, SRC_PYRAMID)), [6, 0, 0]);
    assert_eq!((g.sled[1], held(&g, 2, "lever")), (2, 1));
    // tile 2, seats 1, 2, 2, 1: a tie, 1 each; seat 1 2 + 3 + 1 = 6, seat 2 1 + 1 = 2
    for p in [1, 2, 2, 1] {
        unload(&mut g, PYRAMID, p);
    }
    assert_eq!([0, 1, 2].map(|p| points(&g, p, SRC_PYRAMID)), [6, 6, 2]);
    // tile 3, seats 0, 0, 0, 1: seat 0 3 stones, 2 + 2 + majority 3; seat 1 1
    for p in [0, 0, 0, 1] {
        unload(&mut g, PYRAMID, p);
    }
    assert_eq!([0, 1, 2].map(|p| points(&g, p, SRC_PYRAMID)), [13, 7, 2]);
    let Pyramid::C(p) = &g.sites.pyramid else { panic!() };
    assert_eq!((p.tile, p.done_tile.len()), (-1, 3));
    // after the last tile: overflow
    unload(&mut g, PYRAMID, 2);
    assert_eq!(points(&g, 2, SRC_PYRAMID), 3);
    assert_eq!([0, 1, 2].map(|p| g.sites.pyramid.stones_of(p)), [5, 4, 4]);
}

#[test]
fn pyramid_c_setup_deals_four_of_five_tiles_from_its_own_stream() {
    for seed in 0..10 {
        let g = sites_common::rules("A-C-A-A-A");
        let setup = _core::game::Setup { players: 3, seed: seed.to_string(), ..Default::default() };
        let g = _core::game::Game::new(g, &setup).unwrap();
        let Pyramid::C(p) = &g.sites.pyramid else { panic!() };
        let mut all: Vec<u8> = p.hidden_stack.iter().chain(&p.hidden_removed).copied().collect();
        all.push(p.tile as u8);
        all.sort();
        assert_eq!(all, [0, 1, 2, 3, 4]);
        assert_eq!((p.tiles_left, p.hidden_removed.len()), (3, 1));
    }
}

#[test]
fn pyramid_d_corridor_after_the_figure_and_get_move() {
    // §5.4 "1 3 1 2 4 1 2 3 1 5 2 1 3 2 4 1 ... A stone takes the next free space clockwise
    // after the figure"; "A player taking Get new stones may also move the figure".
    let mut g = game("A-D-A-A-A", 3, None, None);
    assert_eq!(names(&g)[..2], ["get", "get move"]);
    answer(&mut g, "get move"); // the figure to space 1
    unload(&mut g, PYRAMID, 2); // space 2: 1 point
    answer(&mut g, "get move"); // seat 1: space 2 is taken, so space 3
    unload(&mut g, PYRAMID, 0); // space 4: 4 points
    assert_eq!((points(&g, 2, SRC_PYRAMID), points(&g, 0, SRC_PYRAMID)), (1, 4));
    let Pyramid::D(p) = &g.sites.pyramid else { panic!() };
    assert_eq!(p.figure, 3);
}

#[test]
fn pyramid_d_fills_the_figures_space_last_then_overflow() {
    // Ruling §5.4: "when every other space is taken, the next stone goes on the figure's own
    // space": spaces 5 (1 point) and 14 (4 points) left, the figure on 14.
    let mut g = game("A-D-A-A-A", 3, None, None);
    let Pyramid::D(p) = &mut g.sites.pyramid else { panic!() };
    p.spaces = [1; 32];
    p.spaces[5] = -1;
    p.spaces[14] = -1;
    p.filled = 14;
    p.counted.count[1] = 14;
    p.figure = 14;
    unload(&mut g, PYRAMID, 0);
    assert_eq!(points(&g, 0, SRC_PYRAMID), 1);
    assert!(!g.get_with_move, "only the figure's own space is free: it cannot move");
    unload(&mut g, PYRAMID, 2);
    unload(&mut g, PYRAMID, 2);
    assert_eq!(points(&g, 2, SRC_PYRAMID), 4 + 1);
    assert_eq!(g.sites.pyramid.stones(), 17);
}

#[test]
fn pyramid_c_deals_its_face_down_tiles_anew() {
    // pyramid::redeal_hidden: the stack and the removed tiles pooled, shuffled and
    // dealt back in their sizes; the face-up tile stays.
    let r = sites_common::rules("A-C-A-A-A");
    let setup = _core::game::Setup { players: 3, seed: "4".into(), ..Default::default() };
    let mut g = _core::game::Game::new(r, &setup).unwrap();
    let before: Vec<Vec<u8>> = _core::sites::pyramid::hidden_tiles(&g).iter().map(|s| s.to_vec()).collect();
    // python: g = Game(3, "A-C-A-A-A", seed=4); g.sites[1].hidden() -> stack [2, 1, 0],
    // removed [4]; after redeal_hidden(random.Random("redeal/0"), 0): stack [1, 2, 0]
    assert_eq!(before, [vec![2, 1, 0], vec![4]]);
    let tile = if let Pyramid::C(p) = &g.sites.pyramid { p.tile } else { panic!() };
    let mut seen = std::collections::HashSet::new();
    for i in 0..20 {
        let mut rng = _core::stream::Stream::from_text(&format!("redeal/{i}"));
        _core::sites::pyramid::redeal_hidden(&mut g, &mut rng);
        let after: Vec<Vec<u8>> = _core::sites::pyramid::hidden_tiles(&g).iter().map(|s| s.to_vec()).collect();
        assert_eq!(after.iter().map(|s| s.len()).collect::<Vec<_>>(), [3, 1]);
        let mut all: Vec<u8> = after.concat();
        all.sort();
        let mut was: Vec<u8> = before.concat();
        was.sort();
        assert_eq!(all, was);
        let Pyramid::C(p) = &g.sites.pyramid else { panic!() };
        assert_eq!(p.tile, tile);
        if i == 0 {
            assert_eq!(after, [vec![1, 2, 0], vec![4]]);
        }
        seen.insert(after);
    }
    assert!(seen.len() > 5, "the deals vary: {seen:?}");
}
