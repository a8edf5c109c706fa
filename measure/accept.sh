#!/bin/bash
# Issue 13 acceptance arenas for High-O Gammon and Tric-Trac: a candidate
# against today's expert `rollout:n=200,width=4,cutoff=10`, winner-first
# scoring (HG-15), read from the arena's own `winner_first` field.
# (From /work/train/s4/accept.sh; this copy runs this branch's release
# binary and the networks shipped in crates/ai/weights.)
#
# Each arena call is one rotation: `--games 2 --seed s` (the two games share
# the dice, seats swapped), so a run stopped by its time bound keeps every
# pair it finished; seeds FIRST, FIRST+1, ... The settings are interleaved
# (pair s of every setting before pair s + 1). Summarise with accept_sum.py.
#
# usage: accept.sh PAIRS SECONDS TAG AGENTS
#   PAIRS    pairs (2 games each) per setting at most
#   SECONDS  wall-clock bound of the whole run
#   TAG      results go to measure/accept/TAG/
#   AGENTS   the two agents, the candidate first, with NET standing for the
#            frozen copy of the setting's network
#   (env NICE: niceness, default 5; FIRST: the first seed, default 1;
#   SETTINGS: default "high-gammon:3 tric-trac:3 high-gammon:4 tric-trac:4";
#   BIN: the spelbord binary, default rel/release/spelbord of this worktree)
# Resumable: pairs already in a result file are skipped.
set -u
D=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$D/rel/release/spelbord}
PAIRS=${1:?pairs}
SECONDS_BOUND=${2:?seconds}
TAG=${3:?tag}
AGENTS=${4:?agents}
OUT=$D/measure/accept/$TAG
NETS=$OUT/nets
mkdir -p "$OUT" "$NETS"
END=$(( $(date +%s) + SECONDS_BOUND ))
SETTINGS=${SETTINGS:-"high-gammon:3 tric-trac:3 high-gammon:4 tric-trac:4"}

for gp in $SETTINGS; do
  g=${gp%:*}; p=${gp#*:}
  [ -f "$NETS/$g-$p.net" ] || cp "$D/crates/ai/weights/$g-$p.net" "$NETS/$g-$p.net"
done
( cd "$NETS" && sha256sum ./*.net > SHA256SUMS )

FIRST=${FIRST:-1}
for s in $(seq "$FIRST" $((FIRST + PAIRS - 1))); do
  for gp in $SETTINGS; do
    g=${gp%:*}; p=${gp#*:}
    f=$OUT/$g-$p.jsonl
    grep -qs "\"seed\":$s," "$f" && continue
    left=$(( END - $(date +%s) ))
    [ "$left" -le 0 ] && exit 0
    agents=${AGENTS//NET/$NETS/$g-$p.net}
    line=$(timeout "$left" nice -n "${NICE:-5}" "$BIN" arena "$g" -o "players=$p" \
      --agents "$agents" --games 2 --seed "$s" --threads 1 --json) || continue
    [ -n "$line" ] && echo "$line" >> "$f"
  done
done
