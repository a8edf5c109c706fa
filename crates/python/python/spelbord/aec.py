"""A PettingZoo AEC-style environment for every game.

It follows PettingZoo's agent-environment-cycle API (``reset``, ``step``,
``observe``, ``last``, ``agent_selection``, ``rewards``, ``terminations``,
``truncations``, ``infos``) without depending on PettingZoo;
``spelbord.pettingzoo`` makes it a ``pettingzoo.AECEnv`` with spaces.
Chance (dice, deals) is played inside. Observations are dicts of
``observation`` (float32) and ``action_mask`` (int8 over
``num_distinct_actions()`` ids), as in PettingZoo's classic games.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np

from . import _spelbord


class AECEnv:
    """One game of ``game`` for agents ``player_0`` … ``player_{n-1}``."""

    metadata = {"name": "spelbord_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: _spelbord.Game, seed: Optional[int] = None, render_mode: Optional[str] = None):
        if render_mode not in (None, "ansi"):
            raise _spelbord.SpelbordError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(game.num_players())]
        self._rng = random.Random(seed)
        self.reset(seed)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Starts a new game (chance played until a player is to move)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        while self.state.is_chance_node():
            ids, probs = zip(*self.state.chance_outcomes())
            self.state.apply_action(self._rng.choices(ids, probs)[0])
        if self.state.is_terminal():
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = self.state.returns()[i]
                self._cumulative_rewards[a] += self.rewards[a]
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees, and its legal-action mask (zeros when not to move)."""
        player = self.possible_agents.index(agent)
        obs = np.asarray(self.state.observation_tensor(player), dtype=np.float32)
        mask = np.asarray(self.state.legal_actions_mask(player), dtype=np.int8)
        if self.state.is_terminal() or len(mask) != self.game.num_distinct_actions():
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        """(observation, reward, termination, truncation, info) of the agent to act."""
        a = self.agent_selection
        return (
            self.observe(a) if observe else None,
            self._cumulative_rewards[a],
            self.terminations[a],
            self.truncations[a],
            self.infos[a],
        )

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for the agent to act; ``None`` once its game is over
        (the agent then leaves ``agents`` and every per-agent dict)."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise _spelbord.SpelbordError("the game is over: step(None) for each agent")
            self.agents.remove(a)
            for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
                del table[a]
            for agent in self.agents:
                self.rewards[agent] = 0.0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if action is None:
            raise _spelbord.SpelbordError(f"{a} is to move: step(None) is only for an agent whose game is over")
        self.state.apply_action(action)
        self._cumulative_rewards[a] = 0.0
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self._settle()

    def agent_iter(self, max_iter: int = 2**63):
        """The agent to act, until every agent is done."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self) -> Optional[str]:
        """The board as a spectator sees it (with ``render_mode="ansi"``)."""
        return str(self.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""
