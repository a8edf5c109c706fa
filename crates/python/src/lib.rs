#![forbid(unsafe_code)]
//! Python bindings for spelbord, shaped like OpenSpiel's `pyspiel`: the
//! catalogue, games with options, states with integer actions, observations
//! per player, records, agents, the arena and a vectorised environment.
//! The Python package around this module is in `python/spelbord/`.

mod agents;
mod core;
mod limits;
mod state;
mod vector;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};
use spelbord_engine::{DynGame, OptionKind, Options, Record, Viewer, find_game};

pub use crate::core::{Core, new_core};
pub use crate::state::{Game, State};

create_exception!(
    _spelbord,
    SpelbordError,
    PyValueError,
    "Bad input to spelbord: an unknown game or option, an illegal action, a malformed record."
);

/// The engine's error as a Python exception.
pub fn py_error(e: impl std::fmt::Display) -> PyErr {
    SpelbordError::new_err(e.to_string())
}

/// OpenSpiel's id for "chance acts next".
pub const CHANCE: i64 = -1;
/// OpenSpiel's id for "the game is over".
pub const TERMINAL: i64 = -4;

/// Every game with its players and options, as a list of dicts.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Py<PyList>> {
    let list = PyList::empty(py);
    for g in spelbord_engine::games() {
        let d = PyDict::new(py);
        d.set_item("id", g.id())?;
        d.set_item("name", g.name())?;
        d.set_item("summary", g.summary())?;
        d.set_item("min_players", g.players().0)?;
        d.set_item("max_players", g.players().1)?;
        d.set_item("hidden_information", g.hidden_information())?;
        let options = PyList::empty(py);
        for spec in g.option_specs() {
            let o = PyDict::new(py);
            o.set_item("key", spec.key)?;
            o.set_item("default", spec.default)?;
            o.set_item("help", spec.help)?;
            match spec.kind {
                OptionKind::Choice { values } => {
                    o.set_item("kind", "choice")?;
                    o.set_item("values", values.to_vec())?;
                }
                OptionKind::Int { min, max } => {
                    o.set_item("kind", "int")?;
                    o.set_item("min", min)?;
                    o.set_item("max", max)?;
                }
            }
            options.append(o)?;
        }
        d.set_item("options", options)?;
        list.append(d)?;
    }
    Ok(list.unbind())
}

/// An option value from Python: text, a whole number, or a bool (`on`/`off`).
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.extract::<bool>()? {
            "on"
        } else {
            "off"
        }
        .into());
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.to_string());
    }
    value.extract::<String>()
}

/// Reads options given as a dict and keyword arguments.
fn read_options(
    game: &dyn DynGame,
    params: Option<&Bound<'_, PyDict>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Options> {
    let mut pairs = Vec::new();
    for dict in [params, kwargs].into_iter().flatten() {
        for (k, v) in dict.iter() {
            pairs.push((k.extract::<String>()?, option_text(&v)?));
        }
    }
    Options::from_map(game.id(), game.option_specs(), pairs).map_err(py_error)
}

/// The game `id` with options, e.g. `load_game("tawla", mother="off")` or
/// `load_game("stortok", {"players": 4})`.
#[pyfunction]
#[pyo3(signature = (id, params = None, **kwargs))]
fn load_game(
    id: &str,
    params: Option<&Bound<'_, PyDict>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    let game = find_game(id).map_err(py_error)?;
    let options = read_options(game, params, kwargs)?;
    Game::new(game, options)
}

/// The final state of a game record (JSON, as written by `State.to_record`
/// or `spelbord selfplay --record`), each action checked. It replays as the
/// engine replays records (`Record::replay`): resignations included.
#[pyfunction]
fn replay(record: &str) -> PyResult<State> {
    let record = Record::from_json(record).map_err(py_error)?;
    let end = record.replay().map_err(py_error)?;
    let game = find_game(&record.game).map_err(py_error)?;
    let options = Options::from_map(
        game.id(),
        game.option_specs(),
        record
            .options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    )
    .map_err(py_error)?;
    let mut state = Game::new(game, options)?.new_initial_state()?;
    // The engine reads each entry (`apply_recorded`) and names it in its
    // own notation, which the state applies: an entry the engine reads
    // leniently (an old record's hit without its `*`) reads the same here.
    let mut engine = record.start_state().map_err(py_error)?;
    for text in &record.actions {
        let info = engine.apply_recorded(text).map_err(py_error)?;
        state.apply_text(&info.text)?;
    }
    if state.dyn_state().state_json() != end.state_json() {
        return Err(py_error(
            "the record replays to another state in Python than in the engine",
        ));
    }
    Ok(state)
}

/// Converts a player number from Python into a viewer.
fn viewer(player: Option<i64>, players: usize) -> PyResult<Viewer> {
    match player {
        None => Ok(Viewer::Spectator),
        Some(p) if p >= 0 && (p as usize) < players => Ok(Viewer::Player(p as usize)),
        Some(p) => Err(py_error(format!(
            "player {p} is not a seat of this game (0 to {})",
            players - 1
        ))),
    }
}

/// The compiled core of the `spelbord` package.
#[pymodule]
fn _spelbord(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SpelbordError", m.py().get_type::<SpelbordError>())?;
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(agents::agent, m)?)?;
    m.add_function(wrap_pyfunction!(agents::arena, m)?)?;
    m.add_function(wrap_pyfunction!(agents::agent_names, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<agents::Agent>()?;
    m.add_class::<vector::VectorEnv>()?;
    Ok(())
}
