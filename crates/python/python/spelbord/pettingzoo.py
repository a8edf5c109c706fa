"""spelbord's games as PettingZoo environments (needs ``pettingzoo``).

    from spelbord.pettingzoo import env
    e = env("backgammon", seed=1)          # a pettingzoo.AECEnv
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Every game of ``spelbord.games()`` with any options; agents are
``player_0`` … ``player_{n-1}``; chance is played inside (seeded by
``reset(seed)``). Observations are ``{"observation": float32 tensor,
"action_mask": int8 over num_distinct_actions()}``; actions are the ids of
the legal actions, ``0 .. n-1``, as in ``State.legal_actions()``.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from gymnasium import spaces
import pettingzoo

from . import _spelbord
from .aec import AECEnv as _Cycle


class SpelbordEnv(_Cycle, pettingzoo.AECEnv):
    """A spelbord game as a ``pettingzoo.AECEnv``."""

    def __init__(self, game: _spelbord.Game, seed: Optional[int] = None, render_mode: Optional[str] = None):
        pettingzoo.AECEnv.__init__(self)
        actions = game.num_distinct_actions()
        tensor = spaces.Box(-np.inf, np.inf, (game.observation_tensor_size(),), np.float32)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        self._observation_space = spaces.Dict({"observation": tensor, "action_mask": mask})
        self._action_space = spaces.Discrete(actions)
        _Cycle.__init__(self, game, seed, render_mode)
        self.metadata = dict(_Cycle.metadata, name=f"spelbord_{game.short_name.replace('-', '_')}_v0")

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent: the tensor and the action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """The ids ``0 .. num_distinct_actions() - 1`` (legal ones in the mask)."""
        return self._action_space


def env(game_id: str, seed: Optional[int] = None, render_mode: Optional[str] = None, **options) -> SpelbordEnv:
    """The PettingZoo environment of ``game_id`` with ``options`` (e.g. ``players=3``)."""
    return SpelbordEnv(_spelbord.load_game(game_id, options), seed, render_mode)
