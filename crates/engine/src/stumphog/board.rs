//! The stones (STU-1..STU-3): two rows of seven piles, Stumpen, and each
//! player's Hög and Ute; each player's track (STU-6); and the four things
//! stones can do: move, be batted in, be batted out, be "slagna över".

use serde::Serialize;

/// All stones in the game (STU-1).
pub const STONES: u32 = 70;
/// Piles in each row (STU-2).
pub const COLUMNS: usize = 7;
/// The track position of Stumpen (STU-6): 0..=13 are the board piles.
pub const STUMPEN: u8 = 14;
/// Stones each player lays and keeps at the set-up, before the roll for the
/// Stumpen (STU-4): 34 taken, 7 laid, 27 in Hög.
pub const START_HOG: u8 = 27;

/// Which row of the board, seen from the player to move.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Row {
    /// The mover's own row (near side).
    Hitom,
    /// The opponent's row (far side).
    Bortom,
}

impl Row {
    /// The row's name as players say it.
    pub fn name(self) -> &'static str {
        match self {
            Row::Hitom => "Hitom",
            Row::Bortom => "Bortom",
        }
    }
}

/// A board pile named from the mover's side: row and column 1..=7.
pub const fn track_of(row: Row, col: u8) -> u8 {
    match row {
        Row::Hitom => 7 - col,
        Row::Bortom => 6 + col,
    }
}

/// The pile at track position `t` (0..=13) of a mover: row and column 1..=7.
pub const fn pile_of(t: u8) -> (Row, u8) {
    if t < 7 {
        (Row::Hitom, 7 - t)
    } else {
        (Row::Bortom, t - 6)
    }
}

/// Whether a column (1..=7) is in Hemma, the three piles of each row next
/// to Stumpen (STU-2).
pub const fn is_hemma(col: u8) -> bool {
    col >= 5
}

/// Where a move's stones went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// On a board pile.
    Pile,
    /// Exactly into Stumpen: one batted out to the mover's Ute (STU-13).
    Stumpen,
    /// Past Stumpen, to the opponent's Hög (STU-11).
    Over,
}

/// Where a move's stones land, named from the mover's side (as the move's
/// JSON gives it, for drawing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// A board pile: its row and column 1..=7.
    Pile {
        /// The row.
        row: Row,
        /// The column.
        col: u8,
    },
    /// Exactly into Stumpen (STU-13).
    Stumpen,
    /// Past Stumpen, to the opponent's Hög (STU-11).
    Over,
}

/// Where `steps` steps along the mover's track (STU-6) from the pile at
/// `row`, `col` lead; `None` for a column that is not on the board.
pub fn destination(row: Row, col: u8, steps: u8) -> Option<Destination> {
    if !(1..=COLUMNS as u8).contains(&col) {
        return None;
    }
    let t = track_of(row, col).saturating_add(steps);
    Some(match t {
        t if t < STUMPEN => {
            let (row, col) = pile_of(t);
            Destination::Pile { row, col }
        }
        STUMPEN => Destination::Stumpen,
        _ => Destination::Over,
    })
}

/// All the stones, in absolute terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Board {
    /// `rows[p][c]`: player p's own row (his Hitom), column c+1.
    pub rows: [[u8; COLUMNS]; 2],
    /// The shared pile to the right of both rows.
    pub stumpen: u8,
    /// Each player's supply (Högen, Inne).
    pub hog: [u8; 2],
    /// Each player's score pile.
    pub ute: [u8; 2],
}

impl Board {
    /// STU-4 before the roll for Stumpen: 14 piles of one, 27 in each Hög,
    /// two stones still in hand, Stumpen not yet laid.
    pub const fn before_setup() -> Self {
        Board {
            rows: [[1; COLUMNS]; 2],
            stumpen: 0,
            hog: [START_HOG; 2],
            ute: [0; 2],
        }
    }

    /// STU-4 after the roll: `layer` lays Stumpen, the other stone goes to
    /// the opponent's Hög (27 and 28).
    pub fn set_up(&mut self, layer: usize) {
        self.stumpen = 1;
        self.hog[1 - layer] += 1;
    }

    /// Stones on the board and in the side piles (the two in hand before
    /// the set-up are not counted).
    pub fn total(&self) -> u32 {
        let rows: u32 = self.rows.iter().flatten().map(|&c| c as u32).sum();
        rows + self.stumpen as u32
            + self.hog.iter().map(|&c| c as u32).sum::<u32>()
            + self.ute.iter().map(|&c| c as u32).sum::<u32>()
    }

    /// The pile at track position `t` (0..=13) of player `p`.
    #[inline]
    pub fn at(&self, p: usize, t: u8) -> u8 {
        if t < 7 {
            self.rows[p][6 - t as usize]
        } else {
            self.rows[1 - p][t as usize - 7]
        }
    }

    #[inline]
    fn at_mut(&mut self, p: usize, t: u8) -> &mut u8 {
        if t < 7 {
            &mut self.rows[p][6 - t as usize]
        } else {
            &mut self.rows[1 - p][t as usize - 7]
        }
    }

    /// The pile in `row` (seen by `p`) at column `col` (1..=7).
    pub fn pile(&self, p: usize, row: Row, col: u8) -> u8 {
        self.at(p, track_of(row, col))
    }

    /// Sets a pile seen by `p`; for tests and analysis.
    pub fn set_pile(&mut self, p: usize, row: Row, col: u8, stones: u8) {
        *self.at_mut(p, track_of(row, col)) = stones;
    }

    /// Whether player `p` is "uttorkad": no stones in Hög nor Ute (STU-17).
    pub fn dried_out(&self, p: usize) -> bool {
        self.hog[p] == 0 && self.ute[p] == 0
    }

    /// STU-8..STU-11, STU-13: player `p` moves `k` stones `s` steps from
    /// track position `t`. The caller checks legality.
    #[inline]
    pub fn apply_move(&mut self, p: usize, t: u8, k: u8, s: u8) -> Landing {
        *self.at_mut(p, t) -= k;
        let dest = t + s;
        if dest < STUMPEN {
            *self.at_mut(p, dest) += k;
            Landing::Pile
        } else if dest == STUMPEN {
            // STU-13: one of them is batted out at once.
            self.stumpen += k - 1;
            self.ute[p] += 1;
            Landing::Stumpen
        } else {
            // STU-11: slagna över, to the opponent's Hög.
            self.hog[1 - p] += k;
            Landing::Over
        }
    }

    /// STU-12: how many stones player `p` would bat in for a die of `n`,
    /// taken `[own Hög, opponent's Ute, opponent's Hög]`; with
    /// `from_opponent` (double six) the own Hög is not used.
    #[inline]
    pub fn bat_in_plan(&self, p: usize, n: u8, from_opponent: bool) -> [u8; 3] {
        let q = 1 - p;
        let own = if from_opponent { 0 } else { n.min(self.hog[p]) };
        let ute = (n - own).min(self.ute[q]);
        let hog = (n - own - ute).min(self.hog[q]);
        [own, ute, hog]
    }

    /// STU-12: bats the planned stones in to player `p`'s Port (Hitom 1).
    pub fn bat_in(&mut self, p: usize, n: u8, from_opponent: bool) -> [u8; 3] {
        let plan = self.bat_in_plan(p, n, from_opponent);
        let q = 1 - p;
        self.hog[p] -= plan[0];
        self.ute[q] -= plan[1];
        self.hog[q] -= plan[2];
        self.rows[p][0] += plan[0] + plan[1] + plan[2];
        plan
    }

    /// STU-14: how many stones player `p` would bat out for `n`, taken
    /// `[Stumpen (keeping one), own Hög]`.
    #[inline]
    pub fn bat_out_plan(&self, p: usize, n: u8) -> [u8; 2] {
        let stumpen = n.min(self.stumpen.saturating_sub(1));
        let hog = (n - stumpen).min(self.hog[p]);
        [stumpen, hog]
    }

    /// STU-14: bats the planned stones out to player `p`'s Ute.
    pub fn bat_out(&mut self, p: usize, n: u8) -> [u8; 2] {
        let plan = self.bat_out_plan(p, n);
        self.stumpen -= plan[0];
        self.hog[p] -= plan[1];
        self.ute[p] += plan[0] + plan[1];
        plan
    }
}
