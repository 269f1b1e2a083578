//! The game's flow on hand-built states and random games (docs/rules.md §2).

mod common;

use _core::game::Game;
use _core::kinds;

/// Every stone of a seat: sled, quarry, ships, the sites.
fn stones_of(g: &Game, p: usize) -> i32 {
    let on_sites: i32 = (0..5).map(|s| _core::sites::stones_of(g, s, p)).sum();
    g.sled[p] + g.quarry[p] + g.ship_stones_of(p) + on_sites
}

/// Play option `pick(decision)` at every decision to the end; returns the decisions.
fn play(g: &mut Game, mut pick: impl FnMut(usize) -> usize) -> u32 {
    while !g.over {
        let n = g.options().len();
        assert!(n > 0, "a decision without options");
        g.apply_index(pick(n) % n).expect("a legal option");
    }
    g.decisions
}

#[test]
fn random_games_end_and_conserve_stones() {
    for seed in 0..40u64 {
        for players in 2..=4 {
            let mut g = common::game("A-A-A-A-A", players, &seed.to_string(), seed % 2 == 0);
            let total = g.stones_total;
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            play(&mut g, |n| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) as usize % n
            });
            assert_eq!(g.round, g.rounds + 1);
            for p in 0..players {
                assert_eq!(stones_of(&g, p), total, "seed {seed}, {players} players, seat {p}");
            }
            let from_events: i32 = g.events.iter().map(|e| e.points).sum();
            assert_eq!(from_events, g.totals[..players].iter().sum::<i32>());
        }
    }
}

#[test]
fn the_first_turn_offers_get_place_sail_in_that_order() {
    // docs/rules.md §2.2: a turn is one of get new stones, place a stone, sail a ship
    // (or play a blue card); seat 0 starts with 2 stones on a sled of 5, so it may get.
    let g = common::game("A-A-A-A-A", 2, "0", false);
    let names = &g.rules.names;
    let texts: Vec<String> = g.options().iter().map(|a| a.text(names)).collect();
    assert_eq!(g.kind, kinds::TURN);
    assert_eq!(g.to_move, 0);
    assert_eq!(texts[0], "get");
    assert!(texts[1..].iter().all(|t| t.starts_with("place ")), "{texts:?}");
    // no ship holds its minimum yet: no sail
    assert_eq!(texts.len(), 1 + g.ship_free as usize);
}

#[test]
fn a_full_cycle_of_passes_ends_the_round() {
    // docs/rules.md §2.2: when every player in turn can do nothing, the round ends; stones
    // left on ships that never sailed go back to their owners' quarries.
    let mut g = common::game("A-A-A-A-A", 2, "3", false);
    // empty sleds and quarries, no ship ready: nothing to do but pass
    g.sled = [0; 4];
    g.quarry = [0; 4];
    g.put_on_ship(1, 0, 0);
    g.current = 0;
    g.resume().unwrap();
    assert_eq!(g.options()[0].text(&g.rules.names), "pass");
    let round = g.round;
    g.apply_index(0).unwrap();
    g.apply_index(0).unwrap();
    assert_eq!(g.round, round + 1, "two passes in a row end the round");
    assert_eq!(g.quarry[1], 1, "the unsailed ship's stone is back in its owner's quarry");
}
