//! The board's geometry: squares, the four stone kinds and how they step
//! (LAG-1, LAG-2, LAG-6).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Fewest and most columns (LAG-1).
pub const COLUMNS: (u8, u8) = (3, 9);
/// Fewest and most rows (LAG-1).
pub const ROWS: (u8, u8) = (4, 11);
/// Squares on the largest board.
pub const MAX_SQUARES: usize = COLUMNS.1 as usize * ROWS.1 as usize;

/// One of the four stones each player has (LAG-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stone {
    /// 1 or 2 squares straight forward.
    Blue,
    /// 1 or 2 squares diagonally forward.
    Yellow,
    /// 1 square diagonally, forward or backward.
    Black,
    /// 1 square in any of the 8 directions.
    White,
}

impl Stone {
    /// All four, in index order.
    pub const ALL: [Stone; 4] = [Stone::Blue, Stone::Yellow, Stone::Black, Stone::White];

    /// The stone's index 0..4.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used on the board and in notation.
    pub fn letter(self) -> char {
        match self {
            Stone::Blue => 'B',
            Stone::Yellow => 'Y',
            Stone::Black => 'K',
            Stone::White => 'W',
        }
    }

    /// The colour's name.
    pub fn name(self) -> &'static str {
        match self {
            Stone::Blue => "blue",
            Stone::Yellow => "yellow",
            Stone::Black => "black",
            Stone::White => "white",
        }
    }

    /// The one-square steps as (column, row) offsets for the first player
    /// (forward is +row); the second player's rows are negated. A stone
    /// threatens exactly the squares of its one-square steps (LAG-6).
    #[inline]
    pub fn steps(self) -> &'static [(i8, i8)] {
        match self {
            Stone::Blue => &[(0, 1)],
            Stone::Yellow => &[(-1, 1), (1, 1)],
            Stone::Black => &[(-1, 1), (1, 1), (-1, -1), (1, -1)],
            Stone::White => &[
                (-1, 1),
                (0, 1),
                (1, 1),
                (-1, 0),
                (1, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
            ],
        }
    }

    /// Whether the stone may also go two squares in the same direction
    /// (blue and yellow, LAG-2).
    #[inline]
    pub fn double_step(self) -> bool {
        matches!(self, Stone::Blue | Stone::Yellow)
    }

    /// Whether a plain move of this stone can be undone (black and white can
    /// step back; blue and yellow only go forward).
    #[inline]
    pub fn reversible(self) -> bool {
        matches!(self, Stone::Black | Stone::White)
    }

    /// The stone for a notation letter or colour name.
    pub fn from_word(word: &str) -> Option<Stone> {
        match word.to_ascii_lowercase().as_str() {
            "b" | "blue" | "bl" => Some(Stone::Blue),
            "y" | "yellow" | "g" | "gul" => Some(Stone::Yellow),
            "k" | "black" | "s" | "svart" => Some(Stone::Black),
            "w" | "white" | "v" | "vit" => Some(Stone::White),
            _ => None,
        }
    }
}

/// A square by column (0 = `a`) and row (0 = `1`, the first player's camp).
/// Written `c3`; in JSON the same string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square {
    /// Column from the left, 0-based.
    pub col: u8,
    /// Row from the first player's side, 0-based.
    pub row: u8,
}

impl Square {
    /// The square at this column and row (0-based).
    pub const fn new(col: u8, row: u8) -> Self {
        Square { col, row }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let mut chars = s.chars();
        let bad = || format!("`{s}` is not a square like c3");
        let c = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !c.is_ascii_lowercase() || c as u8 - b'a' >= COLUMNS.1 {
            return Err(bad());
        }
        let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if row == 0 || row > ROWS.1 {
            return Err(bad());
        }
        Ok(Square::new(c as u8 - b'a', row - 1))
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

const fn make_coords() -> [[[u8; 2]; 128]; 7] {
    let mut t = [[[0u8; 2]; 128]; 7];
    let mut c = 0;
    while c < 7 {
        let mut i = 0;
        while i < 128 {
            let columns = c + COLUMNS.0 as usize;
            t[c][i] = [(i % columns) as u8, (i / columns) as u8];
            i += 1;
        }
        c += 1;
    }
    t
}

/// Column and row of each square index, per board width: a lookup instead
/// of a division in the move generator's inner loops.
static COORDS: [[[u8; 2]; 128]; 7] = make_coords();

/// The board's size and the square numbering `row * columns + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Number of columns.
    pub columns: u8,
    /// Number of rows.
    pub rows: u8,
}

impl Geometry {
    /// Number of squares.
    #[inline]
    pub const fn squares(self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// A mask with one bit per square.
    #[inline]
    pub const fn board_mask(self) -> u128 {
        (1u128 << self.squares()) - 1
    }

    /// The row of a player's camp (LAG-1): the first player's is row 1, the
    /// second player's the far row.
    #[inline]
    pub const fn camp_row(self, player: usize) -> u8 {
        if player == 0 { 0 } else { self.rows - 1 }
    }

    /// The squares of a player's camp, as a mask.
    #[inline]
    pub const fn camp_mask(self, player: usize) -> u128 {
        let row_bits = (1u128 << self.columns) - 1;
        row_bits << (self.camp_row(player) as usize * self.columns as usize)
    }

    /// The index of a square (no bounds check).
    #[inline]
    pub fn index(self, sq: Square) -> u8 {
        sq.row * self.columns + sq.col
    }

    /// Column and row of a square index.
    #[inline]
    fn coords(self, index: u8) -> (u8, u8) {
        let width = (self.columns.wrapping_sub(COLUMNS.0) as usize).min(6);
        let [c, r] = COORDS[width][index as usize & 127];
        (c, r)
    }

    /// The square of an index.
    #[inline]
    pub fn square(self, index: u8) -> Square {
        let (col, row) = self.coords(index);
        Square::new(col, row)
    }

    /// Whether a square is on this board.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        sq.col < self.columns && sq.row < self.rows
    }
}

/// Bit masks of a board, for moving whole sets of squares at once: bit
/// `row * columns + col` stands for a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Masks {
    columns: u8,
    /// Every square.
    pub board: u128,
    /// Each player's camp (LAG-1).
    pub camp: [u128; 2],
    not_left: u128,
    not_right: u128,
}

impl Masks {
    /// The masks of a board.
    pub const fn new(g: Geometry) -> Self {
        let mut left = 0u128;
        let mut row = 0;
        while row < g.rows {
            left |= 1u128 << (row as usize * g.columns as usize);
            row += 1;
        }
        let board = g.board_mask();
        Masks {
            columns: g.columns,
            board,
            camp: [g.camp_mask(0), g.camp_mask(1)],
            not_left: board & !left,
            not_right: board & !(left << (g.columns - 1)),
        }
    }

    /// The masks of a board, from a table made at compile time (sizes
    /// outside the options' ranges are brought into them).
    #[inline]
    pub fn of(g: Geometry) -> &'static Masks {
        let c = (g.columns.wrapping_sub(COLUMNS.0) as usize).min(WIDTHS - 1);
        let r = (g.rows.wrapping_sub(ROWS.0) as usize).min(LENGTHS - 1);
        &MASKS[c][r]
    }

    #[inline]
    fn up(&self, b: u128) -> u128 {
        (b << self.columns) & self.board
    }

    #[inline]
    fn down(&self, b: u128) -> u128 {
        b >> self.columns
    }

    #[inline]
    fn sideways(&self, b: u128) -> u128 {
        ((b & self.not_left) >> 1) | ((b & self.not_right) << 1)
    }

    #[inline]
    fn forward(&self, b: u128, player: usize) -> u128 {
        if player == 0 {
            self.up(b)
        } else {
            self.down(b)
        }
    }

    /// The squares a stone of `player` on the squares `b` threatens: those
    /// of its one-square steps (LAG-6), whatever stands there.
    #[inline]
    pub fn threats(&self, stone: Stone, b: u128, player: usize) -> u128 {
        match stone {
            Stone::Blue => self.forward(b, player),
            Stone::Yellow => self.forward(self.sideways(b), player),
            Stone::Black => {
                let h = self.sideways(b);
                self.up(h) | self.down(h)
            }
            Stone::White => {
                let h = self.sideways(b);
                let v = h | b;
                self.up(v) | self.down(v) | h
            }
        }
    }

    /// The free squares a stone of `player` on the single square `b` can
    /// move to (LAG-2, LAG-3): one step, or two in one direction for blue
    /// and yellow when the square between is free.
    #[inline]
    pub fn destinations(&self, stone: Stone, b: u128, player: usize, free: u128) -> u128 {
        let one = self.threats(stone, b, player) & free;
        match stone {
            Stone::Blue => one | (self.forward(one, player) & free),
            Stone::Yellow => {
                // Keep each diagonal apart so that the second step goes on
                // in the same direction.
                let l = self.forward((b & self.not_left) >> 1, player) & free;
                let r = self.forward((b & self.not_right) << 1, player) & free;
                let l2 = self.forward((l & self.not_left) >> 1, player) & free;
                let r2 = self.forward((r & self.not_right) << 1, player) & free;
                one | l2 | r2
            }
            Stone::Black | Stone::White => one,
        }
    }
}

const WIDTHS: usize = (COLUMNS.1 - COLUMNS.0 + 1) as usize;
const LENGTHS: usize = (ROWS.1 - ROWS.0 + 1) as usize;

const fn make_masks() -> [[Masks; LENGTHS]; WIDTHS] {
    let empty = Masks {
        columns: 0,
        board: 0,
        camp: [0; 2],
        not_left: 0,
        not_right: 0,
    };
    let mut t = [[empty; LENGTHS]; WIDTHS];
    let mut c = 0;
    while c < WIDTHS {
        let mut r = 0;
        while r < LENGTHS {
            t[c][r] = Masks::new(Geometry {
                columns: COLUMNS.0 + c as u8,
                rows: ROWS.0 + r as u8,
            });
            r += 1;
        }
        c += 1;
    }
    t
}

/// The masks of every board size the options allow: the state keeps only
/// the size and looks its masks up here.
static MASKS: [[Masks; LENGTHS]; WIDTHS] = make_masks();
