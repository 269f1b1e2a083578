//! The Market's sides on hand-built states (docs/rules.md §4), as tests/test_market_sides.py:
//! the decisions offered, in order, and the cards each seat ends up with.

mod sites_common;

use _core::rules::MARKET;
use _core::sites::market::Market;
use sites_common::*;

fn deck(top: &[&'static str]) -> Vec<&'static str> {
    top.iter().chain(FILLER.iter()).copied().collect()
}

#[test]
fn market_a_always_asks_and_takes_the_card() {
    // §4.1 "Four face-up cards each round. Each unloaded stone's owner takes one of the cards
    // still there"; §4: the stone "always returns to its owner's quarry".
    let mut g = game("A-A-A-A-A", 3, Some(&deck(&["statue", "chisel", "statue", "lever"])), None);
    let q = g.quarry[1];
    unload(&mut g, MARKET, 1);
    assert_eq!((kind(&g), g.to_move), ("market_pick", 1));
    assert_eq!(names(&g), ["take statue", "take chisel", "take lever"]);
    assert_eq!(g.quarry[1], q + 1);
    answer(&mut g, "take statue");
    assert_eq!(held(&g, 1, "statue"), 1);
    let Market::A(m) = &g.sites.market else { panic!() };
    assert_eq!(card_names(&g, &m.display), ["chisel", "statue", "lever"]);
}

#[test]
fn market_b_pair_keep_one_discard_the_other() {
    // §4.2 "Three face-up cards and a face-down pair ... keeping one card of the two and
    // discarding the other".
    let mut g = game("B-A-A-A-A", 3, Some(&deck(&["statue", "chisel", "lever", "lever", "hammer"])), None);
    unload(&mut g, MARKET, 1);
    assert_eq!(names(&g), ["take statue", "take chisel", "take lever", "take pair"]);
    answer(&mut g, "take pair");
    assert_eq!((kind(&g), g.to_move), ("market_keep", 1));
    assert_eq!(names(&g), ["keep lever", "keep hammer"]);
    answer(&mut g, "keep hammer");
    assert_eq!(held(&g, 1, "hammer"), 1);
    assert_eq!(discard(&g), ["lever"]);
    // the next stone finds no pair any more
    unload(&mut g, MARKET, 2);
    assert_eq!(names(&g), ["take statue", "take chisel", "take lever"]);
}

#[test]
fn market_b_twins_and_a_lone_pair_are_no_question() {
    let mut g = game("B-A-A-A-A", 3, Some(&deck(&["chisel", "chisel", "chisel", "statue", "statue"])), None);
    unload(&mut g, MARKET, 0);
    assert_eq!(names(&g), ["take chisel", "take pair"]);
    answer(&mut g, "take pair");
    // two statues: keeping one or the other is the same, so nothing is asked
    assert_eq!(kind(&g), "turn");
    assert_eq!(held(&g, 0, "statue"), 1);
    assert_eq!(discard(&g), ["statue"]);
    // round end: the face-up cards left go to the discard pile
    round_end(&mut g, MARKET);
    assert_eq!(discard(&g), ["statue", "chisel", "chisel", "chisel"]);

    // the display emptied, the pair is the only option: taken at once, then the keep
    let mut g = game("B-A-A-A-A", 3, Some(&deck(&["statue", "chisel", "lever", "sail", "hammer"])), None);
    let Market::B(m) = &mut g.sites.market else { panic!() };
    m.display.clear();
    unload(&mut g, MARKET, 0);
    assert_eq!((kind(&g), names(&g)), ("market_keep", vec!["keep sail".to_string(), "keep hammer".into()]));
}

#[test]
fn market_c_copies_and_coin_pairs() {
    // §4.3 "each player starts with 2 coins ... a player may pay a coin to take two cards
    // lying side by side".
    let mut g = game("C-A-A-A-A", 3, Some(&deck(&["statue", "chisel", "statue", "lever"])), None);
    unload(&mut g, MARKET, 0);
    // two statues (spaces 0 and 2): which one is taken shapes later adjacency
    assert_eq!(
        names(&g),
        ["take statue 0", "take statue 2", "take chisel", "take lever", "take 0 1", "take 1 2", "take 2 3"]
    );
    answer(&mut g, "take 1 2");
    let Market::C(m) = &g.sites.market else { panic!() };
    assert_eq!(m.coins[..3], [1, 2, 2]);
    assert_eq!((held(&g, 0, "chisel"), held(&g, 0, "statue")), (1, 1));
    // spaces 0 and 3 are not adjacent: single cards only
    unload(&mut g, MARKET, 0);
    assert_eq!(names(&g), ["take statue", "take lever"]);
}

#[test]
fn market_c_empty_display_draws_the_top_card_and_a_red_pair_delivers_left_first() {
    let mut g = game("C-A-A-A-A", 3, Some(&["statue", "chisel", "sail", "lever", "hammer", "chisel"]), None);
    let Market::C(m) = &mut g.sites.market else { panic!() };
    m.display = [None; 8];
    m.left = 0;
    unload(&mut g, MARKET, 1);
    // no decision: the top card of the draw pile (hammer)
    assert_eq!(kind(&g), "turn");
    assert_eq!(held(&g, 1, "hammer"), 1);

    // Entrance (Pyramid A's first space: 2 points, §5.1) and Sarcophagus (Burial Chamber A)
    let mut g = game("C-A-A-A-A", 3, Some(&deck(&["entrance", "sarcophagus", "statue", "lever"])), None);
    let q = g.quarry[0];
    unload(&mut g, MARKET, 0);
    answer(&mut g, "take 0 1");
    assert_eq!(points(&g, 0, _core::rules::SRC_PYRAMID), 2);
    assert_eq!(g.quarry[0], q + 1 - 2);
    assert_eq!(g.red_kept[0], 2); // a C side switches the expansion rules on: reds kept
}

#[test]
fn market_d_stacks_look_keep_and_refill() {
    // §4.4 "Two single face-up cards ... two face-down stacks of 3 cards below ... looks at a
    // stack, keeps one of its cards and returns the rest face down ... the stacks stay and are
    // filled back up to 3."
    let top = [
        "statue", "lever", "chisel", "sail", "hammer", "entrance", "paved_path", "chisel", "barge",
        "cargo_sled", "stone_ornament",
    ];
    let mut g = game("D-A-A-A-A", 3, Some(&deck(&top)), None);
    unload(&mut g, MARKET, 0);
    assert_eq!(names(&g), ["take statue", "take lever", "take stack 0", "take stack 1"]);
    answer(&mut g, "take stack 1");
    assert_eq!(names(&g), ["keep entrance", "keep paved_path", "keep chisel"]);
    answer(&mut g, "keep chisel");
    assert_eq!(g.sites.market.stack_count()[..], [3, 2]);
    round_end(&mut g, MARKET);
    assert_eq!(discard(&g), ["statue", "lever"]);
    let r = g.rules.clone();
    _core::sites::round_start(&mut g, &r, MARKET).unwrap();
    let Market::D(m) = &g.sites.market else { panic!() };
    assert_eq!(card_names(&g, &m.display), ["barge", "cargo_sled"]);
    assert_eq!(card_names(&g, &m.hidden_stacks[1]), ["entrance", "paved_path", "stone_ornament"]);
}

#[test]
fn the_face_down_cards_a_seat_has_not_looked_at() {
    // market::hidden_cards: Market B's pair; Market D's stacks, but not the
    // one the deciding seat is looking at (its market_keep options show it).
    let top = [
        "statue", "lever", "chisel", "sail", "hammer", "entrance", "paved_path", "chisel",
    ];
    let mut g = game("D-A-A-A-A", 3, Some(&deck(&top)), None);
    unload(&mut g, MARKET, 2);
    answer(&mut g, "take stack 1");
    let hidden = |g: &_core::game::Game, seat| -> Vec<Vec<String>> {
        _core::sites::market::hidden_cards(g, seat).iter().map(|s| card_names(g, s)).collect()
    };
    assert_eq!(hidden(&g, 2), [["chisel", "sail", "hammer"]]);
    assert_eq!(hidden(&g, 0), [vec!["chisel", "sail", "hammer"], vec!["entrance", "paved_path", "chisel"]]);
    let statue = card(&g.rules, "statue");
    for place in _core::sites::market::hidden_cards_mut(&mut g, 0) {
        place.fill(statue);
    }
    let Market::D(m) = &g.sites.market else { panic!() };
    assert_eq!(m.hidden_stacks[1][..], [statue; 3]);

    let mut g = game("B-A-A-A-A", 3, Some(&deck(&["statue", "chisel", "lever", "lever", "hammer"])), None);
    assert_eq!(hidden(&g, 1), [["lever", "hammer"]]);
    unload(&mut g, MARKET, 1);
    answer(&mut g, "take pair");
    // the pair is in its owner's hand now, no longer face down
    assert_eq!(hidden(&g, 0), [Vec::<String>::new()]);
}
