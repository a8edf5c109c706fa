#!/usr/bin/env python3
"""Probe again only the cube decisions that can matter, and splice the
answers into a full `cube_probe` output for `cube_offline.py`.

  cube_splice.py select GNUBG.jsonl PROBE.txt [LO HI] > SEL.txt
      the decisions (line of PROBE.txt, GNU Backgammon ID; `+` after a
      double) where GNU Backgammon gives the side on roll a winning chance
      from LO to HI (default 0.58 to 0.99): elsewhere no agent doubles.
  cut -d' ' -f2 SEL.txt | cube_probe SPEC > VALUES.txt
  cube_splice.py splice PROBE.txt SEL.txt VALUES.txt > SPLICED.txt
      PROBE.txt's first agent, with VALUES.txt's answers at SEL.txt's lines.
"""
import collections, json, sys


def select(gfile, probe, lo=0.58, hi=0.99):
    lines = open(probe).read().splitlines()
    by_file = collections.defaultdict(list)
    for n, line in enumerate(lines):
        by_file[line.split()[0]].append(n)
    for gline in open(gfile):
        game = json.loads(gline)
        last = None
        for row, n in zip(game['rows'], by_file[game['file'].replace('.mat', '.json')]):
            if row['action'] in ('move', 'double'):
                last = row
            if lo <= last['probs'][0] <= hi:
                head = lines[n].split(' | ')[0].split()
                pid, act = head[3][3:], head[4][4:]
                print(n, pid + ('+' if act in ('take', 'drop') else ''))


def splice(probe, sel, values):
    lines = open(probe).read().splitlines()
    chosen = [int(l.split()[0]) for l in open(sel)]
    answers = [l.split(' | ', 1)[1] for l in open(values).read().splitlines()]
    for n, answer in zip(chosen, answers):
        lines[n] = lines[n].split(' | ')[0] + ' | ' + answer
    for line in lines:
        print(' | '.join(line.split(' | ')[:2]))


if __name__ == '__main__':
    if len(sys.argv) >= 4 and sys.argv[1] == 'select':
        select(sys.argv[2], sys.argv[3], *map(float, sys.argv[4:6]))
    elif len(sys.argv) == 5 and sys.argv[1] == 'splice':
        splice(*sys.argv[2:5])
    else:
        sys.exit(__doc__)
