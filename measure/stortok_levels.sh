#!/bin/bash
# Issue 21: Stortok's levels compared at every version and table size.
# For every version (1847, 1858, schenkmanis, helmfrid) x 2-5 players x the
# pairs hard-medium, expert-medium, expert-hard, one arena of GAMES games,
# the first level alone at a table of the second (docs/ai.md says why):
#   spelbord arena stortok --agents A,B --seating alone --games GAMES --seed 1
#     -o version=V -o players=P --threads THREADS --json
# appending its JSON line to RESULTS. The arenas run cheapest first (by the
# turns a game of the version takes and the agents' time a move, measured on
# this branch), so a run stopped early has the cheap rows. Summarise with
# measure/stortok_levels_sum.py RESULTS.
#
# usage: measure/stortok_levels.sh THREADS [RESULTS]
#   THREADS  games played at once (--threads; one core each)
#   RESULTS  the JSON-lines file (default measure/stortok_levels.jsonl)
#   (env BIN: the spelbord binary, default rel/release/spelbord of this
#   worktree; GAMES: games per arena, default 200; BOUND: seconds one arena
#   may run, default 7200; NICE: niceness, default 0)
# Resumable: an arena whose version, players and agents are already in
# RESULTS is skipped.
set -u
D=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$D/rel/release/spelbord}
THREADS=${1:?threads}
RESULTS=${2:-$D/measure/stortok_levels.jsonl}
GAMES=${GAMES:-200}
BOUND=${BOUND:-7200}
touch "$RESULTS"

# Relative cost of one game: turns a game of the version (4 players, this
# branch) times the agents' milliseconds a move, summed over the pair.
turns() { case $1 in schenkmanis|helmfrid) echo 90;; 1847) echo 190;; 1858) echo 600;; esac; }
pair_ms() { case $1 in ai:hard,ai:medium) echo 3;; ai:expert,ai:medium) echo 15;; ai:expert,ai:hard) echo 18;; esac; }

plan=$(for v in schenkmanis helmfrid 1847 1858; do
  for p in 2 3 4 5; do
    for pair in ai:hard,ai:medium ai:expert,ai:medium ai:expert,ai:hard; do
      echo "$(( $(turns $v) * $(pair_ms $pair) * (p + 2) )) $v $p $pair"
    done
  done
done | sort -n -k1,1 -s)

while read -r _ v p pair; do
  done_already=$(V=$v P=$p A=$pair python3 -c '
import json, os, sys
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    r = json.loads(line)
    o = r["options"]
    if (str(o.get("version")), str(o.get("players")), ",".join(r["agents"]),
        r.get("seating")) == (os.environ["V"], os.environ["P"], os.environ["A"], "alone"):
        print("yes")
        break
' "$RESULTS")
  [ "$done_already" = yes ] && continue
  echo "$(date -u +%H:%M:%S) $v $p players: $pair" >&2
  line=$(timeout "$BOUND" nice -n "${NICE:-0}" "$BIN" arena stortok --agents "$pair" --seating alone \
    --games "$GAMES" --seed 1 -o "version=$v" -o "players=$p" --threads "$THREADS" --json) || continue
  [ -n "$line" ] && echo "$line" | jq -c . >> "$RESULTS"
done <<< "$plan"
