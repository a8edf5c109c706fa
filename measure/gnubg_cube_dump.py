"""GNU Backgammon's 2-ply verdict on every cube decision of a folder of .mat
files, one JSON line per file, for `cube_offline.py`.

Run inside GNU Backgammon: DIR=games OUT=gnubg.jsonl gnubg -t -q -p
measure/gnubg_cube_dump.py. Each line: the file and, in order, each
decision GNU Backgammon analysed (a roll without doubling is a 'move', then
'double', 'take', 'drop') with its cubeless probabilities and the cubeful
no double and double/take equities of the player on roll (per cube value).
Without the Jacoby rule, as our money games are played."""
import gnubg, json, glob, os

out = open(os.environ['OUT'], 'w')
gnubg.command('set jacoby off')
gnubg.command('set analysis chequerplay evaluation plies 0')
gnubg.command('set analysis cubedecision evaluation plies 2')
for path in sorted(glob.glob(os.environ['DIR'] + '/*.mat')):
    gnubg.command('import mat ' + path)
    gnubg.command('analyse match')
    m = gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)
    rows = []
    for a in m['games'][0]['game']:
        an = a.get('analysis') or {}
        if 'nd-cubeful-eq' in an or a['action'] in ('double', 'take', 'drop'):
            rows.append({'action': a['action'], 'probs': an.get('probs'),
                         'nd': an.get('nd-cubeful-eq'), 'dt': an.get('dt-cubeful-eq')})
    out.write(json.dumps({'file': path, 'rows': rows}) + '\n')
out.close()
