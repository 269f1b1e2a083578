//! The Python module `imhotep_stats._core` (feature `python`): the core's classes and
//! functions as Python sees them. Errors come back as the Python engine's exception classes.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::chance;
use crate::stream::{Stream as Random, StreamError, N};

/// The build profile: a debug build is never what the package runs (setup.py builds release).
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

/// The list's items in the order `perm` gives (a shuffle's of the indices: the shuffles here
/// move items without looking at them, so shuffling indices shuffles the items alike).
fn permuted(list: &Bound<'_, PyList>, perm: &[usize]) -> PyResult<Vec<PyObject>> {
    perm.iter().map(|&i| Ok(list.get_item(i)?.unbind())).collect()
}

/// engine/chance.py's `fast_shuffle(rng, items)`.
#[pyfunction]
fn fast_shuffle(rng: &mut PyRandom, items: &Bound<'_, PyList>) -> PyResult<()> {
    let mut perm: Vec<usize> = (0..items.len()).collect();
    chance::fast_shuffle(&mut rng.inner, &mut perm);
    write_back(items, permuted(items, &perm)?)
}

/// engine/chance.py's `shuffle(rng, items)` (Fisher-Yates from `random()`).
#[pyfunction(name = "shuffle")]
fn chance_shuffle(rng: &mut PyRandom, items: &Bound<'_, PyList>) -> PyResult<()> {
    let mut perm: Vec<usize> = (0..items.len()).collect();
    chance::shuffle(&mut rng.inner, &mut perm);
    write_back(items, permuted(items, &perm)?)
}

/// engine/chance.py's `deal(rng, pool, places)`.
#[pyfunction]
fn deal(rng: &mut PyRandom, pool: &Bound<'_, PyList>, places: Vec<Bound<'_, PyList>>) -> PyResult<()> {
    let mut perm: Vec<usize> = (0..pool.len()).collect();
    let mut slots: Vec<Vec<usize>> = places.iter().map(|p| vec![0; p.len()]).collect();
    chance::deal(&mut rng.inner, &mut perm, &mut slots).map_err(value_error)?;
    let shuffled = permuted(pool, &perm)?;
    for (place, idx) in places.iter().zip(&slots) {
        write_back(place, permuted(pool, idx)?)?;
    }
    write_back(pool, shuffled)
}

/// A place's item for the sorted pool: the core's hidden items are ints or names.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, IntoPyObject, FromPyObject)]
enum Item {
    Int(i64),
    Name(String),
}

/// engine/chance.py's `pooled(places)` for ints or strs.
#[pyfunction]
fn pooled(places: Vec<Vec<Item>>) -> Vec<Item> {
    chance::pooled(&places)
}

/// engine/chance.py's `redeal(rng, places)` for lists of ints or strs.
#[pyfunction]
fn redeal(rng: &mut PyRandom, places: Vec<Bound<'_, PyList>>) -> PyResult<()> {
    let mut lists: Vec<Vec<Item>> = places
        .iter()
        .map(|p| p.extract())
        .collect::<PyResult<_>>()?;
    chance::redeal(&mut rng.inner, &mut lists);
    for (place, items) in places.iter().zip(lists) {
        for (i, item) in items.into_iter().enumerate() {
            place.set_item(i, item)?;
        }
    }
    Ok(())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PROFILE", PROFILE)?;
    m.add_class::<PyRandom>()?;
    m.add_function(wrap_pyfunction!(fast_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(chance_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(pooled, m)?)?;
    m.add_function(wrap_pyfunction!(redeal, m)?)?;
    Ok(())
}
