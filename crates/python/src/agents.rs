//! spelbord's agents from Python, and the arena as a function.

use crate::core::{Core, CoreAgent};
use crate::py_error;
use crate::state::{Game, State};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use spelbord_ai::AGENT_NAMES;
use spelbord_ai::arena::{elo, game_scores, seating, summarize};
use spelbord_engine::Turn;
use spelbord_engine::rng::seeded;
use std::sync::Mutex;

/// An agent that plays one game: `step(state)` gives the id of its action.
#[pyclass(module = "spelbord", frozen)]
pub struct Agent {
    inner: Mutex<Box<dyn CoreAgent>>,
    game: &'static str,
}

#[pymethods]
impl Agent {
    /// The agent's name, e.g. `ai:expert`.
    #[getter]
    fn name(&self) -> String {
        self.inner.lock().expect("not poisoned").name()
    }
    /// The id of the action this agent chooses for the player to move
    /// (it does not apply it).
    fn step(&self, py: Python<'_>, state: &mut State) -> PyResult<usize> {
        if state.game().id() != self.game {
            return Err(py_error(format!(
                "this agent plays {}, not {}",
                self.game,
                state.game().id()
            )));
        }
        let core = state.core_mut();
        let mut guard = self.inner.lock().expect("not poisoned");
        let agent: &mut Box<dyn CoreAgent> = &mut guard;
        py.detach(|| agent.choose(core)).map_err(py_error)
    }
    fn __repr__(&self) -> String {
        format!("<spelbord.Agent {} for {}>", self.name(), self.game)
    }
}

/// The agent `name` (e.g. `random`, `ai:expert`, `mcts:iters=500`) for
/// `game`, seeded for reproducible play.
#[pyfunction]
#[pyo3(signature = (name, game, seed = 0))]
pub fn agent(name: &str, game: &Game, seed: u64) -> PyResult<Agent> {
    let inner = game.new_core()?.make_agent(name, seed).map_err(py_error)?;
    Ok(Agent {
        inner: Mutex::new(inner),
        game: game.id(),
    })
}

/// The agent names `agent` accepts (parameters follow a colon).
#[pyfunction]
pub fn agent_names() -> Vec<&'static str> {
    AGENT_NAMES.to_vec()
}

/// The seed of the agent in `seat` of game number `game`.
fn agent_seed(seed: u64, game: u64, seat: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(game.wrapping_mul(1_000_003))
        .wrapping_add(seat as u64 * 7919)
}

/// Plays one game between seated agents, dice from `dice`; the returns per seat.
fn play(
    mut state: Box<dyn Core>,
    agents: &mut [Box<dyn CoreAgent>],
    dice: u64,
) -> Result<Vec<f64>, String> {
    let mut rng = seeded(dice);
    loop {
        let id = match state.turn() {
            Turn::Over => return Ok(state.returns()),
            Turn::Chance => state.sample_chance_id(&mut rng),
            Turn::Player(p) => agents[p].choose(state.as_mut())?,
        };
        state.apply_id(id).map_err(|e| e.to_string())?;
    }
}

/// Agents play `games` games of `game` (rounded up to a multiple of the
/// number of agents); seats rotate so that each agent plays each seat
/// equally often, and the games of one rotation share their dice. Returns
/// each agent's mean score (1 win, 0.5 tie, 0 loss against the other
/// agents' seats) with its 95% interval, and for two agents the Elo
/// difference of the first over the second.
#[pyfunction]
#[pyo3(signature = (game, agents, games = 100, seed = 1))]
pub fn arena<'py>(
    py: Python<'py>,
    game: &Game,
    agents: Vec<String>,
    games: u64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    if agents.len() < 2 {
        return Err(py_error("an arena needs at least two agents"));
    }
    let start = game.new_core()?;
    for name in &agents {
        start.make_agent(name, 0).map_err(py_error)?;
    }
    let k = agents.len();
    let seats = start.num_players();
    let games = games.max(1).div_ceil(k as u64) * k as u64;
    let scores = py
        .detach(|| -> Result<Vec<Vec<f64>>, String> {
            let mut scores = vec![Vec::new(); k];
            for i in 0..games {
                let seated = seating(i, k, seats);
                let mut players = seated
                    .iter()
                    .enumerate()
                    .map(|(s, &a)| start.make_agent(&agents[a], agent_seed(seed, i, s)))
                    .collect::<Result<Vec<_>, _>>()?;
                let dice = seed.wrapping_add(i / k as u64);
                let returns = play(start.clone_core(), &mut players, dice)?;
                for (a, score) in game_scores(&returns, &seated, k).into_iter().enumerate() {
                    scores[a].extend(score);
                }
            }
            Ok(scores)
        })
        .map_err(py_error)?;
    let out = PyDict::new(py);
    out.set_item("game", game.id())?;
    out.set_item("games", games)?;
    let list = PyList::empty(py);
    for (name, values) in agents.iter().zip(&scores) {
        let s = summarize(values);
        let d = PyDict::new(py);
        d.set_item("agent", name)?;
        d.set_item("score", s.mean)?;
        d.set_item("low", s.low)?;
        d.set_item("high", s.high)?;
        list.append(d)?;
    }
    out.set_item("agents", list)?;
    if k == 2 {
        out.set_item("elo", elo(summarize(&scores[0]).mean))?;
    }
    Ok(out)
}
