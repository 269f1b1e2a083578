//! Setup checks (docs/rules.md §1; engine/setup_checks.py): a game's round cards and market
//! deck, as given by a caller, against the cards the game is played with.

use crate::rules::{Card, CoreError, Rules};

fn err<T>(m: String) -> Result<T, CoreError> {
    Err(CoreError::rules(m))
}

/// The round cards in play order, checked (docs/rules.md §1.1).
pub fn check_round_cards(
    given: &[[u8; 4]],
    pool: &[[u8; 4]],
    rounds: usize,
    players: usize,
    scenario: bool,
) -> Result<Vec<[u8; 4]>, CoreError> {
    for (i, card) in given.iter().enumerate() {
        if card.iter().any(|&s| !(1..=4).contains(&s)) {
            return err(format!("round_cards[{i}]: expected 4 whole ship sizes from 1 to 4, got a list {card:?}"));
        }
    }
    if given.len() != rounds {
        return err(format!("round_cards: expected {rounds} cards (one per round), got {}", given.len()));
    }
    if scenario {
        return Ok(given.to_vec());
    }
    for (i, card) in given.iter().enumerate() {
        if !pool.contains(card) {
            let known: Vec<String> =
                pool.iter().map(|c| c.iter().map(|s| s.to_string()).collect::<String>()).collect();
            return err(format!(
                "round_cards[{i}]: {card:?} is not one of the {players}-player round cards ({}, ship sizes in the \
                 card's order); a rulebook scenario may say \"scenario\": true",
                known.join(", ")
            ));
        }
        if given[..i].contains(card) {
            return err(format!(
                "round_cards[{i}]: {card:?} is dealt twice; a game's round cards are distinct (a rulebook \
                 scenario may say \"scenario\": true)"
            ));
        }
    }
    Ok(given.to_vec())
}

/// The market deck, top first, checked against the game's cards `full` (docs/rules.md §3).
pub fn check_deck(r: &Rules, given: &[Card], full: &[Card], scenario: bool) -> Result<Vec<Card>, CoreError> {
    let kinds = r.cards.names.len();
    let mut have = vec![0usize; kinds];
    let mut cards = vec![0usize; kinds];
    for &c in given {
        have[c as usize] += 1;
    }
    for &c in full {
        cards[c as usize] += 1;
    }
    let name = |c: usize| r.cards.names[c].as_str();
    let unknown: Vec<&str> = (0..kinds).filter(|&c| have[c] > 0 && cards[c] == 0).map(name).collect();
    if !unknown.is_empty() {
        let mut known: Vec<&str> = (0..kinds).filter(|&c| cards[c] > 0).map(name).collect();
        known.sort();
        // the names as a Python list of str shows them (['barge']), as the Python engine wrote it
        let quoted: Vec<String> = unknown.iter().map(|n| format!("'{n}'")).collect();
        return err(format!("deck: unknown card names [{}] (this game's cards: {})", quoted.join(", "), known.join(", ")));
    }
    let mut order: Vec<usize> = (0..kinds).collect();
    order.sort_by_key(|&c| name(c));
    let extra: Vec<String> = order
        .iter()
        .filter(|&&c| have[c] > cards[c])
        .map(|&c| format!("{} {} too many ({} in the game)", have[c] - cards[c], name(c), cards[c]))
        .collect();
    if !extra.is_empty() {
        return err(format!("deck: more cards than the game has: {}", extra.join(", ")));
    }
    if !scenario && have != cards {
        let missing: Vec<String> = order
            .iter()
            .filter(|&&c| have[c] < cards[c])
            .map(|&c| format!("{} {}", cards[c] - have[c], name(c)))
            .collect();
        return err(format!(
            "deck: expected exactly the game's {} cards, got {}; missing: {} (a rulebook scenario may say \
             \"scenario\": true and use part of them)",
            full.len(),
            given.len(),
            missing.join(", ")
        ));
    }
    Ok(given.to_vec())
}
