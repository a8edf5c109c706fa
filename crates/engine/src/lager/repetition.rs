//! The repetition rule's memory (LAG-11): the actions since the last one
//! that cannot be undone, one byte each, from which every earlier position
//! of that stretch can be rebuilt, and a small filter that says when a
//! position may be there for the third time.
//!
//! Which actions are recorded is the caller's choice (see
//! `LagerState::play`); blockades never change inside the window, so the
//! stones' locations and the player to move tell a position.

use super::state::MAX_PLY_CAP;
use super::zobrist::UNPLAYED;

/// One byte per ply: the window is never longer than the ply cap.
const HISTORY: usize = MAX_PLY_CAP as usize;

/// The moves a stone can make as (column, row) offsets on the board: the
/// eight one-square steps first (a capture is one of these), then the
/// two-square moves of blue and yellow; two spare entries.
const DIRS: [(i8, i8); 16] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (0, -2),
    (0, 2),
    (-2, -2),
    (2, -2),
    (-2, 2),
    (2, 2),
    (0, 0),
    (0, 0),
];

/// Code of a capture: `0kkdddjj`, the mover's stone `k` stepped in direction
/// `d` (0..8) and knocked out the opponent's stone `j`, which went back to
/// his unplayed stones.
const CAPTURE: u8 = 0x00;
/// Code of a plain move: `10kkdddd`, stone `k` went in direction `d`.
const MOVE: u8 = 0x80;
/// Code of a placement: `110000kk`, stone `k` was placed.
const PLACE: u8 = 0xC0;

/// The index in [`DIRS`] of a move by these offsets.
fn direction(dc: i8, dr: i8) -> Option<u8> {
    DIRS[..14]
        .iter()
        .position(|&d| d == (dc, dr))
        .map(|d| d as u8)
}

/// The code of placing stone `k`.
pub fn place(k: usize) -> u8 {
    PLACE | (k as u8 & 3)
}

/// The code of a plain move of stone `k` by (`dc`, `dr`), if it is a move a
/// stone can make.
pub fn step(k: usize, dc: i8, dr: i8) -> Option<u8> {
    Some(MOVE | (k as u8 & 3) << 4 | direction(dc, dr)?)
}

/// The code of stone `k` knocking out the opponent's stone `j` by a
/// one-square step (`dc`, `dr`), after which `j` is unplayed.
pub fn capture(k: usize, dc: i8, dr: i8, j: usize) -> Option<u8> {
    let d = direction(dc, dr).filter(|&d| d < 8)?;
    Some(CAPTURE | (k as u8 & 3) << 5 | d << 2 | (j as u8 & 3))
}

/// The stone locations as one word: byte `4 * player + stone`.
fn pack(stones: [[u8; 4]; 2]) -> u64 {
    u64::from_le_bytes([
        stones[0][0],
        stones[0][1],
        stones[0][2],
        stones[0][3],
        stones[1][0],
        stones[1][1],
        stones[1][2],
        stones[1][3],
    ])
}

/// Sets byte `i` of a packed key.
#[inline]
fn set(key: u64, i: u8, loc: u8) -> u64 {
    let shift = 8 * (i & 7);
    key & !(0xFF << shift) | (loc as u64) << shift
}

/// Undoes one recorded action of `mover` on the packed stone locations
/// `key`; `offsets` are the square index offsets of [`DIRS`] on this board.
#[inline]
fn undo(key: u64, mover: u8, code: u8, offsets: &[u8; 16]) -> u64 {
    let base = 4 * mover;
    if code & 0xC0 == PLACE {
        return set(key, base + (code & 3), UNPLAYED);
    }
    let (k, d) = if code & 0x80 == MOVE {
        ((code >> 4) & 3, code & 15)
    } else {
        ((code >> 5) & 3, (code >> 2) & 7)
    };
    let t = (key >> (8 * (base + k))) as u8;
    let key = set(key, base + k, t.wrapping_sub(offsets[d as usize]));
    if code & 0x80 == CAPTURE {
        set(key, (base ^ 4) + (code & 3), t)
    } else {
        key
    }
}

type Filter = u128;

/// The filter bit of a position's hash.
#[inline]
fn bucket(hash: u64) -> Filter {
    1 << (hash >> (64 - Filter::BITS.trailing_zeros()))
}

/// The actions since the last one that cannot be undone.
#[derive(Clone, Copy)]
pub struct Window {
    /// The positions of the window by hash bucket: `seen[0]` marks the
    /// buckets that hold a position, `seen[1]` those that hold two or more.
    /// A position can only be there for the third time if its bucket is in
    /// `seen[1]`, and only then is the window searched.
    seen: [Filter; 2],
    len: u16,
    /// How to undo each action: a code (see [`undo`]).
    codes: [u8; HISTORY],
}

impl Window {
    /// A window holding only the position with this Zobrist hash.
    pub fn new(hash: u64) -> Self {
        Window {
            seen: [bucket(hash), 0],
            len: 0,
            codes: [0; HISTORY],
        }
    }

    /// The codes of the actions in the window, oldest first.
    pub fn codes(&self) -> &[u8] {
        &self.codes[..self.len as usize]
    }

    /// Notes an action (`None`: one that cannot be undone, which starts the
    /// window afresh) and the hash of the position it led to. Says whether
    /// that position may be in the window for the third time.
    #[inline]
    pub fn push(&mut self, code: Option<u8>, hash: u64) -> bool {
        let b = bucket(hash);
        match code {
            Some(code) if (self.len as usize) < HISTORY => {
                self.codes[self.len as usize] = code;
                self.len += 1;
            }
            // The window cannot be full (it is at most the ply cap); if it
            // were, starting afresh would only miss a draw, never make one.
            _ => {
                self.seen = [b, 0];
                self.len = 0;
                return false;
            }
        }
        if self.seen[1] & b != 0 {
            // Coming back to a position takes at least four plies: every
            // action changes the mover's own pieces, and the reply cannot
            // undo that without changing the replier's.
            return self.len >= 8;
        }
        if self.seen[0] & b != 0 {
            self.seen[1] |= b;
        } else {
            self.seen[0] |= b;
        }
        false
    }

    /// How often the position with these stone locations and `side` to
    /// move, the window's last, occurs in the window: 1 if only now.
    pub fn occurrences(&self, stones: [[u8; 4]; 2], side: usize, columns: u8) -> usize {
        let offsets = DIRS.map(|(dc, dr)| (dr as i16 * columns as i16 + dc as i16) as u8);
        let now = pack(stones);
        let mut key = now;
        // The newest action was made by the player not to move.
        let last = (side as u8 & 1) ^ 1;
        let mut count = 1;
        for (back, &code) in self.codes().iter().rev().enumerate() {
            key = undo(key, last ^ (back as u8 & 1), code, &offsets);
            if back & 1 == 1 && key == now {
                count += 1;
            }
        }
        count
    }
}

impl Window {
    /// The window of these action codes (oldest first) that led to the
    /// position with these stone locations and `side` to move; `hash` gives
    /// the Zobrist hash of each earlier position from its stones and side.
    pub fn rebuild(
        codes: &[u8],
        stones: [[u8; 4]; 2],
        side: usize,
        columns: u8,
        hash: impl Fn([[u8; 4]; 2], usize) -> u64,
    ) -> Self {
        let offsets = DIRS.map(|(dc, dr)| (dr as i16 * columns as i16 + dc as i16) as u8);
        let last = (side as u8 & 1) ^ 1;
        let mut keys = vec![pack(stones)];
        for (back, &code) in codes.iter().rev().enumerate() {
            let key = undo(
                keys[keys.len() - 1],
                last ^ (back as u8 & 1),
                code,
                &offsets,
            );
            keys.push(key);
        }
        let unpack = |key: u64| {
            let b = key.to_le_bytes();
            [[b[0], b[1], b[2], b[3]], [b[4], b[5], b[6], b[7]]]
        };
        // The oldest position was met with the player to move `side` when
        // the window's length is even.
        let side_at = |back: usize| side ^ (back & 1);
        let n = codes.len();
        let mut window = Window::new(hash(unpack(keys[n]), side_at(n)));
        for (i, &code) in codes.iter().enumerate() {
            let back = n - 1 - i;
            window.push(Some(code), hash(unpack(keys[back]), side_at(back)));
        }
        window
    }
}
