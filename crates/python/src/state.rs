//! `Game` and `State`, with OpenSpiel's method names.

mod history;

use crate::core::{Core, new_core};
use crate::limits::{Limits, limits};
use crate::{CHANCE, TERMINAL, py_error, viewer};
use history::{Recall, Step};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use spelbord_engine::{DynGame, Options, Record, Resign, Resignation, Turn, Viewer};
use std::sync::Arc;

/// What every state of one game shares.
pub struct GameInfo {
    game: &'static dyn DynGame,
    options: Options,
    limits: Limits,
    max_game_length: usize,
    num_players: usize,
    tensor_size: usize,
}

/// A game with its options: makes states and states its bounds.
#[pyclass(module = "spelbord", frozen)]
#[derive(Clone)]
pub struct Game {
    info: Arc<GameInfo>,
}

impl Game {
    /// The game `game` with checked `options`.
    pub fn new(game: &'static dyn DynGame, options: Options) -> PyResult<Self> {
        let core = new_core(game.id(), &options).map_err(py_error)?;
        let max_game_length = game
            .new_state(&options)
            .map_err(py_error)?
            .max_game_length() as usize;
        Ok(Game {
            info: Arc::new(GameInfo {
                game,
                limits: limits(game.id()),
                max_game_length,
                num_players: core.num_players(),
                tensor_size: core.observation_tensor_len(),
                options,
            }),
        })
    }

    /// The game's id.
    pub fn id(&self) -> &'static str {
        self.info.game.id()
    }

    /// The game's options.
    pub fn options(&self) -> &Options {
        &self.info.options
    }

    /// The game's bounds.
    pub fn limits(&self) -> Limits {
        self.info.limits
    }

    /// Length of every observation tensor.
    pub fn tensor_size(&self) -> usize {
        self.info.tensor_size
    }

    /// The state before the first action, with integer actions.
    pub fn new_core(&self) -> PyResult<Box<dyn Core>> {
        new_core(self.id(), &self.info.options).map_err(py_error)
    }
}

#[pymethods]
impl Game {
    /// The game's id, e.g. `tawla` (OpenSpiel's short name).
    #[getter]
    fn short_name(&self) -> &'static str {
        self.id()
    }
    /// The game's display name.
    #[getter]
    fn name(&self) -> &'static str {
        self.info.game.name()
    }
    /// One line on what the game is.
    #[getter]
    fn summary(&self) -> &'static str {
        self.info.game.summary()
    }
    /// Whether players hold cards others may not see.
    #[getter]
    fn hidden_information(&self) -> bool {
        self.info.game.hidden_information()
    }
    /// Every option's value, as text.
    fn get_parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.info.options.iter() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }
    /// The rules for players, in Markdown.
    fn rules(&self) -> &'static str {
        self.info.game.rules()
    }
    /// Number of players this configuration seats.
    fn num_players(&self) -> usize {
        self.info.num_players
    }
    /// Action ids are below this.
    fn num_distinct_actions(&self) -> usize {
        self.info.limits.num_distinct_actions
    }
    /// Chance outcome ids are below this.
    fn max_chance_outcomes(&self) -> usize {
        self.info.limits.max_chance_outcomes
    }
    /// The most actions (chance included) one game can last.
    fn max_game_length(&self) -> usize {
        self.info.max_game_length
    }
    /// The smallest return a player can get.
    fn min_utility(&self) -> f64 {
        self.info.limits.utility.0
    }
    /// The largest return a player can get.
    fn max_utility(&self) -> f64 {
        self.info.limits.utility.1
    }
    /// The shape of `State.observation_tensor`: one dimension.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.info.tensor_size]
    }
    /// The length of `State.observation_tensor`.
    fn observation_tensor_size(&self) -> usize {
        self.info.tensor_size
    }
    /// The state before the first action.
    pub fn new_initial_state(&self) -> PyResult<State> {
        Ok(State::fresh(self.new_core()?, self.clone()))
    }
    /// A state from `State.serialize()`'s text (a game record), each action checked.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        let state = crate::replay(text)?;
        if state.game.id() != self.id() || state.game.options() != self.options() {
            return Err(py_error(format!(
                "this state is of {} with other options, not of this game",
                state.game.id()
            )));
        }
        Ok(state)
    }
    fn __repr__(&self) -> String {
        let options: Vec<String> = self
            .info
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v:?}"))
            .collect();
        format!("load_game({:?}, {})", self.id(), options.join(", "))
            .replace(", )", ")")
            .replace("\"", "'")
    }
    fn __str__(&self) -> String {
        self.__repr__()
    }
}

/// A game in progress. Action ids are indexes: at a decision into
/// `legal_actions()`, at a chance node into `chance_outcomes()`.
#[pyclass(module = "spelbord")]
pub struct State {
    core: Box<dyn Core>,
    game: Game,
    history: Vec<Step>,
    recall: Vec<Option<Recall>>,
}

impl State {
    /// Applies an action written in notation, or a resignation written as
    /// a record writes it (`resign:<seat>:<kind>`).
    pub fn apply_text(&mut self, text: &str) -> PyResult<()> {
        if let Some(resign) = Resign::parse(text) {
            let resign = resign.map_err(py_error)?;
            return self.apply_step(Step::Resign(resign));
        }
        let id = self.core.text_to_id(text).map_err(py_error)?;
        self.apply_step(Step::Id(id))
    }

    /// Applies one step and remembers it; on error nothing changes.
    fn apply_step(&mut self, step: Step) -> PyResult<()> {
        step.apply(self.core.as_mut()).map_err(py_error)?;
        self.history.push(step);
        Ok(())
    }

    /// A state before any action, remembering nothing seen.
    fn fresh(core: Box<dyn Core>, game: Game) -> Self {
        let recall = vec![None; core.num_players()];
        State {
            core,
            game,
            history: Vec::new(),
            recall,
        }
    }

    /// A `player` argument: a seat, or `CHANCE` at a chance node.
    fn check_player(&self, player: Option<i64>) -> PyResult<Option<i64>> {
        match player {
            Some(p) if p != CHANCE && !(0..self.core.num_players() as i64).contains(&p) => {
                Err(py_error(format!(
                    "player {p} is not a seat of this game (0 to {}, or CHANCE = -1)",
                    self.core.num_players() - 1
                )))
            }
            _ => Ok(player),
        }
    }

    /// The viewer for a player argument that defaults to the player to move.
    fn viewer_or_mover(&self, player: Option<i64>) -> PyResult<Viewer> {
        let player = player.or(match self.core.turn() {
            Turn::Player(p) => Some(p as i64),
            _ => None,
        });
        viewer(player, self.core.num_players())
    }

    /// The record of this game: options and every action in notation.
    fn record(&self, players: Vec<String>, seed: Option<u64>) -> PyResult<Record> {
        let mut record = Record::new(self.game.id(), self.game.options().clone(), players);
        record.seed = seed;
        let mut replay = self.game.new_core()?;
        for &step in &self.history {
            let text = match step {
                Step::Id(id) => replay.action_text(id),
                Step::Resign(r) => Some(r.text()),
            }
            .ok_or_else(|| py_error("the history does not replay"))?;
            step.apply(replay.as_mut()).map_err(py_error)?;
            record.actions.push(text);
        }
        if self.core.turn() == Turn::Over {
            let state = self.core.dyn_state();
            record.finish(&state.returns(), state.outcome());
        }
        Ok(record)
    }
}

#[pymethods]
impl State {
    /// The player to move; `CHANCE` (-1) at chance nodes, `TERMINAL` (-4) when over.
    fn current_player(&self) -> i64 {
        match self.core.turn() {
            Turn::Player(p) => p as i64,
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }
    /// Whether chance acts next.
    fn is_chance_node(&self) -> bool {
        self.core.turn() == Turn::Chance
    }
    /// Whether a player acts next.
    fn is_player_node(&self) -> bool {
        matches!(self.core.turn(), Turn::Player(_))
    }
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.core.turn() == Turn::Over
    }
    /// Always false: the players take turns.
    fn is_simultaneous_node(&self) -> bool {
        false
    }
    /// Number of players.
    fn num_players(&self) -> usize {
        self.core.num_players()
    }
    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        self.game.clone()
    }
    /// The legal action ids, `0..n` (chance outcome ids at chance nodes);
    /// empty for a `player` who is not to move.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&mut self, player: Option<i64>) -> PyResult<Vec<usize>> {
        if self
            .check_player(player)?
            .is_some_and(|p| p != self.current_player())
        {
            return Ok(Vec::new());
        }
        Ok((0..self.core.num_actions()).collect())
    }
    /// The legal actions in the game's notation, in id order.
    fn legal_action_strings(&mut self) -> Vec<String> {
        self.core.action_texts()
    }
    /// 1 for each legal action id, 0 for the others, over
    /// `num_distinct_actions()` ids (`max_chance_outcomes()` at chance nodes).
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask(&mut self, player: Option<i64>) -> PyResult<Vec<i32>> {
        let limits = self.game.limits();
        let width = if self.is_chance_node() {
            limits.max_chance_outcomes
        } else {
            limits.num_distinct_actions
        };
        let n = self.legal_actions(player)?.len();
        Ok((0..width).map(|i| i32::from(i < n)).collect())
    }
    /// The chance outcome ids with their probabilities (empty unless chance acts).
    fn chance_outcomes(&mut self) -> Vec<(usize, f64)> {
        self.core
            .chance_probabilities()
            .into_iter()
            .enumerate()
            .collect()
    }
    /// Applies an action id (or an action in notation, or a resignation as
    /// a record writes it, `resign:<seat>:<kind>`); on error nothing changes.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if action.is_instance_of::<PyString>() {
            return self.apply_text(&action.extract::<String>()?);
        }
        if action.is_instance_of::<PyBool>() || !action.hasattr("__index__")? {
            return Err(PyTypeError::new_err(format!(
                "an action is an int id or a str in notation, not {}: {}",
                action.get_type().name()?,
                action.repr()?
            )));
        }
        match action
            .extract::<i64>()
            .ok()
            .and_then(|id| usize::try_from(id).ok())
        {
            Some(id) => self.apply_step(Step::Id(id)),
            None => Err(py_error(format!(
                "{} is not an action id of this state (0 to {})",
                action.repr()?,
                self.core.num_actions().saturating_sub(1)
            ))),
        }
    }
    /// The id of an action written in notation (e.g. `24/18 13/11`).
    #[pyo3(signature = (a, b = None))]
    fn string_to_action(&mut self, a: &Bound<'_, PyAny>, b: Option<&str>) -> PyResult<usize> {
        let text = match b {
            Some(text) => text.to_string(),
            None => a.extract::<String>()?,
        };
        if Resign::parse(&text).is_some() {
            return Err(py_error(format!(
                "`{text}` is a resignation, which has no action id: use State.resign"
            )));
        }
        self.core.text_to_id(&text).map_err(py_error)
    }
    /// `player` gives up `kind` (`single`, `gammon`, `backgammon` or
    /// `match`) as the game's rules say, whoever is to move; on error
    /// (no such seat or kind, one the game does not offer now, the game
    /// over) nothing changes.
    fn resign(&mut self, player: i64, kind: &str) -> PyResult<()> {
        let n = self.core.num_players();
        let seat = usize::try_from(player)
            .ok()
            .filter(|&p| p < n)
            .ok_or_else(|| {
                py_error(format!(
                    "player {player} is not a seat of this game (0 to {})",
                    n - 1
                ))
            })?;
        let kind = Resignation::from_word(kind).ok_or_else(|| {
            py_error(format!(
                "`{kind}` is not a kind of resignation: single, gammon, backgammon or match"
            ))
        })?;
        self.apply_step(Step::Resign(Resign { seat, kind }))
    }
    /// An action id of this state in notation: `action_to_string(action)`
    /// or, as in OpenSpiel, `action_to_string(player, action)`.
    #[pyo3(signature = (a, b = None))]
    fn action_to_string(&mut self, a: i64, b: Option<i64>) -> PyResult<String> {
        let id = b.unwrap_or(a);
        usize::try_from(id)
            .ok()
            .and_then(|id| self.core.action_text(id))
            .ok_or_else(|| py_error(format!("{id} is not an action id of this state")))
    }
    /// Returns per player: final when over, zeros before.
    fn returns(&self) -> Vec<f64> {
        self.core.returns()
    }
    /// How the game ended, as JSON text (`null` before the end): the
    /// engine's outcome, with its result, winner or places, and `ending`
    /// (e.g. `resigned`).
    fn outcome_json(&self) -> String {
        self.core.dyn_state().outcome_json().to_string()
    }
    /// One player's return.
    fn player_return(&self, player: usize) -> PyResult<f64> {
        self.core
            .returns()
            .get(player)
            .copied()
            .ok_or_else(|| py_error(format!("no player {player}")))
    }
    /// What `player` sees (default: the player to move, or a spectator), as
    /// a text drawing; never anything hidden from that player.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        let viewer = self.viewer_or_mover(player)?;
        Ok(self.core.dyn_state().render(viewer, false))
    }
    /// What `player` sees as JSON text (the engine's observation).
    #[pyo3(signature = (player = None))]
    fn observation_json(&self, player: Option<i64>) -> PyResult<String> {
        let viewer = self.viewer_or_mover(player)?;
        Ok(self.core.dyn_state().observation_json(viewer).to_string())
    }
    /// What `player` sees as `observation_tensor_size()` floats.
    #[pyo3(signature = (player = None))]
    fn observation_tensor(&self, player: Option<i64>) -> PyResult<Vec<f32>> {
        let viewer = self.viewer_or_mover(player)?;
        let mut out = Vec::new();
        self.core.observation_tensor(viewer, &mut out);
        Ok(out)
    }
    /// Everything `player` has seen so far (perfect recall): in games with
    /// hidden cards the observation, then a line `seen N sha256 H` where H
    /// digests the N distinct observations since the start; elsewhere the
    /// observation, which shows everything.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&mut self, player: Option<i64>) -> PyResult<String> {
        let viewer = self.viewer_or_mover(player)?;
        let (Viewer::Player(seat), true) = (viewer, self.game.info.game.hidden_information())
        else {
            return Ok(self.core.dyn_state().observation_json(viewer).to_string());
        };
        let recall = match &mut self.recall[seat] {
            Some(recall) => recall,
            slot => slot.insert(Recall::new(&self.game, viewer)?),
        };
        recall.catch_up(&self.history, viewer)?;
        Ok(recall.text())
    }
    /// Every action id applied so far, chance included; a resignation as
    /// its record text, `resign:<seat>:<kind>` (`apply_action` takes both).
    fn history(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.history.iter().map(|step| step.to_py(py)).collect()
    }
    /// The history as text, separated by commas.
    fn history_str(&self) -> String {
        let steps: Vec<String> = self.history.iter().map(|step| step.text()).collect();
        steps.join(", ")
    }
    /// Number of actions applied so far, chance and resignations included.
    fn move_number(&self) -> usize {
        self.history.len()
    }
    /// A copy of this state.
    fn clone(&self) -> State {
        State {
            core: self.core.clone_core(),
            game: self.game.clone(),
            history: self.history.clone(),
            recall: self.recall.clone(),
        }
    }
    fn __copy__(&self) -> State {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }
    /// Pickles as the game record, which `spelbord.replay` reads back.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let replay = py.import("spelbord._spelbord")?.getattr("replay")?;
        Ok((replay, (self.serialize()?,)))
    }
    /// The state as text (`Game.deserialize_state` reads it back): the game
    /// record as compact JSON.
    fn serialize(&self) -> PyResult<String> {
        let record = self.record(Vec::new(), None)?;
        Ok(serde_json::to_string(&record).expect("a record serializes"))
    }
    /// The game record as pretty JSON (what `spelbord replay` and `spelbord.replay` read).
    #[pyo3(signature = (players = None, seed = None))]
    fn to_record(&self, players: Option<Vec<String>>, seed: Option<u64>) -> PyResult<String> {
        Ok(self.record(players.unwrap_or_default(), seed)?.to_json())
    }
    /// The whole state as JSON text, hidden cards included (for debugging).
    fn state_json(&self) -> String {
        self.core.dyn_state().state_json().to_string()
    }
    /// Events of the last action (e.g. `Stumpvarning`).
    fn events(&self) -> Vec<String> {
        self.core.dyn_state().events()
    }
    /// Plays uniformly random actions and chance to the end (in Rust);
    /// returns the number of actions played.
    fn random_playout(&mut self, seed: u64) -> u64 {
        let mut rng = spelbord_engine::rng::seeded(seed);
        let start = self.history.len();
        while self.core.turn() != Turn::Over {
            let id = match self.core.turn() {
                Turn::Chance => self.core.sample_chance_id(&mut rng),
                _ => rand::Rng::random_range(&mut rng, 0..self.core.num_actions()),
            };
            self.core.apply_id(id).expect("a listed id is legal");
            self.history.push(Step::Id(id));
        }
        (self.history.len() - start) as u64
    }
    fn __str__(&self) -> String {
        self.core.dyn_state().render(Viewer::Spectator, false)
    }
    fn __repr__(&self) -> String {
        format!(
            "<spelbord.State of {} after {} actions>",
            self.game.id(),
            self.history.len()
        )
    }
}

impl State {
    /// The state's integer-action core (for agents).
    pub fn core_mut(&mut self) -> &mut dyn Core {
        self.core.as_mut()
    }
    /// The state's game.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The state behind the engine's object-safe layer.
    pub fn dyn_state(&self) -> &dyn spelbord_engine::DynState {
        self.core.dyn_state()
    }
}
