//! Market cards on hand-built states (docs/rules.md §3, §9).

mod common;

use _core::action::Action;
use _core::cards;
use _core::game::{Game, Setup};
use _core::kinds;
use _core::rules::*;

fn game(players: usize, expansion: bool) -> Game {
    let setup = Setup { players, seed: "5".into(), expansion: Some(expansion), ..Setup::default() };
    Game::new(common::rules("A-A-A-A-A"), &setup).unwrap()
}

fn texts(g: &Game) -> Vec<String> {
    g.options().iter().map(|a| a.text(&g.rules.names)).collect()
}

fn give(g: &mut Game, p: usize, card: Card) {
    let r = g.rules.clone();
    cards::gain(g, &r, p, card).unwrap();
}

fn points(g: &Game, p: usize, source: Source) -> i32 {
    g.events.iter().filter(|e| e.seat as usize == p && e.source == source).map(|e| e.points).sum()
}

#[test]
fn game_end_scores_statues_unused_blue_cards_and_ornaments() {
    // §3.1 "Statue ... by the number held: 1, 3, 6, 10, 15 points, then 2 more per further
    // statue"; "each one [blue card] still held at the end scores 1 point"; §3.2 Stone
    // Ornament "1 point per stone on your sled, for each such card".
    let mut g = game(2, true);
    for _ in 0..3 {
        give(&mut g, 0, STATUE);
    }
    for _ in 0..7 {
        give(&mut g, 1, STATUE);
    }
    give(&mut g, 0, CHISEL);
    give(&mut g, 0, LEVER);
    give(&mut g, 1, STONE_ORNAMENT);
    give(&mut g, 1, STONE_ORNAMENT);
    g.sled[1] = 4;
    let r = g.rules.clone();
    cards::score_game_end(&mut g, &r);
    assert_eq!(points(&g, 0, SRC_CARD_STATUE), 6);
    assert_eq!(points(&g, 1, SRC_CARD_STATUE), 15 + 2 * 2);
    assert_eq!(points(&g, 0, SRC_CARD_UNUSED_BLUE), 2);
    assert_eq!(points(&g, 1, SRC_CARD_ORNAMENT), 2 * 4);
    assert_eq!(points(&g, 0, SRC_CARD_ORNAMENT), 0);
}

#[test]
fn a_decoration_scores_a_point_for_every_3_stones_at_its_site() {
    // §3.1 "game end: 1 point for every 3 stones at that site, all colours"; "Two copies of a
    // decoration score twice."
    let mut g = game(2, false);
    let r = g.rules.clone();
    for owner in [0, 1, 1, 0, 1, 1, 0] {
        _core::sites::deliver(&mut g, &r, BURIAL_CHAMBER, owner).unwrap();
    }
    assert_eq!(_core::sites::stones(&g, BURIAL_CHAMBER), 7);
    give(&mut g, 1, 6); // burial_chamber_decoration
    give(&mut g, 1, 6);
    cards::score_game_end(&mut g, &r);
    assert_eq!(points(&g, 1, SRC_CARD_DECORATION), 2 * (7 / 3));
}

#[test]
fn red_cards_act_at_once() {
    // §3.2 Private Quarry: "red, at once: 1 point and up to 3 stones from the quarry to the
    // sled (within the sled's room)"; §3.1 "Without the expansion it is then discarded; with
    // the expansion rules it stays face up".
    let mut g = game(2, true);
    g.sled[0] = 4; // room for 1 on a sled of 5
    let quarry = g.quarry[0];
    give(&mut g, 0, PRIVATE_QUARRY);
    assert_eq!(points(&g, 0, SRC_MARKET), 1);
    assert_eq!((g.sled[0], g.quarry[0]), (5, quarry - 1));
    assert_eq!(g.red_kept[0], 1);
    // Entrance: a stone from the quarry to the Pyramid, as a task
    let mut g = game(2, false);
    let quarry = g.quarry[1];
    give(&mut g, 1, ENTRANCE);
    assert_eq!(g.quarry[1], quarry - 1);
    assert_eq!(g.stack.last(), Some(&_core::game::Task::Deliver { site: PYRAMID as u8, owner: 1 }));
    assert_eq!(g.discard.last(), Some(&ENTRANCE));
    assert_eq!(g.red_kept[1], 0);
    // with an empty quarry it does nothing
    g.quarry[1] = 0;
    let depth = g.stack.len();
    give(&mut g, 1, SARCOPHAGUS);
    assert_eq!(g.stack.len(), depth);
}

#[test]
fn a_cargo_sled_holds_2_more_stones() {
    // §3.2 "the sled holds 2 more stones per card (7, then 9)"
    let mut g = game(2, true);
    give(&mut g, 0, CARGO_SLED);
    assert_eq!(g.sled_cap[0], 7);
    give(&mut g, 0, CARGO_SLED);
    assert_eq!(g.sled_cap[0], 9);
}

#[test]
fn blue_cards_are_offered_when_their_effect_can_be_carried_out() {
    // §3.1 Chisel "needs 2 sled stones and 2 empty slots"; Hammer "allowed when Get new
    // stones is"; §3.2 Barge "needs 3 or more sled stones".
    let mut g = game(2, true);
    for c in [CHISEL, HAMMER, BARGE] {
        give(&mut g, 0, c);
    }
    g.sled[0] = 2;
    g.resume().unwrap();
    let t = texts(&g);
    assert!(t.ends_with(&["play chisel".to_string(), "play hammer".to_string()]), "{t:?}");
    g.sled[0] = 5; // a full sled: no get, no hammer; barge now
    g.resume().unwrap();
    let t = texts(&g);
    assert!(t.ends_with(&["play chisel".to_string(), "play barge".to_string()]), "{t:?}");
    assert!(!t.contains(&"get".to_string()));
}

#[test]
fn chisel_places_two_stones() {
    let mut g = game(2, false);
    give(&mut g, 0, CHISEL);
    g.resume().unwrap();
    let sled = g.sled[0];
    let play = texts(&g).iter().position(|t| t == "play chisel").unwrap();
    g.apply_index(play).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::CHISEL_PLACE, 0));
    g.apply(Action::place(0, 0)).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::CHISEL_PLACE, 0));
    assert!(!texts(&g).contains(&"place 0 0".to_string()));
    g.apply(Action::place(0, 1)).unwrap();
    assert_eq!(g.sled[0], sled - 2);
    assert_eq!(&g.slots[0..2], &[0, 0]);
    // the card is spent, the turn is over
    assert_eq!((g.kind, g.to_move, g.blue[0]), (kinds::TURN, 1, 0));
    assert_eq!(g.discard.last(), Some(&CHISEL));
}

#[test]
fn the_lever_lets_the_sailing_player_choose_the_unloading_order() {
    // §2.3 Ruling (Lever): "the sailing player picks the stones one at a time"
    let mut g = game(2, false);
    let size = g.ship_size[0] as usize;
    for k in 0..size {
        g.put_on_ship(k % 2, 0, k);
    }
    give(&mut g, 1, LEVER);
    g.current = 1;
    g.resume().unwrap();
    let play = texts(&g).iter().position(|t| t == "play lever").unwrap();
    g.apply_index(play).unwrap();
    assert_eq!(g.kind, kinds::LEVER_SAIL);
    g.apply(Action::sail(0, BURIAL_CHAMBER)).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::LEVER_UNLOAD, 1));
    let all: Vec<String> = (0..size).map(|k| format!("unload {k}")).collect();
    assert_eq!(texts(&g), all);
    let last = size - 1;
    g.apply(_core::action::unload(last)).unwrap();
    assert_eq!(g.slots[last], -2, "the stone chosen is unloaded first");
    assert!(g.slots[..last].iter().all(|&o| o >= 0));
    while g.kind == kinds::LEVER_UNLOAD {
        g.apply_index(0).unwrap();
    }
    assert_eq!(_core::sites::stones(&g, BURIAL_CHAMBER), size as i32);
    assert_eq!((g.kind, g.to_move), (kinds::TURN, 0));
}

#[test]
fn a_shared_majority_fulfils_a_prophecy_and_nothing_fulfils_none() {
    // §9: "A shared majority fulfils a 'most' task"; Rulings: "a 'most' task needs at least 1";
    // windows 1-2 +7 / -5, 3-4 +5 / -3.
    let setup = Setup { players: 3, seed: "1".into(), prophecies: true, ..Setup::default() };
    let mut g = Game::new(common::rules("A-A-A-A-A"), &setup).unwrap();
    let r = g.rules.clone();
    let anubis = r.names.id("anubis").unwrap();
    let amun = r.names.id("amun").unwrap();
    {
        let state = g.prophecy.as_mut().unwrap();
        state.placed[0].push((anubis, 0));
        state.placed[1].push((anubis, 1));
        state.placed[2].push((amun, 0));
    }
    g.sled = [4, 4, 1, 0];
    g.red_kept = [0, 0, 0, 0];
    _core::prophecies::score(&mut g, &r);
    assert_eq!(points(&g, 0, SRC_PROPHECY), 7);
    assert_eq!(points(&g, 1, SRC_PROPHECY), 5);
    assert_eq!(points(&g, 2, SRC_PROPHECY), -5, "no red card kept by anyone: failed");
}

#[test]
fn the_prophecy_question_comes_before_the_turn_once_a_window() {
    // §9 "At the start of a turn a player may put a scarab on a card, in addition to the
    // action: at most one scarab per window"
    let setup = Setup { players: 2, seed: "4".into(), prophecies: true, ..Setup::default() };
    let mut g = Game::new(common::rules("A-A-A-A-A"), &setup).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::PROPHECY, 0));
    let t = texts(&g);
    assert_eq!(t.len(), 4);
    assert_eq!(t[3], "no scarab");
    g.apply_index(0).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::TURN, 0), "then the turn, same player");
    g.apply(_core::action::GET_ACTION).unwrap();
    // seat 1 is asked; seat 0 is not asked again in rounds 1-2
    assert_eq!((g.kind, g.to_move), (kinds::PROPHECY, 1));
    g.apply(_core::action::NO_SCARAB).unwrap();
    g.apply_index(0).unwrap();
    assert_eq!((g.kind, g.to_move), (kinds::TURN, 0));
}

#[test]
fn an_empty_draw_pile_is_the_discard_pile_shuffled_by_the_reshuffle_stream() {
    // docs/rules.md §2.1; the same order as Python's (seed 11):
    //   g = Game(2, "A-A-A-A-A", seed=11); g.deck = []
    //   g.discard = ["statue", "chisel", "lever", "entrance", "sail", "hammer", "statue", "paved_path"]
    //   g.draw() -> "lever"; g.deck -> [entrance, chisel, sail, paved_path, statue, hammer, statue]
    let setup = Setup { players: 2, seed: "11".into(), ..Setup::default() };
    let mut g = Game::new(common::rules("A-A-A-A-A"), &setup).unwrap();
    let r = g.rules.clone();
    let code = |name: &str| r.cards.code(name).unwrap();
    g.deck.clear();
    g.discard.clear();
    for name in ["statue", "chisel", "lever", "entrance", "sail", "hammer", "statue", "paved_path"] {
        g.discard.push(code(name));
    }
    assert_eq!(g.draw(&r).unwrap(), Some(code("lever")));
    let deck: Vec<&str> = g.deck.iter().map(|&c| r.cards.names[c as usize].as_str()).collect();
    assert_eq!(deck, ["entrance", "chisel", "sail", "paved_path", "statue", "hammer", "statue"]);
    assert!(g.discard.is_empty());
    // both piles empty: nothing is drawn
    g.deck.clear();
    assert_eq!(g.draw(&r).unwrap(), None);
}
