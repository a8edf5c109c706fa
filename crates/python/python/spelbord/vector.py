"""A vectorised environment: N games stepped in Rust per call, NumPy out."""

from __future__ import annotations

import numpy as np

from . import _spelbord


class VectorEnv:
    """``num_envs`` games of ``game`` played at once.

    Chance (dice, deals) is played inside, seeded by ``seed``, so every game
    always waits for its player to move. ``step(actions)`` applies one action
    id per game; a game that ends reports its returns and starts anew.
    Legal action ids of a game are ``0 .. legal_action_counts()[i] - 1``.
    """

    def __init__(self, game: _spelbord.Game, num_envs: int, seed: int = 0):
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.num_players()
        self.num_actions = game.num_distinct_actions()
        self.observation_size = game.observation_tensor_size()
        self._env = _spelbord.VectorEnv(game, num_envs, seed)

    def reset(self) -> np.ndarray:
        """Starts every game anew; returns the observations."""
        self._env.reset()
        return self.observations()

    def step(self, actions) -> tuple[np.ndarray, np.ndarray]:
        """Applies one action id per game for its player to move.

        Returns ``(returns, done)``: float32 ``[num_envs, num_players]``
        returns of the games that ended in this step (zeros elsewhere) and a
        bool ``[num_envs]`` array telling which ended (and were restarted).
        """
        ids = np.ascontiguousarray(actions, dtype="<i8")
        returns, done = self._env._step(ids.tobytes())
        returns = np.frombuffer(returns, dtype="<f4").reshape(self.num_envs, self.num_players)
        return returns, np.frombuffer(done, dtype=np.bool_)

    def observations(self) -> np.ndarray:
        """float32 ``[num_envs, observation_size]``: each game as its player to move sees it."""
        raw = self._env._observations()
        return np.frombuffer(raw, dtype="<f4").reshape(self.num_envs, self.observation_size)

    def legal_action_mask(self) -> np.ndarray:
        """bool ``[num_envs, num_distinct_actions]``: the legal ids of each game."""
        raw = self._env._masks()
        return np.frombuffer(raw, dtype=np.bool_).reshape(self.num_envs, self.num_actions)

    def legal_action_counts(self) -> np.ndarray:
        """int64 ``[num_envs]``: how many legal actions each game has."""
        return np.frombuffer(self._env._counts(), dtype="<i8").copy()

    def current_players(self) -> np.ndarray:
        """int64 ``[num_envs]``: the player to move in each game."""
        return np.frombuffer(self._env._players(), dtype="<i8").copy()

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action id for each game."""
        counts = self.legal_action_counts()
        return (rng.random(self.num_envs) * counts).astype(np.int64)
