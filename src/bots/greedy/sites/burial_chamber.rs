//! The Burial Chamber's evaluator waits for the site's port (src/sites/burial_chamber.rs is
//! a stub on main): a greedy game with it is refused (Ctx::new) until then.

use super::Built;
use crate::action::Action;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::Kind;

pub const PORTED: bool = false;

pub fn key(_c: &Ctx, _g: &Game, _out: &mut Vec<i64>) {}

pub fn build(_c: &mut Ctx, _g: &Game) -> Built {
    Built::own([[0.0; 4]; 4])
}

pub fn decide(_c: &mut Ctx, _g: &Game, _kind: Kind, _legal: &[Action]) -> Result<Vec<f64>, String> {
    Err("the burial chamber is not ported to the core yet".into())
}
