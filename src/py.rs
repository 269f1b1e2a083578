//! The Python module `imhotep_stats._core` (feature `python`): the core's classes and
//! functions as Python sees them. Errors come back as the package's exception classes
//! (imhotep_stats/engine/errors.py).
//! It is long because it is the whole Python surface of the game (streams, rules, game,
//! scenario steps) in one module that registers it; the bots' bindings live in py_bots.rs.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::action::{Action, Arg};
use crate::chance;
use crate::state;
use crate::game::{Game, Purpose, Setup};
use crate::rules::{Card, CoreError, Fault, Rules, SOURCES};
use crate::stream::{Stream as Random, StreamError, N};

/// The build profile: a debug build is never what the package runs (maturin builds release).
const PROFILE: &str = if cfg!(debug_assertions) { "debug" } else { "release" };

fn value_error(e: StreamError) -> PyErr {
    PyValueError::new_err(e.0)
}

/// `random.Random` in the core (src/stream.rs): the same draws as Python's for the same seed
/// or state.
#[pyclass(name = "Random", module = "imhotep_stats._core")]
pub struct PyRandom {
    pub inner: Random,
}

/// A Random seeded as `random.Random(seed)` is, for an int or a str.
pub fn seeded(seed: &Bound<'_, PyAny>) -> PyResult<Random> {
    if let Ok(s) = seed.downcast::<PyString>() {
        return Ok(Random::from_text(s.to_str()?));
    }
    if seed.is_instance_of::<pyo3::types::PyInt>() {
        // the magnitude's big-endian bytes, as Python's int gives them
        let magnitude = seed.call_method0("__abs__")?;
        let bits: usize = magnitude.call_method0("bit_length")?.extract()?;
        let bytes: Vec<u8> = magnitude
            .call_method1("to_bytes", (bits.div_ceil(8), "big"))?
            .extract()?;
        return Ok(Random::from_magnitude_be(&bytes));
    }
    Err(PyTypeError::new_err(format!(
        "a core Random is seeded by an int or a str, not {}",
        seed.get_type().name()?
    )))
}

fn objects(list: &Bound<'_, PyList>) -> Vec<PyObject> {
    list.iter().map(Bound::unbind).collect()
}

fn write_back(list: &Bound<'_, PyList>, items: Vec<PyObject>) -> PyResult<()> {
    for (i, item) in items.into_iter().enumerate() {
        list.set_item(i, item)?;
    }
    Ok(())
}

#[pymethods]
impl PyRandom {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRandom { inner: seeded(seed)? })
    }

    fn random(&mut self) -> f64 {
        self.inner.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err(format!("getrandbits: at most 64 bits, got {k}")));
        }
        Ok(self.inner.getrandbits(k))
    }

    fn _randbelow(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("_randbelow: n must be positive"));
        }
        Ok(self.inner.randbelow(n as usize) as u64)
    }

    #[pyo3(signature = (start, stop=None, step=1))]
    fn randrange(&mut self, start: i64, stop: Option<i64>, step: i64) -> PyResult<i64> {
        match stop {
            None if start > 0 => Ok(self.inner.randbelow(start as usize) as i64),
            None => Err(PyValueError::new_err("empty range for randrange()")),
            Some(stop) => self.inner.randrange(start, stop, step).map_err(value_error),
        }
    }

    fn choice(&mut self, seq: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let n = seq.len()?;
        if n == 0 {
            return Err(PyIndexError::new_err("Cannot choose from an empty sequence"));
        }
        let i = self.inner.randbelow(n);
        Ok(seq.get_item(i)?.unbind())
    }

    fn shuffle(&mut self, list: &Bound<'_, PyList>) -> PyResult<()> {
        let mut items = objects(list);
        self.inner.shuffle(&mut items);
        write_back(list, items)
    }

    fn sample(&mut self, population: &Bound<'_, PyAny>, k: usize) -> PyResult<Vec<PyObject>> {
        let n = population.len()?;
        let picks = self.inner.try_sample(n, k).map_err(value_error)?;
        picks
            .into_iter()
            .map(|i| Ok(population.get_item(i)?.unbind()))
            .collect()
    }

    /// `random.Random.getstate()`'s tuple: (3, the 624 words and the index, None).
    fn getstate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (mt, index) = self.inner.state();
        let mut words: Vec<u64> = mt.iter().map(|&w| u64::from(w)).collect();
        words.push(index as u64);
        let words = PyTuple::new(py, words)?;
        PyTuple::new(py, [3i64.into_pyobject(py)?.into_any(), words.into_any(), py.None().into_bound(py)])
    }

    /// From a `random.Random.getstate()` tuple (a normal-draw cache in it is not kept: the core
    /// draws no normal variates).
    fn setstate(&mut self, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        let (version, words, _gauss): (i64, Vec<u32>, PyObject) = state.extract()?;
        if version != 3 || words.len() != N + 1 {
            return Err(PyValueError::new_err(format!(
                "setstate: expected a version 3 state of {} ints, got version {version} of {}",
                N + 1,
                words.len()
            )));
        }
        let mut mt = [0u32; N];
        mt.copy_from_slice(&words[..N]);
        self.inner = Random::from_state(mt, words[N] as usize).map_err(value_error)?;
        Ok(())
    }
}

// ---------------------------------------------------------------- the game

/// A CoreError as the engine's exception (imhotep_stats/engine/errors.py): RulesError,
/// ChanceError (with its reshuffle index), IllegalAction; or a ValueError.
pub(crate) fn py_error(py: Python<'_>, e: CoreError) -> PyErr {
    let raise = |module: &str, class: &str, args: Bound<'_, PyTuple>| -> PyErr {
        match py.import(module).and_then(|m| m.getattr(class)).and_then(|c| c.call1(args)) {
            Ok(exc) => PyErr::from_value(exc),
            Err(err) => err,
        }
    };
    let one = |m: &str| PyTuple::new(py, [m]).expect("a tuple of one str");
    match e.fault() {
        Fault::Rules(m) => raise("imhotep_stats.engine.errors", "RulesError", one(m)),
        Fault::Illegal(m) => raise("imhotep_stats.engine.errors", "IllegalAction", one(m)),
        Fault::Value(m) => PyValueError::new_err(m.clone()),
        &Fault::Chance { ref message, reshuffle } => match (message.as_str(), reshuffle).into_pyobject(py) {
            Ok(args) => raise("imhotep_stats.engine.errors", "ChanceError", args),
            Err(err) => err,
        },
    }
}

/// The board data of one cell (src/rules.rs), parsed once and shared by its games.
#[pyclass(name = "Rules", module = "imhotep_stats._core", frozen)]
pub struct PyRules {
    pub inner: Arc<Rules>,
}

#[pymethods]
impl PyRules {
    /// From the board JSON imhotep_stats.core.board_json builds.
    #[new]
    fn new(py: Python<'_>, board_json: &str) -> PyResult<Self> {
        let rules = Rules::from_json(board_json).map_err(|e| py_error(py, e))?;
        Ok(PyRules { inner: Arc::new(rules) })
    }

    /// The card names by code, as the core numbers them.
    #[getter]
    fn card_names(&self) -> Vec<String> {
        self.inner.cards.names.clone()
    }
}

/// An argument as Python's action shows it: an int or a name.
fn arg_object(py: Python<'_>, rules: &Rules, a: Arg) -> PyResult<PyObject> {
    Ok(match a {
        Arg::Int(x) => x.into_pyobject(py)?.into_any().unbind(),
        Arg::Name(id) => PyString::new(py, rules.names.text(id)).into_any().unbind(),
        Arg::None => py.None(),
    })
}

/// A scarab's (god, window, fulfilled, points), as Python reads it.
type Scarab = (String, u8, bool, i32);

/// An action as Python's (kind, args) tuple.
fn action_tuple<'py>(py: Python<'py>, r: &Rules, a: Action) -> PyResult<(String, Bound<'py, PyTuple>)> {
    let args: Vec<PyObject> = a.args().map(|x| arg_object(py, r, x)).collect::<PyResult<_>>()?;
    Ok((r.names.text(a.kind).to_string(), PyTuple::new(py, args)?))
}

/// A JSON value as plain Python: dicts, lists, ints, floats, strs, bools, None.
fn to_python(py: Python<'_>, v: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        J::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any().unbind(),
            None => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind(),
        },
        J::String(s) => PyString::new(py, s).into_any().unbind(),
        J::Array(items) => {
            let items: Vec<PyObject> = items.iter().map(|x| to_python(py, x)).collect::<PyResult<_>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        J::Object(map) => {
            let d = PyDict::new(py);
            for (k, x) in map {
                d.set_item(k, to_python(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// A Python card name as the core's card code.
fn card_code(rules: &Rules, name: &str, what: &str) -> Result<Card, CoreError> {
    rules
        .cards
        .code(name)
        .ok_or_else(|| CoreError::rules(format!("{what}: unknown card {name:?}")))
}

/// imhotep_stats/errors.py's `describe(value)`: how a bad value is worded in "got ..." messages.
fn describe(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value.py().import("imhotep_stats.errors")?.getattr("describe")?.call1((value,))?.extract()
}

fn chance_error(message: String) -> CoreError {
    CoreError::chance(message, -1)
}

/// A pinned setup outcome's items (ints, or names this board knows) as the core's arguments;
/// what is not a list is refused here with the engine's words.
fn pin_args(rules: &Rules, purpose: &str, given: &Bound<'_, PyAny>) -> PyResult<Result<Vec<Arg>, CoreError>> {
    if !(given.is_instance_of::<PyList>() || given.is_instance_of::<PyTuple>()) {
        return Ok(Err(chance_error(format!(
            "chance.{purpose}: expected a list ({}), got {}",
            chance::pin_lists(purpose),
            describe(given)?
        ))));
    }
    let mut out = Vec::new();
    for x in given.try_iter()? {
        let x = x?;
        if !x.is_instance_of::<pyo3::types::PyBool>() {
            if let Ok(n) = x.extract::<i32>() {
                out.push(Arg::Int(n));
                continue;
            }
        }
        let text: Option<String> = x.extract().ok();
        match text.as_deref().and_then(|t| rules.names.id(t)) {
            Some(id) => out.push(Arg::Name(id)),
            None => {
                return Ok(Err(chance_error(format!(
                    "chance.{purpose}: {} is not one of the outcomes this board has",
                    describe(&x)?
                ))))
            }
        }
    }
    Ok(Ok(out))
}

/// The core's game as Python holds it (engine/game.py's `Game` wraps it): decisions,
/// options, score events and winners for a board, seats and seed.
#[pyclass(name = "Game", module = "imhotep_stats._core")]
pub struct PyGame {
    pub inner: Game,
    /// Bumped by every call that may change the game: a read model made at one version is
    /// the game's while the version holds (imhotep_stats/engine/view.py).
    pub version: u64,
}

impl PyGame {
    fn action_from(&self, kind: &str, args: &Bound<'_, PyTuple>) -> PyResult<Option<Action>> {
        let mut words = vec![kind.to_string()];
        for a in args.iter() {
            words.push(a.str()?.to_string());
        }
        Ok(Action::parse(&words.join(" "), &self.inner.rules.names))
    }
}

#[pymethods]
impl PyGame {
    /// `Game(rules, players, seed, expansion=None, prophecies=False, chance=None,
    /// reshuffles=None, round_cards=None, deck=None, scenario=False)` as engine/game.py's
    /// (the seed an int or a str: its streams are seeded by its str).
    #[new]
    #[pyo3(signature = (rules, players, seed=None, *, expansion=None, prophecies=false,
                        chance=None, reshuffles=None, round_cards=None, deck=None, scenario=false,
                        events=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &PyRules,
        players: usize,
        seed: Option<&Bound<'_, PyAny>>,
        expansion: Option<bool>,
        prophecies: bool,
        chance: Option<&Bound<'_, PyAny>>,
        reshuffles: Option<Vec<Vec<String>>>,
        round_cards: Option<Vec<[u8; 4]>>,
        deck: Option<Vec<String>>,
        scenario: bool,
        events: bool,
    ) -> PyResult<Self> {
        let r = &rules.inner;
        let seed = match seed {
            Some(s) => s.str()?.to_string(),
            None => "0".to_string(),
        };
        let err = |e| py_error(py, e);
        let mut pins: [Option<Vec<Arg>>; 3] = [None, None, None];
        if let Some(table) = chance.filter(|c| !c.is_none()) {
            let table = table.downcast::<PyDict>().map_err(|_| {
                let got = describe(table).unwrap_or_default();
                err(chance_error(format!("chance: expected a table of pinned outcomes, got {got}")))
            })?;
            let mut unknown: Vec<String> = Vec::new();
            for key in table.keys() {
                let name = key.str()?.to_string();
                if !chance::PINNABLE.iter().any(|(p, _)| *p == name) {
                    unknown.push(key.repr()?.to_string());
                }
            }
            unknown.sort();
            if let Some(first) = unknown.first() {
                let known: Vec<&str> = chance::PINNABLE.iter().map(|(p, _)| *p).collect();
                return Err(err(chance_error(format!(
                    "chance: unknown outcome {first} (known: {})",
                    known.join(", ")
                ))));
            }
            for (key, value) in table.iter() {
                let name: String = key.str()?.to_string();
                let purpose = Purpose::ALL.iter().find(|p| p.name() == name).expect("checked above");
                pins[*purpose as usize] = Some(pin_args(r, &name, &value)?.map_err(err)?);
            }
        }
        let cards = |names: Vec<String>, what: &str| -> PyResult<Vec<Card>> {
            names.iter().map(|c| card_code(r, c, what).map_err(err)).collect()
        };
        let setup = Setup {
            players,
            seed,
            expansion,
            prophecies,
            round_cards,
            deck: deck.map(|d| cards(d, "deck")).transpose()?,
            scenario,
            pins,
            reshuffles: reshuffles
                .unwrap_or_default()
                .into_iter()
                .map(|order| cards(order, "reshuffles"))
                .collect::<PyResult<_>>()?,
            no_events: !events,
        };
        let game = Game::new(r.clone(), &setup).map_err(err)?;
        Ok(PyGame { inner: game, version: 0 })
    }

    /// A copy (the core's state is one value).
    fn copy(&self) -> PyGame {
        PyGame { inner: self.inner.clone(), version: 0 }
    }

    #[getter]
    fn players(&self) -> usize {
        self.inner.n
    }

    #[getter]
    fn over(&self) -> bool {
        self.inner.over
    }

    #[getter]
    fn to_move(&self) -> i32 {
        self.inner.to_move
    }

    /// The pending decision's kind ("turn", "market_pick"...), None when the game is over.
    #[getter]
    fn kind(&self) -> Option<&'static str> {
        self.inner.kind_name()
    }

    #[getter]
    fn kind_code(&self) -> u8 {
        self.inner.kind
    }

    #[getter]
    fn round(&self) -> usize {
        self.inner.round
    }

    /// The options as (kind, args) tuples, in the game's order (engine/actions.py's
    /// `act(kind, *args)` makes them actions).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyTuple>)>> {
        let r = &self.inner.rules;
        self.inner.options().iter().map(|&a| action_tuple(py, r, a)).collect()
    }

    /// The options' transcript texts ("place 1 0").
    #[getter]
    fn option_texts(&self) -> Vec<String> {
        let names = &self.inner.rules.names;
        self.inner.options().iter().map(|a| a.text(names)).collect()
    }

    /// Perform option `i` of this decision.
    fn apply_index(&mut self, py: Python<'_>, i: usize) -> PyResult<()> {
        self.version += 1;
        if i >= self.inner.options().len() {
            return Err(PyIndexError::new_err(format!(
                "option {i} of a decision with {} options",
                self.inner.options().len()
            )));
        }
        self.inner.apply_index(i).map_err(|e| py_error(py, e))
    }

    /// Perform the action `kind args...` (an illegal one raises IllegalAction, as Python's).
    #[pyo3(signature = (kind, *args))]
    fn apply(&mut self, py: Python<'_>, kind: &str, args: &Bound<'_, PyTuple>) -> PyResult<()> {
        self.version += 1;
        match self.action_from(kind, args)? {
            Some(a) => self.inner.apply(a).map_err(|e| py_error(py, e)),
            None => {
                let names = &self.inner.rules.names;
                let legal: Vec<String> = self.inner.options().iter().map(|x| x.text(names)).collect();
                let mut text = vec![kind.to_string()];
                for a in args.iter() {
                    text.push(a.str()?.to_string());
                }
                Err(py_error(
                    py,
                    CoreError::illegal(format!(
                        "{} is not legal for seat {} at a {} decision; legal: {}",
                        text.join(" "),
                        self.inner.to_move,
                        self.inner.kind_name().unwrap_or("None"),
                        legal.join(", ")
                    )),
                ))
            }
        }
    }

    /// The score events (seat, source, points, round), in order.
    #[getter]
    fn events(&self) -> Vec<(u8, &'static str, i32, u8)> {
        self.inner
            .events
            .iter()
            .map(|e| (e.seat, SOURCES[e.source as usize], e.points, e.round))
            .collect()
    }

    #[getter]
    fn totals(&self) -> Vec<i32> {
        self.inner.totals[..self.inner.n].to_vec()
    }

    fn winners(&self) -> Vec<usize> {
        self.inner.winners()
    }

    /// Everything under the package's field names (src/state.rs `export`): `{"game",
    /// "sites", "hidden": {"game", "sites"}, "flow": {"game", "sites"}}`.
    fn export(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_python(py, &state::export(&self.inner))
    }

    /// `export()` as JSON text (parsed by Python's json module: cheaper than objects built
    /// here when a caller wants two copies).
    fn export_json(&self) -> String {
        state::export(&self.inner).to_string()
    }

    /// What seat `seat` may see (src/state.rs `seen`): `{"game", "sites"}`, public fields only.
    fn seen(&self, py: Python<'_>, seat: usize) -> PyResult<PyObject> {
        if seat >= self.inner.n {
            return Err(PyIndexError::new_err(format!("seat {seat} of a {}-player game", self.inner.n)));
        }
        to_python(py, &state::seen(&self.inner, seat))
    }

    /// Set fields by name (src/state.rs `edit`): `{"sled": [...], "sites": {"temple":
    /// {"owners": [...]}}}`; the decision is not recomputed (`refresh_turn`, `resume`).
    fn edit(&mut self, py: Python<'_>, changes: &Bound<'_, PyAny>) -> PyResult<()> {
        self.version += 1;
        let text: String = py.import("json")?.call_method1("dumps", (changes,))?.extract()?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("edit: {e}")))?;
        state::edit(&mut self.inner, &value).map_err(|e| py_error(py, e))
    }

    /// A stone of `owner` arrives at `site` as from a ship; on to the next decision.
    fn deliver(&mut self, py: Python<'_>, site: usize, owner: usize) -> PyResult<()> {
        self.version += 1;
        state::deliver(&mut self.inner, site, owner).map_err(|e| py_error(py, e))
    }

    /// Site `site`'s round end, then on to the next decision.
    fn round_end(&mut self, py: Python<'_>, site: usize) -> PyResult<()> {
        self.version += 1;
        state::round_end(&mut self.inner, site).map_err(|e| py_error(py, e))
    }

    /// Site `site`'s round start, then on to the next decision.
    fn round_start(&mut self, py: Python<'_>, site: usize) -> PyResult<()> {
        self.version += 1;
        state::round_start(&mut self.inner, site).map_err(|e| py_error(py, e))
    }

    /// Site `site`'s game-end scoring alone.
    fn game_end(&mut self, py: Python<'_>, site: usize) -> PyResult<()> {
        self.version += 1;
        state::game_end(&mut self.inner, site).map_err(|e| py_error(py, e))
    }

    /// End the round now, the next starting with seat `next_start`.
    fn end_round(&mut self, py: Python<'_>, next_start: usize) -> PyResult<()> {
        self.version += 1;
        state::end_round(&mut self.inner, next_start).map_err(|e| py_error(py, e))
    }

    /// After an edit: the decision anew, from the pending tasks or the current turn.
    fn resume(&mut self, py: Python<'_>) -> PyResult<()> {
        self.version += 1;
        self.inner.resume().map_err(|e| py_error(py, e))
    }

    /// After an edit at a turn: the turn's options again for the seat to move.
    fn refresh_turn(&mut self, py: Python<'_>) -> PyResult<()> {
        self.version += 1;
        state::refresh_turn(&mut self.inner).map_err(|e| py_error(py, e))
    }

    /// Seat `p` takes market card `card` (a red card acts at once); on to the next decision.
    fn gain(&mut self, py: Python<'_>, p: usize, card: &str) -> PyResult<()> {
        self.version += 1;
        state::gain(&mut self.inner, p, card).map_err(|e| py_error(py, e))
    }

    /// The market cards' game-end scoring alone.
    fn score_cards(&mut self) {
        self.version += 1;
        state::score_cards(&mut self.inner)
    }

    /// The prophecies' game-end scoring alone.
    fn score_prophecies(&mut self, py: Python<'_>) -> PyResult<()> {
        self.version += 1;
        state::score_prophecies(&mut self.inner).map_err(|e| py_error(py, e))
    }

    /// Per seat, each scarab's (god, window, fulfilled, points) as the game stands
    /// (src/prophecies.rs `outcome`); ValueError without the prophecies.
    fn prophecy_outcome(&self) -> PyResult<Vec<Vec<Scarab>>> {
        if self.inner.prophecy.is_none() {
            return Err(PyValueError::new_err("prophecy_outcome: the prophecies are not in play"));
        }
        let r = &self.inner.rules;
        Ok(crate::prophecies::outcome(&self.inner, r)
            .into_iter()
            .map(|seat| seat.into_iter().map(|(god, w, ok, pts)| (r.names.text(god).to_string(), w, ok, pts)).collect())
            .collect())
    }

    /// `points` to `seat` from `source` ("temple", "card_statue"...).
    fn score(&mut self, py: Python<'_>, seat: usize, source: &str, points: i32) -> PyResult<()> {
        self.version += 1;
        state::score(&mut self.inner, seat, source, points).map_err(|e| py_error(py, e))
    }

    /// A stone of seat `p` onto the empty slot `k` of ship `s`.
    fn put_on_ship(&mut self, py: Python<'_>, p: usize, s: usize, k: usize) -> PyResult<()> {
        self.version += 1;
        state::put_on_ship(&mut self.inner, p, s, k).map_err(|e| py_error(py, e))
    }

    /// The turn actions seat `p` would have now, as (kind, args) tuples.
    fn turn_options<'py>(&self, py: Python<'py>, p: usize) -> PyResult<Vec<(String, Bound<'py, PyTuple>)>> {
        let actions = state::turn_options(&self.inner, p).map_err(|e| py_error(py, e))?;
        actions.iter().map(|&a| action_tuple(py, &self.inner.rules, a)).collect()
    }

    /// The pending question's context: the ints it carries (`Game::context`).
    #[getter]
    fn context(&self) -> Vec<i32> {
        self.inner.context.to_vec()
    }

    /// The state's version: changes whenever the game may have changed.
    #[getter]
    fn version(&self) -> u64 {
        self.version
    }

    #[getter]
    fn decisions(&self) -> u32 {
        self.inner.decisions
    }

    /// Every reshuffle's new draw pile, top first, by card name.
    #[getter]
    fn reshuffles(&self) -> Vec<Vec<String>> {
        let names = &self.inner.rules.cards.names;
        self.inner
            .reshuffles
            .iter()
            .map(|d| d.iter().map(|&c| names[c as usize].clone()).collect())
            .collect()
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PROFILE", PROFILE)?;
    m.add_class::<PyRandom>()?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(crate::py_batch::play_batch, m)?)?;
    m.add_class::<crate::py_bots::PyBot>()?;
    Ok(())
}
