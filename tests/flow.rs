//! The game's flow on hand-built states and random games (docs/rules.md §2).

mod common;

use _core::game::Game;
use _core::kinds;
use _core::state;

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
    for seed in 0..16u64 {
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

/// A side combination from a number: base 4, market first.
fn sides_of(k: usize) -> String {
    (0..5).map(|i| ["A", "B", "C", "D"][(k >> (2 * i)) & 3]).collect::<Vec<_>>().join("-")
}

#[test]
fn a_game_replayed_from_its_choices_and_a_copy_play_the_same() {
    // The game is a function of its seed, setup and choices: a new game fed the same
    // choices, and a copy taken mid-game fed the rest, end with the same events.
    for k in 0..24usize {
        let sides = sides_of(k * 21 % 1024);
        let players = 2 + k % 3;
        let seed = format!("replay/{k}");
        let mut g = common::game(&sides, players, &seed, k % 2 == 1);
        let mut x = k as u64 + 1;
        let mut choices = Vec::new();
        let mut copy: Option<Game> = None;
        while !g.over {
            if g.decisions == 40 && copy.is_none() {
                copy = Some(g.clone());
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let i = (x >> 33) as usize % g.options().len();
            choices.push(i);
            g.apply_index(i).unwrap();
        }
        let mut again = common::game(&sides, players, &seed, k % 2 == 1);
        for &i in &choices {
            again.apply_index(i).unwrap();
        }
        assert!(again.over);
        assert_eq!(again.events, g.events, "{sides} {players}p {seed}: replayed");
        if let Some(mut c) = copy {
            for &i in &choices[40..] {
                c.apply_index(i).unwrap();
            }
            assert_eq!(c.events, g.events, "{sides} {players}p {seed}: the copy");
            assert_eq!(c.totals, g.totals);
        }
    }
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let mut g = common::game("A-A-A-A-A", 3, "9", false);
    let before = (g.decisions, g.sled, g.slots, g.to_move);
    let err = g.apply(_core::action::Action::sail(0, 2)).unwrap_err();
    assert_eq!(
        err.to_string().split(';').next().unwrap(),
        "sail 0 temple is not legal for seat 0 at a turn decision"
    );
    assert_eq!((g.decisions, g.sled, g.slots, g.to_move), before);
}

#[test]
fn a_round_that_cannot_end_is_stopped_naming_what_changed() {
    // docs/rules.md §2.2: a round ends when the four ships sailed or every player passed in
    // turn. With "get new stones" taking none, a player may take it forever.
    let mut board = common::board_json("A-A-A-A-A");
    board["game"]["get_stones"] = 0.into();
    board["overridden"] = serde_json::json!(["game"]);
    let rules = std::sync::Arc::new(_core::rules::Rules::from_value(&board).unwrap());
    let setup = _core::game::Setup { players: 3, seed: "0".into(), ..Default::default() };
    let mut g = Game::new(rules, &setup).unwrap();
    let err = loop {
        // always "get" when offered: it changes nothing
        if let Err(e) = g.apply_index(0) {
            break e;
        }
    };
    assert_eq!(
        err.to_string(),
        "round 1 did not end after 100,000 decisions: the board data lets a round go on forever (overridden: game)"
    );
}

#[test]
fn a_given_deck_and_round_cards_are_played_in_their_order() {
    // A transcript's setup: the deck top first, the round cards in play order (checked
    // against the game's cards: engine/setup_checks.py).
    let rules = common::rules("A-A-A-A-A");
    let mut deck = rules.cards.deck(false);
    deck.reverse();
    let cards = rules.round_cards(2).to_vec();
    let setup = _core::game::Setup {
        players: 2,
        seed: "0".into(),
        deck: Some(deck.clone()),
        round_cards: Some(cards[1..7].to_vec()),
        ..Default::default()
    };
    let g = Game::new(rules.clone(), &setup).unwrap();
    assert_eq!(g.deck_initial, deck);
    assert_eq!(g.ship_sizes, cards[1]);
    // Market A laid out the top 4 cards: the rest is the draw pile, its top at the end
    assert_eq!(g.deck.len(), deck.len() - 4);
    assert_eq!(*g.deck.last().unwrap(), deck[4]);
    // a round card dealt twice is refused
    let twice = _core::game::Setup { round_cards: Some(vec![cards[0]; 6]), ..setup.clone() };
    let err = Game::new(rules.clone(), &twice).unwrap_err().to_string();
    assert!(err.starts_with("round_cards[1]: [4, 3, 2, 2] is dealt twice"), "{err}");
    // a deck short of the game's cards is refused, unless a scenario
    let short = _core::game::Setup { deck: Some(deck[..10].to_vec()), ..setup.clone() };
    let err = Game::new(rules.clone(), &short).unwrap_err().to_string();
    assert!(err.starts_with("deck: expected exactly the game's 34 cards, got 10"), "{err}");
    let scenario = _core::game::Setup { scenario: true, ..short };
    assert!(Game::new(rules, &scenario).is_ok());
}

#[test]
fn a_turns_options_drawn_from_the_state_are_the_built_ones() {
    // Game::option_count / option_at (a playout's draw) give the turn's
    // options list, in its order, at every decision of random games on every kind of side.
    for k in 0..24usize {
        let sides = sides_of(k * 43 % 1024);
        let mut g = common::game(&sides, 2 + k % 3, &format!("lazy/{k}"), k % 2 == 0);
        let mut x = k as u64 + 7;
        while !g.over {
            let mut lazy = g.clone();
            lazy.lazy_turns = true;
            let opts = g.options().to_vec();
            assert_eq!(lazy.option_count(), opts.len(), "{sides} decision {}", g.decisions);
            for (i, a) in opts.iter().enumerate() {
                assert_eq!(lazy.option_at(i), *a, "{sides} decision {} option {i}", g.decisions);
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            g.apply_index((x >> 33) as usize % opts.len()).unwrap();
        }
    }
}

#[test]
fn every_turn_option_drawn_by_index_plays_as_the_built_one() {
    // A turn drawn by index is played from the index (turn.rs), not from a built action:
    // each option of each decision, taken either way, leaves the same state.
    for k in 0..12usize {
        let sides = sides_of(k * 181 % 1024);
        let mut g = common::game(&sides, 2 + k % 3, &format!("drawn/{k}"), k % 2 == 1);
        let mut x = k as u64 + 11;
        while !g.over {
            let n = g.options().len();
            for i in 0..n {
                let mut built = g.clone();
                built.apply_index(i).unwrap();
                let mut lazy = g.clone();
                lazy.lazy_turns = true;
                lazy.apply_drawn((i as f64 + 0.5) / n as f64).unwrap();
                lazy.lazy_turns = false;
                if lazy.kind == kinds::TURN {
                    state::refresh_turn(&mut lazy).unwrap(); // the built turn's options, to compare
                }
                assert_eq!(state::export(&lazy), state::export(&built), "{sides} decision {} option {i}", g.decisions);
                assert_eq!((lazy.decisions, &lazy.events), (built.decisions, &built.events));
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            g.apply_index((x >> 33) as usize % n).unwrap();
        }
    }
}

#[test]
fn random_bots_play_the_same_game_with_the_turns_drawn_or_built() {
    // play.rs draws a turn's option from the state; the same game with every option list
    // built and the random bot's pick (bots/random.rs uniform) ends with the same events.
    for k in 0..12u64 {
        let sides = sides_of((k as usize * 97) % 1024);
        let players = 2 + k as usize % 3;
        let rules = common::rules(&sides);
        let drawn = _core::play::play_random(&rules, players, "3", k, None, k % 2 == 1).unwrap();
        let setup = _core::game::Setup {
            players,
            seed: _core::play::chance_seed("3", k),
            prophecies: k % 2 == 1,
            ..Default::default()
        };
        let mut g = Game::new(rules, &setup).unwrap();
        let mut rngs: Vec<_> = (0..players).map(|p| _core::play::bot_rng("3", k, p)).collect();
        while !g.over {
            let i = _core::play::uniform(&mut rngs[g.to_move as usize], g.options().len());
            g.apply_index(i).unwrap();
        }
        assert_eq!(drawn.events, g.events, "{sides} {players}p game {k}");
        assert_eq!(drawn.decisions, g.decisions);
    }
}
