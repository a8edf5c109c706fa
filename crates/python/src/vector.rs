//! N games stepped in Rust per call, for reinforcement learning. Chance is
//! played inside (seeded), so every game waits for a player's action; a game
//! that ends is reported and started anew at once.

use crate::core::Core;
use crate::py_error;
use crate::state::Game;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use rand_chacha::ChaCha8Rng;
use spelbord_engine::rng::seeded;
use spelbord_engine::{Turn, Viewer};

/// The compiled part of `spelbord.VectorEnv` (the Python class wraps its
/// byte buffers as NumPy arrays).
#[pyclass(module = "spelbord")]
pub struct VectorEnv {
    game: Game,
    envs: Vec<Box<dyn Core>>,
    num_envs: usize,
    rng: ChaCha8Rng,
    tensor: Vec<f32>,
}

impl VectorEnv {
    /// Plays chance until a player is to move.
    fn settle(env: &mut Box<dyn Core>, rng: &mut ChaCha8Rng) {
        while env.turn() == Turn::Chance {
            let id = env.sample_chance_id(rng);
            env.apply_id(id).expect("a sampled chance outcome is legal");
        }
    }

    fn fresh(&mut self) -> PyResult<Box<dyn Core>> {
        let mut env = self.game.new_core()?;
        Self::settle(&mut env, &mut self.rng);
        Ok(env)
    }
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0))]
    fn new(game: Game, num_envs: i64, seed: u64) -> PyResult<Self> {
        let num_envs = match usize::try_from(num_envs) {
            Ok(n @ 1..=1_000_000) => n,
            _ => {
                return Err(py_error(format!(
                    "num_envs must be from 1 to 1,000,000, not {num_envs}"
                )));
            }
        };
        let mut env = VectorEnv {
            game,
            envs: Vec::new(),
            num_envs,
            rng: seeded(seed),
            tensor: Vec::new(),
        };
        env.reset()?;
        Ok(env)
    }
    /// Starts every game anew.
    fn reset(&mut self) -> PyResult<()> {
        self.envs = (0..self.num_envs)
            .map(|_| self.fresh())
            .collect::<PyResult<_>>()?;
        Ok(())
    }
    /// Number of games.
    fn __len__(&self) -> usize {
        self.envs.len()
    }
    /// Applies one action id per game (little-endian int64 bytes) for its
    /// player to move; returns (returns per game and player as float32
    /// bytes, ended as one byte per game). Ended games start anew.
    fn _step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &[u8],
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        let n = self.envs.len();
        if actions.len() != n * 8 {
            return Err(py_error(format!("expected {n} actions")));
        }
        let players = self.game.new_core()?.num_players();
        let ids: Vec<i64> = actions
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let mut rewards = vec![0f32; n * players];
        let mut done = vec![0u8; n];
        let game = self.game.clone();
        // Every id is checked before any game moves, so a bad one changes nothing.
        for (i, (env, &id)) in self.envs.iter_mut().zip(&ids).enumerate() {
            let count = env.num_actions();
            if usize::try_from(id).map_or(true, |id| id >= count) {
                return Err(py_error(format!(
                    "game {i}: no action {id} (its ids are 0 to {})",
                    count.saturating_sub(1)
                )));
            }
        }
        let (envs, rng) = (&mut self.envs, &mut self.rng);
        py.detach(|| -> Result<(), String> {
            for (i, env) in envs.iter_mut().enumerate() {
                env.apply_id(ids[i] as usize)
                    .map_err(|e| format!("game {i}: {e}"))?;
                Self::settle(env, rng);
                if env.turn() == Turn::Over {
                    for (p, r) in env.returns().into_iter().enumerate() {
                        rewards[i * players + p] = r as f32;
                    }
                    done[i] = 1;
                    *env = game.new_core().map_err(|e| e.to_string())?;
                    Self::settle(env, rng);
                }
            }
            Ok(())
        })
        .map_err(py_error)?;
        let rewards: Vec<u8> = rewards.iter().flat_map(|r| r.to_le_bytes()).collect();
        Ok((PyByteArray::new(py, &rewards), PyByteArray::new(py, &done)))
    }
    /// The player to move in each game, as little-endian int64 bytes.
    fn _players<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let bytes: Vec<u8> = self
            .envs
            .iter()
            .flat_map(|e| {
                match e.turn() {
                    Turn::Player(p) => p as i64,
                    _ => -1,
                }
                .to_le_bytes()
            })
            .collect();
        PyByteArray::new(py, &bytes)
    }
    /// Number of legal actions in each game, as little-endian int64 bytes
    /// (the legal ids are 0 to count - 1).
    fn _counts<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let bytes: Vec<u8> = self
            .envs
            .iter_mut()
            .flat_map(|e| (e.num_actions() as i64).to_le_bytes())
            .collect();
        PyByteArray::new(py, &bytes)
    }
    /// Each game's observation tensor for its player to move, as float32 bytes.
    fn _observations<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let size = self.game.tensor_size();
        let mut bytes = Vec::with_capacity(self.envs.len() * size * 4);
        for env in &self.envs {
            let viewer = match env.turn() {
                Turn::Player(p) => Viewer::Player(p),
                _ => Viewer::Spectator,
            };
            env.observation_tensor(viewer, &mut self.tensor);
            bytes.extend(self.tensor.iter().flat_map(|x| x.to_le_bytes()));
        }
        PyByteArray::new(py, &bytes)
    }
    /// Each game's legal-action mask over `num_distinct_actions()` ids, one byte each.
    fn _masks<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let width = self.game.limits().num_distinct_actions;
        let mut bytes = vec![0u8; self.envs.len() * width];
        for (i, env) in self.envs.iter_mut().enumerate() {
            let n = env.num_actions().min(width);
            bytes[i * width..i * width + n].fill(1);
        }
        PyByteArray::new(py, &bytes)
    }
}
