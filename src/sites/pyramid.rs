//! The Pyramid (docs/rules.md §5): its four sides, scored when the
//! stone arrives; a full side scores `overflow_points` per further stone.
//!
//! Decisions (made by the delivered stone's owner; a single option is carried out at once):
//!
//! | kind                | side | options (notation)                                        |
//! |---------------------|------|-----------------------------------------------------------|
//! | `pyramid_choice`    | B    | `pyramid left` / `middle` / `right`: a pyramid not full    |
//! | `pyramid_ship_slot` | B, C | `ship 2 1`: the `ship` bonus's stone onto slot 1 of ship 2 |
//! | `turn` (addition)   | D    | `get move`: Get new stones and move the Imhotep figure     |
//!
//! Rewards (board data strings, §5.2, 5.3): `pN` N points, `sN`/`stonesN` N stones from the
//! quarry to the sled, `card` the top market card (a red card acts at once), `ship` one
//! quarry stone onto an empty slot of an unsailed ship, `""` nothing. All points score under
//! "pyramid".

use arrayvec::ArrayVec;
use serde_json::Value;

use crate::action::{Action, Arg, Name};
use crate::cards;
use crate::game::{Context, Game, Purpose, Res, SEATS};
use crate::kinds::{Kind, PYRAMID_CHOICE, PYRAMID_SHIP_SLOT};
use crate::rules::{as_ints, as_text, get, int, ints, CoreError, Names, Rules, Side, SRC_PYRAMID};
use crate::stream::Stream;

/// The stones a side takes in fill order (A's owners, B-D's overflow): the ships carry at
/// most 6 rounds x 16 slots, red cards a few more (the Python engine's C row sizes).
pub const STONES: usize = 128;
/// Pyramid D's corridor.
pub const SPACES: usize = 32;
/// Pyramid B: pyramids, spaces on each.
pub const PYRAMIDS: usize = 4;
pub const HEIGHT: usize = 8;
/// Pyramid C: tiles, spaces on each.
pub const TILES: usize = 8;
pub const TILE: usize = 8;

/// Pyramid B's names for its pyramids, left to right (more or fewer: numbered from 0).
const PYRAMID_NAMES: [&str; 3] = ["left", "middle", "right"];

/// One reward of the board data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    None,
    Points(i32),
    Stones(i32),
    Card,
    Ship,
}

/// A reward string of the board data (`pN`, `sN`, `stonesN`, `card`, `ship`, `""`).
pub fn parse_reward(text: &str, at: &str) -> Result<Reward, CoreError> {
    let number = |digits: &str| -> Option<i32> {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse().ok()
        } else {
            None
        }
    };
    let parsed = match text {
        "" => Some(Reward::None),
        "card" => Some(Reward::Card),
        "ship" => Some(Reward::Ship),
        _ => {
            if let Some(rest) = text.strip_prefix("stones") {
                number(rest).map(Reward::Stones)
            } else if let Some(rest) = text.strip_prefix('s') {
                number(rest).map(Reward::Stones)
            } else if let Some(rest) = text.strip_prefix('p') {
                number(rest).map(Reward::Points)
            } else {
                None
            }
        }
    };
    parsed.ok_or_else(|| {
        CoreError::value(format!(
            "{at}: unknown reward '{text}' (expected pN, sN, stonesN, card, ship or \"\")"
        ))
    })
}

/// The side's board data, parsed once per cell (`Rules.sites.pyramid`).
#[derive(Clone, Debug)]
pub enum Config {
    /// 5.1: points by fill order, then `overflow` per stone.
    A { points: Vec<i32>, overflow: i32 },
    /// 5.2: per pyramid, per space in fill order: (points, reward); `choices` the
    /// `pyramid <name>` actions; `ship` the name id of "ship".
    B { spaces: Vec<Vec<(i32, Reward)>>, choices: Vec<Action>, overflow: i32, ship: Name },
    /// 5.3: the scaffold tiles' rewards, left to right.
    C { tiles: Vec<Vec<Reward>>, tiles_in_play: usize, majority: i32, tie: i32, overflow: i32, ship: Name },
    /// 5.4: the ring's values clockwise from the start space.
    D { points: Vec<i32>, overflow: i32 },
}

fn rows<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a Vec<Value>, CoreError> {
    get(v, key, at)?
        .as_array()
        .ok_or_else(|| CoreError::rules(format!("{at}.{key}: expected a list")))
}

fn reward_rows(v: &Value, key: &str, at: &str) -> Result<Vec<Vec<Reward>>, CoreError> {
    let mut out = Vec::new();
    for (i, row) in rows(v, key, at)?.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| CoreError::rules(format!("{at}.{key}[{i}]: expected a list")))?;
        let mut parsed = Vec::new();
        for (j, cell) in cells.iter().enumerate() {
            let where_ = format!("{at}.{key}[{i}][{j}]");
            parsed.push(parse_reward(as_text(cell, &where_)?, &where_)?);
        }
        out.push(parsed);
    }
    Ok(out)
}

/// Parse the chosen side's values (`values.pyramid` of the board JSON), interning the names
/// its actions show.
pub fn parse(names: &mut Names, side: Side, values: &Value) -> Result<Config, CoreError> {
    let at = format!("pyramid.{}", side.letter());
    let overflow = int(values, "overflow_points", &at)? as i32;
    let ship = names.intern("ship");
    Ok(match side {
        Side::A => Config::A { points: ints(values, "points", &at)?.into_iter().map(|x| x as i32).collect(), overflow },
        Side::B => {
            let mut points = Vec::new();
            for (i, row) in rows(values, "points", &at)?.iter().enumerate() {
                points.push(as_ints(row, &format!("{at}.points[{i}]"))?);
            }
            let bonus = reward_rows(values, "bonus", "pyramid.B")?;
            if points.len() != bonus.len() || points.iter().zip(&bonus).any(|(a, b)| a.len() != b.len()) {
                return Err(CoreError::value("pyramid.B: bonus must have the shape of points".into()));
            }
            if points.len() > PYRAMIDS || points.iter().any(|pp| pp.len() > HEIGHT) {
                return Err(CoreError::value(format!(
                    "pyramid.B.points: at most {PYRAMIDS} pyramids of at most {HEIGHT} spaces"
                )));
            }
            let spaces = points
                .iter()
                .zip(&bonus)
                .map(|(pp, rr)| pp.iter().zip(rr).map(|(&pt, &rw)| (pt as i32, rw)).collect())
                .collect();
            let kind = names.intern("pyramid");
            let choices = if points.len() == PYRAMID_NAMES.len() {
                PYRAMID_NAMES.iter().map(|n| Action::new1(kind, Arg::Name(names.intern(n)))).collect()
            } else {
                (0..points.len()).map(|i| Action::new1(kind, Arg::Int(i as _))).collect()
            };
            Config::B { spaces, choices, overflow, ship }
        }
        Side::C => {
            let tiles = reward_rows(values, "tiles", "pyramid.C")?;
            if tiles.len() > TILES || tiles.iter().any(|t| t.len() > TILE) {
                return Err(CoreError::value(format!(
                    "pyramid.C.tiles: at most {TILES} tiles of at most {TILE} spaces"
                )));
            }
            Config::C {
                tiles,
                tiles_in_play: int(values, "tiles_in_play", &at)?.max(0) as usize,
                majority: int(values, "majority_points", &at)? as i32,
                tie: int(values, "majority_tie_points", &at)? as i32,
                overflow,
                ship,
            }
        }
        Side::D => {
            let points: Vec<i32> = ints(values, "points", &at)?.into_iter().map(|x| x as i32).collect();
            if points.len() > SPACES {
                return Err(CoreError::value(format!(
                    "pyramid.D.points: at most {SPACES} spaces, got {}",
                    points.len()
                )));
            }
            Config::D { points, overflow }
        }
    })
}

/// Stones per player kept as counters (sides B-D: every stone delivered stays), and the
/// owners of the overflow stones in order.
#[derive(Clone, Debug)]
pub struct Counted {
    pub count: [i32; SEATS],
    pub overflows: usize,
    pub overflow_owners: [i8; STONES],
}

impl Default for Counted {
    fn default() -> Counted {
        Counted { count: [0; SEATS], overflows: 0, overflow_owners: [0; STONES] }
    }
}

#[derive(Clone, Debug)]
pub struct PyramidA {
    /// the owners of the stones in fill order (the first `placed`; beyond the points:
    /// overflow)
    pub owners: [i8; STONES],
    pub placed: usize,
}

#[derive(Clone, Debug, Default)]
pub struct PyramidB {
    pub counted: Counted,
    /// stones on each pyramid
    pub laid: [u8; PYRAMIDS],
    /// the owners on pyramid i at i * HEIGHT + k, in fill order
    pub on: [i8; PYRAMIDS * HEIGHT],
    /// the pyramids not full, in order
    pub open: ArrayVec<u8, PYRAMIDS>,
}

#[derive(Clone, Debug)]
pub struct PyramidC {
    pub counted: Counted,
    /// the face-up tile (index in the data's tiles), -1 once all are used
    pub tile: i32,
    /// owners on the face-up tile, left to right
    pub on_tile: ArrayVec<i8, TILE>,
    /// the full tiles, bottom first, and their owners (tile d's at d * TILE + k)
    pub done_tile: ArrayVec<u8, TILES>,
    pub done_owners: [i8; TILES * TILE],
    /// hidden: the face-down tiles (the next at the end), and those removed at setup
    pub hidden_stack: ArrayVec<u8, TILES>,
    pub hidden_removed: ArrayVec<u8, TILES>,
    /// face-down tiles (public)
    pub tiles_left: usize,
}

#[derive(Clone, Debug)]
pub struct PyramidD {
    pub counted: Counted,
    /// owner of the stone on each space, -1 free
    pub spaces: [i8; SPACES],
    pub size: usize,
    pub filled: usize,
    pub figure: usize,
}

/// The site's state in a game (`Game.sites.pyramid`).
#[derive(Clone, Debug)]
pub enum Pyramid {
    A(PyramidA),
    B(PyramidB),
    C(PyramidC),
    D(PyramidD),
}

impl Pyramid {
    pub fn new(r: &Rules, _players: usize) -> Result<Pyramid, CoreError> {
        Ok(match &r.sites.pyramid {
            Config::A { .. } => Pyramid::A(PyramidA { owners: [0; STONES], placed: 0 }),
            Config::B { spaces, .. } => {
                let open = (0..spaces.len()).filter(|&i| !spaces[i].is_empty()).map(|i| i as u8).collect();
                Pyramid::B(PyramidB { open, ..PyramidB::default() })
            }
            // the tiles are laid out at setup (a chance pick)
            Config::C { .. } => Pyramid::C(PyramidC {
                counted: Counted::default(),
                tile: -1,
                on_tile: ArrayVec::new(),
                done_tile: ArrayVec::new(),
                done_owners: [0; TILES * TILE],
                hidden_stack: ArrayVec::new(),
                hidden_removed: ArrayVec::new(),
                tiles_left: 0,
            }),
            Config::D { points, .. } => Pyramid::D(PyramidD {
                counted: Counted::default(),
                spaces: [-1; SPACES],
                size: points.len(),
                filled: 0,
                figure: 0,
            }),
        })
    }

    fn counted(&self) -> Option<&Counted> {
        match self {
            Pyramid::A(_) => None,
            Pyramid::B(p) => Some(&p.counted),
            Pyramid::C(p) => Some(&p.counted),
            Pyramid::D(p) => Some(&p.counted),
        }
    }

    /// Stones of all colours here, overflow included (decorations count these).
    pub fn stones(&self) -> i32 {
        match self {
            Pyramid::A(p) => p.placed as i32,
            other => other.counted().unwrap().count.iter().sum(),
        }
    }

    /// Stones of player `p` here (conservation checks, prophecies).
    pub fn stones_of(&self, p: usize) -> i32 {
        match self {
            Pyramid::A(a) => a.owners[..a.placed].iter().filter(|&&o| o as usize == p).count() as i32,
            other => other.counted().unwrap().count[p],
        }
    }
}

fn a(g: &mut Game) -> &mut PyramidA {
    match &mut g.sites.pyramid {
        Pyramid::A(p) => p,
        _ => unreachable!("pyramid: not side A"),
    }
}

fn b(g: &mut Game) -> &mut PyramidB {
    match &mut g.sites.pyramid {
        Pyramid::B(p) => p,
        _ => unreachable!("pyramid: not side B"),
    }
}

fn c(g: &mut Game) -> &mut PyramidC {
    match &mut g.sites.pyramid {
        Pyramid::C(p) => p,
        _ => unreachable!("pyramid: not side C"),
    }
}

fn d(g: &mut Game) -> &mut PyramidD {
    match &mut g.sites.pyramid {
        Pyramid::D(p) => p,
        _ => unreachable!("pyramid: not side D"),
    }
}

fn counted(g: &mut Game) -> &mut Counted {
    match &mut g.sites.pyramid {
        Pyramid::A(_) => unreachable!("pyramid: side A counts no stones"),
        Pyramid::B(p) => &mut p.counted,
        Pyramid::C(p) => &mut p.counted,
        Pyramid::D(p) => &mut p.counted,
    }
}

fn full(side: &str) -> CoreError {
    CoreError::value(format!(
        "pyramid.{side}: at most {STONES} stones in fill order (src/sites/pyramid.rs STONES, the C row's size): \
         fewer game.stones or rounds"
    ))
}

/// Set-up work that needs the game: Pyramid C's scaffold (a chance pick), Pyramid D's
/// "get move".
pub fn setup(g: &mut Game, r: &Rules) -> Res {
    match &r.sites.pyramid {
        Config::C { tiles, tiles_in_play, .. } => {
            // tiles by number, as the data lists them
            let numbers: Vec<Arg> = (1..=tiles.len()).map(|t| Arg::Int(t as _)).collect();
            let keep = (*tiles_in_play).min(tiles.len());
            let order = g.chance_pick(Purpose::Scaffold, &numbers, keep)?;
            let p = c(g);
            p.hidden_removed = (0..tiles.len()).filter(|t| !order.contains(t)).map(|t| t as u8).collect();
            p.hidden_stack = order.iter().skip(1).rev().map(|&t| t as u8).collect(); // next tile at the end
            p.tiles_left = p.hidden_stack.len();
            p.tile = if keep > 0 { order[0] as i32 } else { -1 };
            p.on_tile.clear();
        }
        Config::D { .. } => update_get(g),
        _ => {}
    }
    Ok(())
}

pub fn round_start(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

pub fn round_end(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

pub fn game_end(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// The pyramid pushes no task of its own.
pub fn run_task(_g: &mut Game, _r: &Rules, _args: Context) -> Res {
    Err(CoreError::illegal("pyramid: no task".into()))
}

/// Carry out one reward for `p`. `ship` may ask: nothing after it in the same call may ask
/// too.
fn give_reward(g: &mut Game, r: &Rules, p: usize, reward: Reward, ship: Name) -> Res {
    match reward {
        Reward::None => {}
        Reward::Points(n) => g.score(p, SRC_PYRAMID, n),
        Reward::Stones(n) => {
            g.sled_to_capacity(p, n);
        }
        Reward::Card => {
            if let Some(card) = g.draw(r)? {
                cards::gain(g, r, p, card)?;
            }
        }
        Reward::Ship => {
            // 1 stone from the owner's quarry onto an empty slot of an unsailed ship, the
            // owner choosing the slot; nothing if no slot is free or the quarry is empty (5.2)
            if g.quarry[p] > 0 && g.ship_free != 0 {
                let opts: ArrayVec<Action, 16> = g
                    .empty_slots(0b1111)
                    .iter()
                    .map(|a| Action::new2(ship, Arg::Int(a.n(0) as _), Arg::Int(a.n(1) as _)))
                    .collect();
                if opts.len() == 1 {
                    ship_slot(g, opts[0], p);
                } else {
                    g.ask(PYRAMID_SHIP_SLOT, p, &opts, [p as i32, 0, 0, 0]);
                }
            }
        }
    }
    Ok(())
}

fn ship_slot(g: &mut Game, a_: Action, p: usize) {
    g.quarry[p] -= 1;
    g.put_on_ship(p, a_.n(0) as usize, a_.n(1) as usize);
}

fn overflow(g: &mut Game, owner: usize, points: i32, side: &str) -> Res {
    let k = counted(g);
    let i = k.overflows;
    if i >= STONES {
        return Err(full(side));
    }
    k.overflow_owners[i] = owner as i8;
    k.overflows = i + 1;
    g.score(owner, SRC_PYRAMID, points);
    Ok(())
}

/// A stone of `owner` arrives.
pub fn deliver(g: &mut Game, r: &Rules, owner: usize) -> Res {
    match &r.sites.pyramid {
        Config::A { points, overflow } => {
            let p = a(g);
            let i = p.placed;
            if i >= STONES {
                return Err(full("A"));
            }
            p.owners[i] = owner as i8;
            p.placed = i + 1;
            g.score(owner, SRC_PYRAMID, points.get(i).copied().unwrap_or(*overflow));
        }
        Config::B { choices, overflow: pts, .. } => {
            let p = b(g);
            p.counted.count[owner] += 1;
            if p.open.len() > 1 {
                let opts: ArrayVec<Action, PYRAMIDS> = p.open.iter().map(|&i| choices[i as usize]).collect();
                g.ask(PYRAMID_CHOICE, owner, &opts, [owner as i32, 0, 0, 0]);
            } else if let Some(&i) = p.open.first() {
                place_b(g, r, owner, i as usize)?;
            } else {
                overflow(g, owner, *pts, "B")?;
            }
        }
        Config::C { tiles, ship, overflow: pts, .. } => {
            let p = c(g);
            p.counted.count[owner] += 1;
            if p.tile < 0 {
                return overflow(g, owner, *pts, "C");
            }
            let rewards = &tiles[p.tile as usize];
            let reward = rewards[p.on_tile.len()];
            p.on_tile.push(owner as i8);
            give_reward(g, r, owner, reward, *ship)?;
            if c(g).on_tile.len() == rewards.len() {
                complete(g, r);
            }
        }
        Config::D { points, overflow: pts } => {
            let p = d(g);
            p.counted.count[owner] += 1;
            let i = if p.filled < p.size { next_free(p) } else { None };
            let Some(i) = i else {
                return overflow(g, owner, *pts, "D");
            };
            p.spaces[i] = owner as i8;
            p.filled += 1;
            let (filled, size) = (p.filled, p.size);
            g.score(owner, SRC_PYRAMID, points[i]);
            if filled + 1 >= size {
                update_get(g);
            }
        }
    }
    Ok(())
}

/// The answer `a` to this site's question of `kind`, asked with `ctx` (the owner first).
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a_: Action, ctx: Context) -> Res {
    let owner = ctx[0] as usize;
    if kind == PYRAMID_CHOICE {
        let Config::B { choices, .. } = &r.sites.pyramid else { unreachable!() };
        let i = choices.iter().position(|&x| x == a_).expect("pyramid.B: not a pyramid");
        return place_b(g, r, owner, i);
    }
    ship_slot(g, a_, owner);
    Ok(())
}

// ------------------------------------------------------------------------ Pyramid B (5.2)
fn place_b(g: &mut Game, r: &Rules, owner: usize, i: usize) -> Res {
    let Config::B { spaces, ship, .. } = &r.sites.pyramid else { unreachable!() };
    let spaces = &spaces[i];
    let p = b(g);
    let k = p.laid[i] as usize;
    let (points, reward) = spaces[k];
    p.on[i * HEIGHT + k] = owner as i8;
    p.laid[i] = k as u8 + 1;
    if k + 1 == spaces.len() {
        // full: out of the open ones, the others in their order
        p.open.retain(|x| *x as usize != i);
    }
    g.score(owner, SRC_PYRAMID, points);
    give_reward(g, r, owner, reward, *ship)
}

// ------------------------------------------------------------------------ Pyramid C (5.3)
/// The face-up tile is full: the majority scores, the next tile is turned up.
fn complete(g: &mut Game, r: &Rules) {
    let Config::C { majority, tie, .. } = &r.sites.pyramid else { unreachable!() };
    let n = g.n;
    let p = c(g);
    let mut per = [0i32; SEATS];
    for &o in &p.on_tile {
        per[o as usize] += 1;
    }
    let best = *per[..n].iter().max().unwrap();
    let pts = if per[..n].iter().filter(|&&x| x == best).count() == 1 { *majority } else { *tie };
    let d_ = p.done_tile.len();
    p.done_tile.push(p.tile as u8);
    for (k, &o) in p.on_tile.iter().enumerate() {
        p.done_owners[d_ * TILE + k] = o;
    }
    p.tile = p.hidden_stack.pop().map_or(-1, |t| t as i32);
    p.on_tile.clear();
    p.tiles_left = p.hidden_stack.len();
    for (seat, &k) in per[..n].iter().enumerate() {
        // the tied in seat order
        if k == best {
            g.score(seat, SRC_PYRAMID, pts);
        }
    }
}

// ------------------------------------------------------------------------ Pyramid D (5.4)
/// The first free space clockwise after the figure (its own space last).
fn next_free(p: &PyramidD) -> Option<usize> {
    (1..=p.size).map(|step| (p.figure + step) % p.size).find(|&i| p.spaces[i] < 0)
}

/// The turn offers "get move" while a free space other than the figure's own is left.
fn update_get(g: &mut Game) {
    let p = d(g);
    let own = if p.size > 0 && p.spaces[p.figure] < 0 { 1 } else { 0 };
    let free_elsewhere = p.size as i32 - p.filled as i32 - own;
    g.get_with_move = free_elsewhere > 0;
}

/// `get move`: the figure moves to the next free space clockwise.
pub fn on_get(g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    if let Pyramid::D(p) = &mut g.sites.pyramid {
        if let Some(i) = next_free(p) {
            p.figure = i;
        }
        update_get(g);
        return Ok(());
    }
    Err(CoreError::illegal("pyramid: no get action of its own".into()))
}

// ------------------------------------------------------------------ hidden information
/// Pyramid C's face-down tiles, in a fixed order: the stack, then those removed at setup
/// (the engine's `hidden_tiles`).
pub fn hidden_tiles(g: &Game) -> ArrayVec<&[u8], 2> {
    let mut out = ArrayVec::new();
    if let Pyramid::C(p) = &g.sites.pyramid {
        out.push(&p.hidden_stack[..]);
        out.push(&p.hidden_removed[..]);
    }
    out
}

/// Deal Pyramid C's face-down tiles anew from `rng`: pooled in canonical (sorted) order,
/// shuffled and dealt back in their places' sizes.
pub fn redeal_hidden(g: &mut Game, rng: &mut Stream) {
    if let Pyramid::C(p) = &mut g.sites.pyramid {
        let mut pool: ArrayVec<u8, { 2 * TILES }> = p.hidden_stack.iter().chain(&p.hidden_removed).copied().collect();
        pool.sort_unstable();
        crate::chance::shuffle(rng, &mut pool);
        let k = p.hidden_stack.len();
        p.hidden_stack.copy_from_slice(&pool[..k]);
        p.hidden_removed.copy_from_slice(&pool[k..]);
    }
}
