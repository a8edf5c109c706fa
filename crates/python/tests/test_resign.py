"""Resignation: State.resign, and records holding `resign:<seat>:<kind>`
replayed as the engine replays them."""

import json
import os
import pickle
import random
import subprocess
from pathlib import Path

import pytest

import spelbord
from conftest import play_randomly
from test_api import play_step, spelbord_bin

GNUBG = Path(__file__).resolve().parents[2] / "cli" / "testdata" / "gnubg"


def outcome(state):
    return json.loads(state.outcome_json())


def assert_round_trips(state, tmp_path=None):
    """The state's record, its history and its copies all give the same state."""
    record = state.to_record()
    again = spelbord.replay(record)
    assert again.state_json() == state.state_json()
    assert again.returns() == state.returns()
    assert again.outcome_json() == state.outcome_json()
    assert again.history() == state.history()
    assert json.loads(again.to_record())["actions"] == json.loads(record)["actions"]
    fresh = state.get_game().new_initial_state()
    for step in state.history():
        fresh.apply_action(step)
    copies = [fresh, state.clone(), pickle.loads(pickle.dumps(state))]
    copies.append(state.get_game().deserialize_state(state.serialize()))
    for other in copies:
        assert other.state_json() == state.state_json()
        assert other.history() == state.history()
    binary = os.environ.get("SPELBORD_BIN")
    if tmp_path is not None and binary and os.path.exists(binary):
        # The engine's own replay (the spelbord binary) reads the record too.
        path = tmp_path / "resigned.json"
        path.write_text(record)
        subprocess.run([binary, "replay", str(path)], capture_output=True, check=True)


def test_a_backgammon_match_goes_on_after_a_resigned_game_and_ends_when_resigned(tmp_path):
    rng = random.Random(3)
    state = spelbord.load_game("backgammon", {"match": 3, "cube": "on"}).new_initial_state()
    # Player 1 gives up the first game as a gammon before it starts: the cube is at 1.
    state.resign(1, "gammon")
    assert not state.is_terminal(), "the match goes on"
    view = json.loads(state.observation_json())
    assert view["score"] == [2, 0] and view["last_ending"] == "resigned"
    assert state.history() == ["resign:1:gammon"]
    assert outcome(state) is None and state.returns() == [0.0, 0.0]
    for _ in range(25):
        play_step(state, rng)
    assert not state.is_terminal()
    # Giving up the match ends it, whoever is to move.
    state.resign(0, "match")
    assert state.is_terminal() and state.current_player() == spelbord.TERMINAL
    assert state.returns() == [-1.0, 1.0]
    assert outcome(state)["ending"] == "match" and outcome(state)["winner"] == 1
    assert state.history()[-1] == "resign:0:match"
    assert state.move_number() == len(state.history()) == 27
    assert "resign:1:gammon, " in state.history_str()
    record = json.loads(state.to_record())
    assert record["actions"][0] == "resign:1:gammon" and record["actions"][-1] == "resign:0:match"
    assert record["result"] == [-1.0, 1.0] and record["outcome"]["ending"] == "match"
    assert_round_trips(state, tmp_path)


def test_a_record_stating_another_result_for_a_resignation_is_refused():
    state = spelbord.load_game("backgammon", cube="on").new_initial_state()
    state.resign(0, "backgammon")
    assert state.returns() == [-3.0, 3.0] and outcome(state)["ending"] == "resigned"
    record = json.loads(state.to_record())
    record["actions"] = ["resign:0:gammon"]
    with pytest.raises(spelbord.SpelbordError, match="states result"):
        spelbord.replay(json.dumps(record))
    record["actions"] = ["resign:0:all"]
    with pytest.raises(spelbord.SpelbordError, match="record action 0"):
        spelbord.replay(json.dumps(record))


@pytest.mark.parametrize("name", ["m5-seed1.mat", "m5-seed14.mat"])
def test_gnubg_matches_imported_by_the_cli_with_resignations_replay(name):
    # GNU Backgammon resigned in these matches; `spelbord import` writes
    # each resignation as `resign:<seat>:<kind>` (crates/cli/testdata/gnubg/README.md).
    out = subprocess.run(
        [spelbord_bin(), "import", str(GNUBG / name)], capture_output=True, text=True, check=True
    )
    (text,) = out.stdout.splitlines()
    record = json.loads(text)
    resignations = [a for a in record["actions"] if a.startswith("resign:")]
    assert resignations
    state = spelbord.replay(text)
    assert state.is_terminal()
    assert state.returns() == record["result"]
    assert outcome(state) == record["outcome"]
    assert [s for s in state.history() if isinstance(s, str)] == resignations
    assert json.loads(state.to_record())["actions"] == record["actions"]


def test_a_high_gammon_resigner_leaves_and_the_others_play_on(tmp_path):
    rng = random.Random(11)
    game = spelbord.load_game("high-gammon", players=3)
    state = game.new_initial_state()
    for _ in range(12):
        play_step(state, rng)
    state.resign(0, "single")
    assert not state.is_terminal(), "two players play on"
    with pytest.raises(spelbord.SpelbordError, match="illegal action `resign single`"):
        state.resign(0, "single")
    resigned_at = state.move_number()

    def never_the_resigner(s):
        assert s.current_player() != 0
        assert not any(a.startswith("resign") for a in s.legal_action_strings())

    play_randomly(state, rng, never_the_resigner)
    returns = state.returns()
    # Points scoring: the resigner owes the most, 8 per stone for 9 stones.
    assert returns[0] == -72.0 and abs(sum(returns)) < 1e-9
    assert outcome(state)["places"][0] == max(outcome(state)["places"])
    assert state.history()[resigned_at - 1] == "resign:0:single"
    assert_round_trips(state, tmp_path)


def test_a_high_gammon_game_ends_when_all_but_one_resign(tmp_path):
    state = spelbord.load_game("high-gammon", players=3).new_initial_state()
    state.resign(2, "match")
    state.resign(0, "single")
    assert state.is_terminal()
    assert state.returns() == [-72.0, 144.0, -72.0]
    assert outcome(state)["ending"] == "resigned" and outcome(state)["winner"] == 1
    assert_round_trips(state, tmp_path)


def test_a_stortok_resigner_is_the_stortok_and_the_hidden_cards_stay_hidden(tmp_path):
    rng = random.Random(5)
    state = spelbord.load_game("stortok", players=3).new_initial_state()
    for _ in range(30):
        play_step(state, rng)
    before = state.information_state_string(0)
    state.resign(1, "match")
    assert state.is_terminal()
    assert state.returns() == [0.5, -1.0, 0.5]
    assert outcome(state)["ending"] == "resigned" and outcome(state)["loser"] == 1
    after = state.information_state_string(0)
    assert after != before
    # The same history gives the same information state, built at once.
    again = spelbord.replay(state.to_record())
    assert again.information_state_string(0) == after
    assert_round_trips(state, tmp_path)


def test_bad_resignations_raise_clear_errors_and_change_nothing():
    state = spelbord.load_game("tawla").new_initial_state()
    before = state.serialize()
    with pytest.raises(spelbord.SpelbordError, match="`all` is not a kind of resignation"):
        state.resign(0, "all")
    for player in (2, -1, 10**3):
        with pytest.raises(ValueError, match=f"player {player} is not a seat"):
            state.resign(player, "single")
    with pytest.raises(spelbord.SpelbordError, match="scores no backgammons"):
        state.resign(0, "backgammon")
    with pytest.raises(spelbord.SpelbordError, match="resign:<seat>"):
        state.apply_action("resign:0:all")
    with pytest.raises(spelbord.SpelbordError, match="no action id: use State.resign"):
        state.string_to_action("resign:0:single")
    assert state.serialize() == before and state.history() == []
    state.resign(1, "single")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    over = state.serialize()
    with pytest.raises(spelbord.SpelbordError, match="over"):
        state.resign(0, "single")
    with pytest.raises(spelbord.SpelbordError, match="over"):
        state.apply_action("resign:0:single")
    assert state.serialize() == over


def test_a_resignation_applies_as_its_record_text():
    state = spelbord.load_game("lager").new_initial_state()
    state.apply_action(0)
    state.apply_action("resign:0:single")
    assert state.history() == [0, "resign:0:single"]
    assert state.returns() == [-1.0, 1.0] and outcome(state)["ending"] == "resigned"
