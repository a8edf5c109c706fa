# Compares spelbord's review (FOLDER/*.json, default ours/; or another GNU
# Backgammon analysis, e.g. gnubg0.json) with GNU Backgammon 2-ply
# (gnubg2.json): error rate per player (thousandths per unforced move),
# the correlation of the move errors, and the bad/very bad agreement.
import json, math, sys
OURS = sys.argv[1] if len(sys.argv) > 1 else "ours"
gn = json.load(open('gnubg2.json'))
pairs = []
rate = {}  # (who, player) -> [sum, n]
marks = {'gnubg': 0, 'both': 0}
for g in gn:
    b = g['file'].split('/')[-1][:-4]
    rec = json.load(open(f'games/{b}.json'))
    names = rec['players']
    if OURS.endswith('.json'):  # another GNU Backgammon analysis (gnubg0.json)
        other = next(o for o in json.load(open(OURS)) if o['file'] == g['file'])
    else:
        a = json.load(open(f"{OURS}/{b}.json"))
        ours = [d for d in a['decisions'] if not d['cube'] and d['loss'] is not None]
    for p, name in enumerate(names):
        side = 'X' if g['X'] == name.replace(':', '_') else 'O'
        if OURS.endswith('.json'):
            mine = [m['loss'] for m in other['moves'] if m['player'] == side]
        else:
            mine = [d['loss'] for d in ours if d['player'] == p]
        theirs = [m['loss'] for m in g['moves'] if m['player'] == side]
        if len(mine) != len(theirs):
            print(b, name, 'moves differ', len(mine), len(theirs), file=sys.stderr)
            continue
        for x, y in zip(mine, theirs):
            pairs.append((x, y))
            if y >= 0.06:
                marks['gnubg'] += 1
                marks['both'] += x >= 0.06
        for who, l in (('spelbord', mine), ('gnubg 2-ply', theirs)):
            r = rate.setdefault((who, name), [0.0, 0])
            r[0] += sum(l); r[1] += len(l)
n = len(pairs)
mx = sum(x for x, _ in pairs) / n; my = sum(y for _, y in pairs) / n
cov = sum((x - mx) * (y - my) for x, y in pairs)
vx = sum((x - mx) ** 2 for x, _ in pairs); vy = sum((y - my) ** 2 for _, y in pairs)
print(f'{n} unforced moves; correlation of the move errors {cov / math.sqrt(vx * vy):.3f}')
for (who, name), (s, k) in sorted(rate.items()):
    print(f'{who:12} {name:10} {1000 * s / k:6.1f} thousandths a move over {k} moves')
print(f"GNU Backgammon's bad and very bad moves (loss >= 0.06) marked bad or very bad: {marks['both']} of {marks['gnubg']}")
if len(sys.argv) > 2:  # also the largest differences
    big = sorted(pairs, key=lambda p: -abs(p[0] - p[1]))[:12]
    print('largest differences (spelbord, gnubg):', [(round(x, 3), round(y, 3)) for x, y in big])
    xs = sorted(x for x, _ in pairs)
    print('correlation without the 5 largest differences:', end=' ')
    keep = sorted(pairs, key=lambda p: abs(p[0] - p[1]))[:-5]
    n = len(keep); mx = sum(x for x, _ in keep) / n; my = sum(y for _, y in keep) / n
    cov = sum((x - mx) * (y - my) for x, y in keep)
    vx = sum((x - mx) ** 2 for x, _ in keep); vy = sum((y - my) ** 2 for _, y in keep)
    print(round(cov / math.sqrt(vx * vy), 3))
