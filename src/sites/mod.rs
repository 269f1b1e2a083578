//! The five sites, one module each (its four sides inside), dispatched by site index
//! (rules.rs MARKET .. OBELISK). Every module has the same functions: see src/game.rs's module
//! comment for the contract.

use serde_json::Value;

use crate::action::Action;
use crate::game::{Context, Game, Res};
use crate::kinds::Kind;
use crate::rules::{get, CoreError, Names, Rules, Side};

pub mod burial_chamber;
pub mod market;
pub mod obelisk;
pub mod pyramid;
pub mod scoring;
pub mod temple;

/// Each site's parsed side (`Rules.sites`).
#[derive(Clone, Debug)]
pub struct Configs {
    pub market: market::Config,
    pub pyramid: pyramid::Config,
    pub temple: temple::Config,
    pub burial_chamber: burial_chamber::Config,
    pub obelisk: obelisk::Config,
}

impl Configs {
    /// Parse `values.<site>` of the board JSON for each site's chosen side.
    pub fn parse(names: &mut Names, sides: &[Side; 5], values: &Value) -> Result<Configs, CoreError> {
        Ok(Configs {
            market: market::parse(names, sides[0], get(values, "market", "values")?)?,
            pyramid: pyramid::parse(names, sides[1], get(values, "pyramid", "values")?)?,
            temple: temple::parse(names, sides[2], get(values, "temple", "values")?)?,
            burial_chamber: burial_chamber::parse(names, sides[3], get(values, "burial_chamber", "values")?)?,
            obelisk: obelisk::parse(names, sides[4], get(values, "obelisk", "values")?)?,
        })
    }
}

/// The sites' states in a game (`Game.sites`).
#[derive(Clone, Debug)]
pub struct Sites {
    pub market: market::Market,
    pub pyramid: pyramid::Pyramid,
    pub temple: temple::Temple,
    pub burial_chamber: burial_chamber::BurialChamber,
    pub obelisk: obelisk::Obelisk,
}

pub fn new(r: &Rules, players: usize) -> Result<Sites, CoreError> {
    Ok(Sites {
        market: market::Market::new(r, players)?,
        pyramid: pyramid::Pyramid::new(r, players)?,
        temple: temple::Temple::new(r, players)?,
        burial_chamber: burial_chamber::BurialChamber::new(r, players)?,
        obelisk: obelisk::Obelisk::new(r, players)?,
    })
}

/// Each site's set-up with the game, in site order (Python builds them in this order).
pub fn setup(g: &mut Game, r: &Rules) -> Res {
    market::setup(g, r)?;
    pyramid::setup(g, r)?;
    temple::setup(g, r)?;
    burial_chamber::setup(g, r)?;
    obelisk::setup(g, r)
}

macro_rules! dispatch {
    ($site:expr, $f:ident ( $($arg:expr),* )) => {
        match $site {
            0 => market::$f($($arg),*),
            1 => pyramid::$f($($arg),*),
            2 => temple::$f($($arg),*),
            3 => burial_chamber::$f($($arg),*),
            _ => obelisk::$f($($arg),*),
        }
    };
}

pub fn deliver(g: &mut Game, r: &Rules, site: usize, owner: usize) -> Res {
    dispatch!(site, deliver(g, r, owner))
}

pub fn answer(g: &mut Game, r: &Rules, site: usize, kind: Kind, a: Action, ctx: Context) -> Res {
    dispatch!(site, answer(g, r, kind, a, ctx))
}

pub fn round_start(g: &mut Game, r: &Rules, site: usize) -> Res {
    dispatch!(site, round_start(g, r))
}

pub fn round_end(g: &mut Game, r: &Rules, site: usize) -> Res {
    dispatch!(site, round_end(g, r))
}

pub fn game_end(g: &mut Game, r: &Rules, site: usize) -> Res {
    dispatch!(site, game_end(g, r))
}

pub fn run_task(g: &mut Game, r: &Rules, site: usize, args: Context) -> Res {
    dispatch!(site, run_task(g, r, args))
}

/// A "get" with an extra: Pyramid D's figure.
pub fn on_get(g: &mut Game, r: &Rules, p: usize, a: Action) -> Res {
    pyramid::on_get(g, r, p, a)
}

/// Stones of all colours at a site (decorations count these).
pub fn stones(g: &Game, site: usize) -> i32 {
    let s = &g.sites;
    match site {
        0 => s.market.stones(),
        1 => s.pyramid.stones(),
        2 => s.temple.stones(),
        3 => s.burial_chamber.stones(),
        _ => s.obelisk.stones(),
    }
}

/// Stones of player `p` at a site.
pub fn stones_of(g: &Game, site: usize, p: usize) -> i32 {
    let s = &g.sites;
    match site {
        0 => s.market.stones_of(p),
        1 => s.pyramid.stones_of(p),
        2 => s.temple.stones_of(p),
        3 => s.burial_chamber.stones_of(p),
        _ => s.obelisk.stones_of(p),
    }
}
