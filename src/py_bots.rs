//! `_core.Bot`: one of the core's bots choosing for the seat to move of a `_core.Game`, one
//! decision at a time (the CLI's `play`, kept games with transcripts, `show`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::bots::play::{Bot, Spec};
use crate::py::{py_error, PyGame, PyRandom};

/// A bot for one game from its spec (JSON: a name such as "greedy", "mcts400-s", "expert",
/// or a spec table as bots.make_bot takes). Make one per seat and game, as a batch does:
/// a greedy bot and the search's greedy pricer keep caches for the game.
#[pyclass(name = "Bot", module = "imhotep_stats._core")]
pub struct PyBot {
    spec: Spec,
    bot: Bot,
}

#[pymethods]
impl PyBot {
    #[new]
    fn new(py: Python<'_>, spec: &str) -> PyResult<Self> {
        let spec = Spec::from_json(spec).map_err(|e| py_error(py, e))?;
        let bot = spec.bot();
        Ok(PyBot { spec, bot })
    }

    /// The bot's name (reports).
    #[getter]
    fn name(&self) -> &str {
        self.spec.name()
    }

    /// The index (into `game.options`) of the option the seat to move takes, drawing from
    /// `rng` (that seat's stream, advanced as the bot draws: bots/core_bot.py). The game is
    /// not changed; the search runs without the GIL.
    fn choose(&mut self, py: Python<'_>, game: &PyGame, rng: &mut PyRandom) -> PyResult<usize> {
        let g = &game.inner;
        if g.over {
            return Err(PyValueError::new_err("choose: the game is over"));
        }
        let bot = &mut self.bot;
        let stream = &mut rng.inner;
        py.allow_threads(|| bot.choose(g, stream)).map_err(|e| py_error(py, e))
    }

    /// A greedy-family bot's price of every option (bots/greedy GreedyBot.scores: the
    /// search's root priors).
    fn scores(&mut self, game: &PyGame) -> PyResult<Vec<f64>> {
        match &mut self.bot {
            Bot::Greedy(b) if !game.inner.over => b.scores(&game.inner).map_err(PyValueError::new_err),
            Bot::Greedy(_) => Err(PyValueError::new_err("scores: the game is over")),
            _ => Err(PyValueError::new_err(format!("scores: bot {:?} is not a greedy-family bot", self.spec.name()))),
        }
    }
}
