"""spelbord's games as OpenSpiel Python games.

    import pyspiel
    import spelbord.openspiel
    spelbord.openspiel.register()          # once; returns the names registered
    game = pyspiel.load_game("spelbord_tawla", {"mother": "off"})

Every game is registered as ``spelbord_<id>`` (dashes become underscores:
``spelbord_high_gammon``), with the game's options as OpenSpiel parameters.
Action ids are spelbord's: the index into the legal actions (at chance
nodes, into the chance outcomes). OpenSpiel's own algorithms, e.g.
``pyspiel.random_sim_test`` and ``open_spiel.python.algorithms.mcts``, run
on them. Needs the ``open_spiel`` package.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import _spelbord

_PREFIX = "spelbord_"


def openspiel_name(game_id: str) -> str:
    """The OpenSpiel name of a spelbord game, e.g. ``spelbord_high_gammon``."""
    return _PREFIX + game_id.replace("-", "_")


def _value(option: dict, value):
    """A parameter as spelbord's option takes it (quotes taken off)."""
    if option["kind"] == "int":
        return int(value)
    text = str(value)
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == "'" else text


def _parameter(option: dict, value=None):
    """A parameter as OpenSpiel holds it. A choice that looks like a number
    (Stortok's ``version=1847``) is quoted, ``'1847'``: OpenSpiel reads an
    unquoted one back from a game string as a number."""
    value = _value(option, option["default"] if value is None else value)
    if isinstance(value, str) and value.lstrip("-").replace(".", "", 1).isdigit():
        return f"'{value}'"
    return value


def _game_type(entry: dict) -> pyspiel.GameType:
    hidden = entry["hidden_information"]
    chance = (
        pyspiel.GameType.ChanceMode.DETERMINISTIC
        if entry["id"] == "lager"
        else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    )
    return pyspiel.GameType(
        short_name=openspiel_name(entry["id"]),
        long_name=f"spelbord {entry['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=entry["max_players"],
        min_num_players=entry["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={o["key"]: _parameter(o) for o in entry["options"]},
    )


def _game_class(entry: dict, game_type: pyspiel.GameType):
    class SpelbordGame(pyspiel.Game):
        """A spelbord game for OpenSpiel."""

        def __init__(self, params=None):
            params = dict(params or {})
            options = {o["key"]: _value(o, params.get(o["key"], o["default"])) for o in entry["options"]}
            self.spelbord_game = _spelbord.load_game(entry["id"], options)
            g = self.spelbord_game
            info = pyspiel.GameInfo(
                num_distinct_actions=g.num_distinct_actions(),
                max_chance_outcomes=g.max_chance_outcomes(),
                num_players=g.num_players(),
                min_utility=g.min_utility(),
                max_utility=g.max_utility(),
                utility_sum=0.0,
                max_game_length=g.max_game_length(),
            )
            super().__init__(game_type, info, {o["key"]: _parameter(o, options[o["key"]]) for o in entry["options"]})

        def new_initial_state(self):
            return SpelbordState(self, self.spelbord_game.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            return SpelbordObserver(self.spelbord_game, iig_obs_type)

    SpelbordGame.__name__ = f"Spelbord{entry['id'].title().replace('-', '')}Game"
    return SpelbordGame


class SpelbordState(pyspiel.State):
    """A spelbord state for OpenSpiel; ``self.state`` is the spelbord state."""

    def __init__(self, game, state):
        super().__init__(game)
        self.state = state

    def current_player(self):
        p = self.state.current_player()
        if p == _spelbord.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == _spelbord.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.state.legal_actions(player)

    def chance_outcomes(self):
        return self.state.chance_outcomes()

    def _apply_action(self, action):
        self.state.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self.state.action_to_string(action)

    def is_terminal(self):
        return self.state.is_terminal()

    def returns(self):
        return self.state.returns()

    def __str__(self):
        return str(self.state)


class SpelbordObserver:
    """OpenSpiel's observer for a spelbord game: the observation tensor and
    string of one player, or with perfect recall the information state string."""

    def __init__(self, game, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        size = 0 if self.perfect_recall else game.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if not self.perfect_recall:
            self.tensor[:] = state.state.observation_tensor(player)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.state.information_state_string(player)
        return state.state.observation_string(player)


def register() -> list[str]:
    """Registers every spelbord game with OpenSpiel (once); returns their names."""
    names = []
    registered = set(pyspiel.registered_names())
    for entry in _spelbord.games():
        name = openspiel_name(entry["id"])
        if name not in registered:
            game_type = _game_type(entry)
            pyspiel.register_game(game_type, _game_class(entry, game_type))
        names.append(name)
    return names
