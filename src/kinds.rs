//! The decision kinds (engine/kinds.py): the same codes, the same names, who answers each.

/// A decision kind's code; 0 is no question pending.
pub type Kind = u8;

/// Who answers a kind: a site index (its module's `answer`), or GAME (the blue cards, the
/// Lever, the prophecies; the turn is the game's own).
pub const GAME: i8 = -1;

/// (name, who answers), in code order; code 0 is no question pending.
pub const TABLE: [(&str, i8); 22] = [
    ("", GAME),
    ("turn", GAME),
    ("market_pick", 0),
    ("market_keep", 0),
    ("pyramid_choice", 1),
    ("pyramid_ship_slot", 1),
    ("temple_bonus", 2),
    ("temple_keep", 2),
    ("mound_space", 3),
    ("tomb_token", 3),
    ("obelisk_token", 4),
    ("obelisk_claim", 4),
    ("chisel_place", GAME),
    ("lever_sail", GAME),
    ("hammer_get", GAME),
    ("hammer_place", GAME),
    ("sail_place", GAME),
    ("sail_sail", GAME),
    ("barge_site", GAME),
    ("platform_sail", GAME),
    ("lever_unload", GAME),
    ("prophecy", GAME),
];

pub const NONE: Kind = 0;
pub const TURN: Kind = 1;
pub const MARKET_PICK: Kind = 2;
pub const MARKET_KEEP: Kind = 3;
pub const PYRAMID_CHOICE: Kind = 4;
pub const PYRAMID_SHIP_SLOT: Kind = 5;
pub const TEMPLE_BONUS: Kind = 6;
pub const TEMPLE_KEEP: Kind = 7;
pub const MOUND_SPACE: Kind = 8;
pub const TOMB_TOKEN: Kind = 9;
pub const OBELISK_TOKEN: Kind = 10;
pub const OBELISK_CLAIM: Kind = 11;
pub const CHISEL_PLACE: Kind = 12;
pub const LEVER_SAIL: Kind = 13;
pub const HAMMER_GET: Kind = 14;
pub const HAMMER_PLACE: Kind = 15;
pub const SAIL_PLACE: Kind = 16;
pub const SAIL_SAIL: Kind = 17;
pub const BARGE_SITE: Kind = 18;
pub const PLATFORM_SAIL: Kind = 19;
pub const LEVER_UNLOAD: Kind = 20;
pub const PROPHECY: Kind = 21;

/// The kind's name ("turn", "market_pick"...); None for no question.
pub fn name(kind: Kind) -> Option<&'static str> {
    match kind {
        NONE => None,
        k => TABLE.get(k as usize).map(|t| t.0),
    }
}

/// The code of a kind's name.
pub fn code(name: &str) -> Option<Kind> {
    TABLE.iter().position(|t| t.0 == name && !name.is_empty()).map(|c| c as Kind)
}

/// Who answers `kind`: a site index, or GAME.
pub fn answered_by(kind: Kind) -> i8 {
    TABLE[kind as usize].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_their_names() {
        assert_eq!(code("turn"), Some(TURN));
        assert_eq!(code("prophecy"), Some(PROPHECY));
        assert_eq!(code("lever_unload"), Some(LEVER_UNLOAD));
        assert_eq!(code("obelisk_claim"), Some(OBELISK_CLAIM));
        assert_eq!(name(TOMB_TOKEN), Some("tomb_token"));
        assert_eq!(name(NONE), None);
        assert_eq!(answered_by(TEMPLE_KEEP), 2);
        assert_eq!(answered_by(BARGE_SITE), GAME);
    }
}
