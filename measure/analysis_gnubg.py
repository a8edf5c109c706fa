# Per-move chequer errors of GNU Backgammon (2-ply, or $PLIES) for each .mat
# in games/, written to gnubg2.json (or $OUT): [{file, X, O, moves:[{player, dice, loss}]}].
# The games were played without a cube, so chequer play is judged by cubeless
# equity (a .mat file cannot say the cube was off: GNU Backgammon would judge a
# money game cubefully under the Jacoby rule, where gammons with the cube in
# the middle count nothing). CUBEFUL=1 judges as GNU Backgammon does by default.
import gnubg, json, glob, os
gnubg.command('set analysis chequerplay evaluation plies ' + os.environ.get('PLIES', '2'))
if not os.environ.get('CUBEFUL'):
    gnubg.command('set analysis chequerplay evaluation cubeful off')
gnubg.command('set analysis cube off')
gnubg.command('set analysis luck on')
out = []
for f in sorted(glob.glob('games/*.mat')):
    gnubg.command('import mat ' + f)
    gnubg.command('analyse match')
    m = gnubg.match()
    info = m['match-info']
    g = m['games'][0]
    moves = []
    for rec in g['game']:
        a = rec.get('analysis')
        if rec.get('action') != 'move' or not a or len(a.get('moves', ())) < 2:
            continue
        ms = a['moves']
        moves.append({'player': rec['player'], 'dice': rec['dice'],
                      'loss': ms[0]['score'] - ms[a['imove']]['score']})
    out.append({'file': f, 'X': info['X']['name'], 'O': info['O']['name'], 'moves': moves})
json.dump(out, open(os.environ.get('OUT', 'gnubg2.json'), 'w'))
