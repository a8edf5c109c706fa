import random

import pytest

import spelbord

# Each game with options that change its shape (players, board, cube).
VARIANTS = [
    ("tawla", {}),
    ("tawla", {"mother": "off", "cube": "on"}),
    ("backgammon", {}),
    ("backgammon", {"cube": True}),
    ("high-gammon", {}),
    ("high-gammon", {"players": 2}),
    ("tric-trac", {"players": 3}),
    ("stumphog", {}),
    ("stortok", {}),
    ("stortok", {"players": 2}),
    ("stortok", {"players": 5, "version": "1858"}),
    ("lager", {}),
    ("lager", {"columns": 9, "rows": 11}),
]


def play_randomly(state, rng, each=None):
    """Plays random legal actions and chance to the end."""
    while not state.is_terminal():
        if each is not None:
            each(state)
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.fixture
def rng():
    return random.Random(7)
