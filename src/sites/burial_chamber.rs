//! Burial Chamber (docs/rules.md §7; engine/sites/burial_chamber.py).
//!
//! STUB, not the rules: it keeps the stones delivered (so that games run and conserve
//! stones) and scores nothing. The site's helper replaces it with the port of its four sides
//! (`enum` per side and `match` arms), keeping these functions' signatures (src/game.rs's
//! module comment is the contract).

use serde_json::Value;

use crate::action::Action;
use crate::game::{Context, Game, Res, SEATS};
use crate::kinds::Kind;
use crate::rules::{CoreError, Names, Rules, Side};

/// The side's board data, parsed once per cell (`Rules.sites.burial_chamber`).
#[derive(Clone, Debug)]
pub struct Config {
    pub side: Side,
}

/// Parse the chosen side's values (`values.burial_chamber` of the board JSON), interning the names
/// its actions show.
pub fn parse(_names: &mut Names, side: Side, _values: &Value) -> Result<Config, CoreError> {
    Ok(Config { side })
}

/// The site's state in a game (`Game.sites.burial_chamber`).
#[derive(Clone, Debug)]
pub struct BurialChamber {
    stones: [i32; SEATS],
}

impl BurialChamber {
    pub fn new(_r: &Rules, _players: usize) -> Result<BurialChamber, CoreError> {
        Ok(BurialChamber { stones: [0; SEATS] })
    }

    /// Stones of all colours here, overflow included (decorations count these).
    pub fn stones(&self) -> i32 {
        self.stones.iter().sum()
    }

    /// Stones of player `p` here (conservation checks, prophecies).
    pub fn stones_of(&self, p: usize) -> i32 {
        self.stones[p]
    }
}

/// Set-up work that needs the game (chance picks...), once, in site order.
pub fn setup(_g: &mut Game, _r: &Rules) -> Res {
    Ok(())
}

/// A stone of `owner` arrives (from a ship, a red card or a bonus).
pub fn deliver(g: &mut Game, _r: &Rules, owner: usize) -> Res {
    g.sites.burial_chamber.stones[owner] += 1;
    Ok(())
}

/// The answer `a` to this site's question of `kind`, asked with `ctx`.
pub fn answer(_g: &mut Game, _r: &Rules, kind: Kind, _a: Action, _ctx: Context) -> Res {
    Err(CoreError::Illegal(format!("burial_chamber: no question of kind {kind}")))
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

/// This site's own task (`Task::Site`), pushed with `args`.
pub fn run_task(_g: &mut Game, _r: &Rules, _args: Context) -> Res {
    Err(CoreError::Illegal("burial_chamber: no task".into()))
}

/// A "get" action with a site-specific extra (Pyramid D's figure).
pub fn on_get(_g: &mut Game, _r: &Rules, _p: usize, _a: Action) -> Res {
    Err(CoreError::Illegal("burial_chamber: no get action of its own".into()))
}
