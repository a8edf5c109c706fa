"""The core API: catalogue, options, states, observations, records."""

import json
import os
import pickle
import re
import subprocess

import numpy as np
import pytest

import spelbord
from conftest import VARIANTS, play_randomly


def test_catalogue_lists_every_game_with_its_options():
    games = {g["id"]: g for g in spelbord.games()}
    assert set(games) == {
        "tawla", "backgammon", "high-gammon", "tric-trac", "stumphog", "stortok", "lager",
    }
    mother = next(o for o in games["tawla"]["options"] if o["key"] == "mother")
    assert mother["kind"] == "choice" and "off" in mother["values"]
    assert games["stortok"]["hidden_information"]
    assert (games["stortok"]["min_players"], games["stortok"]["max_players"]) == (2, 5)


def test_options_are_checked():
    game = spelbord.load_game("tawla", mother="off")
    assert game.get_parameters()["mother"] == "off"
    assert spelbord.load_game("stortok", {"players": 4}).num_players() == 4
    with pytest.raises(spelbord.SpelbordError, match="no option"):
        spelbord.load_game("tawla", colour="red")
    with pytest.raises(spelbord.SpelbordError, match="cannot be"):
        spelbord.load_game("stortok", players=9)
    with pytest.raises(spelbord.SpelbordError, match="unknown game"):
        spelbord.load_game("chess")


def test_bad_actions_raise_and_change_nothing():
    state = spelbord.load_game("backgammon").new_initial_state()
    assert state.is_chance_node() and state.current_player() == spelbord.CHANCE
    before = state.serialize()
    for bad in (10_000, -1, "24/18", "nonsense"):
        with pytest.raises(spelbord.SpelbordError):
            state.apply_action(bad)
        assert state.serialize() == before
    # Ids too large for any integer type, and things that are no action.
    with pytest.raises(spelbord.SpelbordError, match="not an action id"):
        state.apply_action(2**70)
    for bad in (1.5, None, True, [0]):
        with pytest.raises(TypeError, match="an action is an int id or a str"):
            state.apply_action(bad)
    assert state.serialize() == before
    state.apply_action(np.int64(0))  # NumPy's integers are ids


def test_bad_players_and_sizes_raise_value_errors():
    game = spelbord.load_game("backgammon")
    state = game.new_initial_state()
    for bad in (5, 2, -2):
        with pytest.raises(ValueError, match="not a seat"):
            state.legal_actions(bad)
        with pytest.raises(ValueError, match="not a seat"):
            state.legal_actions_mask(bad)
    assert state.legal_actions(spelbord.CHANCE) == state.legal_actions()
    assert state.legal_actions(0) == []
    for bad in (-1, 0, 10**7):
        with pytest.raises(ValueError, match="num_envs must be"):
            spelbord.VectorEnv(game, bad)


@pytest.mark.parametrize("game_id,options", VARIANTS)
def test_every_game_plays_to_the_end(game_id, options, rng):
    game = spelbord.load_game(game_id, options)
    size = game.observation_tensor_size()
    shapes = set()

    def check(state):
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            assert abs(sum(probs) - 1) < 1e-9
            assert len(probs) <= game.max_chance_outcomes()
        else:
            legal = state.legal_actions()
            assert legal == list(range(len(legal))) and len(legal) <= game.num_distinct_actions()
            strings = state.legal_action_strings()
            assert [state.string_to_action(s) for s in strings] == legal
            assert sum(state.legal_actions_mask()) == len(legal)
        for p in range(game.num_players()):
            shapes.add(len(state.observation_tensor(p)))

    state = play_randomly(game.new_initial_state(), rng, check)
    assert shapes == {size}
    assert state.current_player() == spelbord.TERMINAL
    assert state.move_number() == len(state.history()) <= game.max_game_length()
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert abs(sum(returns)) < 1e-9
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    with pytest.raises(spelbord.SpelbordError, match="over"):
        state.apply_action(0)


# Cards as JSON writes them ("10H") and as the drawings do ("10♥"); the
# drawings' help text names example cards in letters, so they are read by symbol.
CARD = re.compile(r"(10|[2-9JQKA])([CDHS])")
CARD_DRAWN = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in(text, pattern=CARD):
    return {rank + SUIT.get(suit, suit) for rank, suit in pattern.findall(text)}


def card_slot(card):
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return "CDHS".index(card[-1]) * 13 + ranks.index(card[:-1])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_stortok_shows_no_player_a_card_he_may_not_see(players, rng):
    # The cap keeps the test short.
    game = spelbord.load_game("stortok", players=players, cap=300)
    checked = 0

    def check(state):
        nonlocal checked
        full = json.loads(state.state_json())
        for p in range(players):
            seen = set(full["hands"][p]) | set(full["table"]) | set(full["discarded"])
            seen |= {c for known in full["known"] for c in known}
            if full["turned"]:
                seen.add(full["turned"])
            hidden = {c for q in range(players) for c in full["hands"][q]} | set(full["stock"])
            hidden -= seen
            assert not cards_in(state.observation_json(p)) & hidden
            assert not cards_in(state.observation_string(p), CARD_DRAWN) & hidden
            tensor = state.observation_tensor(p)
            # Card blocks: hand, table, discards, known per seat (after 12 turn/viewer flags).
            for block in range(3 + 5):
                start = 12 + 52 * block
                for card in hidden:
                    assert tensor[start + card_slot(card)] == 0.0
            if checked % 25 == 0:
                assert not cards_in(state.information_state_string(p)) & hidden
            checked += 1

    play_randomly(game.new_initial_state(), rng, check)
    assert checked > 50


def test_information_state_differs_only_with_hidden_cards(rng):
    state = spelbord.load_game("stortok").new_initial_state()
    for _ in range(40):
        play_step(state, rng)
    info = state.information_state_string(0)
    assert info != state.information_state_string(1)
    current, recall = info.split("\n")
    assert current == state.observation_json(0)
    seen = int(recall.split()[1])
    assert recall.startswith("seen ") and 5 < seen <= state.move_number() + 1
    # The same history gives the same string, built incrementally or at once.
    again = spelbord.load_game("stortok").new_initial_state()
    for i, action in enumerate(state.history()):
        again.apply_action(action)
        if i == 10:
            again.information_state_string(0)
    assert again.information_state_string(0) == info
    assert again.clone().information_state_string(0) == info
    tawla = spelbord.load_game("tawla").new_initial_state()
    assert tawla.information_state_string(0) == tawla.observation_json(0)


def play_step(state, rng):
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(ids, probs)[0])
    elif not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id,options", VARIANTS[::3])
def test_serialize_clone_and_pickle_round_trip(game_id, options, rng):
    game = spelbord.load_game(game_id, options)
    state = game.new_initial_state()
    for _ in range(30):
        play_step(state, rng)
    copy = state.clone()
    again = game.deserialize_state(state.serialize())
    unpickled = pickle.loads(pickle.dumps(state))
    for other in (copy, again, unpickled):
        assert other.history() == state.history()
        assert other.state_json() == state.state_json()
    play_step(copy, rng)
    assert copy.history() != state.history()


def spelbord_bin():
    path = os.environ.get("SPELBORD_BIN")
    if not path or not os.path.exists(path):
        pytest.skip("SPELBORD_BIN (the spelbord binary) is not set")
    return path


@pytest.mark.parametrize("game_id,options", VARIANTS[::2])
def test_python_records_replay_in_rust(game_id, options, rng, tmp_path):
    state = play_randomly(spelbord.load_game(game_id, options).new_initial_state(), rng)
    path = tmp_path / "game.json"
    path.write_text(state.to_record(players=["a"] * state.num_players(), seed=3))
    out = subprocess.run(
        [spelbord_bin(), "replay", str(path)], capture_output=True, text=True, check=True
    )
    assert out.stdout
    assert spelbord.replay(path.read_text()).state_json() == state.state_json()


@pytest.mark.parametrize("game_id", ["tawla", "high-gammon", "stortok", "lager", "stumphog"])
def test_rust_records_replay_in_python(game_id, tmp_path):
    subprocess.run(
        [spelbord_bin(), "selfplay", game_id, "--games", "2", "--seed", "5", "--record", str(tmp_path)],
        capture_output=True, check=True,
    )
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path in records:
        text = path.read_text()
        state = spelbord.replay(text)
        assert state.is_terminal()
        assert state.returns() == json.loads(text)["result"]
        assert json.loads(state.to_record())["actions"] == json.loads(text)["actions"]


def test_a_record_with_an_illegal_action_is_refused(rng):
    state = play_randomly(spelbord.load_game("tawla").new_initial_state(), rng)
    record = json.loads(state.to_record())
    record["actions"][5] = "24/1"
    with pytest.raises(spelbord.SpelbordError, match="record action 5"):
        spelbord.replay(json.dumps(record))


def test_an_old_record_without_hit_marks_replays_as_in_the_engine(rng):
    # Records written before hits were marked with `*`: the engine reads
    # such a play as the one legal play it names (DynState::apply_recorded).
    state = play_randomly(spelbord.load_game("backgammon").new_initial_state(), rng)
    record = json.loads(state.to_record())
    assert any("*" in a for a in record["actions"])
    record["actions"] = [a.replace("*", "") for a in record["actions"]]
    again = spelbord.replay(json.dumps(record))
    assert again.state_json() == state.state_json()
    assert again.to_record() == state.to_record()
