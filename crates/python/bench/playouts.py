"""Random playouts per CPU-second of backgammon: spelbord's Python API, the
same loop on OpenSpiel's backgammon (pip's open_spiel), Rust playouts called
from Python, and the vectorised environment. Medians of several runs.

    python crates/python/bench/playouts.py [--games 300] [--runs 5]
"""

import argparse
import random
import statistics
import time

import numpy as np

import spelbord


def python_loop(game, games, seed):
    """The same loop for both libraries: sample chance, pick a random legal action."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(ids, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games


def rust_playouts(game, games, seed):
    for g in range(games):
        game.new_initial_state().random_playout(seed + g)
    return games


def vector_env(game, games, seed, num_envs=256):
    env = spelbord.VectorEnv(game, num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    finished = 0
    while finished < games:
        _, done = env.step(env.random_actions(rng))
        finished += int(done.sum())
    return finished


def vector_env_observed(game, games, seed, num_envs=256):
    """As `vector_env`, reading the observations and masks before each step."""
    env = spelbord.VectorEnv(game, num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    finished = 0
    while finished < games:
        env.observations()
        env.legal_action_mask()
        _, done = env.step(env.random_actions(rng))
        finished += int(done.sum())
    return finished


def per_cpu_second(run, *args):
    start = time.process_time()
    games = run(*args)
    return games / (time.process_time() - start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ours = spelbord.load_game("backgammon")
    rows = [
        ("spelbord, Python API loop", python_loop, ours, args.games),
        ("spelbord, State.random_playout (Rust)", rust_playouts, ours, args.games * 10),
        ("spelbord, VectorEnv 256 games", vector_env, ours, args.games * 4),
        ("spelbord, VectorEnv 256, obs + masks", vector_env_observed, ours, args.games),
    ]
    try:
        import pyspiel

        rows.insert(1, ("OpenSpiel backgammon, Python loop", python_loop,
                        pyspiel.load_game("backgammon"), args.games))
    except ImportError:
        print("open_spiel is not installed: OpenSpiel's row is left out")
    results = {name: [] for name, *_ in rows}
    for run in range(args.runs):  # interleaved, so that load on the machine hits all alike
        for name, fn, game, games in rows:
            results[name].append(per_cpu_second(fn, game, games, run))
    for name, values in results.items():
        print(f"{name:40} {statistics.median(values):10.0f} games per CPU-second"
              f"  (runs: {', '.join(f'{v:.0f}' for v in values)})")


if __name__ == "__main__":
    main()
