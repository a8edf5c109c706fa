#!/usr/bin/env python3
"""GNU Backgammon's verdict on a folder of .mat files, per player.

Usage: gnubg_judge.py DIR [--plies 2] [--cube-plies 2] [--jobs 2] [--cubeless]

Each file is analysed by its own `gnubg -t -q` (chequer play and cube
decisions at the given plies, GNU Backgammon's default thresholds) and its
`show statistics match` read. Prints one JSON object: per player name the
unforced moves, the chequer error rate (mEMG per unforced move), the close
or actual cube decisions, the cube error rate (mEMG per close or actual
decision), the counts of wrong cube actions, and 95% intervals over the
files (each file one sample, weighted by its moves or decisions).

`--cubeless` judges chequer play by cubeless equity, as games played
without a cube must be: a `.mat` file cannot say that the cube was off.
Everything is judged without the Jacoby rule, as our money games are
played (GNU Backgammon's default has it: a gammon won or saved with the
cube in the middle would be worth nothing)."""
import glob, json, math, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

def args():
    a = sys.argv[1:]
    opt = {'--plies': '2', '--cube-plies': '2', '--jobs': '2', '--cubeless': False}
    rest = []
    while a:
        x = a.pop(0)
        if x == '--cubeless':
            opt[x] = True
        elif x in opt:
            opt[x] = a.pop(0)
        else:
            rest.append(x)
    return rest[0], opt

ROWS = {
    'Unforced moves': 'unforced',
    'Close or actual cube decisions': 'close',
    'Doubles': 'doubles',
    'Takes': 'takes',
    'Passes': 'passes',
    'Missed doubles below CP (EMG (MWC))': 'missed_below_cp',
    'Missed doubles above CP (EMG (MWC))': 'missed_above_cp',
    'Wrong doubles below DP (EMG (MWC))': 'wrong_below_dp',
    'Wrong doubles above TG (EMG (MWC))': 'wrong_above_tg',
    'Wrong takes (EMG (MWC))': 'wrong_takes',
    'Wrong passes (EMG (MWC))': 'wrong_passes',
}

def analyse(path, plies, cube_plies, cubeless=False):
    # Our money games have no Jacoby rule (a gammon counts with the cube
    # in the middle); GNU Backgammon's default has it, and a .mat file
    # cannot say otherwise.
    cmds = ('set jacoby off\n'
            + ('set analysis chequerplay evaluation cubeful off\n' if cubeless else '')
            + f'set analysis chequerplay evaluation plies {plies}\n'
            f'set analysis cubedecision evaluation plies {cube_plies}\n'
            f'import mat {path}\nanalyse match\nshow statistics match\n')
    out = subprocess.run(['gnubg', '-t', '-q'], input=cmds, capture_output=True,
                         text=True, timeout=3600).stdout
    text = out[out.rindex('Player  '):]
    names = text.splitlines()[0].split()[1:]
    section, stats = None, {n: {} for n in names}
    for line in text.splitlines():
        if line.endswith('statistics'):
            section = line.split()[0]
            continue
        for label, key in ROWS.items():
            # money games say (EMG (Points)), matches (EMG (MWC))
            label = label.replace(' (EMG (MWC))', '')
            m = re.match(re.escape(label) + r'( \(EMG \((MWC|Points)\)\))? ', line)
            if m:
                # "0" or "2 (-0.123 ( -0.123))": the count comes first per column
                cols = re.split(r'\s{3,}', line[m.end():].strip())
                for n, c in zip(names, cols):
                    stats[n][key] = int(c.split()[0])
        if line.startswith('Error total EMG') and section in ('Chequerplay', 'Cube'):
            cols = re.findall(r'([-+]?\d+\.\d+) \(', line)
            for n, c in zip(names, cols):
                stats[n][section.lower() + '_error'] = abs(float(c))
    return path, stats

def summary(samples, weight, error):
    """Error rate in thousandths per unit of `weight`, with a 95% interval
    over the samples (ratio estimator)."""
    w = sum(s[weight] for s in samples)
    e = sum(s[error] for s in samples)
    if w == 0:
        return {'n': 0}
    r = e / w
    k = len(samples)
    var = sum((s[error] - r * s[weight]) ** 2 for s in samples) / max(k - 1, 1)
    se = math.sqrt(k * var) / w if k > 1 else float('nan')
    return {'n': w, 'rate': round(1000 * r, 2),
            'ci95': [round(1000 * (r - 1.96 * se), 2), round(1000 * (r + 1.96 * se), 2)]}

def main():
    folder, opt = args()
    files = sorted(glob.glob(os.path.join(folder, '*.mat')))
    with ThreadPoolExecutor(int(opt['--jobs'])) as pool:
        results = list(pool.map(lambda f: analyse(f, opt['--plies'], opt['--cube-plies'], opt['--cubeless']), files))
    per = {}
    for _, stats in results:
        for name, s in stats.items():
            per.setdefault(name, []).append(s)
    out = {'files': len(files), 'plies': opt['--plies'], 'cube_plies': opt['--cube-plies'],
           'cubeless': opt['--cubeless'], 'players': {}}
    # every player's decisions together (e.g. an agent against itself)
    everyone = [s for samples in per.values() for s in samples]
    for s in everyone:
        s.setdefault('chequerplay_error', 0.0); s.setdefault('cube_error', 0.0)
    out['all'] = {'chequer_mEMG': summary(everyone, 'unforced', 'chequerplay_error'),
                  'cube_mEMG': summary(everyone, 'close', 'cube_error'),
                  'counts': {k: sum(s.get(k, 0) for s in everyone) for k in ROWS.values()}}
    for name, samples in per.items():
        totals = {k: sum(s.get(k, 0) for s in samples) for k in ROWS.values()}
        for s in samples:
            s.setdefault('chequerplay_error', 0.0); s.setdefault('cube_error', 0.0)
        out['players'][name] = {
            'games': len(samples),
            'chequer_mEMG': summary(samples, 'unforced', 'chequerplay_error'),
            'cube_mEMG': summary(samples, 'close', 'cube_error'),
            'counts': totals,
        }
    print(json.dumps(out, indent=1))

if __name__ == '__main__':
    main()
