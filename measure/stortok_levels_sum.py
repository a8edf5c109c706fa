#!/usr/bin/env python3
"""Prints the docs/ai.md table of Stortok's levels from the JSON lines of
measure/stortok_levels.sh (one arena per line, the first level alone at a
table of the second; lines of other seatings are left out): per version,
table size and pair of levels the games, the share stopped by the cap, turns per
game, the first agent's score with the arena's 95% interval (over
rotations, whose games share the deals), whether it beats the second (the
whole interval above 50%), and both agents' CPU ms a move (mean / longest).

usage: measure/stortok_levels_sum.py [RESULTS...]
  (default measure/stortok_levels.jsonl; a later line for the same
  arena replaces an earlier one, so a longer run of a row that did not
  decide replaces its first)
"""
import json
import os
import sys

VERSIONS = ["1847", "1858", "schenkmanis", "helmfrid"]
PAIRS = ["ai:expert,ai:hard", "ai:hard,ai:medium", "ai:expert,ai:medium"]


def short(agent):
    return agent.removeprefix("ai:")


def beats(lo, hi):
    if lo > 0.5:
        return "yes"
    if hi < 0.5:
        return "no, behind"
    return "no"


def main(paths):
    arenas = {}
    for path in paths:
        for line in open(path):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("seating") != "alone":
                continue
            key = (r["options"]["version"], int(r["options"]["players"]), ",".join(r["agents"]))
            arenas[key] = r
    print("| version | players | comparison | games | capped | turns per game | "
          "score of the first | 95% interval | beats? | "
          "first: ms/move mean / max | second: ms/move mean / max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for v in VERSIONS:
        for p in range(2, 6):
            for pair in PAIRS:
                r = arenas.get((v, p, pair))
                if r is None:
                    continue
                a, b = r["agents"][:2]
                lo, hi = r["ci95"][a]
                print(f"| `{v}` | {p} | {short(a)} vs {short(b)} | {r['games']} | "
                      f"{100 * r['capped']:.1f}% | {r['plies_mean']:.0f} | "
                      f"{100 * r['score'][a]:.1f}% | {100 * lo:.1f} – {100 * hi:.1f}% | "
                      f"{beats(lo, hi)} | "
                      f"{r['ms_per_move'][a]:.2f} / {r['max_ms_per_move'][a]:.1f} | "
                      f"{r['ms_per_move'][b]:.2f} / {r['max_ms_per_move'][b]:.1f} |")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1:] or [os.path.join(here, "stortok_levels.jsonl")])
