"""spelbord: traditional dice, board and card games with an OpenSpiel-shaped API.

Games: Tawla (Plakoto), backgammon, High-O Gammon, Tric-Trac, Stumphög,
Stortok and Läger, played by spelbord's Rust engine.

    import spelbord
    game = spelbord.load_game("tawla", mother="off")
    state = game.new_initial_state()
    while not state.is_terminal():
        ...

Action ids follow OpenSpiel's conventions: ``state.legal_actions()`` are the
ids ``0 .. n-1`` of the legal actions (at chance nodes, of the chance
outcomes); ``state.action_to_string(id)`` writes one in the game's notation.
"""

from ._spelbord import (
    CHANCE,
    TERMINAL,
    Agent,
    Game,
    SpelbordError,
    State,
    agent,
    agent_names,
    arena,
    games,
    load_game,
    replay,
)
from .vector import VectorEnv
from .aec import AECEnv

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AECEnv",
    "Agent",
    "Game",
    "SpelbordError",
    "State",
    "VectorEnv",
    "agent",
    "agent_names",
    "arena",
    "games",
    "load_game",
    "replay",
]
