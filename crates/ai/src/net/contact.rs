//! Backgammon's contact features (encoding 2): per side, how freely its
//! back checkers escape, how many rolls hit its blots and what the hits
//! cost, the pips it needs to break contact, its timing and its chance to
//! dance; then whether the sides still meet.
//!
//! Points are counted in a side's own numbering (it moves from 24 down to
//! 1; 25 is its bar) and held as bit masks, bit n for point n.

/// Features per side.
pub(super) const PER_SIDE: usize = 7;
/// All contact features: both sides', then contact.
pub(super) const FEATURES: usize = 2 * PER_SIDE + 1;

/// Bits 0..=24: the other side's entry (0) and the board's points.
pub(super) const BOARD: u32 = 0x01FF_FFFF;
/// Points 19..=24: the other side's home board, seen from this side.
const THEIR_HOME: u32 = 0x01FC_0000;

/// Rolls of 36 with which a checker passes every blocked point among the
/// 12 in front of it, by mask of those points (bit j: the point 12 − j pips
/// ahead is held by two or more of the other side).
const ESCAPES: [u8; 4096] = escape_table();

const fn escape_table() -> [u8; 4096] {
    let mut t = [0u8; 4096];
    let mut m = 0;
    while m < 4096 {
        t[m] = escapes_of(m as u32);
        m += 1;
    }
    t
}

/// Whether the point `dist` pips ahead is blocked in mask `m`.
const fn blocked(m: u32, dist: u32) -> bool {
    dist >= 1 && dist <= 12 && (m >> (12 - dist)) & 1 == 1
}

const fn escapes_of(m: u32) -> u8 {
    // The farthest blocked point's distance (0: nothing blocks).
    let far = if m == 0 { 0 } else { 12 - m.trailing_zeros() };
    let mut n = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            if escapes_with(m, far, a, b) {
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    n
}

/// Whether dice `a`, `b` carry one checker past `far`, landing only on open points.
const fn escapes_with(m: u32, far: u32, a: u32, b: u32) -> bool {
    if a == b {
        let mut k = 1;
        while k <= 4 {
            if blocked(m, k * a) {
                return false;
            }
            if k * a > far {
                return true;
            }
            k += 1;
        }
        return false;
    }
    a > far || b > far || ((!blocked(m, a) || !blocked(m, b)) && a + b > far && !blocked(m, a + b))
}

/// Rolls of 36 that let a checker on point `p` (25: the bar) pass the
/// blocked points `blocks` among the 12 in front of it.
pub(super) fn escapes(blocks: u32, p: u32) -> u32 {
    let m = ((u64::from(blocks) << 12) >> p) & 0xFFF;
    u32::from(ESCAPES[m as usize])
}

/// One side's checkers in its own numbering.
pub(super) struct Side<'a> {
    /// Checkers on each point (index i: point i + 1).
    pub counts: &'a [u8; 24],
    /// Checkers on the bar.
    pub bar: u8,
}

/// A side's masks: points with a checker, made points, blots.
struct Masks {
    any: u32,
    made: u32,
    blots: u32,
}

impl Side<'_> {
    fn masks(&self) -> Masks {
        let mut m = Masks {
            any: 0,
            made: 0,
            blots: 0,
        };
        for (i, &n) in self.counts.iter().enumerate() {
            let bit = 1u32 << (i + 1);
            if n >= 1 {
                m.any |= bit;
            }
            if n >= 2 {
                m.made |= bit;
            } else if n == 1 {
                m.blots |= bit;
            }
        }
        m
    }

    /// Its rearmost checker's point (25: on the bar; 0: none left).
    fn rearmost(&self, any: u32) -> u32 {
        if self.bar > 0 {
            25
        } else {
            31 - any.leading_zeros().min(31)
        }
    }
}

/// A mask of points in one side's numbering turned to the other's (n ↦ 25 − n).
pub(super) fn mirror(mask: u32) -> u32 {
    (mask & 0x01FF_FFFE).reverse_bits() >> 6
}

/// Writes the contact features of both sides (`me`: the side on roll)
/// into `out` (length [`FEATURES`]): per side (on roll first) rolls
/// escaping its rearmost checker / 36; the other side's containment, 1 −
/// the fewest escapes from its points 15..24 / 36; rolls on which the
/// other side hits one of its blots / 36; pips the worst hit of each roll
/// costs, summed over the 36 rolls / (36 · 24); pips it must play to pass
/// the other's rearmost checker / 150; pips its checkers on points 7..18
/// may play before reaching home / 100; the chance to dance, (the other's
/// closed home points / 6)²; last, 1 while the sides still meet.
pub(super) fn features(me: &Side, them: &Side, out: &mut [f32]) {
    let (mine, theirs) = (me.masks(), them.masks());
    side_features(me, &mine, them, &theirs, &mut out[..PER_SIDE]);
    side_features(them, &theirs, me, &mine, &mut out[PER_SIDE..2 * PER_SIDE]);
    // The sides meet while my rearmost checker is behind his (p + q > 25).
    let contact = me.rearmost(mine.any) + them.rearmost(theirs.any) > 25;
    out[2 * PER_SIDE] = f32::from(contact);
}

/// One side's features (see [`features`]), the other side's masks being in
/// its own numbering.
fn side_features(me: &Side, mine: &Masks, them: &Side, theirs: &Masks, out: &mut [f32]) {
    let blocks = mirror(theirs.made);
    let back = me.rearmost(mine.any);
    let contained = (15..=24).map(|p| escapes(blocks, p)).min().unwrap_or(36);
    // The other side's checkers in my numbering; its bar is my point 0.
    let their_from = mirror(theirs.any) | u32::from(them.bar > 0);
    let (hits, loss) = shots(their_from, them.bar, !mine.made & BOARD, mine.blots);
    // His rearmost checker in my numbering (0: his bar); none: no contact.
    let rear = if their_from == 0 {
        25
    } else {
        their_from.trailing_zeros()
    };
    let mut to_pass = u32::from(me.bar) * 25u32.saturating_sub(rear);
    let mut outfield = 0;
    for (i, &n) in me.counts.iter().enumerate() {
        let p = i as u32 + 1;
        to_pass += u32::from(n) * p.saturating_sub(rear);
        if (7..=18).contains(&p) {
            outfield += u32::from(n) * (p - 6);
        }
    }
    let closed = (blocks & THEIR_HOME).count_ones() as f32 / 6.0;
    out[0] = escapes(blocks, back) as f32 / 36.0;
    out[1] = 1.0 - contained as f32 / 36.0;
    out[2] = hits as f32 / 36.0;
    out[3] = loss as f32 / (36.0 * 24.0);
    out[4] = to_pass as f32 / 150.0;
    out[5] = outfield as f32 / 100.0;
    out[6] = closed * closed;
}

/// The rolls of 36 on which the other side (checkers on the points of
/// `from` in my numbering, moving up; bit 0: its bar, holding `bar`) hits
/// one of `blots`, moving over `open` points only; and the pips the worst
/// hit of each such roll costs me (25 − the blot's point), summed.
fn shots(from: u32, bar: u8, open: u32, blots: u32) -> (u32, u32) {
    if blots == 0 || from == 0 {
        return (0, 0);
    }
    let (mut rolls, mut loss) = (0, 0);
    for a in 1..=6u32 {
        for b in a..=6u32 {
            let hit = hits(from, bar, open, a, b) & blots;
            if hit != 0 {
                let weight = if a == b { 1 } else { 2 };
                rolls += weight;
                loss += weight * (25 - hit.trailing_zeros());
            }
        }
    }
    (rolls, loss)
}

/// The points the other side can land on with dice `a`, `b` (checkers
/// entering from the bar first; one checker's intermediate landings open).
pub(super) fn hits(from: u32, bar: u8, open: u32, a: u32, b: u32) -> u32 {
    let board = from & !1;
    if a == b {
        let entering = u32::from(bar.min(4));
        let (mut reach, mut landed) = (board, 0);
        if entering > 0 {
            let entry = (1 << a) & open;
            if entry == 0 {
                return 0;
            }
            reach |= entry;
            landed |= entry;
        }
        for _ in entering..4 {
            reach = (reach << a) & open;
            landed |= reach;
        }
        return landed;
    }
    match bar {
        0 => {
            let (ra, rb) = ((board << a) & open, (board << b) & open);
            ra | rb | (((ra << b) | (rb << a)) & open)
        }
        1 => {
            let mut landed = 0;
            for (enter, then) in [(a, b), (b, a)] {
                let entry = (1 << enter) & open;
                if entry != 0 {
                    landed |= entry | (((board | entry) << then) & open);
                }
            }
            landed
        }
        _ => ((1 << a) | (1 << b)) & open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(me: &[(usize, u8)], my_bar: u8, them: &[(usize, u8)], their_bar: u8) -> Vec<f32> {
        let (mut a, mut b) = ([0u8; 24], [0u8; 24]);
        for &(p, n) in me {
            a[p - 1] = n;
        }
        for &(p, n) in them {
            b[p - 1] = n;
        }
        let mut x = vec![0.0; FEATURES];
        let me = Side {
            counts: &a,
            bar: my_bar,
        };
        let them = Side {
            counts: &b,
            bar: their_bar,
        };
        features(&me, &them, &mut x);
        x
    }

    #[test]
    fn escapes_count_the_rolls_that_pass_the_blocks() {
        assert_eq!(escapes_of(0), 36);
        // One point blocked 6 pips ahead: the 18 non-doubles totalling 7
        // or more, and 4-4 and 5-5 (3-3 and 6-6 stop on the block).
        assert_eq!(escapes_of(1 << (12 - 6)), 20);
        // A full six-point prime right in front: nothing escapes.
        assert_eq!(escapes_of(0b1111_1100_0000), 0);
    }

    #[test]
    fn the_start_position_has_both_sides_alike() {
        let start = [(24, 2), (13, 5), (8, 3), (6, 5)];
        let x = out(&start, 0, &start, 0);
        assert_eq!(x[..PER_SIDE], x[PER_SIDE..2 * PER_SIDE]);
        assert_eq!(x[2], 0.0, "no blots, no shots");
        // One closed point in his home board: (1/6)².
        assert!((x[6] - 1.0 / 36.0).abs() < 1e-6);
        assert_eq!(x[14], 1.0);
    }

    #[test]
    fn a_blot_six_pips_in_front_of_a_checker_is_hit_by_sixteen_rolls() {
        // My blot on my 10 point, my 14 others on my 6 point; his checker
        // on his 21 point (my 4), six pips from the blot.
        let x = out(&[(10, 1), (6, 14)], 0, &[(21, 1), (1, 14)], 0);
        // Every 6 (11 rolls); 5-1 and 4-2 (by the 4: my 6 point blocks
        // the 2), 3-3; not 2-2 or 1-1 (stopped on my 6 point): 16.
        assert_eq!(x[2], 16.0 / 36.0);
        // Every hit costs 25 - 10 = 15 pips.
        assert!((x[3] - 16.0 * 15.0 / (36.0 * 24.0)).abs() < 1e-6);
        // His checker on my 4 point: my blot and my checkers on 6 must pass it.
        assert!((x[4] - (6.0 + 2.0 * 14.0) / 150.0).abs() < 1e-6);
        assert_eq!(x[14], 1.0);
    }

    #[test]
    fn a_race_has_no_contact_shots_or_pips_to_pass() {
        let x = out(&[(5, 1), (3, 14)], 0, &[(2, 15)], 0);
        assert_eq!((x[2], x[4], x[PER_SIDE + 2], x[14]), (0.0, 0.0, 0.0, 0.0));
        assert_eq!(x[0], 1.0, "nothing blocks");
    }

    #[test]
    fn a_checker_on_the_bar_of_a_closed_board_never_escapes_and_dances() {
        let home = [(19, 2), (20, 2), (21, 2), (22, 2), (23, 2), (24, 2)];
        // His closed board is my 19..24: his points 1..6.
        let his: Vec<(usize, u8)> = home.iter().map(|&(p, n)| (25 - p, n)).collect();
        let x = out(&[(6, 14)], 1, &his, 0);
        assert_eq!(x[0], 0.0);
        assert_eq!(x[6], 1.0);
        // From my 24 point only the 6s pass his points 19..23 (11 rolls).
        assert_eq!(x[1], 1.0 - 11.0 / 36.0);
    }

    #[test]
    fn a_checker_entering_from_the_bar_hits() {
        // His one checker on the bar enters on my points 1..6; my blot on
        // my 3 point: hit by every 3, 2-1, 1-1 (entering on 1, then 1, 1).
        let x = out(&[(3, 1), (8, 14)], 0, &[(12, 14)], 1);
        // 3s: 11; 2-1: 2; 1-1: 1.
        assert_eq!(x[2], 14.0 / 36.0);
        // Two on his bar: each die enters a checker, so 2-1 misses; 1-1
        // enters both and moves one on twice.
        let x = out(&[(3, 1), (8, 14)], 0, &[(12, 13)], 2);
        assert_eq!(x[2], 12.0 / 36.0);
    }

    #[test]
    fn mirroring_turns_points_to_the_other_numbering() {
        assert_eq!(mirror(1 << 1), 1 << 24);
        assert_eq!(mirror(1 << 24), 1 << 1);
        assert_eq!(mirror(mirror(0x0155_5556)), 0x0155_5556);
    }
}
