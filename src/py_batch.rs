//! `_core.play_batch`: a cell's batch of games played in the core with the GIL released,
//! returned as columns (sim/core_batch.py builds the study's rows from them).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Map, Value};

use crate::batch::{play_batch as play, Record};
use crate::bots::play::Spec;
use crate::py::{py_error, PyRules};
use crate::rules::{CoreError, SOURCES};

/// The lineup's specs: each name looked up in `personas` (JSON: name -> spec table, the
/// config's bots defined by tables), else a registered name.
fn specs(lineup: &[String], personas: Option<&str>) -> Result<Vec<Spec>, CoreError> {
    let table: Map<String, Value> = match personas {
        None => Map::new(),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| CoreError::value(format!("play_batch personas: expected a JSON table ({e})")))?,
    };
    lineup
        .iter()
        .map(|b| match table.get(b) {
            Some(spec) => Spec::from_value(spec),
            None => Spec::named(b),
        })
        .collect()
}

/// Games [start, stop) of a cell: `lineup` by name (rotated through the seats as
/// `Cell.seat_bots`; a name in `personas`, a JSON table name -> bot spec, is played by its
/// spec), seeds from `root` as engine/play.py. Returns a dict of equal-length lists, one
/// entry per (game, seat): game, seat, score, rank, win_share, sled, decisions,
/// lead_changes, margin, pts_<source>, round_<r> for the board's rounds, round_end and
/// took_<card> for every card of the board, searched (the seat's search iterations in the
/// game, 0 for a bot that does not search); with `actions`, also "actions": per game the
/// chosen options' texts in order; with `cpu`, also "cpu": each seat's CPU seconds in its
/// bot over the game (the thread's CPU time around each of its decisions; the games are the
/// same).
#[pyfunction]
#[pyo3(signature = (rules, players, root, start, stop, lineup, *, expansion=None, prophecies=false,
                    personas=None, actions=false, cpu=false))]
#[allow(clippy::too_many_arguments)]
pub fn play_batch<'py>(
    py: Python<'py>,
    rules: &PyRules,
    players: usize,
    root: &str,
    start: u64,
    stop: u64,
    lineup: Vec<String>,
    expansion: Option<bool>,
    prophecies: bool,
    personas: Option<&str>,
    actions: bool,
    cpu: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let bots = specs(&lineup, personas).map_err(|e| py_error(py, e))?;
    if stop < start {
        return Err(PyValueError::new_err(format!("play_batch: stop {stop} is before start {start}")));
    }
    let r = rules.inner.clone();
    let root = root.to_string();
    let cols = py
        .allow_threads(|| {
            play(&r, players, &root, (start, stop), &bots, expansion, prophecies, Record { actions, cpu })
        })
        .map_err(|e| py_error(py, e))?;
    let out = PyDict::new(py);
    out.set_item("game", cols.game)?;
    out.set_item("seat", cols.seat)?;
    out.set_item("score", cols.score)?;
    out.set_item("rank", cols.rank)?;
    out.set_item("win_share", cols.win_share)?;
    out.set_item("sled", cols.sled)?;
    out.set_item("decisions", cols.decisions)?;
    out.set_item("lead_changes", cols.lead_changes)?;
    out.set_item("margin", cols.margin)?;
    for (s, col) in SOURCES.iter().zip(cols.pts) {
        out.set_item(format!("pts_{s}"), col)?;
    }
    for (k, col) in cols.rounds.into_iter().enumerate() {
        out.set_item(format!("round_{}", k + 1), col)?;
    }
    out.set_item("round_end", cols.round_end)?;
    out.set_item("searched", cols.searched)?;
    for (name, col) in r.cards.names.iter().zip(cols.took) {
        out.set_item(format!("took_{name}"), col)?;
    }
    if actions {
        out.set_item("actions", cols.actions)?;
    }
    if cpu {
        out.set_item("cpu", cols.cpu)?;
    }
    Ok(out)
}
