"""OpenSpiel interop: spelbord's games as pyspiel Python games."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import spelbord  # noqa: E402
import spelbord.openspiel  # noqa: E402

NAMES = spelbord.openspiel.register()


def test_every_game_is_registered():
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert spelbord.openspiel.register() == NAMES
    game = pyspiel.load_game("spelbord_tawla", {"mother": "off"})
    assert game.num_players() == 2 and game.get_parameters()["mother"] == "off"
    assert pyspiel.load_game("spelbord_stortok", {"players": 4}).num_players() == 4


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_simulation_test_passes(name):
    # Default options, states serialized through OpenSpiel's game string.
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_mcts_bot_plays_backgammon_and_lager():
    from open_spiel.python.algorithms import mcts

    for name in ("spelbord_backgammon", "spelbord_lager"):
        game = pyspiel.load_game(name)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = mcts.MCTSBot(game, 2, 40, evaluator, random_state=np.random.RandomState(2))
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < 6:
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes())
                state.apply_action(int(np.random.RandomState(decisions).choice(ids, p=probs)))
            else:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
        assert decisions == 6


def test_openspiel_observer_reads_spelbord_observations():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("spelbord_stortok")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert obs.tensor.shape == (game.spelbord_game.observation_tensor_size(),)
    assert obs.string_from(state, 1) == state.state.observation_string(1)
