# Counts doubles of a dead cube (the doubler's score plus the cube reaches the match length) in .mat files.
import glob, re, sys
dead = doubles = games = 0
for f in sorted(glob.glob(sys.argv[1] + '/*.mat')):
    text = open(f).read().splitlines()
    L = int(re.search(r'(\d+) point match', '\n'.join(text)).group(1))
    score = None; cube = 1
    for line in text:
        m = re.match(r'\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)', line)
        if line.strip().startswith('Game'):
            cube = 1; games += 1; continue
        if m and score is None or (m and not re.match(r'\s*\d+\)', line)):
            score = [int(m.group(2)), int(m.group(4))]; continue
        for d in re.finditer(r'Doubles => (\d+)', line):
            who = 0 if d.start() < 32 else 1
            doubles += 1
            if score[who] + cube >= L:
                dead += 1; print('dead double', f, line.strip(), score, cube)
            cube = int(d.group(1))
print(f'{games} games, {doubles} doubles, {dead} of a dead cube')
