//! The Obelisks (docs/rules.md §8): four sides, one `match` each.
//!
//! Decisions, every one the stone's owner's:
//! - `obelisk_token` (C): `stack L 2 1 0` adds the token (here L) to the owner's card with
//!   2 squares on column 1, 1 on column 2, 0 on column 3. With the no-gap rule every column's
//!   new squares go straight on top of it, so the counts fix the placement exactly.
//! - `obelisk_claim` (D): `claim height 3 points 5` claims a free obelisk of that height and
//!   value (identical free obelisks are one choice: the first free one is taken).
//!
//! Side B asks nothing (the slot is forced: the highest free one).

use arrayvec::ArrayVec;
use serde_json::Value;

use crate::action::{Action, Arg, Name, ARGS};
use crate::game::{Context, Game, Res, SEATS};
use crate::kinds::{Kind, OBELISK_CLAIM, OBELISK_TOKEN};
use crate::rules::{as_ints, as_text, by_players, get, int, ints, CoreError, Names, Rules, Side, SRC_OBELISK};
use crate::sites::scoring::rank_points;

/// B's slots, D's obelisks: at most this many (the C rows' size).
pub const OBELISKS: usize = 16;
/// C's card columns: at most 10 (rules/limits.py COUNT).
pub const COLUMNS: usize = 10;

/// The token shapes (docs/rules.md §8.3) as cells (column, row), by letter.
const TOKEN_SHAPES: [(&str, &[(i32, i32)]); 6] = [
    ("M", &[(0, 0)]),
    ("D", &[(0, 0), (1, 0)]),
    ("I", &[(0, 0), (1, 0), (2, 0)]),
    ("L", &[(0, 0), (1, 0), (0, 1)]),
    ("T", &[(0, 0), (1, 0), (2, 0), (1, 1)]),
    ("O", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
];

/// A token's orientation: per column of its width, its lowest row and its squares there.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Orientation {
    bottoms: Vec<i32>,
    counts: Vec<i32>,
}

/// A token in play: its letter's name id and its distinct orientations.
#[derive(Clone, Debug)]
pub struct Token {
    name: Name,
    orientations: Vec<Orientation>,
}

/// Per player count (2, 3, 4), a table printed by players.
type ByPlayers = [Option<Vec<i32>>; 3];

/// The side's board data, parsed once per cell (`Rules.sites.obelisk`).
#[derive(Clone, Debug)]
pub enum Config {
    A { points: ByPlayers },
    B { per: i32, leftover: i32, slot_points: Vec<i32> },
    C { columns: usize, path: Vec<Token>, row_points: i32, bonus: ByPlayers, overflow: i32, stack: Name },
    D { target: Vec<i32>, points: Vec<i32>, unfinished: i32, overflow: i32, claim: Vec<Action> },
}

fn by_players_all(v: &Value, key: &str, at: &str) -> Result<ByPlayers, CoreError> {
    let mut out: ByPlayers = [None, None, None];
    for (i, players) in (2..=4).enumerate() {
        if let Ok(table) = by_players(v, key, players, at) {
            out[i] = Some(as_ints(table, &format!("{at}.{key}.{players}"))?.into_iter().map(|x| x as i32).collect());
        }
    }
    Ok(out)
}

/// The table for `players` (checked when a game is made: the state keeps no copy of it).
fn for_players<'a>(table: &'a ByPlayers, players: usize, at: &str) -> Result<&'a [i32], CoreError> {
    table[players - 2]
        .as_deref()
        .ok_or_else(|| CoreError::rules(format!("{at}: no value for {players} players")))
}

/// The distinct orientations (rotations and reflections) of a token, sorted; those with a
/// column that is not one run could never be placed without a gap and are left out.
fn orientations(cells: &[(i32, i32)]) -> Vec<Orientation> {
    let mut seen: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut out = Vec::new();
    for swap in [false, true] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let pts: Vec<(i32, i32)> = cells
                    .iter()
                    .map(|&(x, y)| (if swap { y } else { x } * sx, if swap { x } else { y } * sy))
                    .collect();
                let mx = pts.iter().map(|p| p.0).min().unwrap_or(0);
                let my = pts.iter().map(|p| p.1).min().unwrap_or(0);
                let mut shape: Vec<(i32, i32)> = pts.iter().map(|&(x, y)| (x - mx, y - my)).collect();
                shape.sort();
                if seen.contains(&shape) {
                    continue;
                }
                seen.push(shape.clone());
                let width = 1 + shape.iter().map(|p| p.0).max().unwrap_or(0);
                let mut bottoms = Vec::new();
                let mut counts = Vec::new();
                let mut runs = true;
                for c in 0..width {
                    let rows: Vec<i32> = shape.iter().filter(|p| p.0 == c).map(|p| p.1).collect();
                    let (lo, hi) = (rows[0], rows[rows.len() - 1]);
                    if hi - lo + 1 != rows.len() as i32 {
                        runs = false;
                        break;
                    }
                    bottoms.push(lo);
                    counts.push(rows.len() as i32);
                }
                if runs {
                    out.push(Orientation { bottoms, counts });
                }
            }
        }
    }
    out.sort();
    out
}

/// Parse the chosen side's values (`values.obelisk` of the board JSON).
pub fn parse(names: &mut Names, side: Side, v: &Value) -> Result<Config, CoreError> {
    let at = format!("obelisk.{}", side.letter());
    Ok(match side {
        Side::A => Config::A { points: by_players_all(v, "points_by_players", &at)? },
        Side::B => {
            let slots: Vec<i32> = ints(v, "slots", &at)?.into_iter().map(|x| x as i32).collect();
            if slots.len() > OBELISKS {
                return Err(CoreError::value(format!(
                    "obelisk.B.slots: at most {OBELISKS} slots, got {}",
                    slots.len()
                )));
            }
            // slots from the highest value down (stable: equal values in printed order)
            let mut order: Vec<usize> = (0..slots.len()).collect();
            order.sort_by_key(|&i| -slots[i]);
            Config::B {
                per: int(v, "stones_per_obelisk", &at)? as i32,
                leftover: int(v, "leftover_points", &at)? as i32,
                slot_points: order.iter().map(|&i| slots[i]).collect(),
            }
        }
        Side::C => {
            let path_v = get(v, "path", &at)?
                .as_array()
                .ok_or_else(|| CoreError::rules(format!("{at}.path: expected a list")))?;
            let mut path = Vec::new();
            let mut unknown: Vec<String> = Vec::new();
            for (i, t) in path_v.iter().enumerate() {
                let letter = as_text(t, &format!("{at}.path[{i}]"))?;
                match TOKEN_SHAPES.iter().find(|(l, _)| *l == letter) {
                    Some((l, cells)) => path.push(Token { name: names.intern(l), orientations: orientations(cells) }),
                    None => unknown.push(format!("'{letter}'")),
                }
            }
            if !unknown.is_empty() {
                unknown.sort();
                unknown.dedup();
                let known: Vec<&str> = TOKEN_SHAPES.iter().map(|(l, _)| *l).collect();
                return Err(CoreError::value(format!(
                    "obelisk.C.path: unknown tokens [{}] (known: {})",
                    unknown.join(", "),
                    known.join(" ")
                )));
            }
            let columns = int(v, "columns", &at)? as usize;
            if columns > COLUMNS {
                return Err(CoreError::value(format!("obelisk.C.columns: at most {COLUMNS}, got {columns}")));
            }
            Config::C {
                columns,
                path,
                row_points: int(v, "row_points", &at)? as i32,
                bonus: by_players_all(v, "rank_bonus_by_players", &at)?,
                overflow: int(v, "overflow_points", &at)? as i32,
                stack: names.intern("stack"),
            }
        }
        Side::D => {
            let list = get(v, "obelisks", &at)?
                .as_array()
                .ok_or_else(|| CoreError::rules(format!("{at}.obelisks: expected a list")))?;
            if list.len() > OBELISKS {
                return Err(CoreError::value(format!(
                    "obelisk.D.obelisks: at most {OBELISKS} obelisks, got {}",
                    list.len()
                )));
            }
            let (claim, height, points) = (names.intern("claim"), names.intern("height"), names.intern("points"));
            let mut target = Vec::new();
            let mut pts = Vec::new();
            let mut actions = Vec::new();
            for (i, o) in list.iter().enumerate() {
                let pair = as_ints(o, &format!("{at}.obelisks[{i}]"))?;
                if pair.iter().any(|&x| i16::try_from(x).is_err()) {
                    // an action's numbers are 16-bit (action.rs); the board limits are far narrower
                    return Err(CoreError::value(format!("{at}.obelisks[{i}]: expected numbers from -32768 to 32767, got {pair:?}")));
                }
                let (h, p) = (pair[0] as i32, pair[1] as i32);
                target.push(h);
                pts.push(p);
                actions.push(Action::new(claim, &[Arg::Name(height), Arg::Int(h as _), Arg::Name(points), Arg::Int(p as _)]));
            }
            Config::D {
                target,
                points: pts,
                unfinished: int(v, "unfinished_points", &at)? as i32,
                overflow: int(v, "overflow_points", &at)? as i32,
                claim: actions,
            }
        }
    })
}

/// Side A (8.1): each stone raises its owner's obelisk; game end points by height rank.
#[derive(Clone, Debug)]
pub struct SideA {
    pub heights: [i32; SEATS],
}

/// Side B (8.2): stones collect on the owner's space; every `per`-th completes an obelisk,
/// which takes the highest-value free slot and scores it at once; game end: each stone not
/// in a finished obelisk scores `leftover`.
#[derive(Clone, Debug)]
pub struct SideB {
    per: i32,
    pub taken: usize,
    pub slot_owner: [i32; OBELISKS],
    pub pending: [i32; SEATS],
    pub built: [i32; SEATS],
}

/// Side C (8.3), the Great Obelisk: a card is kept as its column heights (with the no-gap
/// rule each column is one run from the bottom): complete rows = the lowest column,
/// incomplete rows = highest minus lowest.
#[derive(Clone, Debug)]
pub struct SideC {
    pub next: usize,
    pub cards: [[i32; COLUMNS]; SEATS],
    pub on_path: [i32; SEATS],
    pub overflow: [i32; SEATS],
    pub discarded: [i32; SEATS],
}

/// Side D (8.4), the Passage: per obelisk its owner (-1: free) and height; per seat the
/// obelisk it builds (-1: none), its stones on obelisks and its overflow.
#[derive(Clone, Debug)]
pub struct SideD {
    pub owner: [i32; OBELISKS],
    pub height: [i32; OBELISKS],
    pub working: [i32; SEATS],
    pub placed: [i32; SEATS],
    pub overflow: [i32; SEATS],
}

/// The site's state in a game (`Game.sites.obelisk`).
#[derive(Clone, Debug)]
pub enum Obelisk {
    A(SideA),
    B(SideB),
    C(SideC),
    D(SideD),
}

impl Obelisk {
    pub fn new(r: &Rules, players: usize) -> Result<Obelisk, CoreError> {
        Ok(match &r.sites.obelisk {
            Config::A { points } => {
                for_players(points, players, "obelisk.A.points_by_players")?;
                Obelisk::A(SideA { heights: [0; SEATS] })
            }
            Config::B { per, .. } => {
                Obelisk::B(SideB { per: *per, taken: 0, slot_owner: [-1; OBELISKS], pending: [0; SEATS], built: [0; SEATS] })
            }
            Config::C { bonus, .. } => {
                for_players(bonus, players, "obelisk.C.rank_bonus_by_players")?;
                Obelisk::C(SideC {
                    next: 0,
                    cards: [[0; COLUMNS]; SEATS],
                    on_path: [0; SEATS],
                    overflow: [0; SEATS],
                    discarded: [0; SEATS],
                })
            }
            Config::D { .. } => Obelisk::D(SideD {
                owner: [-1; OBELISKS],
                height: [0; OBELISKS],
                working: [-1; SEATS],
                placed: [0; SEATS],
                overflow: [0; SEATS],
            }),
        })
    }

    /// Stones of all colours here, overflow included (decorations count these).
    pub fn stones(&self) -> i32 {
        match self {
            Obelisk::A(s) => s.heights.iter().sum(),
            Obelisk::B(s) => s.pending.iter().sum::<i32>() + s.per * s.taken as i32,
            Obelisk::C(s) => s.next as i32 + s.overflow.iter().sum::<i32>(),
            Obelisk::D(s) => s.placed.iter().sum::<i32>() + s.overflow.iter().sum::<i32>(),
        }
    }

    /// Stones of player `p` here (conservation checks, prophecies).
    pub fn stones_of(&self, p: usize) -> i32 {
        match self {
            Obelisk::A(s) => s.heights[p],
            Obelisk::B(s) => s.pending[p] + s.per * s.built[p],
            Obelisk::C(s) => s.on_path[p] + s.overflow[p],
            Obelisk::D(s) => s.placed[p] + s.overflow[p],
        }
    }
}

/// The legal placements of `token` on a card of column `heights` (docs/rules.md §8.3):
/// inside the columns, no overlap, every column's squares one run from the bottom. The
/// squares added per column, left-heavy first.
pub fn placements(columns: usize, token: &Token, heights: &[i32]) -> Vec<[i32; COLUMNS]> {
    let low = heights[..columns].iter().copied().min().unwrap_or(0);
    let rel: Vec<i32> = heights[..columns].iter().map(|h| h - low).collect();
    let mut found: Vec<[i32; COLUMNS]> = Vec::new();
    for o in &token.orientations {
        let w = o.bottoms.len();
        if w > columns {
            continue;
        }
        for c0 in 0..=(columns - w) {
            let base = rel[c0] - o.bottoms[0];
            if (1..w).all(|j| rel[c0 + j] - o.bottoms[j] == base) {
                let mut add = [0; COLUMNS];
                add[c0..c0 + w].copy_from_slice(&o.counts);
                if !found.contains(&add) {
                    found.push(add);
                }
            }
        }
    }
    found.sort_by(|a, b| b.cmp(a)); // deterministic: left-heavy first
    found
}

/// Obelisk C's bonus by rank of complete rows (docs/rules.md §8.3): ranked by complete
/// rows, ties broken by more incomplete rows; players still tied share the points of the
/// ranks they occupy, rounded to the nearest (halves up). A player with no complete row takes
/// no rank and no bonus.
pub fn rank_bonus(rows: &[(i32, i32)], table: &[i32]) -> ArrayVec<i32, SEATS> {
    let n = rows.len();
    let mut out: ArrayVec<i32, SEATS> = std::iter::repeat_n(0, n).collect();
    let mut order: ArrayVec<usize, SEATS> = (0..n).filter(|&p| rows[p].0 >= 1).collect();
    order.sort_by(|&a, &b| rows[b].cmp(&rows[a])); // stable: Python's sorted(reverse=True)
    let (mut rank, mut i) = (0, 0);
    while i < order.len() {
        let mut j = i;
        while j < order.len() && rows[order[j]] == rows[order[i]] {
            j += 1;
        }
        let k = (j - i) as i32;
        let pool: i32 = (rank..rank + (j - i)).filter(|&r| r < table.len()).map(|r| table[r]).sum();
        let share = (2 * pool + k).div_euclid(2 * k);
        for &p in &order[i..j] {
            out[p] = share;
        }
        rank += j - i;
        i = j;
    }
    out
}

pub fn setup(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// A stone of `owner` arrives (from a ship, a red card or a bonus).
pub fn deliver(g: &mut Game, r: &Rules, owner: usize) -> Res {
    let mut score = 0;
    match (&mut g.sites.obelisk, &r.sites.obelisk) {
        (Obelisk::A(s), _) => s.heights[owner] += 1,
        (Obelisk::B(s), Config::B { per, slot_points, .. }) => {
            let k = s.pending[owner] + 1;
            if k >= *per && s.taken < slot_points.len() {
                s.pending[owner] = k - per;
                s.built[owner] += 1;
                s.slot_owner[s.taken] = owner as i32;
                score = slot_points[s.taken];
                s.taken += 1;
            } else {
                s.pending[owner] = k;
            }
        }
        (Obelisk::C(s), Config::C { columns, path, overflow, stack, .. }) => {
            let i = s.next;
            if i >= path.len() {
                s.overflow[owner] += 1;
                score = *overflow;
            } else {
                s.next = i + 1;
                s.on_path[owner] += 1;
                let token = &path[i];
                let adds = placements(*columns, token, &s.cards[owner]);
                if adds.is_empty() {
                    s.discarded[owner] += 1;
                } else {
                    g.options.clear();
                    for add in &adds {
                        let mut args: ArrayVec<Arg, ARGS> = ArrayVec::new();
                        args.push(Arg::Name(token.name));
                        args.extend(add[..*columns].iter().map(|&k| Arg::Int(k as _)));
                        g.options.push(Action::new(*stack, &args));
                    }
                    g.ask_built(OBELISK_TOKEN, owner, [owner as i32, 0, 0, 0]);
                }
            }
        }
        (Obelisk::D(s), Config::D { claim, overflow, .. }) => {
            let o = s.working[owner];
            if o >= 0 {
                s.placed[owner] += 1;
                add_stone(s, r, owner, o as usize);
            } else {
                // one claim per kind of free obelisk (height, points), in printed order
                g.options.clear();
                for (o, a) in claim.iter().enumerate() {
                    if s.owner[o] < 0 && !g.options.contains(a) {
                        g.options.push(*a);
                    }
                }
                if g.options.is_empty() {
                    s.overflow[owner] += 1;
                    score = *overflow;
                } else {
                    s.placed[owner] += 1; // counted at once: the stone is here while its owner chooses
                    g.ask_built(OBELISK_CLAIM, owner, [owner as i32, 0, 0, 0]);
                }
            }
        }
        _ => unreachable!("obelisk: state and config of different sides"),
    }
    g.score(owner, SRC_OBELISK, score);
    Ok(())
}

/// D: a stone on obelisk `o`; its owner goes on building it until it reaches its height.
fn add_stone(s: &mut SideD, r: &Rules, owner: usize, o: usize) {
    let Config::D { target, .. } = &r.sites.obelisk else { unreachable!() };
    s.height[o] += 1;
    s.working[owner] = if s.height[o] < target[o] { o as i32 } else { -1 };
}

/// The answer `a` to this site's question of `kind`, asked with `ctx` (the owner).
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a: Action, ctx: Context) -> Res {
    let owner = ctx[0] as usize;
    match (&mut g.sites.obelisk, &r.sites.obelisk) {
        (Obelisk::C(s), Config::C { columns, .. }) if kind == OBELISK_TOKEN => {
            for c in 0..*columns {
                s.cards[owner][c] += a.n(1 + c);
            }
            Ok(())
        }
        (Obelisk::D(s), Config::D { claim, .. }) if kind == OBELISK_CLAIM => {
            // the first free obelisk this action claims
            let Some(o) = (0..claim.len()).find(|&o| s.owner[o] < 0 && claim[o] == a) else {
                return Err(CoreError::value(format!("obelisk: {} claims no free obelisk", a.text(&r.names))));
            };
            s.owner[o] = owner as i32;
            add_stone(s, r, owner, o);
            Ok(())
        }
        _ => Err(CoreError::illegal(format!("obelisk: no question of kind {kind}"))),
    }
}

pub fn round_start(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

pub fn round_end(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// Game-end scoring, in seat order (then, for C, the rank bonus).
pub fn game_end(g: &mut Game, r: &Rules) -> Res {
    let n = g.n;
    let mut points: ArrayVec<(usize, i32), { OBELISKS + 2 * SEATS }> = ArrayVec::new();
    match (&g.sites.obelisk, &r.sites.obelisk) {
        (Obelisk::A(s), Config::A { points: table }) => {
            let table = for_players(table, n, "obelisk.A.points_by_players")?;
            let ranked = rank_points(&s.heights[..n], table, 1);
            for (p, &pts) in ranked[..n].iter().enumerate() {
                points.push((p, pts));
            }
        }
        (Obelisk::B(s), Config::B { leftover, .. }) => {
            for p in 0..n {
                points.push((p, s.pending[p] * leftover));
            }
        }
        (Obelisk::C(s), Config::C { columns, row_points, bonus, .. }) => {
            let rows: ArrayVec<(i32, i32), SEATS> = (0..n)
                .map(|p| {
                    let card = &s.cards[p][..*columns];
                    let low = card.iter().copied().min().unwrap_or(0);
                    let high = card.iter().copied().max().unwrap_or(0);
                    (low, high - low)
                })
                .collect();
            for (p, &(full, _)) in rows.iter().enumerate() {
                points.push((p, full * row_points));
            }
            let bonus = for_players(bonus, n, "obelisk.C.rank_bonus_by_players")?;
            for (p, pts) in rank_bonus(&rows, bonus).into_iter().enumerate() {
                points.push((p, pts));
            }
        }
        (Obelisk::D(s), Config::D { target, points: values, unfinished, .. }) => {
            for o in 0..target.len() {
                let p = s.owner[o];
                if p >= 0 {
                    let h = s.height[o];
                    points.push((p as usize, if h >= target[o] { values[o] } else { h * unfinished }));
                }
            }
        }
        _ => unreachable!("obelisk: state and config of different sides"),
    }
    for (p, pts) in points {
        g.score(p, SRC_OBELISK, pts);
    }
    Ok(())
}

pub fn run_task(_g: &mut Game, _r: &Rules, _args: Context) -> Res {
    Err(CoreError::illegal("obelisk: no task".into()))
}

pub fn on_get(_g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    Err(CoreError::illegal("obelisk: no get action of its own".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(letter: &str) -> Token {
        let (_, cells) = TOKEN_SHAPES.iter().find(|(l, _)| *l == letter).unwrap();
        Token { name: 0, orientations: orientations(cells) }
    }

    #[test]
    fn an_l_token_on_an_empty_three_column_card() {
        // docs/rules.md §8.3: the L (3 squares) lies as 2+1 or 1+2 over two columns (the
        // orientations with one column of 2 on a flat card), left-heavy first.
        let found = placements(3, &token("L"), &[0, 0, 0]);
        let adds: Vec<&[i32]> = found.iter().map(|a| &a[..3]).collect();
        assert_eq!(adds, vec![&[2, 1, 0][..], &[1, 2, 0], &[0, 2, 1], &[0, 1, 2]]);
    }

    #[test]
    fn an_i_token_needs_a_flat_row_or_a_column() {
        // the I lies flat over three level columns, or stands in one column (3 squares)
        let found = placements(3, &token("I"), &[1, 0, 0]);
        let adds: Vec<&[i32]> = found.iter().map(|a| &a[..3]).collect();
        assert_eq!(adds, vec![&[3, 0, 0][..], &[0, 3, 0], &[0, 0, 3]]);
        // a T (3 flat, 1 on the middle) on 0 1 0 2: flat with its top on column 2 would
        // leave a gap, so it stands on its side: 3 1 on columns 1-2, or 1 3 on columns 2-3
        let found = placements(4, &token("T"), &[0, 1, 0, 2]);
        let adds: Vec<&[i32]> = found.iter().map(|a| &a[..4]).collect();
        assert_eq!(adds, vec![&[3, 1, 0, 0][..], &[0, 1, 3, 0]]);
    }

    #[test]
    fn rank_bonus_rounds_shares_to_the_nearest_and_skips_players_without_a_row() {
        // table 5, 2: seats 0 and 1 tie on (2 rows, 1 incomplete): (5 + 2) / 2 = 3.5 -> 4
        // each; seat 2 has no complete row: nothing.
        assert_eq!(rank_bonus(&[(2, 1), (2, 1), (0, 3)], &[5, 2]).as_slice(), [4, 4, 0]);
        // incomplete rows break a tie in complete rows
        assert_eq!(rank_bonus(&[(1, 0), (1, 2)], &[5, 2]).as_slice(), [2, 5]);
    }
}
