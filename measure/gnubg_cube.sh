#!/bin/bash
# usage: cube.sh BIN AGENT GAMES SEED OUT [options...]
set -e
BIN=$1 AGENT=$2 GAMES=$3 SEED=$4 OUT=$5; shift 5
mkdir -p $OUT/games
$BIN arena backgammon --agents $AGENT,$AGENT --option cube=on "$@" --games $GAMES --seed $SEED --record $OUT/games --json > $OUT/arena.json
for f in $OUT/games/*.json; do $BIN export $f -o ${f%.json}.mat; done
python3 "$(dirname "$0")/gnubg_judge.py" $OUT/games --plies 0 --cube-plies 2 --jobs 1 > $OUT/judge.json
