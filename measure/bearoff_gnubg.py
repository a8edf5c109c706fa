# spelbord's bear-off databases and bear-off play against GNU Backgammon
# (0-ply, cubeless); see measure/bearoff.md. Run inside GNU Backgammon:
#   SPELBORD=path/to/spelbord gnubg -t -q -p bearoff_gnubg.py
# Environment: SPELBORD (the binary, default `spelbord`); WHAT (`values`,
# `plays` or both, the default).
# values: N_VALUES random pairs of home boards (default 400, seed
#   SEED_VALUES, default 36) valued by `spelbord bearoff --evaluate` and by
#   GNU Backgammon's `evaluate`; both written to OUT (default
#   bearoff_gnubg.tsv) and the differences summed up.
# plays: N_PLAYS random bear-offs with a random roll each (default 300, seed
#   SEED_PLAYS, default 37); `spelbord analyse --position … --level L
#   --json` rates every play of the roll (its first is the agent's choice)
#   for each agent spec L in LEVELS (separated by spaces, default `net
#   net:ply=1`); GNU Backgammon values every play's result.
import json
import os
import random
import subprocess
import tempfile

import gnubg

spelbord = os.environ.get("SPELBORD", "spelbord")
what = os.environ.get("WHAT", "values plays").split()
cube = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
zero_ply = gnubg.evalcontext(0, 0, 1, 0, 0.0)
rng = random.Random()


def random_home(checkers):
    """Checkers on points 1..6, each placement of this many equally likely."""
    cuts = sorted(rng.sample(range(checkers + 5), 5))
    counts, last = [], -1
    for c in cuts + [checkers + 5]:
        counts.append(c - last - 1)
        last = c
    return counts


def values():
    n = int(os.environ.get("N_VALUES", "400"))
    rng.seed(int(os.environ.get("SEED_VALUES", "36")))
    out = os.environ.get("OUT", "bearoff_gnubg.tsv")
    # A third of the pairs with both sides in the two-sided table (1..6
    # checkers), a third with 1..15 checkers a side, a third in which one side
    # (on roll or not) has all 15 on the board and may be gammoned.
    pairs = []
    for i in range(n):
        if i % 3 == 0:
            a, b = random_home(rng.randint(1, 6)), random_home(rng.randint(1, 6))
        elif i % 3 == 1:
            a, b = random_home(rng.randint(1, 15)), random_home(rng.randint(1, 15))
        else:
            a, b = random_home(rng.randint(1, 15)), random_home(15)
            if rng.random() < 0.5:
                a, b = b, a
        pairs.append((a, b))

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for a, b in pairs:
            f.write(",".join(map(str, a)) + " " + ",".join(map(str, b)) + "\n")
        name = f.name
    ours = subprocess.run([spelbord, "bearoff", "--evaluate", name], check=True,
                          capture_output=True, text=True).stdout.splitlines()[1:]
    os.unlink(name)

    rows = []
    for (a, b), line in zip(pairs, ours):
        _, _, win, wg, lg, source = line.split("\t")
        board = (tuple(b + [0] * 19), tuple(a + [0] * 19))  # [1]: the side on roll
        g = gnubg.evaluate(board, cube, zero_ply)
        rows.append((a, b, source, gnubg.classifypos(board, 0),
                     (float(win), float(wg), float(lg)), (g[0], g[1], g[3])))

    with open(out, "w") as f:
        f.write("mover\tother\tsource\tgnubg_class\twin\twin_gammon\tlose_gammon"
                "\tgnubg_win\tgnubg_win_gammon\tgnubg_lose_gammon\n")
        for a, b, source, cls, p, g in rows:
            f.write("\t".join([",".join(map(str, a)), ",".join(map(str, b)), source, str(cls)]
                              + ["%.6f" % x for x in p + g]) + "\n")

    classes = sorted(set(r[3] for r in rows))
    print("GNU Backgammon's classes of the positions:",
          ", ".join("%d: %d" % (c, sum(r[3] == c for r in rows)) for c in classes))
    print("| positions | count | win: max / mean abs. difference | gammons (where a side has 15 on the board): max / mean abs. difference |")
    print("|---|---|---|---|")
    for label, keep in [("both in the two-sided table", lambda r: r[2] == "two-sided"),
                        ("one-sided estimate", lambda r: r[2] == "one-sided"),
                        ("a side with all 15 on the board", lambda r: 15 in (sum(r[0]), sum(r[1]))),
                        ("all", lambda r: True)]:
        sel = [r for r in rows if keep(r)]
        if not sel:
            continue
        dw = [abs(r[4][0] - r[5][0]) for r in sel]
        dg = [abs(r[4][k] - r[5][k]) for r in sel for k in (1, 2)
              if 15 in (sum(r[0]), sum(r[1]))] or [0.0]
        print("| %s | %d | %.6f / %.6f | %.6f / %.6f |" % (
            label, len(sel), max(dw), sum(dw) / len(dw), max(dg), sum(dg) / len(dg)))


def position(a, b, dice):
    points = [0] * 24
    for i in range(6):
        points[i] = a[i]
        points[23 - i] = -b[i]
    return "%s 0 %d-%d off=%d,%d" % (",".join(map(str, points)), dice[0], dice[1],
                                     15 - sum(a), 15 - sum(b))


def after(a, play):
    """The mover's home board after `play` (spelbord's notation)."""
    h = list(a)
    for token in play.split():
        times = 1
        if token.endswith(")"):
            token, t = token[:-1].split("(")
            times = int(t)
        chain = [0 if p == "off" else int(p) for p in token.split("/")]
        for _ in range(times):
            for src, dst in zip(chain, chain[1:]):
                h[src - 1] -= 1
                if dst:
                    h[dst - 1] += 1
    return h


def equity_after(home, b):
    """The mover's cubeless equity after his play, by GNU Backgammon 0-ply."""
    if sum(home) == 0:
        return 2.0 if sum(b) == 15 else 1.0
    g = gnubg.evaluate((tuple(home + [0] * 19), tuple(b + [0] * 19)), cube, zero_ply)
    return -g[5]


def plays():
    levels = os.environ.get("LEVELS", "net net:ply=1").split()
    n = int(os.environ.get("N_PLAYS", "300"))
    rng.seed(int(os.environ.get("SEED_PLAYS", "37")))
    cases = []
    for i in range(n):
        top = [6, 15, 15][i % 3]
        a, b = random_home(rng.randint(1, top)), random_home(rng.randint(1, top))
        if i % 3 == 2:
            b = random_home(15)
        d = sorted([rng.randint(1, 6), rng.randint(1, 6)], reverse=True)
        cases.append((a, b, d))

    print("| agent | unforced plays | error rate (mEMG) | plays not GNU Backgammon's best | largest loss |")
    print("|---|---|---|---|---|")
    for level in levels:
        losses = []
        for a, b, d in cases:
            out = subprocess.run([spelbord, "analyse", "--position", position(a, b, d), "--level",
                                  level, "--json"], check=True, capture_output=True, text=True).stdout
            actions = [x["action"] for x in json.loads(out)["actions"]]
            worth = {p: equity_after(after(a, p), b) for p in actions}
            if len(set(tuple(after(a, p)) for p in actions)) < 2:
                continue
            losses.append(max(worth.values()) - worth[actions[0]])
        bad = sum(1 for x in losses if x > 1e-4)
        print("| `%s` | %d | %.3f | %d | %.4f |" % (level, len(losses), 1000 * sum(losses) / len(losses),
                                                   bad, max(losses)))


if "values" in what:
    values()
if "plays" in what:
    plays()
