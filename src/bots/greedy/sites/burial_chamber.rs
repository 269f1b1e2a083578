//! The Burial Chamber's evaluator waits for the site's port: src/sites/burial_chamber.rs on
//! main is a stub that scores nothing and asks nothing, so this prices its stones at 0 (the
//! greedy bot's games with it are not Python's until the site and this module are ported).

use super::Built;
use crate::action::Action;
use crate::bots::greedy::context::Ctx;
use crate::game::Game;
use crate::kinds::Kind;

pub fn key(_c: &Ctx, g: &Game, out: &mut Vec<i64>) {
    out.push(crate::sites::stones(g, 3) as i64);
}

pub fn build(_c: &mut Ctx, _g: &Game) -> Built {
    Built::own([[0.0; 4]; 4])
}

pub fn decide(_c: &mut Ctx, _g: &Game, _kind: Kind, _legal: &[Action]) -> Result<Vec<f64>, String> {
    Err("the burial chamber is not ported to the core yet".into())
}
