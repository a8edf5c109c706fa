"""spelbord from Python: random play, an AI match, a tiny training loop."""

import random

import numpy as np

import spelbord

# 1. Random play through the OpenSpiel-shaped API.
game = spelbord.load_game("tawla", mother="off")
state = game.new_initial_state()
rng = random.Random(1)
while not state.is_terminal():
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(ids, probs)[0])
    else:
        action = rng.choice(state.legal_actions())
        print(state.current_player(), state.action_to_string(action))
        state.apply_action(action)
print("returns", state.returns())
print(state.to_record()[:60], "...")

# 2. An AI match: ai:easy against random in Läger, seats rotating.
result = spelbord.arena(spelbord.load_game("lager"), ["ai:easy", "random"], games=10, seed=1)
for row in result["agents"]:
    print(f"{row['agent']}: {row['score']:.2f} ({row['low']:.2f}..{row['high']:.2f})")

# ... or step an agent yourself.
backgammon = spelbord.load_game("backgammon")
bot = spelbord.agent("ai:expert", backgammon, seed=7)
state = backgammon.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
print("ai:expert plays", state.action_to_string(bot.step(state)))

# 3. A tiny training loop: a linear value function for Läger, fitted to the
#    outcomes of random games played 64 at a time in the vectorised environment.
env = spelbord.VectorEnv(spelbord.load_game("lager"), 64, seed=3)
weights = np.zeros(env.observation_size, dtype=np.float32)
np_rng = np.random.default_rng(0)
for epoch in range(3):
    env.reset()
    trajectory = [[] for _ in range(env.num_envs)]  # (observation, player) per game
    samples, targets = [], []
    for _ in range(400):
        obs, players = env.observations(), env.current_players()
        for i in range(env.num_envs):
            trajectory[i].append((obs[i], players[i]))
        returns, done = env.step(env.random_actions(np_rng))
        for i in np.flatnonzero(done):
            for o, p in trajectory[i]:
                samples.append(o)
                targets.append(returns[i, p])  # the return of the player who saw o
            trajectory[i] = []
    x, y = np.array(samples), np.array(targets, dtype=np.float32)
    for _ in range(50):  # gradient steps on the squared error
        weights -= 0.05 * x.T @ (x @ weights - y) / len(y)
    print(f"epoch {epoch}: {len(y)} positions, mse {np.mean((x @ weights - y) ** 2):.3f}")
