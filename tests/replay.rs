//! Play then replay (a core-only property, beside tests/flow.rs's conservation of stones and
//! score = sum of events): a game's transcript (the setup's deck, round cards, set-up picks
//! and reshuffles, then each decision's text) replayed on a game with ANOTHER seed gives the
//! same game, state for state, over every side of every site and 2-4 players.

mod common;

use _core::action::{Action, Arg};
use _core::game::{Game, Purpose, Setup};
use _core::state;

/// The set-up picks as the pins a transcript's setup line gives (tiles and tokens by number
/// from 1, the gods by name).
fn pins(g: &Game) -> [Option<Vec<Arg>>; 3] {
    let mut out: [Option<Vec<Arg>>; 3] = [None, None, None];
    for p in Purpose::ALL {
        if let Some(picks) = &g.chance_setup[p as usize] {
            out[p as usize] = Some(
                picks
                    .iter()
                    .map(|&i| match p {
                        Purpose::Prophecies => Arg::Name(g.rules.prophecies.gods[i]),
                        _ => Arg::Int(i as i32 + 1),
                    })
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn a_transcript_replayed_on_another_seed_is_the_same_game() {
    let letters = ["A", "B", "C", "D"];
    let mut games = 0;
    for (k, m) in letters.iter().enumerate() {
        for (j, p) in letters.iter().enumerate() {
            let sides = format!("{m}-{p}-{}-{}-{}", letters[(k + j) % 4], letters[(k + 2 * j + 1) % 4], letters[(3 * k + j) % 4]);
            let players = 2 + (k + j) % 3;
            let prophecies = (k + j) % 2 == 0;
            let mut g = common::game(&sides, players, &format!("{k}-{j}"), prophecies);
            let mut played = Vec::new();
            let mut x = (k * 4 + j) as u64 + 1;
            while !g.over {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let n = g.options().len();
                let a = g.options()[(x >> 33) as usize % n];
                played.push(a.text(&g.rules.names));
                g.apply(a).unwrap();
            }
            let setup = Setup {
                players,
                seed: "another seed".into(),
                prophecies,
                round_cards: Some(g.round_cards.to_vec()),
                deck: Some(g.deck_initial.clone()),
                pins: pins(&g),
                reshuffles: g.reshuffles.clone(),
                ..Setup::default()
            };
            let mut r = Game::new(g.rules.clone(), &setup).expect("the transcript's setup");
            for text in &played {
                let a = Action::parse(text, &r.rules.names).expect("a transcript action parses");
                r.apply(a).unwrap_or_else(|e| panic!("{sides}: {text}: {e}"));
            }
            assert!(r.over, "{sides}");
            let (mut a, mut b) = (state::export(&g), state::export(&r));
            for e in [&mut a, &mut b] {
                e["hidden"]["game"]["deck_initial"] = serde_json::Value::Null; // the same, by construction
            }
            assert_eq!(a, b, "{sides}, {players} players");
            assert_eq!(g.events, r.events);
            games += 1;
        }
    }
    assert_eq!(games, 16);
}
