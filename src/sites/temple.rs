//! The Temple (docs/rules.md §6): its four sides. Stones fill a row of
//! columns left to right; a full row starts a new layer on top; the visible stones are the top
//! stone of each column. A: a point per visible stone at each round end; B: column rewards;
//! C (Temple of Ra): column bonuses, some a choice; D (Arena): chariots on a track.
//!
//! Decisions:
//!
//! | kind           | decided by                                   | actions                  |
//! |----------------|----------------------------------------------|--------------------------|
//! | `temple_bonus` | the owner of a visible stone in a column     | `points 2` / `stones 4`  |
//! |                | whose bonus is a choice (`p2|s4`)            | (`draw N` too)           |
//! | `temple_keep`  | the same owner, after a `drawN` bonus         | `keep statue` per distinct card drawn |
//!
//! B and C settle their columns left to right at round end, each completely (its choice, its
//! draw, a red card it brings) before the next. All points score under "temple".

use arrayvec::ArrayVec;
use serde_json::Value;

use crate::action::{keep_card, Action, Arg, Name};
use crate::cards;
use crate::game::{Context, Game, Options, Res, Task, SEATS};
use crate::kinds::{Kind, TEMPLE_KEEP, TEMPLE_BONUS};
use crate::rules::{as_text, by_players, get, int, ints, Card, CoreError, Names, Rules, Side, SRC_TEMPLE, TEMPLE};

/// A, B, C: the stones in delivery order (one ship a round of at most 4 stones for at most
/// 6 rounds, and a stone per Barge card played here: 128 holds more than any game gives).
pub const LAYERED: usize = 128;
/// D: the stone spaces, and the stones beyond them.
pub const SPACES: usize = 16;
pub const OVERFLOW: usize = 128;
/// The most columns (a round end's visible stones are packed 2 bits a column in a task).
pub const COLUMNS: usize = 15;
/// The most cards a `drawN` bonus draws (rules/limits.py: draw1 to draw9).
pub const DRAW: usize = 9;

/// One alternative of a column's reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    Points(i32),
    /// stones from the quarry to the sled (capacity caps)
    Stones(i32),
    /// draw N market cards, keep 1 ("card" is draw 1)
    Draw(i32),
}

/// `"p2|s4"` -> [Points(2), Stones(4)]; `"card"` -> [Draw(1)]; `""` / `"none"` nothing.
pub fn parse_reward(text: &str, at: &str) -> Result<Vec<Reward>, CoreError> {
    let mut alts = Vec::new();
    for alt in text.split('|') {
        let alt = alt.trim();
        if alt.is_empty() || alt == "none" {
            continue;
        }
        let number = |s: &str| s.trim().parse::<i32>().ok();
        let parsed = if alt == "card" {
            Some(Reward::Draw(1))
        } else if let Some(rest) = alt.strip_prefix("draw") {
            number(rest).map(Reward::Draw)
        } else if let Some(rest) = alt.strip_prefix('p') {
            number(rest).map(Reward::Points)
        } else if let Some(rest) = alt.strip_prefix('s') {
            number(rest).map(Reward::Stones)
        } else {
            None
        };
        let Some(reward) = parsed else {
            return Err(CoreError::value(format!(
                "{at}: unknown reward '{alt}' (expected pN, sN, card, drawN, joined by '|')"
            )));
        };
        let (Reward::Points(k) | Reward::Stones(k) | Reward::Draw(k)) = reward;
        if k < 0 {
            return Err(CoreError::value(format!("{at}: negative reward '{alt}'")));
        }
        alts.push(reward);
    }
    Ok(alts)
}

/// Temple B's and C's columns.
#[derive(Clone, Debug)]
pub struct Rewards {
    /// the width per player count (2, 3, 4)
    pub widths: [usize; 3],
    /// points of a column with no reward (0 on B, Temple A's point on C)
    pub visible_points: i32,
    /// each column's alternatives (every column of the data)
    pub columns: Vec<Vec<Reward>>,
    /// each column's actions when there is a choice (distinct, in order)
    pub choices: Vec<Vec<Action>>,
    /// the data's key and its column count (an error names them)
    pub key: &'static str,
    /// the name ids of "points", "stones", "draw"
    pub names: [Name; 3],
}

/// Temple D (the Arena).
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub arrowheads: Vec<i32>,
    pub overflow_move: i32,
    pub track_points: Vec<i32>,
    pub round_points: Vec<i32>,
    pub round_points_2p: Vec<i32>,
    pub finish_point: i32,
}

/// The side's board data, parsed once per cell (`Rules.sites.temple`).
#[derive(Clone, Debug)]
pub enum Config {
    A { widths: [usize; 3], visible_points: i32 },
    B(Rewards),
    C(Rewards),
    D(ArenaConfig),
}

fn widths(values: &Value, at: &str) -> Result<[usize; 3], CoreError> {
    let mut out = [0; 3];
    for (i, players) in (2..=4).enumerate() {
        let w = by_players(values, "width_by_players", players, at)?;
        let w = w.as_i64().ok_or_else(|| {
            CoreError::rules(format!("{at}.width_by_players.{players}: expected an integer, got {w}"))
        })?;
        if !(1..=COLUMNS as i64).contains(&w) {
            return Err(CoreError::value(format!(
                "{at}.width_by_players.{players}: expected 1 to {COLUMNS} columns, got {w}"
            )));
        }
        out[i] = w as usize;
    }
    Ok(out)
}

fn i32s(values: &Value, key: &str, at: &str) -> Result<Vec<i32>, CoreError> {
    Ok(ints(values, key, at)?.into_iter().map(|x| x as i32).collect())
}

/// Parse the chosen side's values (`values.temple` of the board JSON), interning the names
/// its actions show.
pub fn parse(names: &mut Names, side: Side, values: &Value) -> Result<Config, CoreError> {
    let at = format!("temple.{}", side.letter());
    Ok(match side {
        Side::A => Config::A {
            widths: widths(values, &at)?,
            visible_points: int(values, "visible_points", &at)? as i32,
        },
        Side::B | Side::C => {
            let key = if side == Side::B { "rewards" } else { "bonuses" };
            let ids = [names.intern("points"), names.intern("stones"), names.intern("draw")];
            let table = get(values, key, &at)?
                .as_array()
                .ok_or_else(|| CoreError::rules(format!("{at}.{key}: expected a list")))?;
            let mut columns = Vec::new();
            let mut choices = Vec::new();
            for (c, cell) in table.iter().enumerate() {
                let where_ = format!("{at}.{key}[{c}]");
                let alts = parse_reward(as_text(cell, &where_)?, &where_)?;
                let mut acts: Vec<Action> = Vec::new();
                for &alt in &alts {
                    let a = reward_action(ids, alt);
                    if !acts.contains(&a) {
                        acts.push(a);
                    }
                }
                columns.push(alts);
                choices.push(acts);
            }
            let rewards = Rewards {
                widths: widths(values, &at)?,
                visible_points: if side == Side::C { int(values, "visible_points", &at)? as i32 } else { 0 },
                columns,
                choices,
                key,
                names: ids,
            };
            if side == Side::B {
                Config::B(rewards)
            } else {
                Config::C(rewards)
            }
        }
        Side::D => {
            let arrowheads = i32s(values, "arrowheads", &at)?;
            if arrowheads.len() > SPACES {
                return Err(CoreError::value(format!(
                    "temple.D.arrowheads: at most {SPACES} stone spaces, got {}",
                    arrowheads.len()
                )));
            }
            let track_points = i32s(values, "track_points", &at)?;
            if track_points.is_empty() {
                return Err(CoreError::value("temple.D.track_points: expected at least the start space".into()));
            }
            Config::D(ArenaConfig {
                arrowheads,
                overflow_move: int(values, "overflow_move", &at)? as i32,
                track_points,
                round_points: i32s(values, "round_points", &at)?,
                round_points_2p: i32s(values, "round_points_2p", &at)?,
                finish_point: int(values, "finish_point", &at)? as i32,
            })
        }
    })
}

/// `points N`, `stones N`, `draw N`.
fn reward_action(names: [Name; 3], reward: Reward) -> Action {
    let (kind, k) = match reward {
        Reward::Points(k) => (names[0], k),
        Reward::Stones(k) => (names[1], k),
        Reward::Draw(k) => (names[2], k),
    };
    Action::new1(kind, Arg::Int(k as _))
}

/// The layered temple of sides A, B and C.
#[derive(Clone, Debug)]
pub struct Layers {
    /// the owner of each stone in delivery order (stone i sits in column i % width)
    pub owners: [i8; LAYERED],
    pub filled: usize,
    pub width: usize,
    /// the cards drawn for a `drawN` bonus while their owner chooses one (Python keeps
    /// them in the question's context)
    pub drawn: ArrayVec<Card, DRAW>,
}

impl Layers {
    fn new(width: usize) -> Layers {
        Layers { owners: [0; LAYERED], filled: 0, width, drawn: ArrayVec::new() }
    }

    /// The owner of column c's top stone (c < the stones here, c < width).
    pub fn top(&self, c: usize) -> usize {
        let w = self.width;
        self.owners[c + w * ((self.filled - 1 - c) / w)] as usize
    }

    /// The columns holding a stone: 0, 1, ... (filled left to right).
    pub fn visible_columns(&self) -> usize {
        self.filled.min(self.width)
    }

    /// The visible stones: the owner of the top stone of columns 0, 1, ... that hold one.
    pub fn visible(&self) -> ArrayVec<usize, COLUMNS> {
        (0..self.visible_columns()).map(|c| self.top(c)).collect()
    }
}

/// Temple D, the Arena.
#[derive(Clone, Debug)]
pub struct Arena {
    /// each seat's chariot's track space (0: the start)
    pub chariots: [i32; SEATS],
    /// each seat's stones here
    pub count: [i32; SEATS],
    /// the owners of the stone spaces taken, in fill order (the first `filled`)
    pub spaces: [i8; SPACES],
    pub filled: usize,
    /// the owners of the stones beyond them (the first `over`)
    pub overflow: [i8; OVERFLOW],
    pub over: usize,
}

/// The site's state in a game (`Game.sites.temple`).
#[derive(Clone, Debug)]
pub enum Temple {
    A(Layers),
    B(Layers),
    C(Layers),
    D(Arena),
}

impl Temple {
    pub fn new(r: &Rules, players: usize) -> Result<Temple, CoreError> {
        Ok(match &r.sites.temple {
            Config::A { widths, .. } => Temple::A(Layers::new(widths[players - 2])),
            Config::B(cfg) | Config::C(cfg) => {
                let width = cfg.widths[players - 2];
                if cfg.columns.len() < width {
                    let side = if matches!(r.sites.temple, Config::B(_)) { "B" } else { "C" };
                    return Err(CoreError::value(format!(
                        "temple.{side}.{}: {} columns, but the temple is {width} wide",
                        cfg.key,
                        cfg.columns.len()
                    )));
                }
                let layers = Layers::new(width);
                if matches!(r.sites.temple, Config::B(_)) {
                    Temple::B(layers)
                } else {
                    Temple::C(layers)
                }
            }
            Config::D(_) => Temple::D(Arena {
                chariots: [0; SEATS],
                count: [0; SEATS],
                spaces: [0; SPACES],
                filled: 0,
                overflow: [0; OVERFLOW],
                over: 0,
            }),
        })
    }

    /// The layered board (sides A-C).
    pub fn layers(&self) -> Option<&Layers> {
        match self {
            Temple::A(t) | Temple::B(t) | Temple::C(t) => Some(t),
            Temple::D(_) => None,
        }
    }

    /// Stones of all colours here, overflow included (decorations count these).
    pub fn stones(&self) -> i32 {
        match self {
            Temple::A(t) | Temple::B(t) | Temple::C(t) => t.filled as i32,
            Temple::D(a) => (a.filled + a.over) as i32,
        }
    }

    /// Stones of player `p` here (conservation checks, prophecies).
    pub fn stones_of(&self, p: usize) -> i32 {
        match self {
            Temple::A(t) | Temple::B(t) | Temple::C(t) => {
                t.owners[..t.filled].iter().filter(|&&o| o as usize == p).count() as i32
            }
            Temple::D(a) => a.count[p],
        }
    }
}

fn layers(g: &mut Game) -> &mut Layers {
    match &mut g.sites.temple {
        Temple::A(t) | Temple::B(t) | Temple::C(t) => t,
        Temple::D(_) => unreachable!("temple: side D has no layers"),
    }
}

fn arena(g: &mut Game) -> &mut Arena {
    match &mut g.sites.temple {
        Temple::D(a) => a,
        _ => unreachable!("temple: not side D"),
    }
}

fn rewards(r: &Rules) -> &Rewards {
    match &r.sites.temple {
        Config::B(cfg) | Config::C(cfg) => cfg,
        _ => unreachable!("temple: not side B or C"),
    }
}

/// Set-up work that needs the game: none.
pub fn setup(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

pub fn round_start(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// A stone of `owner` arrives.
pub fn deliver(g: &mut Game, r: &Rules, owner: usize) -> Res {
    if let Config::D(cfg) = &r.sites.temple {
        return deliver_arena(g, cfg, owner);
    }
    let t = layers(g);
    let i = t.filled;
    if i >= LAYERED {
        // never in a game
        return Err(CoreError::value(format!("temple: at most {LAYERED} stones")));
    }
    t.owners[i] = owner as i8;
    t.filled = i + 1;
    Ok(())
}

pub fn round_end(g: &mut Game, r: &Rules) -> Res {
    match &r.sites.temple {
        Config::A { visible_points, .. } => {
            // 6.1: each visible stone scores for its owner, column by column
            // the last stone's layer holds the tops of its column and those before it; the
            // columns after it show the layer below (no division per column)
            let t = layers(g);
            let (columns, w) = (t.visible_columns(), t.width);
            if columns == 0 {
                return Ok(());
            }
            let last = t.filled - 1;
            let layer = last - last % w;
            for c in 0..columns {
                let t = layers(g);
                let top = if layer + c <= last { layer + c } else { layer - w + c };
                let owner = t.owners[top] as usize;
                g.score(owner, SRC_TEMPLE, *visible_points);
            }
            Ok(())
        }
        Config::B(_) | Config::C(_) => {
            let vis = layers(g).visible();
            if vis.is_empty() {
                return Ok(());
            }
            let packed = vis.iter().enumerate().fold(0i32, |acc, (c, &o)| acc | (o as i32) << (2 * c));
            columns(g, r, vis.len(), packed, 0)
        }
        Config::D(cfg) => {
            round_end_arena(g, cfg);
            Ok(())
        }
    }
}

pub fn game_end(g: &mut Game, r: &Rules) -> Res {
    if let Config::D(cfg) = &r.sites.temple {
        // each chariot scores its space's value
        for p in 0..g.n {
            let pos = arena(g).chariots[p] as usize;
            g.score(p, SRC_TEMPLE, cfg.track_points[pos]);
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------ Temple B and C
/// The task codes of `Task::Site` for the temple: the columns from visible stone i on
/// (`[COLUMNS_TASK, i, packed owners, visible stones]`), a draw (`[DRAW_TASK, owner, k, 0]`).
const COLUMNS_TASK: i32 = 0;
const DRAW_TASK: i32 = 1;

/// Settle visible stones i, i+1, ... (left to right: column c's owner in bits 2c of
/// `packed`); stop at a decision or a draw, leaving the rest as a task under whatever that
/// starts.
fn columns(g: &mut Game, r: &Rules, n_vis: usize, packed: i32, mut i: usize) -> Res {
    let cfg = rewards(r);
    let vp = cfg.visible_points;
    let temple = TEMPLE as u8;
    while i < n_vis {
        let c = i;
        let owner = (packed >> (2 * c) & 3) as usize;
        i += 1;
        let alts = &cfg.columns[c];
        if alts.is_empty() {
            if vp != 0 {
                g.score(owner, SRC_TEMPLE, vp);
            }
            continue;
        }
        if alts.len() > 1 {
            if i < n_vis {
                g.push(Task::Site { site: temple, args: [COLUMNS_TASK, i as i32, packed, n_vis as i32] });
            }
            g.ask(TEMPLE_BONUS, owner, &cfg.choices[c], [owner as i32, 0, 0, 0]);
            return Ok(());
        }
        if let Reward::Draw(k) = alts[0] {
            if i < n_vis {
                g.push(Task::Site { site: temple, args: [COLUMNS_TASK, i as i32, packed, n_vis as i32] });
            }
            return draw(g, r, owner, k);
        }
        reward(g, owner, alts[0]);
    }
    Ok(())
}

fn reward(g: &mut Game, owner: usize, reward: Reward) {
    match reward {
        Reward::Points(k) => g.score(owner, SRC_TEMPLE, k),
        Reward::Stones(k) => {
            g.sled_to_capacity(owner, k);
        }
        // a draw may ask (keep 1 of N): run it as a task, never ask from an answer
        Reward::Draw(k) => g.push(Task::Site { site: TEMPLE as u8, args: [DRAW_TASK, owner as i32, k, 0] }),
    }
}

/// Draw the top k market cards; the owner keeps one, the rest are discarded.
fn draw(g: &mut Game, r: &Rules, owner: usize, k: i32) -> Res {
    let mut drawn: ArrayVec<Card, DRAW> = ArrayVec::new();
    for _ in 0..k {
        match g.draw(r)? {
            Some(card) => drawn.push(card),
            None => break,
        }
    }
    if drawn.is_empty() {
        return Ok(());
    }
    let mut opts = Options::new();
    for &card in &drawn {
        let a = keep_card(r, card);
        if !opts.contains(&a) {
            opts.push(a);
        }
    }
    if opts.len() == 1 {
        // identical cards: no choice to make
        g.discard.try_extend_from_slice(&drawn[1..]).expect("discard pile size");
        return cards::gain(g, r, owner, drawn[0]);
    }
    layers(g).drawn = drawn;
    g.ask(TEMPLE_KEEP, owner, &opts, [owner as i32, 0, 0, 0]);
    Ok(())
}

/// The answer `a` to this site's question of `kind`, asked with `ctx` (the owner first).
pub fn answer(g: &mut Game, r: &Rules, kind: Kind, a: Action, ctx: Context) -> Res {
    let owner = ctx[0] as usize;
    if kind == TEMPLE_KEEP {
        let card = r.card_arg(&a, 0);
        let mut rest = std::mem::take(&mut layers(g).drawn);
        let i = rest.iter().position(|&x| x == card).expect("temple: not a card drawn");
        rest.remove(i);
        g.discard.try_extend_from_slice(&rest).expect("discard pile size");
        return cards::gain(g, r, owner, card);
    }
    let names = rewards(r).names;
    let k = a.n(0);
    let chosen = if a.kind == names[0] {
        Reward::Points(k)
    } else if a.kind == names[1] {
        Reward::Stones(k)
    } else {
        Reward::Draw(k)
    };
    reward(g, owner, chosen);
    Ok(())
}

/// The temple's own tasks: the columns still to settle, a draw.
pub fn run_task(g: &mut Game, r: &Rules, args: Context) -> Res {
    match args[0] {
        COLUMNS_TASK => columns(g, r, args[3] as usize, args[2], args[1] as usize),
        _ => draw(g, r, args[1] as usize, args[2]),
    }
}

/// A "get" action with a site-specific extra: Pyramid D's only.
pub fn on_get(_g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    Err(CoreError::illegal("temple: no get action of its own".into()))
}

// ------------------------------------------------------------------------ Temple D (6.4)
/// A stone takes the next stone space (or goes beyond them) and moves its owner's chariot;
/// a chariot landing on another's space moves on to the next free one; one already on the
/// finish scores the finish point instead.
fn deliver_arena(g: &mut Game, cfg: &ArenaConfig, owner: usize) -> Res {
    let finish = cfg.track_points.len() as i32 - 1;
    let n = g.n;
    let t = arena(g);
    t.count[owner] += 1;
    let mv;
    if t.filled < cfg.arrowheads.len() {
        t.spaces[t.filled] = owner as i8;
        mv = cfg.arrowheads[t.filled];
        t.filled += 1;
    } else {
        if t.over >= OVERFLOW {
            // never in a game
            return Err(CoreError::value(format!("temple.D: at most {OVERFLOW} stones beyond the stone spaces")));
        }
        t.overflow[t.over] = owner as i8;
        t.over += 1;
        mv = cfg.overflow_move;
    }
    let pos = t.chariots[owner];
    if pos >= finish {
        g.score(owner, SRC_TEMPLE, cfg.finish_point);
        return Ok(());
    }
    if mv <= 0 {
        return Ok(());
    }
    let mut to = (pos + mv).min(finish);
    // held by another chariot (ours is behind): the next space
    while to < finish && t.chariots[..n].contains(&to) {
        to += 1;
    }
    t.chariots[owner] = to;
    Ok(())
}

/// Round end: the leading chariot scores round_points[0], the second [1] (the 2-player
/// table with 2 players); several on the finish all lead and no further place is paid;
/// chariots on the start never place.
fn round_end_arena(g: &mut Game, cfg: &ArenaConfig) {
    let n = g.n;
    let table = if n == 2 { &cfg.round_points_2p } else { &cfg.round_points };
    let finish = cfg.track_points.len() as i32 - 1;
    let chariots = arena(g).chariots;
    let lead = chariots[..n].iter().filter(|&&c| c == finish).count();
    if lead > 1 {
        for (p, &pos) in chariots[..n].iter().enumerate() {
            if pos == finish {
                g.score(p, SRC_TEMPLE, table[0]);
            }
        }
        return;
    }
    // the places paid go to the chariots furthest on, one after the other (on a shared
    // space, which cannot happen, the higher seat first)
    let mut paid = 0u32;
    for &points in table {
        let mut best: i32 = -1;
        let mut top = 0;
        for (p, &pos) in chariots[..n].iter().enumerate() {
            if pos > 0 && paid >> p & 1 == 0 && (pos > top || (pos == top && p as i32 > best)) {
                top = pos;
                best = p as i32;
            }
        }
        if best < 0 {
            return;
        }
        paid |= 1 << best;
        g.score(best as usize, SRC_TEMPLE, points);
    }
}
