//! The core's search (src/search): its determinizations show the searching seat nothing it
//! cannot see, it is deterministic from its stream, and it finds a winning move.

mod common;

use _core::game::Game;
use _core::search::bot::MctsBot;
use _core::search::determinize::Sampler;
use _core::search::tree::{search, Settings, NO_LIMIT};
use _core::sites::burial_chamber::BurialChamber;
use _core::sites::market;
use _core::sites::pyramid::{self, Pyramid};
use _core::stream::Stream;

const SETUPS: [(&str, usize, bool); 4] =
    [("D-D-D-D-D", 2, false), ("B-C-A-D-B", 3, true), ("C-C-C-C-C", 4, false), ("D-B-C-A-D", 2, true)];

fn settings(iterations: u32) -> Settings {
    Settings { iterations, exploration: 0.7, depth: NO_LIMIT, bias: 0.0, margin: 0.0, stop: false, greedy_rollout: false, value: false }
}

/// Positions of random games (decisions drawn from `Stream::from_text("pos{k}")`) after
/// each of `at` decisions, with at least two options.
fn positions(sides: &str, players: usize, prophecies: bool, games: usize, at: &[u32]) -> Vec<Game> {
    let mut out = Vec::new();
    for k in 0..games {
        let mut g = common::game(sides, players, &format!("{k}"), prophecies);
        let mut rng = Stream::from_text(&format!("pos{k}"));
        for &stop in at {
            while !g.over && (g.decisions < stop || g.options().len() < 2) {
                let i = (rng.random() * g.options().len() as f64) as usize;
                g.apply_index(i).unwrap();
            }
            if !g.over {
                out.push(g.clone());
            }
        }
    }
    out
}

/// The real game with its hidden state in another order (the deck, the round cards to
/// come, the face-down market cards, tiles and tokens): what every seat sees is the same.
fn rehide(g: &Game, seed: &str) -> Game {
    let mut o = g.clone();
    let mut mix = Stream::from_text(seed);
    _core::chance::shuffle(&mut mix, &mut o.deck);
    let r = o.round;
    _core::chance::shuffle(&mut mix, &mut o.round_cards[r..]);
    // the face-down market cards the seat to move has not looked at (Market D's stack it is
    // looking at is shown by the options)
    let me = o.to_move as usize;
    for place in market::hidden_cards_mut(&mut o, me) {
        _core::chance::shuffle(&mut mix, place);
    }
    if let Pyramid::C(p) = &mut o.sites.pyramid {
        _core::chance::shuffle(&mut mix, &mut p.hidden_stack);
    }
    if let BurialChamber::D(t) = &mut o.sites.burial_chamber {
        _core::chance::shuffle(&mut mix, &mut t.hidden_tokens);
    }
    o
}

#[test]
fn a_search_does_not_depend_on_the_hidden_state() {
    let mut checked = 0;
    for (sides, players, prophecies) in SETUPS {
        for (k, g) in positions(sides, players, prophecies, 3, &[0, 25, 60]).into_iter().enumerate() {
            let other = rehide(&g, &format!("mix{k}"));
            let choose = |g: &Game| {
                let tree = search(g, g.to_move as usize, &mut Stream::from_text(&format!("s{k}")), &settings(24), None).unwrap();
                tree.root_children().collect::<Vec<_>>()
            };
            assert_eq!(choose(&g), choose(&other), "{sides} position {k}");
            if other.deck != g.deck {
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} positions with a reordered deck");
}

/// What the seat sees of a game: everything but the hidden places, which are emptied.
fn public(g: &Game, me: usize) -> String {
    let mut o = g.clone();
    o.deck.clear();
    o.round_cards.truncate(o.round);
    o.rng_reshuffle = None;
    o.events.clear();
    o.keep_events = false;
    o.deck_initial.clear();
    o.reshuffles.clear();
    o.pinned_reshuffles = Default::default();
    for place in market::hidden_cards_mut(&mut o, me) {
        place.fill(0);
    }
    if let Pyramid::C(p) = &mut o.sites.pyramid {
        p.hidden_stack.fill(0);
        p.hidden_removed.fill(0);
    }
    if let BurialChamber::D(t) = &mut o.sites.burial_chamber {
        t.hidden_tokens.fill(0);
    }
    format!("{:?}", (&o.sled, &o.hand, &o.slots, &o.totals, &o.discard, &o.round_cards, &o.options, &o.sites))
}

/// The hidden items, each group sorted: a sample must hold the same ones.
fn hidden(g: &Game, me: usize) -> Vec<Vec<u8>> {
    let mut cards: Vec<u8> = g.deck.to_vec();
    for place in market::hidden_cards(g, me) {
        cards.extend_from_slice(place);
    }
    let mut tiles: Vec<u8> = pyramid::hidden_tiles(g).iter().flat_map(|p| p.iter().copied()).collect();
    let mut tokens: Vec<u8> = match &g.sites.burial_chamber {
        BurialChamber::D(t) => t.hidden_tokens.to_vec(),
        _ => Vec::new(),
    };
    let mut future: Vec<u8> = g.round_cards[g.round..].iter().flatten().copied().collect();
    for v in [&mut cards, &mut tiles, &mut tokens, &mut future] {
        v.sort();
    }
    vec![cards, tiles, tokens, future]
}

#[test]
fn a_determinization_changes_only_what_the_seat_cannot_see() {
    let mut moved = 0;
    for (sides, players, prophecies) in SETUPS {
        for g in positions(sides, players, prophecies, 3, &[0, 30, 70]) {
            let me = g.to_move as usize;
            let sampler = Sampler::new(&g, me);
            for s in 0..4 {
                let d = sampler.sample(Box::new(Stream::from_text(&format!("d{s}"))));
                assert_eq!(public(&d, me), public(&g, me), "{sides}: a sample shows the seat another table");
                let theirs = hidden(&g, me);
                let mine = hidden(&d, me);
                assert_eq!(mine[0], theirs[0], "{sides}: the face-down cards");
                assert_eq!(mine[1], theirs[1], "{sides}: the face-down tiles");
                assert_eq!(mine[2], theirs[2], "{sides}: the face-down tokens");
                assert_eq!(mine[3].len(), theirs[3].len(), "{sides}: as many round cards to come");
                if d.deck != g.deck {
                    moved += 1;
                }
            }
        }
    }
    assert!(moved > 20);
}

#[test]
fn the_same_stream_gives_the_same_choice_and_leaves_the_stream_alike() {
    for (sides, players, prophecies) in SETUPS {
        for g in positions(sides, players, prophecies, 1, &[20]) {
            let bot = MctsBot::from_name("mcts40-t10").unwrap().unwrap();
            let (mut a, mut b) = (Stream::from_text("same"), Stream::from_text("same"));
            let before = format!("{:?}", (&g.deck, &g.sites, &g.options, g.decisions));
            let x = bot.choose(&g, &mut a, None).unwrap();
            let y = bot.choose(&g, &mut b, None).unwrap();
            assert_eq!(x, y);
            assert_eq!(a.random(), b.random(), "the streams go on alike");
            assert_ne!(a.random(), Stream::from_text("same").random(), "the search drew from its stream");
            assert_eq!(format!("{:?}", (&g.deck, &g.sites, &g.options, g.decisions)), before, "the game is untouched");
        }
    }
}

/// Seat `me`'s win share in each of `m` random completions of `g` after option `i`, each
/// from a sample of what `me` cannot see.
fn completions(g: &Game, me: usize, i: usize, m: usize) -> Vec<f64> {
    let sampler = Sampler::new(g, me);
    (0..m)
        .map(|s| {
            let mut d = sampler.sample(Box::new(Stream::from_text(&format!("c{s}"))));
            d.apply_index(i).unwrap();
            let mut rng = Stream::from_text(&format!("r{s}"));
            while !d.over {
                let k = (rng.random() * d.options().len() as f64) as usize;
                d.apply_index(k).unwrap();
            }
            let w = d.winners();
            if w.contains(&me) { 1.0 / w.len() as f64 } else { 0.0 }
        })
        .collect()
}

#[test]
fn a_search_finds_the_winning_move() {
    // late positions where one option won every one of 40 sampled completions and every
    // other option lost every one: the search must take the winning one
    let mut found = 0;
    'games: for k in 0..400 {
        let mut g = common::game("A-A-A-A-A", 2, &format!("w{k}"), false);
        let mut rng = Stream::from_text(&format!("w{k}"));
        while !g.over {
            if g.round == g.rounds && g.options().len() >= 2 {
                let me = g.to_move as usize;
                let shares: Vec<Vec<f64>> = (0..g.options().len()).map(|i| completions(&g, me, i, 40)).collect();
                let wins: Vec<usize> = (0..shares.len()).filter(|&i| shares[i].iter().all(|&s| s == 1.0)).collect();
                let losing = (0..shares.len()).filter(|&i| shares[i].iter().all(|&s| s == 0.0)).count();
                if wins.len() == 1 && losing == shares.len() - 1 {
                    let bot = MctsBot::from_name("mcts200").unwrap().unwrap();
                    let chosen = bot.choose(&g, &mut Stream::from_text(&format!("b{k}")), None).unwrap();
                    assert_eq!(chosen, wins[0], "game {k} decision {}: the winning move", g.decisions);
                    found += 1;
                    if found == 3 {
                        break 'games;
                    }
                    continue 'games;
                }
            }
            let i = (rng.random() * g.options().len() as f64) as usize;
            g.apply_index(i).unwrap();
        }
    }
    assert_eq!(found, 3, "positions with one winning move");
}
