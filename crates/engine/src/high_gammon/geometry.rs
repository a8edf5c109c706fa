//! The square board of 28 fields (HG-1), the seats (HG-3, HG-4) and how a
//! seat's own track maps onto the ring.

/// Fields on the ring: 24 points and 4 rest fields (HG-1).
pub const FIELDS: usize = 28;
/// Stones per player (HG-2).
pub const STONES: u8 = 9;
/// Fields on a seat's own track before "off": d = 0..19 (HG-3).
pub const TRACK: usize = 20;
/// The first goal point (third-last) on a seat's track (HG-3).
pub const GOAL_FIRST: usize = 17;
/// The first field of a seat's home stretch, the side of its goal points (HG-18).
pub const HOME_STRETCH: usize = 14;
/// Most players.
pub const MAX_SEATS: usize = 4;

/// Colour names by seat (HG-2).
pub const COLOURS: [&str; 4] = ["Blue", "Red", "Yellow", "Green"];
/// Colour letters by seat, used on the board and in notation.
pub const LETTERS: [char; 4] = ['B', 'R', 'Y', 'G'];
/// ANSI colour codes by seat.
pub const ANSI: [&str; 4] = ["1;34", "1;31", "1;33", "1;32"];

/// Step codes in actions: a field is written 1..28 (ring index + 1).
/// A stone entering from the bar.
pub const BAR_CODE: u8 = 29;
/// A Tric-Trac stone entering from off the board (TT-1).
pub const IN_CODE: u8 = 30;
/// A stone borne off (HG-14).
pub const OFF_CODE: u8 = 0;

/// The seats used by `players` players (HG-4): 2 players sit opposite.
pub fn seats(players: usize) -> &'static [u8] {
    match players {
        2 => &[0, 2],
        3 => &[0, 1, 2],
        _ => &[0, 1, 2, 3],
    }
}

/// The ring field (0..27) at distance `d` along seat `seat`'s track (HG-3).
#[inline]
pub fn field(seat: u8, d: usize) -> usize {
    (7 * seat as usize + d) % FIELDS
}

/// How far along seat `seat`'s track ring field `r` lies (0..27; 20 and
/// beyond are not on the track).
#[inline]
pub fn distance(seat: u8, r: usize) -> usize {
    (r + FIELDS - 7 * seat as usize) % FIELDS
}

/// Whether ring field `r` is a rest field (a corner, HG-1, HG-11).
#[inline]
pub fn is_rest(r: usize) -> bool {
    r % 7 == 6
}

/// Whether distance `d` on any seat's track is a rest field (d = 6, 13).
#[inline]
pub fn is_rest_d(d: usize) -> bool {
    d % 7 == 6
}

/// A seat's start field in the 1..28 numbering players see.
pub fn start_label(seat: u8) -> usize {
    field(seat, 0) + 1
}

/// A seat's three goal fields in the 1..28 numbering (third-last first).
pub fn goal_labels(seat: u8) -> [usize; 3] {
    [0, 1, 2].map(|i| field(seat, GOAL_FIRST + i) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HG-1: 24 points and 4 rest fields in the corners, numbered
    /// counter-clockwise; HG-3: each side holds one seat's start point and
    /// the three goal points of the seat opposite.
    #[test]
    fn hg1_hg3_ring_and_seats() {
        assert_eq!((0..FIELDS).filter(|&r| is_rest(r)).count(), 4);
        assert_eq!(
            (0..FIELDS).filter(|&r| is_rest(r)).collect::<Vec<_>>(),
            vec![6, 13, 20, 27]
        );
        for seat in 0..4u8 {
            assert_eq!(field(seat, 0), 7 * seat as usize);
            assert_eq!(distance(seat, field(seat, 0)), 0);
            // rest fields lie at d = 6 and 13 on every track
            assert!(is_rest(field(seat, 6)) && is_rest(field(seat, 13)));
            assert!(
                is_rest(field(seat, TRACK)),
                "off lies beyond the last goal point"
            );
            let opposite = (seat + 2) % 4;
            let side = |r: usize| r / 7;
            for g in GOAL_FIRST..TRACK {
                assert_eq!(side(field(seat, g)), side(field(opposite, 0)));
                assert!(!is_rest(field(seat, g)));
            }
            // the goal points are the last three points of that side
            assert_eq!(field(seat, GOAL_FIRST) % 7, 3);
        }
        assert_eq!(start_label(0), 1);
        assert_eq!(goal_labels(0), [18, 19, 20]);
        assert_eq!(goal_labels(2), [4, 5, 6]);
        assert_eq!(goal_labels(3), [11, 12, 13]);
    }

    /// HG-4: 4 players use seats 0..3, 3 players 0..2, 2 players sit opposite.
    #[test]
    fn hg4_seats() {
        assert_eq!(seats(2), &[0, 2]);
        assert_eq!(seats(3), &[0, 1, 2]);
        assert_eq!(seats(4), &[0, 1, 2, 3]);
    }
}
