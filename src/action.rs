//! Actions: small Copy values whose text is the transcript notation (engine/actions.py).
//!
//! An action is a kind and up to eleven arguments (Obelisk C's `stack L 2 1 0` counts one
//! per card column, at most 10), each a whole number or a name; kinds and
//! names are ids in the Rules' name table ([`crate::rules::Names`]). `text()` is exactly
//! Python's `str(Action)`: the kind and the arguments joined by spaces ("place 1 0",
//! "take statue", "sail 0 pyramid", "claim height 3 points 5").

use arrayvec::ArrayVec;

use crate::rules::{Card, Names, Rules};

/// An interned text's id (rules::Names).
pub type Name = u16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Arg {
    #[default]
    None,
    /// a whole number (slots, ships, heights, points: rules/limits.py keeps them small)
    Int(i32),
    Name(Name),
}

pub const ARGS: usize = 11;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub kind: Name,
    pub args: [Arg; ARGS],
}

/// The names the engine itself uses, interned first in this order (their ids are the consts
/// below); then the card kinds (`Rules::card_name`: "sail" is both a kind and a card, one
/// id), then what the sites intern.
pub const FIXED_NAMES: [&str; 18] = [
    "place", "get", "pass", "sail", "play", "unload", "deliver", "platform", "scarab", "no",
    "keep", "take", "move", "market", "pyramid", "temple", "burial_chamber", "obelisk",
];
pub const PLACE: Name = 0;
pub const GET: Name = 1;
pub const PASS: Name = 2;
pub const SAIL: Name = 3;
pub const PLAY: Name = 4;
pub const UNLOAD: Name = 5;
pub const DELIVER: Name = 6;
pub const PLATFORM: Name = 7;
pub const SCARAB: Name = 8;
pub const NO: Name = 9;
pub const KEEP: Name = 10;
pub const TAKE: Name = 11;
pub const MOVE: Name = 12;
/// Site i's name id is SITE0 + i.
pub const SITE0: Name = 13;

pub const fn site_name(site: usize) -> Name {
    SITE0 + site as Name
}


impl Action {
    pub const fn new0(kind: Name) -> Action {
        Action { kind, args: [Arg::None; ARGS] }
    }

    pub const fn new1(kind: Name, a: Arg) -> Action {
        let mut args = [Arg::None; ARGS];
        args[0] = a;
        Action { kind, args }
    }

    pub const fn new2(kind: Name, a: Arg, b: Arg) -> Action {
        let mut args = [Arg::None; ARGS];
        args[0] = a;
        args[1] = b;
        Action { kind, args }
    }

    pub fn new(kind: Name, args: &[Arg]) -> Action {
        let mut out = [Arg::None; ARGS];
        out[..args.len()].copy_from_slice(args);
        Action { kind, args: out }
    }

    /// "place s k"
    pub const fn place(s: usize, k: usize) -> Action {
        Action::new2(PLACE, Arg::Int(s as i32), Arg::Int(k as i32))
    }

    /// "sail s <site>"
    pub const fn sail(s: usize, site: usize) -> Action {
        Action::new2(SAIL, Arg::Int(s as i32), Arg::Name(site_name(site)))
    }

    /// Argument i as a whole number, -1 when it is none (Python's `n0`, `n1`; a sail's dock
    /// is read with `site`).
    pub fn n(&self, i: usize) -> i32 {
        match self.args[i] {
            Arg::Int(x) => x,
            _ => -1,
        }
    }

    /// Argument i as a name id (None when it is not a name).
    pub fn name(&self, i: usize) -> Option<Name> {
        match self.args[i] {
            Arg::Name(x) => Some(x),
            _ => None,
        }
    }

    /// Argument i as a site index (a sail's or a platform's dock, a barge's site).
    pub fn site(&self, i: usize) -> usize {
        match self.args[i] {
            Arg::Name(x) if (SITE0..SITE0 + 5).contains(&x) => (x - SITE0) as usize,
            _ => panic!("action argument {i} is not a site"),
        }
    }

    pub fn arg_count(&self) -> usize {
        self.args.iter().take_while(|a| **a != Arg::None).count()
    }

    pub fn has_args(&self) -> bool {
        self.args[0] != Arg::None
    }

    /// The transcript notation: Python's `str(Action)`.
    pub fn text(&self, names: &Names) -> String {
        let mut out = String::from(names.text(self.kind));
        for a in &self.args {
            match *a {
                Arg::None => break,
                Arg::Int(x) => {
                    out.push(' ');
                    out.push_str(&x.to_string());
                }
                Arg::Name(x) => {
                    out.push(' ');
                    out.push_str(names.text(x));
                }
            }
        }
        out
    }

    /// The action written `text` (whole numbers as numbers, other words as names); None when
    /// a word is no known name.
    pub fn parse(text: &str, names: &Names) -> Option<Action> {
        let mut words = text.split(' ');
        let kind = names.id(words.next()?)?;
        let mut args: ArrayVec<Arg, ARGS> = ArrayVec::new();
        for w in words {
            let arg = match w.parse::<i32>() {
                Ok(x) if x.to_string() == w => Arg::Int(x),
                _ => Arg::Name(names.id(w)?),
            };
            args.try_push(arg).ok()?;
        }
        Some(Action::new(kind, &args))
    }
}

pub const GET_ACTION: Action = Action::new0(GET);
pub const GET_MOVE: Action = Action::new1(GET, Arg::Name(MOVE));
pub const PASS_ACTION: Action = Action::new0(PASS);
pub const NO_SCARAB: Action = Action::new1(NO, Arg::Name(SCARAB));

pub const fn unload(k: usize) -> Action {
    Action::new1(UNLOAD, Arg::Int(k as i32))
}

/// "play <card>"
pub fn play(r: &Rules, card: Card) -> Action {
    Action::new1(PLAY, Arg::Name(r.card_name(card)))
}

/// "take <card>"
pub fn take_card(r: &Rules, card: Card) -> Action {
    Action::new1(TAKE, Arg::Name(r.card_name(card)))
}

/// "keep <card>"
pub fn keep_card(r: &Rules, card: Card) -> Action {
    Action::new1(KEEP, Arg::Name(r.card_name(card)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_the_transcript_notation() {
        let mut names = Names::new();
        let statue = names.intern("statue");
        assert_eq!(Action::place(1, 0).text(&names), "place 1 0");
        assert_eq!(Action::sail(0, 1).text(&names), "sail 0 pyramid");
        assert_eq!(GET_MOVE.text(&names), "get move");
        assert_eq!(Action::new1(TAKE, Arg::Name(statue)).text(&names), "take statue");
        let height = names.intern("height");
        let points = names.intern("points");
        let claim = names.intern("claim");
        let a = Action::new(claim, &[Arg::Name(height), Arg::Int(3), Arg::Name(points), Arg::Int(-5)]);
        assert_eq!(a.text(&names), "claim height 3 points -5");
        assert_eq!(Action::parse("claim height 3 points -5", &names), Some(a));
        assert_eq!(Action::parse("sail 0 pyramid", &names), Some(Action::sail(0, 1)));
        assert_eq!(Action::parse("sail 0 nowhere", &names), None);
    }
}
