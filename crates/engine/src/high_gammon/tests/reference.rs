//! A naive reference generator working straight on the absolute board, to
//! cross-check the mover's view, the shared play generator with its
//! deduplication, and the conversion of steps back to fields.

use super::*;
use crate::high_gammon::geometry::{GOAL_FIRST, TRACK, is_rest};

/// A board as a sortable value.
pub(super) type Key = ([[u8; 4]; 28], [u8; 4], [u8; 4], [u8; 4]);

pub(super) fn key(b: &Board) -> Key {
    (b.cnt, b.bar, b.off, b.pool)
}

fn singles(b: &Board, p: usize, seat: u8, tric: bool, die: u8) -> Vec<Board> {
    let mut out = Vec::new();
    let open = |b: &Board, r: usize| {
        if is_rest(r) {
            return true;
        }
        let others: u8 = (0..4).filter(|&q| q != p).map(|q| b.cnt[r][q]).sum();
        others < 2 && !(tric && b.cnt[r][p] >= 3)
    };
    let land = |mut b: Board, r: usize| {
        if !is_rest(r) {
            for q in 0..4 {
                if q != p && b.cnt[r][q] == 1 {
                    b.cnt[r][q] = 0;
                    b.bar[q] += 1;
                }
            }
        }
        b.cnt[r][p] += 1;
        b
    };
    let entry = field(seat, die as usize - 1);
    if b.bar[p] > 0 {
        if open(b, entry) {
            let mut nb = *b;
            nb.bar[p] -= 1;
            out.push(land(nb, entry));
        }
        return out;
    }
    if tric && b.pool[p] > 0 && open(b, entry) {
        let mut nb = *b;
        nb.pool[p] -= 1;
        out.push(land(nb, entry));
    }
    let at = |d: usize| b.cnt[field(seat, d)][p];
    let all_goal = !tric && b.pool[p] == 0 && (0..GOAL_FIRST).all(|d| at(d) == 0);
    let lowest = (GOAL_FIRST..TRACK).find(|&d| at(d) > 0);
    for d in 0..TRACK {
        if at(d) == 0 {
            continue;
        }
        let t = d + die as usize;
        let mut nb = *b;
        nb.cnt[field(seat, d)][p] -= 1;
        if t < TRACK {
            let r = field(seat, t);
            if open(b, r) {
                out.push(land(nb, r));
            }
        } else if all_goal && lowest == Some(d) {
            nb.off[p] += 1;
            out.push(nb);
        }
    }
    out
}

fn search(b: &Board, p: usize, seat: u8, tric: bool, dice: &[u8], out: &mut BTreeSet<Key>) {
    if let Some((&die, rest)) = dice.split_first() {
        let next = singles(b, p, seat, tric, die);
        if !next.is_empty() {
            for nb in next {
                search(&nb, p, seat, tric, rest, out);
            }
            return;
        }
    }
    out.insert(key(b));
}

/// The distinct boards after every legal play of `dice` by the player to move.
pub(super) fn reference(s: &HgState, dice: [u8; 2]) -> BTreeSet<Key> {
    let r = s.rules();
    let (lo, hi) = (dice[0].min(dice[1]), dice[0].max(dice[1]));
    let list: Vec<u8> = if lo != hi {
        vec![lo, hi]
    } else {
        match r.doubles {
            Doubles::Reroll => vec![lo; 2],
            Doubles::Repeat => vec![lo; 4],
            Doubles::Underside => vec![lo, lo, 7 - lo, 7 - lo],
        }
    };
    let p = s.mover();
    let mut out = BTreeSet::new();
    search(s.board(), p, s.seat(p), r.tric, &list, &mut out);
    out
}

/// The boards after the engine's legal plays (checking they are distinct).
pub(super) fn engine(s: &HgState, dice: [u8; 2]) -> BTreeSet<Key> {
    // the same players in the same seats, to play `dice`
    let mut st = *s;
    st.phase = Phase::Moving {
        dice: [dice[0].min(dice[1]), dice[0].max(dice[1])],
    };
    let mut acts = Vec::new();
    st.legal_actions(&mut acts);
    let mut out = BTreeSet::new();
    for &a in &acts {
        let mut next = st;
        next.apply(a);
        out.insert(key(next.board()));
        // notation round trip
        let text = st.format_action(a);
        assert_eq!(st.parse_action(&text).ok(), Some(a), "round trip of {text}");
    }
    assert_eq!(
        out.len(),
        acts.len(),
        "each legal play reaches its own position"
    );
    out
}

/// Checks every roll on this position against the reference.
pub(super) fn cross_check(s: &HgState) {
    for (roll, _) in crate::tables::ROLLS {
        let want = reference(s, roll);
        let got = engine(s, roll);
        assert_eq!(got, want, "roll {roll:?} on {:?}", s.board());
    }
}
