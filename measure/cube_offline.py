#!/usr/bin/env python3
"""GNU Backgammon's error of each agent's own cube choices at the cube
decisions of recorded games, without playing them again.

Usage: cube_offline.py GNUBG.jsonl OURS.txt [--list K]

GNUBG.jsonl is `gnubg_cube_dump.py`'s verdict on the games' .mat files;
OURS.txt is `cube_probe`'s output for the same games' records (one line per
cube decision, one `| w= nd= dt= dp=` part per agent). For each agent: the
summed error (cube values) of the choice it would make at every decision,
judged by GNU Backgammon's 2-ply equities, and the count of each kind of
wrong choice; `--list K` lists agent K's wrong choices beside GNU
Backgammon's figures."""
import json, collections, sys

def parse(ofile):
    ours = collections.defaultdict(list)
    for line in open(ofile):
        parts = line.split(' | ')
        head = parts[0].split()
        vals = [{k: float(v) for k, v in (kv.split('=') for kv in p.split())} for p in parts[1:]]
        ours[head[0]].append({'id': head[3][3:], 'v': vals})
    return ours

def judged(gfile, ours):
    """Yields (gnubg row, the decision's double row, our decision) in order."""
    for line in open(gfile):
        game = json.loads(line)
        last = None
        for row, ourrow in zip(game['rows'], ours[game['file'].replace('.mat', '.json')]):
            if row['action'] in ('move', 'double'):
                last = row
            yield row, last, ourrow

def error(row, last, v):
    nd, dt = last['nd'], last['dt']
    if row['action'] in ('move', 'double'):
        best = max(nd, min(dt, 1.0))
        doubles = min(v['dt'], v['dp']) > v['nd']
        return best - (min(dt, 1.0) if doubles else nd), ('wrong double' if doubles else 'missed double')
    takes = v['dt'] <= v['dp']
    return (max(0.0, dt - 1.0) if takes else max(0.0, 1.0 - dt)), ('wrong take' if takes else 'wrong drop')

def main():
    gfile, ofile = sys.argv[1], sys.argv[2]
    listed = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == '--list' else None
    ours = parse(ofile)
    agents = len(next(iter(ours.values()))[0]['v'])
    total, kinds, decisions, wrong = [0.0] * agents, [collections.Counter() for _ in range(agents)], 0, []
    for row, last, ourrow in judged(gfile, ours):
        decisions += row['action'] in ('move', 'double')
        for k, v in enumerate(ourrow['v']):
            e, kind = error(row, last, v)
            total[k] += e
            if e > 0.005:
                kinds[k][kind] += 1
                if k == listed:
                    wrong.append((e, kind, ourrow['id'], last, v))
    for k in range(agents):
        print(f'agent {k}: error {total[k]:.3f} over {decisions} decisions; {dict(kinds[k])}')
    for e, kind, pid, last, v in sorted(wrong, key=lambda x: -x[0]):
        p = last['probs']
        print(f"{e:.3f} {kind:13} {pid:28} gnubg w={p[0]:.3f} wg={p[1]:.3f} lg={p[3]:.3f} "
              f"nd={last['nd']:.3f} dt={last['dt']:.3f} | ours w={v['w']:.3f} nd={v['nd']:.3f} dt={v['dt']:.3f}")

main()
