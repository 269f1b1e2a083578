//! The Burial Chamber (docs/rules.md §7), scored at game end: A (rows, connected groups),
//! B (rows, ranking per row), C (Burial Mound: levels, areas scored stones x levels),
//! D (Tomb: numbered tokens, groups, a penalty for absence).
//!
//! Decisions, every one the stone's owner's:
//! - `mound_space` (C): `mound L I`, level L (0 = bottom), index I from the left: a free
//!   bottom space, or a free higher space whose two supports are filled. Not asked when one
//!   space is legal (it is taken) or none (overflow).
//! - `tomb_token` (D): `tomb 17`, the face-up token whose space takes the stone. Not asked
//!   when one token is up (it is used) or none (the no-token point).
//!
//! Rulings (gaps in docs/rules.md §7): the Mound's overflow and the Tomb's no-token point
//! score at once, when the stone is delivered, like every other overflow point; a Mound
//! stone goes to overflow when no space is legal.

use arrayvec::ArrayVec;
use serde_json::Value;

use crate::action::{Action, Arg, Name};
use crate::game::{Context, Game, Purpose, Res, SEATS};
use crate::kinds::{Kind, MOUND_SPACE, TOMB_TOKEN};
use crate::rules::{int, ints, CoreError, Names, Rules, Side, SRC_BURIAL_CHAMBER};
use crate::sites::scoring::{group_points, line_groups, rank_points};

/// Stones on a side A/B board: no game comes near (a ship of at most 4 and a few card
/// deliveries a round).
pub const STONES: usize = 96;
/// Mound spaces, or tomb spaces (rules/limits.py: rows and columns at most 10 each, the
/// mound's levels at most 10 spaces each).
pub const SPACES: usize = 100;

/// The Mound's shape, the same for every game on it: per space id its level and index,
/// action, the two supports below (None: never legal), the spaces resting on it, its
/// neighbours; the spaces legal on an empty mound.
#[derive(Clone, Debug)]
pub struct Mound {
    pub levels: Vec<usize>,
    pub space: Vec<(usize, usize)>,
    acts: Vec<Action>,
    supports: Vec<Option<Vec<usize>>>,
    above: Vec<Vec<usize>>,
    pub adj: Vec<Vec<usize>>,
    start: Vec<usize>,
}

impl Mound {
    fn new(names: &mut Names, levels: Vec<usize>) -> Mound {
        let mound = names.intern("mound");
        let mut ids = std::collections::HashMap::new();
        let mut space = Vec::new();
        for (lv, &size) in levels.iter().enumerate() {
            for i in 0..size {
                ids.insert((lv as i64, i as i64), space.len());
                space.push((lv, i));
            }
        }
        let id = |lv: i64, i: i64| ids.get(&(lv, i)).copied();
        let acts = space.iter().map(|&(lv, i)| Action::new2(mound, Arg::Int(lv as _), Arg::Int(i as _))).collect();
        let mut supports = Vec::new();
        let mut above = vec![Vec::new(); space.len()];
        let mut adj = Vec::new();
        for (s, &(lv, i)) in space.iter().enumerate() {
            let (lv, i) = (lv as i64, i as i64);
            let below: Vec<usize> = [i, i + 1].iter().filter_map(|&j| id(lv - 1, j)).collect();
            // a designer shape left it without two supports: never legal
            let below = if lv > 0 && below.len() < 2 { None } else { Some(below) };
            for &b in below.iter().flatten() {
                above[b].push(s);
            }
            supports.push(below);
            let near = [(lv, i - 1), (lv, i + 1), (lv - 1, i), (lv - 1, i + 1), (lv + 1, i - 1), (lv + 1, i)];
            adj.push(near.iter().filter_map(|&(l, j)| id(l, j)).collect());
        }
        let start = (0..space.len()).filter(|&s| supports[s].as_ref().is_some_and(|b| b.is_empty())).collect();
        Mound { levels, space, acts, supports, above, adj, start }
    }

    /// The space id of the action `mound L I`.
    pub fn space_of(&self, a: &Action) -> usize {
        let (lv, i) = (a.n(0) as usize, a.n(1) as usize);
        self.levels[..lv].iter().sum::<usize>() + i
    }
}

/// The side's board data, parsed once per cell (`Rules.sites.burial_chamber`).
#[derive(Clone, Debug)]
pub enum Config {
    A { rows: usize, group_table: Vec<i32>, group_extra: i32 },
    B { rows: usize, row_points: Vec<i32> },
    C { mound: Mound, level_cap: i32, overflow_points: i32 },
    D {
        rows: usize,
        columns: usize,
        per_round: usize,
        no_token_points: i32,
        absent_penalty: i32,
        group_table: Vec<i32>,
        group_extra: i32,
        tomb: Name,
    },
}

fn i32s(v: Vec<i64>) -> Vec<i32> {
    v.into_iter().map(|x| x as i32).collect()
}

/// Parse the chosen side's values (`values.burial_chamber` of the board JSON).
pub fn parse(names: &mut Names, side: Side, v: &Value) -> Result<Config, CoreError> {
    let at = format!("burial_chamber.{}", side.letter());
    Ok(match side {
        Side::A => Config::A {
            rows: int(v, "rows", &at)? as usize,
            group_table: i32s(ints(v, "group_points", &at)?),
            group_extra: int(v, "group_extra", &at)? as i32,
        },
        Side::B => Config::B { rows: int(v, "rows", &at)? as usize, row_points: i32s(ints(v, "row_points", &at)?) },
        Side::C => {
            let levels: Vec<usize> = ints(v, "levels", &at)?.into_iter().map(|x| x.max(0) as usize).collect();
            let mound = Mound::new(names, levels);
            if mound.space.len() > SPACES {
                return Err(CoreError::value(format!(
                    "burial_chamber.C.levels: at most {SPACES} spaces, got {}",
                    mound.space.len()
                )));
            }
            Config::C {
                mound,
                level_cap: int(v, "level_cap", &at)? as i32,
                overflow_points: int(v, "overflow_points", &at)? as i32,
            }
        }
        Side::D => {
            let (rows, columns) = (int(v, "rows", &at)? as usize, int(v, "columns", &at)? as usize);
            if rows * columns > SPACES {
                return Err(CoreError::value(format!(
                    "burial_chamber.D.rows x columns: at most {SPACES} spaces, got {rows} x {columns}"
                )));
            }
            Config::D {
                rows,
                columns,
                per_round: int(v, "tokens_per_round", &at)?.max(0) as usize,
                no_token_points: int(v, "no_token_points", &at)? as i32,
                absent_penalty: int(v, "absent_penalty", &at)? as i32,
                group_table: i32s(ints(v, "group_points", &at)?),
                group_extra: int(v, "group_extra", &at)? as i32,
                tomb: names.intern("tomb"),
            }
        }
    })
}

/// Sides A and B: rows filled column by column (top, middle, bottom, then the next column):
/// the owner of each stone in delivery order (stone i: column i / rows, row i % rows).
#[derive(Clone, Debug)]
pub struct Rows {
    pub owners: ArrayVec<i8, STONES>,
}

/// Side C, the Burial Mound: per space id its owner (-1: free); the legal spaces in
/// ascending id; per seat its overflow and its stones here (mound + overflow).
#[derive(Clone, Debug)]
pub struct MoundState {
    pub owner: [i8; SPACES],
    pub open: ArrayVec<u8, SPACES>,
    pub overflow: [i32; SEATS],
    pub count: [i32; SEATS],
}

/// Side D, the Tomb: per space its owner (token t is space t - 1; -1 empty); the tokens
/// face up, ascending; per seat its stones at the board's edge (no token up) and its stones
/// here (grid + edge); the face-down supply, the next token turned up last (hidden).
#[derive(Clone, Debug)]
pub struct Tomb {
    pub grid: [i8; SPACES],
    pub face_up: ArrayVec<u8, SPACES>,
    pub edge: [i32; SEATS],
    pub count: [i32; SEATS],
    pub hidden_tokens: ArrayVec<u8, SPACES>,
}

/// The site's state in a game (`Game.sites.burial_chamber`).
#[derive(Clone, Debug)]
pub enum BurialChamber {
    A(Rows),
    B(Rows),
    C(MoundState),
    D(Tomb),
}

impl BurialChamber {
    pub fn new(r: &Rules, _players: usize) -> Result<BurialChamber, CoreError> {
        Ok(match &r.sites.burial_chamber {
            Config::A { .. } => BurialChamber::A(Rows { owners: ArrayVec::new() }),
            Config::B { .. } => BurialChamber::B(Rows { owners: ArrayVec::new() }),
            Config::C { mound, .. } => BurialChamber::C(MoundState {
                owner: [-1; SPACES],
                open: mound.start.iter().map(|&s| s as u8).collect(),
                overflow: [0; SEATS],
                count: [0; SEATS],
            }),
            // the tokens are drawn at setup (a chance pick)
            Config::D { .. } => BurialChamber::D(Tomb {
                grid: [-1; SPACES],
                face_up: ArrayVec::new(),
                edge: [0; SEATS],
                count: [0; SEATS],
                hidden_tokens: ArrayVec::new(),
            }),
        })
    }

    /// Stones of all colours here, overflow included (decorations count these).
    pub fn stones(&self) -> i32 {
        match self {
            BurialChamber::A(s) | BurialChamber::B(s) => s.owners.len() as i32,
            BurialChamber::C(s) => s.count.iter().sum(),
            BurialChamber::D(s) => s.count.iter().sum(),
        }
    }

    /// Stones of player `p` here (conservation checks, prophecies).
    pub fn stones_of(&self, p: usize) -> i32 {
        match self {
            BurialChamber::A(s) | BurialChamber::B(s) => s.owners.iter().filter(|&&o| o as usize == p).count() as i32,
            BurialChamber::C(s) => s.count[p],
            BurialChamber::D(s) => s.count[p],
        }
    }
}

/// The Tomb's tokens, 1 to rows x columns, drawn in the order they are turned up (the
/// "tomb" chance outcome).
pub fn setup(g: &mut Game, r: &Rules) -> Res {
    if let Config::D { rows, columns, .. } = &r.sites.burial_chamber {
        let size = rows * columns;
        let population: Vec<Arg> = (1..=size).map(|t| Arg::Int(t as _)).collect();
        let drawn = g.chance_pick(Purpose::Tomb, &population, size)?;
        if let BurialChamber::D(s) = &mut g.sites.burial_chamber {
            // the face-down supply: the next token turned up is last
            s.hidden_tokens = drawn.iter().rev().map(|&i| (i + 1) as u8).collect();
        }
    }
    Ok(())
}

/// A stone of `owner` arrives (from a ship, a red card or a bonus).
pub fn deliver(g: &mut Game, r: &Rules, owner: usize) -> Res {
    let mut score = 0;
    match (&mut g.sites.burial_chamber, &r.sites.burial_chamber) {
        (BurialChamber::A(s) | BurialChamber::B(s), _) => {
            if s.owners.try_push(owner as i8).is_err() {
                let side = if matches!(r.sites.burial_chamber, Config::A { .. }) { "A" } else { "B" };
                return Err(CoreError::value(format!("burial_chamber.{side}: at most {STONES} stones on the board")));
            }
        }
        (BurialChamber::C(s), Config::C { mound, overflow_points, .. }) => {
            s.count[owner] += 1;
            match s.open.len() {
                0 => {
                    s.overflow[owner] += 1;
                    score = *overflow_points;
                }
                1 => {
                    let space = s.open[0] as usize;
                    place_on_mound(s, mound, space, owner)?;
                }
                _ => {
                    g.options.clear();
                    g.options.extend(s.open.iter().map(|&i| mound.acts[i as usize]));
                    g.ask_built(MOUND_SPACE, owner, [owner as i32, 0, 0, 0]);
                }
            }
        }
        (BurialChamber::D(s), Config::D { no_token_points, tomb, .. }) => {
            s.count[owner] += 1;
            match s.face_up.len() {
                0 => {
                    s.edge[owner] += 1;
                    score = *no_token_points;
                }
                1 => {
                    let token = s.face_up[0];
                    place_on_tomb(s, token, owner)?;
                }
                _ => {
                    g.options.clear();
                    g.options.extend(s.face_up.iter().map(|&t| Action::new1(*tomb, Arg::Int(t as _))));
                    g.ask_built(TOMB_TOKEN, owner, [owner as i32, 0, 0, 0]);
                }
            }
        }
        _ => unreachable!("burial_chamber: state and config of different sides"),
    }
    g.score(owner, SRC_BURIAL_CHAMBER, score);
    Ok(())
}

/// Put `owner`'s stone on the open mound space `space` and open the spaces it completes
/// (`open` stays in ascending id).
fn place_on_mound(s: &mut MoundState, mound: &Mound, space: usize, owner: usize) -> Res {
    let Some(j) = s.open.iter().position(|&o| o as usize == space) else {
        return Err(CoreError::value(format!("mound: space {space} is not open")));
    };
    s.owner[space] = owner as i8;
    s.open.remove(j);
    for &t in &mound.above[space] {
        if let Some(below) = &mound.supports[t] {
            let (left, right) = (below[0], below[1]);
            if s.owner[t] < 0 && s.owner[left] >= 0 && s.owner[right] >= 0 {
                let at = s.open.iter().position(|&o| o as usize > t).unwrap_or(s.open.len());
                s.open.insert(at, t as u8);
            }
        }
    }
    Ok(())
}

/// Use the face-up `token`: `owner`'s stone goes on its space; the token leaves the game.
fn place_on_tomb(s: &mut Tomb, token: u8, owner: usize) -> Res {
    let Some(j) = s.face_up.iter().position(|&t| t == token) else {
        return Err(CoreError::value(format!("tomb: token {token} is not face up")));
    };
    s.face_up.remove(j);
    s.grid[token as usize - 1] = owner as i8;
    Ok(())
}

/// The answer `a` to this site's question of `kind`, asked with `ctx` (the owner).
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a: Action, ctx: Context) -> Res {
    let owner = ctx[0] as usize;
    match (&mut g.sites.burial_chamber, &r.sites.burial_chamber) {
        (BurialChamber::C(s), Config::C { mound, .. }) if kind == MOUND_SPACE => {
            place_on_mound(s, mound, mound.space_of(&a), owner)
        }
        (BurialChamber::D(s), _) if kind == TOMB_TOKEN => place_on_tomb(s, a.n(0) as u8, owner),
        _ => Err(CoreError::illegal(format!("burial_chamber: no question of kind {kind}"))),
    }
}

/// The Tomb turns up `tokens_per_round` tokens, shown ascending.
pub fn round_start(g: &mut Game, r: &Rules) -> Res {
    if let (BurialChamber::D(s), Config::D { per_round, .. }) = (&mut g.sites.burial_chamber, &r.sites.burial_chamber) {
        let k = (*per_round).min(s.hidden_tokens.len());
        if k > 0 {
            let from = s.hidden_tokens.len() - k;
            let mut up: ArrayVec<u8, SPACES> = s.hidden_tokens[from..].iter().copied().collect();
            up.sort_unstable();
            s.face_up = up;
            s.hidden_tokens.truncate(from);
        }
    }
    Ok(())
}

/// The Tomb's unused face-up tokens go back to the box.
pub fn round_end(g: &mut Game, _r: &Rules) -> Res {
    if let BurialChamber::D(s) = &mut g.sites.burial_chamber {
        s.face_up.clear();
    }
    Ok(())
}

/// Connected areas of one colour on the mound: (owner, stones, levels spanned), in the order
/// of each area's first space.
fn areas(s: &MoundState, mound: &Mound) -> ArrayVec<(usize, i32, i32), SPACES> {
    let n = mound.space.len();
    let mut seen = [false; SPACES];
    let mut out = ArrayVec::new();
    let mut stack: ArrayVec<usize, SPACES> = ArrayVec::new();
    for start in 0..n {
        let o = s.owner[start];
        if o < 0 || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut size, mut lo, mut hi) = (0, mound.space[start].0, mound.space[start].0);
        while let Some(sp) = stack.pop() {
            size += 1;
            let lv = mound.space[sp].0;
            lo = lo.min(lv);
            hi = hi.max(lv);
            for &t in &mound.adj[sp] {
                if !seen[t] && s.owner[t] == o {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        out.push((o as usize, size, (hi - lo + 1) as i32));
    }
    out
}

/// Game-end scoring (docs/rules.md §7).
pub fn game_end(g: &mut Game, r: &Rules) -> Res {
    let n = g.n;
    // at most a point per seat for each row that holds a stone (B), else per group or area
    let mut points: ArrayVec<(usize, i32), { SEATS * STONES }> = ArrayVec::new();
    match (&g.sites.burial_chamber, &r.sites.burial_chamber) {
        (BurialChamber::A(s), Config::A { rows, group_table, group_extra }) => {
            line_groups(&s.owners, *rows, |owner, size| {
                points.push((owner, group_points(size, group_table, *group_extra)));
            });
        }
        (BurialChamber::B(s), Config::B { rows, row_points }) => {
            // stones per player in each row, top row first
            for row in 0..(*rows).min(s.owners.len()) {
                let mut counts = [0; SEATS];
                for &o in s.owners.iter().skip(row).step_by(*rows) {
                    counts[o as usize] += 1;
                }
                let ranked = rank_points(&counts[..n], row_points, 1);
                for (p, &pts) in ranked[..n].iter().enumerate() {
                    points.push((p, pts));
                }
            }
        }
        (BurialChamber::C(s), Config::C { mound, level_cap, .. }) => {
            for (o, size, spanned) in areas(s, mound) {
                points.push((o, size * spanned.min(*level_cap)));
            }
        }
        (BurialChamber::D(s), Config::D { rows, columns, absent_penalty, group_table, group_extra, .. }) => {
            line_groups(&s.grid[..rows * columns], *columns, |owner, size| {
                points.push((owner, group_points(size, group_table, *group_extra)));
            });
            for p in 0..n {
                if s.count[p] == 0 {
                    points.push((p, *absent_penalty));
                }
            }
        }
        _ => unreachable!("burial_chamber: state and config of different sides"),
    }
    // by reference: a long ArrayVec moved into an iterator is copied whole
    for &(p, pts) in points.iter() {
        g.score(p, SRC_BURIAL_CHAMBER, pts);
    }
    Ok(())
}

pub fn run_task(_g: &mut Game, _r: &Rules, _args: Context) -> Res {
    Err(CoreError::illegal("burial_chamber: no task".into()))
}

pub fn on_get(_g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    Err(CoreError::illegal("burial_chamber: no get action of its own".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_mound_opens_a_space_when_both_its_supports_are_filled() {
        // docs/rules.md §7.3: levels of 4, 3, 2, 1 spaces; (1, 0) rests on (0, 0) and (0, 1)
        let mut names = Names::new();
        let mound = Mound::new(&mut names, vec![4, 3, 2, 1]);
        assert_eq!(mound.start, vec![0, 1, 2, 3]);
        let mut s = MoundState { owner: [-1; SPACES], open: mound.start.iter().map(|&x| x as u8).collect(), overflow: [0; SEATS], count: [0; SEATS] };
        place_on_mound(&mut s, &mound, 0, 0).unwrap();
        assert_eq!(s.open.as_slice(), &[1, 2, 3]);
        place_on_mound(&mut s, &mound, 1, 1).unwrap();
        // space 4 is (1, 0): both supports filled, any colours
        assert_eq!(s.open.as_slice(), &[2, 3, 4]);
        assert_eq!(mound.space_of(&mound.acts[4]), 4);
        // seat 0 on (0, 0) and (1, 0): one area of 2 stones spanning 2 levels; seat 1 alone
        place_on_mound(&mut s, &mound, 4, 0).unwrap();
        assert_eq!(areas(&s, &mound).as_slice(), [(0, 2, 2), (1, 1, 1)]);
    }
}
