//! Every side of the Market, the Pyramid and the Temple in random games: each game ends,
//! conserves every seat's stones at every decision, its score events add up to the totals,
//! and each site counts its stones consistently (stones() is the sum of stones_of()).

mod common;

use _core::game::Game;
use _core::sites;

const SIDES: [&str; 4] = ["A", "B", "C", "D"];

fn stones_of(g: &Game, p: usize) -> i32 {
    let on_sites: i32 = (0..5).map(|s| sites::stones_of(g, s, p)).sum();
    g.sled[p] + g.quarry[p] + g.ship_stones_of(p) + on_sites
}

fn check(g: &Game, at: &str) {
    for p in 0..g.n {
        assert_eq!(stones_of(g, p), g.stones_total, "{at}: seat {p}'s stones not conserved");
        assert!(g.sled[p] >= 0 && g.quarry[p] >= 0, "{at}: seat {p}'s sled or quarry below 0");
    }
    for site in 0..3 {
        let sum: i32 = (0..g.n).map(|p| sites::stones_of(g, site, p)).sum();
        assert_eq!(sites::stones(g, site), sum, "{at}: site {site}'s stones");
    }
}

#[test]
fn every_market_pyramid_and_temple_side_plays_to_the_end() {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let mut games = 0;
    for m in SIDES {
        for py in SIDES {
            for t in SIDES {
                let sides = format!("{m}-{py}-{t}-A-A");
                for players in 2..=4 {
                    let seed = format!("sites/{games}");
                    let mut g = common::game(&sides, players, &seed, games % 2 == 0);
                    while !g.over {
                        let at = format!("{sides} {players}p seed {seed} decision {}", g.decisions);
                        check(&g, &at);
                        let n = g.options().len();
                        assert!(n > 0, "{at}: a decision without options");
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        g.apply_index((x % n as u64) as usize).unwrap_or_else(|e| panic!("{at}: {e}"));
                    }
                    check(&g, &sides);
                    let from_events: i32 = g.events.iter().map(|e| e.points).sum();
                    assert_eq!(from_events, g.totals[..players].iter().sum::<i32>(), "{sides}");
                    games += 1;
                }
            }
        }
    }
}
