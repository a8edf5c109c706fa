"""A PettingZoo AEC-style environment for the two-player games.

It follows PettingZoo's agent-environment-cycle API (``reset``, ``step``,
``observe``, ``last``, ``agent_selection``, ``rewards``, ``terminations``,
``truncations``, ``infos``) without depending on PettingZoo. Chance (dice,
deals) is played inside. Observations are dicts of ``observation`` (float32)
and ``action_mask`` (int8 over ``num_distinct_actions()`` ids), as in
PettingZoo's classic games.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np

from . import _spelbord


class AECEnv:
    """One game of a two-player ``game`` for agents ``player_0`` and ``player_1``."""

    metadata = {"name": "spelbord", "is_parallelizable": False}

    def __init__(self, game: _spelbord.Game, seed: Optional[int] = None):
        if game.num_players() != 2:
            raise _spelbord.SpelbordError(
                f"the AEC environment is for two-player games; {game} seats {game.num_players()}"
            )
        self.game = game
        self.possible_agents = ["player_0", "player_1"]
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
        """Plays ``action`` for the agent to act; ``None`` once its game is over."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise _spelbord.SpelbordError("the game is over: step(None) for each agent")
            self.agents.remove(a)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._cumulative_rewards[a] = 0.0
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._settle()

    def agent_iter(self, max_iter: int = 2**63):
        """The agent to act, until every agent is done."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self) -> str:
        """The board as a spectator sees it."""
        return str(self.state)
