"""Agents, the arena, the vectorised environment and the AEC wrapper."""

import numpy as np
import pytest

import spelbord
from conftest import play_randomly


def test_an_agent_chooses_a_legal_action():
    game = spelbord.load_game("backgammon")
    bot = spelbord.agent("ai:expert", game, seed=3)
    assert bot.name == "ai:expert"
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    action = bot.step(state)
    assert action in state.legal_actions()
    with pytest.raises(spelbord.SpelbordError):
        spelbord.agent("ai:expert", spelbord.load_game("lager")).step(state)
    with pytest.raises(spelbord.SpelbordError, match="unknown agent"):
        spelbord.agent("nobody", game)


@pytest.mark.parametrize("game_id", ["tawla", "stortok", "lager", "stumphog", "high-gammon"])
def test_agents_play_whole_games(game_id):
    game = spelbord.load_game(game_id)
    bots = [spelbord.agent("greedy", game, seed=s) for s in range(game.num_players())]
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert abs(sum(state.returns())) < 1e-9


def test_arena_scores_a_stronger_agent_higher():
    game = spelbord.load_game("lager")
    result = spelbord.arena(game, ["greedy", "random"], games=20, seed=2)
    assert result["games"] == 20
    greedy, random_ = result["agents"]
    assert greedy["agent"] == "greedy" and greedy["low"] <= greedy["score"] <= greedy["high"]
    assert greedy["score"] > random_["score"]
    assert result["elo"] > 0


@pytest.mark.parametrize("game_id,options", [("backgammon", {}), ("stortok", {"players": 4}), ("lager", {})])
def test_vector_env_steps_many_games(game_id, options):
    game = spelbord.load_game(game_id, options)
    env = spelbord.VectorEnv(game, 16, seed=4)
    rng = np.random.default_rng(0)
    obs = env.reset()
    assert obs.shape == (16, game.observation_tensor_size()) and obs.dtype == np.float32
    finished = 0
    for _ in range(3000):
        counts = env.legal_action_counts()
        mask = env.legal_action_mask()
        assert mask.shape == (16, game.num_distinct_actions())
        assert (mask.sum(axis=1) == counts).all() and (counts > 0).all()
        players = env.current_players()
        assert ((players >= 0) & (players < game.num_players())).all()
        returns, done = env.step(env.random_actions(rng))
        assert returns.shape == (16, game.num_players())
        assert np.allclose(returns.sum(axis=1), 0, atol=1e-6)
        assert (returns[~done] == 0).all()
        finished += int(done.sum())
        if finished >= 16:
            break
    assert finished >= 16
    assert env.observations().shape == obs.shape


def test_vector_env_refuses_illegal_actions_and_changes_nothing():
    env = spelbord.VectorEnv(spelbord.load_game("lager"), 2)
    before = env.observations().copy()
    for bad in ([0, 100_000], [-1, 0], [0]):
        with pytest.raises(spelbord.SpelbordError):
            env.step(bad)
        assert (env.observations() == before).all()


@pytest.mark.parametrize("game_id,options", [("tawla", {}), ("stortok", {"players": 2}), ("stortok", {"players": 4}), ("lager", {})])
def test_aec_env_plays_games_to_the_end(game_id, options):
    env = spelbord.AECEnv(spelbord.load_game(game_id, options), seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated:
            env.step(None)
            continue
        assert obs["observation"].shape == (env.game.observation_tensor_size(),)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 10
    assert env.agents == [] and env._cumulative_rewards == {}


def test_random_playout_in_rust_ends_the_game(rng):
    state = spelbord.load_game("tawla").new_initial_state()
    plies = state.random_playout(11)
    assert state.is_terminal() and plies == state.move_number()
    again = play_randomly(spelbord.load_game("tawla").new_initial_state(), rng)
    assert again.is_terminal()
