//! The gods' prophecies, an optional module of the expansion (docs/rules.md §9): at the start of each of their turns a player may place a scarab on
//! a god card ("scarab <god>" or "no scarab"); at game end each scarab gains or loses by its
//! window. A "most" task needs at least 1 of what it counts.

use arrayvec::ArrayVec;

use crate::action::{Action, Arg, Name, NO_SCARAB, SCARAB};
use crate::cards::held_total;
use crate::game::{Context, Game, Purpose, Res, SEATS};
use crate::kinds::PROPHECY;
use crate::rules::{CoreError, Rules, BURIAL_CHAMBER, OBELISK, PYRAMID, SRC_PROPHECY, TEMPLE};
use crate::sites;

/// The most god cards in play, scarabs a player (rules/limits.py: prophecies.scarabs up to
/// 10) and placement windows.
pub const GODS: usize = 8;
pub const SCARABS: usize = 10;
pub const WINDOWS: usize = 8;

/// The module's state: public information (cards and scarabs are on the table).
#[derive(Clone, Debug)]
pub struct Prophecies {
    /// the god cards in play, by name id
    pub gods: ArrayVec<Name, GODS>,
    /// scarabs not yet placed
    pub left: [i32; SEATS],
    pub window_used: [[bool; WINDOWS]; SEATS],
    /// (god, window) per scarab placed
    pub placed: [ArrayVec<(Name, u8), SCARABS>; SEATS],
    /// the current turn's question was answered: do not ask again
    pub answered: bool,
}

const KNOWN: [&str; 7] = ["amun", "ra", "horus", "osiris", "thoth", "hathor", "anubis"];

/// The site each stone-majority god counts.
fn god_site(god: &str) -> Option<usize> {
    match god {
        "ra" => Some(TEMPLE),
        "horus" => Some(PYRAMID),
        "osiris" => Some(BURIAL_CHAMBER),
        "thoth" => Some(OBELISK),
        _ => None,
    }
}

/// The window of round `round` (the last window listing it), -1 none.
fn window_of(r: &Rules, round: usize) -> i32 {
    let mut w = -1;
    for (i, rounds) in r.prophecies.windows.iter().enumerate() {
        if rounds.contains(&(round as i64)) {
            w = i as i32;
        }
    }
    w
}

/// Draw the god cards, hand out the scarabs.
pub fn setup(g: &mut Game, r: &Rules) -> Res {
    let t = &r.prophecies;
    let unknown: Vec<&str> =
        t.gods.iter().map(|&x| r.names.text(x)).filter(|x| !KNOWN.contains(x)).collect();
    if !unknown.is_empty() {
        return Err(CoreError::value(format!("prophecies.gods: unknown gods {unknown:?}")));
    }
    if t.windows.len() > WINDOWS || t.scarabs as usize > SCARABS || t.cards_in_play > GODS {
        return Err(CoreError::rules("prophecies: more windows, scarabs or cards than the core holds".into()));
    }
    let population: Vec<Arg> = t.gods.iter().map(|&x| Arg::Name(x)).collect();
    let picked = g.chance_pick(Purpose::Prophecies, &population, t.cards_in_play)?;
    let mut left = [0; SEATS];
    for l in left.iter_mut().take(g.n) {
        *l = t.scarabs;
    }
    g.prophecy = Some(Prophecies {
        gods: picked.iter().map(|&i| t.gods[i]).collect(),
        left,
        window_used: [[false; WINDOWS]; SEATS],
        placed: Default::default(),
        answered: false,
    });
    Ok(())
}

/// At the start of each turn: ask whether to place a scarab, when one can be placed.
pub fn hook(g: &mut Game, r: &Rules, p: usize) {
    let round = g.round;
    let state = g.prophecy.as_mut().expect("prophecies in play");
    if state.answered {
        // the question of this very turn was just answered: the turn decision follows
        state.answered = false;
        return;
    }
    if state.left[p] == 0 {
        return;
    }
    let w = window_of(r, round);
    if w < 0 || state.window_used[p][w as usize] {
        return;
    }
    let mut opts: ArrayVec<Action, { GODS + 1 }> = ArrayVec::new();
    for &god in &state.gods {
        if !state.placed[p].iter().any(|&(x, _)| x == god) {
            opts.push(Action::new1(SCARAB, Arg::Name(god)));
        }
    }
    if !opts.is_empty() {
        opts.push(NO_SCARAB);
        g.ask(PROPHECY, p, &opts, [p as i32, w, 0, 0]);
    }
}

/// The answer to a `prophecy` question.
pub fn answer(g: &mut Game, a: Action, ctx: Context) {
    let (p, w) = (ctx[0] as usize, ctx[1] as usize);
    let state = g.prophecy.as_mut().expect("prophecies in play");
    state.answered = true;
    if a != NO_SCARAB {
        state.left[p] -= 1;
        state.window_used[p][w] = true;
        state.placed[p].push((a.name(0).expect("scarab <god>"), w as u8));
    }
}

/// What the god's task counts, per player, at game end.
fn counts(g: &Game, r: &Rules, god: Name) -> [i32; SEATS] {
    let mut c = [0; SEATS];
    let text = r.names.text(god);
    for (p, x) in c.iter_mut().enumerate().take(g.n) {
        *x = match text {
            "amun" => g.red_kept[p],
            "hathor" => held_total(g, p) + g.red_kept[p],
            "anubis" => g.sled[p],
            _ => sites::stones_of(g, god_site(text).expect("a known god"), p),
        };
    }
    c
}

/// Per player: (god, window, fulfilled, points) for each scarab placed.
pub fn outcome(g: &Game, r: &Rules) -> Vec<Vec<(Name, u8, bool, i32)>> {
    let state = g.prophecy.as_ref().expect("prophecies in play");
    let t = &r.prophecies;
    let mut out = Vec::new();
    for p in 0..g.n {
        let mut mine = Vec::new();
        for &(god, w) in &state.placed[p] {
            let c = counts(g, r, god);
            let best = *c[..g.n].iter().max().unwrap();
            let ok = c[p] >= 1 && c[p] == best;
            let pts = if ok { t.fulfilled[w as usize] } else { t.failed[w as usize] };
            mine.push((god, w, ok, pts));
        }
        out.push(mine);
    }
    out
}

/// Game end (docs/rules.md §2.5: last): each scarab gains or loses by its window.
pub fn score(g: &mut Game, r: &Rules) {
    for (p, results) in outcome(g, r).into_iter().enumerate() {
        for (_, _, _, pts) in results {
            g.score(p, SRC_PROPHECY, pts);
        }
    }
}
