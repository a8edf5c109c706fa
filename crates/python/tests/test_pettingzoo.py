"""PettingZoo's own API test on every game (spelbord.pettingzoo)."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import spelbord  # noqa: E402
from spelbord.pettingzoo import SpelbordEnv, env  # noqa: E402

GAMES = [g["id"] for g in spelbord.games()]

# PettingZoo's advice for other observation kinds: a dict of the tensor and
# the action mask is its classic games' own convention.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api_test_passes(game_id):
    api_test(env(game_id, seed=1), num_cycles=200)


def test_pettingzoo_env_is_an_aec_env_for_three_to_five_players():
    e = env("stortok", seed=2, players=5)
    assert isinstance(e, pettingzoo.AECEnv) and isinstance(e, SpelbordEnv)
    assert e.possible_agents == [f"player_{i}" for i in range(5)]
    api_test(e, num_cycles=100)


def test_pettingzoo_game_ends_with_zero_sum_rewards_and_every_agent_leaves():
    e = env("tawla", seed=3)
    rng = np.random.default_rng(3)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == [] and e.rewards == {} and e.terminations == {}
    assert sum(total.values()) == pytest.approx(0) and max(total.values()) > 0


def test_pettingzoo_step_none_before_the_end_is_refused():
    e = env("lager", seed=4)
    with pytest.raises(spelbord.SpelbordError, match="step\\(None\\)"):
        e.step(None)
