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

/// Stored compactly (an option row holds up to game::OPTIONS of them and a search copies
/// rows): each argument as an `i16`, a bit per argument saying it is a name, and the count.
/// Arguments past the count are zero, so equality and hashing are by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub kind: Name,
    /// bit i: argument i is a name
    names: u16,
    n: u8,
    args: [i16; ARGS],
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
    #[inline]
    pub const fn new0(kind: Name) -> Action {
        Action { kind, names: 0, n: 0, args: [0; ARGS] }
    }

    #[inline]
    pub const fn new1(kind: Name, a: Arg) -> Action {
        Action::new0(kind).with(a)
    }

    #[inline]
    pub const fn new2(kind: Name, a: Arg, b: Arg) -> Action {
        Action::new0(kind).with(a).with(b)
    }

    pub fn new(kind: Name, args: &[Arg]) -> Action {
        let mut out = Action::new0(kind);
        for &a in args {
            out = out.with(a);
        }
        out
    }

    /// This action with `a` as one more argument (`Arg::None` adds none: an argument list
    /// ends at its first none, as Python's tuple has no holes).
    #[inline]
    const fn with(mut self, a: Arg) -> Action {
        let i = self.n as usize;
        match a {
            Arg::None => return self,
            Arg::Int(x) => {
                assert!(x >= i16::MIN as i32 && x <= i16::MAX as i32, "an action's number does not fit 16 bits");
                self.args[i] = x as i16;
            }
            Arg::Name(x) => {
                assert!(x <= i16::MAX as u16, "a name id does not fit 15 bits");
                self.args[i] = x as i16;
                self.names |= 1 << i;
            }
        }
        self.n += 1;
        self
    }

    /// "place s k"
    #[inline]
    pub const fn place(s: usize, k: usize) -> Action {
        Action::new2(PLACE, Arg::Int(s as i32), Arg::Int(k as i32))
    }

    /// "sail s <site>"
    #[inline]
    pub const fn sail(s: usize, site: usize) -> Action {
        Action::new2(SAIL, Arg::Int(s as i32), Arg::Name(site_name(site)))
    }

    /// Argument i (`Arg::None` past the last).
    #[inline]
    pub fn arg(&self, i: usize) -> Arg {
        if i >= self.n as usize {
            Arg::None
        } else if self.names >> i & 1 == 1 {
            Arg::Name(self.args[i] as Name)
        } else {
            Arg::Int(self.args[i] as i32)
        }
    }

    /// The arguments in order.
    pub fn args(&self) -> impl Iterator<Item = Arg> + '_ {
        (0..self.n as usize).map(|i| self.arg(i))
    }

    /// Argument i as a whole number, -1 when it is none (Python's `n0`, `n1`; a sail's dock
    /// is read with `site`).
    #[inline]
    pub fn n(&self, i: usize) -> i32 {
        match self.arg(i) {
            Arg::Int(x) => x,
            _ => -1,
        }
    }

    /// Argument i as a name id (None when it is not a name).
    #[inline]
    pub fn name(&self, i: usize) -> Option<Name> {
        match self.arg(i) {
            Arg::Name(x) => Some(x),
            _ => None,
        }
    }

    /// Argument i as a site index (a sail's or a platform's dock, a barge's site).
    pub fn site(&self, i: usize) -> usize {
        match self.arg(i) {
            Arg::Name(x) if (SITE0..SITE0 + 5).contains(&x) => (x - SITE0) as usize,
            _ => panic!("action argument {i} is not a site"),
        }
    }

    pub fn arg_count(&self) -> usize {
        self.n as usize
    }

    pub fn has_args(&self) -> bool {
        self.n > 0
    }

    /// The transcript notation: Python's `str(Action)`.
    pub fn text(&self, names: &Names) -> String {
        let mut out = String::from(names.text(self.kind));
        for a in self.args() {
            match a {
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
            let arg = match w.parse::<i16>() {
                Ok(x) if x.to_string() == w => Arg::Int(x as i32),
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

    #[test]
    fn arguments_read_back_as_given_and_the_value_stays_small() {
        let mut names = Names::new();
        let l = names.intern("L");
        let stack = names.intern("stack");
        let mut args = vec![Arg::Name(l)];
        args.extend([2, 1, 0, -100, 100, 0, 0, 3, 1, 32767].map(Arg::Int));
        let a = Action::new(stack, &args);
        assert_eq!(a.args().collect::<Vec<_>>(), args);
        assert_eq!((a.arg_count(), a.arg(11), a.n(4), a.name(0)), (11, Arg::None, -100, Some(l)));
        assert_eq!(a.text(&names), "stack L 2 1 0 -100 100 0 0 3 1 32767");
        assert_eq!(Action::parse(&a.text(&names), &names), Some(a));
        // a number an action cannot hold is no action's
        assert_eq!(Action::parse("stack L 40000", &names), None);
        // an option row (game::OPTIONS of them) is copied whole when a game is
        assert!(std::mem::size_of::<Action>() <= 28);
    }
}
