//! A state's history: its steps (action ids and resignations), and what
//! each viewer has seen of it, caught up only when asked.

use super::Game;
use crate::core::Core;
use crate::py_error;
use pyo3::prelude::*;
use sha2::{Digest, Sha256};
use spelbord_engine::{Resign, Viewer};
use std::sync::Arc;
/// One entry of a state's history: an action id, or a resignation (which
/// has no id: the engine lists it among no legal actions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Step {
    /// An action or chance outcome, by its id in the state it was applied to.
    Id(usize),
    /// A seat gave up ([`Core::resign`]).
    Resign(Resign),
}

impl Step {
    /// Applies this step to `core`; on error nothing changes.
    pub(super) fn apply(self, core: &mut dyn Core) -> Result<(), spelbord_engine::Error> {
        match self {
            Step::Id(id) => core.apply_id(id),
            Step::Resign(r) => core.resign(r.seat, r.kind),
        }
    }

    /// The step as Python sees it in `history()`: the id, or the
    /// resignation's record text `resign:<seat>:<kind>`.
    pub(super) fn to_py(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self {
            Step::Id(id) => id.into_pyobject(py)?.into_any().unbind(),
            Step::Resign(r) => r.text().into_pyobject(py)?.into_any().unbind(),
        })
    }

    /// The step as `history_str()` writes it.
    pub(super) fn text(self) -> String {
        match self {
            Step::Id(id) => id.to_string(),
            Step::Resign(r) => r.text(),
        }
    }
}

/// What one viewer has seen, brought up to the history only when asked: a
/// replay, the last distinct observation and a digest of all of them.
#[derive(Clone)]
pub(super) struct Recall {
    /// A replay of the game as far as `upto`.
    replay: Arc<dyn Core>,
    /// How many actions of the history `replay` has applied.
    upto: usize,
    /// How many distinct observations there were.
    seen: usize,
    /// SHA-256 over the distinct observations, each ended by a newline.
    digest: Sha256,
    /// The last observation (compared to skip repeats).
    last: String,
}

impl Recall {
    /// A replay from the start, having seen the first observation.
    pub(super) fn new(game: &Game, viewer: Viewer) -> PyResult<Self> {
        let replay: Arc<dyn Core> = Arc::from(game.new_core()?);
        let last = replay.dyn_state().observation_json(viewer).to_string();
        let mut digest = Sha256::new();
        digest.update(last.as_bytes());
        digest.update(b"\n");
        Ok(Recall {
            replay,
            upto: 0,
            seen: 1,
            digest,
            last,
        })
    }

    /// Applies the history's steps not yet seen.
    pub(super) fn catch_up(&mut self, history: &[Step], viewer: Viewer) -> PyResult<()> {
        if self.upto == history.len() {
            return Ok(());
        }
        let mut replay = self.replay.clone_core();
        for &step in &history[self.upto..] {
            step.apply(replay.as_mut()).map_err(py_error)?;
            let now = replay.dyn_state().observation_json(viewer).to_string();
            if now != self.last {
                self.digest.update(now.as_bytes());
                self.digest.update(b"\n");
                self.seen += 1;
                self.last = now;
            }
        }
        self.replay = Arc::from(replay);
        self.upto = history.len();
        Ok(())
    }

    /// The last observation, then how many there were and their digest.
    pub(super) fn text(&self) -> String {
        let digest: String = self
            .digest
            .clone()
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{}\nseen {} sha256 {digest}", self.last, self.seen)
    }
}
