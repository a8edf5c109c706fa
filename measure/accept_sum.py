#!/usr/bin/env python3
"""Summarises accept.sh's results: per setting, pairs, games, the first
agent's score, winner first (HG-15: 1 when the winner sat in one of its
seats, the arena's `winner_first`), with its 95% interval over pairs (the games of
one pair share the dice, as the arena's own interval), its mean return
(points a game under the scoring in force) with its interval, and both
agents' ms/move (mean over the runs' means, and the longest decision).

usage: accept_sum.py DIR [DIR...]  (e.g. measure/accept/TAG; the
runs of several directories are pooled, setting by setting)
"""
import glob
import json
import math
import os
import sys


def interval(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = 1.96 * math.sqrt(var / n)
    return m, m - h, m + h


def main(dirs):
    order = ["high-gammon-2", "tric-trac-2", "high-gammon-3", "tric-trac-3",
             "high-gammon-4", "tric-trac-4"]
    print("| setting | pairs | games | winner-first score of the first | 95% interval | "
          "arena score | "
          "points a game (first) | 95% interval | first ms/move mean / max | "
          "second ms/move mean / max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in order:
        runs = []
        for d in dirs:
            f = os.path.join(d, name + ".jsonl")
            if os.path.exists(f):
                runs += [json.loads(l) for l in open(f) if l.strip()]
        if not runs:
            continue
        a, b = runs[0]["agents"][:2]
        first = lambda r: r["agents"][0]
        second = lambda r: r["agents"][1]
        scores = [r["winner_first"][first(r)] for r in runs]
        arena = sum(r["score"][first(r)] for r in runs) / len(runs)
        rets = [r["mean_return"][first(r)] for r in runs]
        m, lo, hi = interval(scores)
        rm, rlo, rhi = interval(rets)
        ms = lambda ag: (sum(r["ms_per_move"][ag(r)] for r in runs) / len(runs),
                         max(r["max_ms_per_move"][ag(r)] for r in runs))
        (am, ax), (bm, bx) = ms(first), ms(second)
        games = sum(r["games"] for r in runs)
        print(f"| {name} | {len(runs)} | {games} | {100*m:.1f}% | "
              f"{100*lo:.1f} – {100*hi:.1f}% | {100*arena:.1f}% | {rm:+.3f} | {rlo:+.3f} – {rhi:+.3f} | "
              f"{am:.2f} / {ax:.1f} | {bm:.2f} / {bx:.1f} |")
    print()
    print("first:", a)
    print("second:", b)


if __name__ == "__main__":
    main(sys.argv[1:] or ["measure/accept/TAG"])
