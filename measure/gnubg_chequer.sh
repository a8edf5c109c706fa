#!/bin/bash
# usage: chequer.sh BIN AGENT PORT GAMES SEED OUT
set -e
BIN=$1 AGENT=$2 PORT=$3 GAMES=$4 SEED=$5 OUT=$6
mkdir -p $OUT/games
printf 'set evaluation chequerplay evaluation plies 0\nset evaluation chequerplay evaluation cubeful off\nexternal 127.0.0.1:%s\n' $PORT | gnubg -t -q > $OUT/gnubg-ext.log 2>&1 &
GPID=$!
sleep 3
$BIN arena backgammon --agents $AGENT,gnubg:127.0.0.1:$PORT --games $GAMES --seed $SEED --record $OUT/games --json > $OUT/arena.json
kill $GPID || true
for f in $OUT/games/*.json; do $BIN export $f -o ${f%.json}.mat; done
python3 "$(dirname "$0")/gnubg_judge.py" $OUT/games --plies 2 --cube-plies 2 --jobs 1 > $OUT/judge.json
