//! Zobrist keys for hashing positions: one random key per piece and place,
//! and one for the second player to move. Fixed at compile time, so a hash
//! is the same in every run.

/// Location codes: a square index `0..99`, or one of these.
pub const UNPLAYED: u8 = 120;
/// A stone knocked out of the game, or a blockade that is gone (LAG-7).
pub const OUT: u8 = 121;

/// Pieces with keys: 4 stones per player, then the two blockades.
const PIECES: usize = 10;
/// Location codes per piece.
const PLACES: usize = 128;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; PLACES]; PIECES] {
    let mut keys = [[0u64; PLACES]; PIECES];
    let mut state = 0x6C61_6765_725F_7A6Fu64; // "lager_zo"
    let mut p = 0;
    while p < PIECES {
        let mut i = 0;
        while i < PLACES {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][i] = k;
            i += 1;
        }
        p += 1;
    }
    keys
}

static KEYS: [[u64; PLACES]; PIECES] = make_keys();

/// The key for the second player to move.
pub const SIDE: u64 = splitmix(0x5349_4445).1;

/// The key of `player`'s stone `stone` (0..4) at location `loc`.
#[inline]
pub fn stone(player: usize, stone: usize, loc: u8) -> u64 {
    KEYS[player * 4 + stone][loc as usize & (PLACES - 1)]
}

/// The key of `player`'s blockade at location `loc`.
#[inline]
pub fn blockade(player: usize, loc: u8) -> u64 {
    KEYS[8 + player][loc as usize & (PLACES - 1)]
}
