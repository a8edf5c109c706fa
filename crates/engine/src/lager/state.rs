//! The state of a game of Läger: where the pieces are, whose turn, and how
//! the game ended. A plain `Copy` value; moves are generated straight from
//! four stone locations per player and one occupancy mask. The legal actions
//! and applying them are in the files under `state/`.

mod legal;
mod play;

use super::geometry::{COLUMNS, Geometry, MAX_SQUARES, Masks, ROWS, Square, Stone};
use super::repetition::Window;
use super::zobrist::{self, OUT, UNPLAYED};
use crate::game::Player;
use serde::{Deserialize, Serialize};

/// The most plies the ply cap allows, and so the longest repetition window.
pub const MAX_PLY_CAP: u16 = 500;
// Square indices, the location codes and the occupancy mask must not collide.
const _: () = assert!(MAX_SQUARES < UNPLAYED as usize && MAX_SQUARES <= 128);

/// The most stones a player may have on the board at once (LAG-5).
pub const MAX_ON_BOARD: usize = 3;

/// What happens to a knocked-out stone (LAG-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Captured {
    /// It leaves the game for good.
    Out,
    /// It goes back to its owner's unplayed stones.
    Return,
}

/// A game's options: board size, captured stones, ply cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LagerConfig {
    /// The board.
    pub geometry: Geometry,
    /// What happens to knocked-out stones.
    pub captured: Captured,
    /// The game is drawn after this many plies (LAG-11).
    pub max_plies: u16,
    /// Each player's first action must be placing a stone (the seed's
    /// opening, LAG-4; the default `opening=stone`, false for `opening=any`).
    pub stone_first: bool,
}

impl Default for LagerConfig {
    fn default() -> Self {
        LagerConfig {
            geometry: Geometry {
                columns: 5,
                rows: 7,
            },
            captured: Captured::Out,
            max_plies: 200,
            stone_first: true,
        }
    }
}

/// A piece: one of the stones or a blockade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A stone.
    Stone(Stone),
    /// The red blockade.
    Blockade,
}

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// Not yet placed.
    Unplayed,
    /// On the board.
    At(Square),
    /// Knocked out of the game.
    Out,
}

/// An action (LAG-4). A capture (LAG-7) is a move onto the captured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LagerAction {
    /// Place an unplayed stone on a free square of one's own camp.
    Place {
        /// Which stone.
        stone: Stone,
        /// Where.
        to: Square,
    },
    /// Move a stone; onto an occupied square it is a capture.
    Move {
        /// The stone's square.
        from: Square,
        /// Its destination.
        to: Square,
    },
    /// Place one's blockade on a free square.
    Blockade {
        /// Where.
        to: Square,
    },
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum End {
    /// The winner has two stones in the opponent's camp (LAG-9).
    Camp {
        /// Who won.
        winner: Player,
    },
    /// The loser had no action on his turn (LAG-10).
    NoAction {
        /// Who won.
        winner: Player,
    },
    /// The same position with the same player to move occurred a third time (LAG-11).
    Repetition,
    /// The ply cap was reached (LAG-11).
    PlyCap,
    /// The other player resigned.
    Resigned {
        /// Who won.
        winner: Player,
    },
}

impl End {
    /// The winner, or none for a draw.
    pub fn winner(self) -> Option<Player> {
        match self {
            End::Camp { winner } | End::NoAction { winner } | End::Resigned { winner } => {
                Some(winner)
            }
            End::Repetition | End::PlyCap => None,
        }
    }
}

/// What the last capture knocked out, for events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Knockout {
    /// Who captured.
    pub by: Player,
    /// The knocked-out piece's owner.
    pub owner: Player,
    /// The piece.
    pub piece: Piece,
    /// Where it stood.
    pub at: Square,
}

/// A Läger position with its history since the last irreversible action.
#[derive(Clone, Copy)]
pub struct LagerState {
    pub(super) config: LagerConfig,
    /// Location code of each stone: a square index, [`UNPLAYED`] or [`OUT`].
    pub(super) stones: [[u8; 4]; 2],
    /// Location code of each blockade: a square index, [`UNPLAYED`] or [`OUT`].
    pub(super) blockades: [u8; 2],
    /// Every occupied square.
    pub(super) occupied: u128,
    pub(super) side: u8,
    pub(super) plies: u16,
    /// How the game ended, as [`End::code`]; 0 while it goes on.
    pub(super) end: u8,
    pub(super) hash: u64,
    /// What the last action knocked out: the piece (a stone's index, or 4
    /// for the blockade; plus 8 when it was the second player's) and its
    /// square; [`NO_KNOCKOUT`] if it was no capture.
    pub(super) knockout: [u8; 2],
    /// The actions since the last one that cannot be undone (LAG-11).
    pub(super) window: Window,
}

pub(super) const NO_KNOCKOUT: [u8; 2] = [u8::MAX; 2];

impl End {
    /// A small nonzero code of an end.
    pub(super) fn code(self) -> u8 {
        match self {
            End::Camp { winner } => 1 + (winner & 1) as u8,
            End::NoAction { winner } => 3 + (winner & 1) as u8,
            End::Repetition => 5,
            End::PlyCap => 6,
            End::Resigned { winner } => 7 + (winner & 1) as u8,
        }
    }

    fn from_code(code: u8) -> Option<End> {
        match code {
            1 | 2 => Some(End::Camp {
                winner: (code - 1) as Player,
            }),
            3 | 4 => Some(End::NoAction {
                winner: (code - 3) as Player,
            }),
            5 => Some(End::Repetition),
            6 => Some(End::PlyCap),
            7 | 8 => Some(End::Resigned {
                winner: (code - 7) as Player,
            }),
            _ => None,
        }
    }
}

impl PartialEq for LagerState {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
            && self.stones == other.stones
            && self.blockades == other.blockades
            && self.side == other.side
            && self.plies == other.plies
            && self.end == other.end
            && self.knockout == other.knockout
            && self.window.codes() == other.window.codes()
    }
}

impl Eq for LagerState {}

impl std::fmt::Debug for LagerState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LagerState")
            .field("config", &self.config)
            .field("stones", &self.stones)
            .field("blockades", &self.blockades)
            .field("side", &self.side)
            .field("plies", &self.plies)
            .field("end", &self.end())
            .field("window", &self.window.codes())
            .finish()
    }
}

#[inline]
fn on_board(loc: u8) -> bool {
    loc < UNPLAYED
}

impl LagerState {
    /// The start: every piece unplayed, the first player to move. Sizes and
    /// the ply cap outside the options' ranges are brought into them.
    pub fn new(mut config: LagerConfig) -> Self {
        let g = &mut config.geometry;
        g.columns = g.columns.clamp(COLUMNS.0, COLUMNS.1);
        g.rows = g.rows.clamp(ROWS.0, ROWS.1);
        config.max_plies = config.max_plies.clamp(1, MAX_PLY_CAP);
        let mut s = LagerState {
            config,
            stones: [[UNPLAYED; 4]; 2],
            blockades: [UNPLAYED; 2],
            occupied: 0,
            side: 0,
            plies: 0,
            end: 0,
            hash: 0,
            knockout: NO_KNOCKOUT,
            window: Window::new(0),
        };
        s.hash = s.compute_hash();
        s.window = Window::new(s.hash);
        s
    }

    /// A position drawn as text, for tests and analysis: one line per row,
    /// the far row (the second player's camp) first, one character per
    /// square: `.` empty, `B Y K W` the first player's blue, yellow, black
    /// and white stones, `b y k w` the second player's, `R`/`r` the first /
    /// second player's blockade. Blanks are ignored. Stones listed in `out`
    /// are knocked out; other pieces not drawn are unplayed.
    pub fn from_diagram(
        config: LagerConfig,
        diagram: &str,
        side: Player,
        out: &[(Player, Stone)],
    ) -> Result<Self, String> {
        let mut s = Self::new(config);
        let g = s.geometry();
        if side > 1 {
            return Err("the player to move is 0 or 1".into());
        }
        let lines: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|l| !l.is_empty())
            .collect();
        if lines.len() != g.rows as usize {
            return Err(format!(
                "{} rows drawn, the board has {}",
                lines.len(),
                g.rows
            ));
        }
        s.side = side as u8;
        for (i, line) in lines.iter().enumerate() {
            if line.len() != g.columns as usize {
                return Err(format!(
                    "row {} has {} squares",
                    g.rows as usize - i,
                    line.len()
                ));
            }
            let row = g.rows - 1 - i as u8;
            for (col, &ch) in line.iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                let player = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let idx = g.index(Square::new(col as u8, row));
                let slot = match ch.to_ascii_uppercase() {
                    'R' => &mut s.blockades[player],
                    c => {
                        let stone = Stone::from_word(&c.to_string())
                            .filter(|_| "BYKW".contains(c))
                            .ok_or_else(|| format!("`{ch}` is not a piece"))?;
                        &mut s.stones[player][stone.index()]
                    }
                };
                if *slot != UNPLAYED {
                    return Err(format!("`{ch}` drawn twice"));
                }
                *slot = idx;
                s.occupied |= 1u128 << idx;
            }
        }
        for &(player, stone) in out {
            if player > 1 || s.stones[player][stone.index()] != UNPLAYED {
                return Err(format!("{} is both drawn and out", stone.name()));
            }
            s.stones[player][stone.index()] = OUT;
        }
        for p in 0..2 {
            if s.stones[p].iter().filter(|&&l| on_board(l)).count() > MAX_ON_BOARD {
                return Err("at most 3 stones per player on the board".into());
            }
            if s.stones_in_camp(p, 1 - p) >= 2 {
                return Err("a player already has two stones in the opponent's camp".into());
            }
        }
        s.hash = s.compute_hash();
        s.window = Window::new(s.hash);
        if !s.has_action(side) {
            s.end = End::NoAction { winner: 1 - side }.code();
        }
        Ok(s)
    }

    /// The options this game is played with.
    pub fn config(&self) -> LagerConfig {
        self.config
    }

    /// The board's size.
    pub fn geometry(&self) -> Geometry {
        self.config.geometry
    }

    /// The player to move (or who would move, when over).
    pub fn mover(&self) -> Player {
        self.side as Player
    }

    /// Plies played.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// How the game ended, if it has.
    #[inline]
    pub fn end(&self) -> Option<End> {
        End::from_code(self.end)
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end != 0
    }

    /// What the last action knocked out, if it was a capture.
    pub fn last_knockout(&self) -> Option<Knockout> {
        let [piece, at] = self.knockout;
        if self.knockout == NO_KNOCKOUT {
            return None;
        }
        Some(Knockout {
            by: 1 - self.side as Player,
            owner: (piece >> 3) as Player & 1,
            piece: match piece & 7 {
                k @ 0..4 => Piece::Stone(Stone::ALL[k as usize]),
                _ => Piece::Blockade,
            },
            at: self.geometry().square(at),
        })
    }

    /// The board's masks.
    #[inline]
    pub(super) fn masks(&self) -> &'static Masks {
        Masks::of(self.config.geometry)
    }

    /// A Zobrist hash of the position: every piece's place and the player to
    /// move (not the ply count or the repetition history). Kept up to date
    /// incrementally, so this is free.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch (equal to [`Self::zobrist`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == 1 { zobrist::SIDE } else { 0 };
        for p in 0..2 {
            for k in 0..4 {
                h ^= zobrist::stone(p, k, self.stones[p][k]);
            }
            h ^= zobrist::blockade(p, self.blockades[p]);
        }
        h
    }

    fn location(&self, code: u8) -> Location {
        match code {
            UNPLAYED => Location::Unplayed,
            OUT => Location::Out,
            i => Location::At(self.geometry().square(i)),
        }
    }

    /// Where one of a player's stones is.
    pub fn stone_location(&self, player: Player, stone: Stone) -> Location {
        self.location(self.stones[player][stone.index()])
    }

    /// Where a player's blockade is (`Out` once knocked out).
    pub fn blockade_location(&self, player: Player) -> Location {
        self.location(self.blockades[player])
    }

    /// The piece on a square and its owner.
    pub fn piece_at(&self, sq: Square) -> Option<(Player, Piece)> {
        let g = self.geometry();
        if !g.contains(sq) {
            return None;
        }
        self.piece_at_index(g.index(sq))
    }

    pub(super) fn piece_at_index(&self, idx: u8) -> Option<(Player, Piece)> {
        if self.occupied >> idx & 1 == 0 {
            return None;
        }
        for p in 0..2 {
            if let Some(k) = self.stones[p].iter().position(|&l| l == idx) {
                return Some((p, Piece::Stone(Stone::ALL[k])));
            }
            if self.blockades[p] == idx {
                return Some((p, Piece::Blockade));
            }
        }
        None
    }

    /// Number of a player's stones on the board.
    pub fn stones_on_board(&self, player: Player) -> usize {
        self.stones[player].iter().filter(|&&l| on_board(l)).count()
    }

    /// Number of `player`'s stones in the camp of `camp_owner`.
    pub fn stones_in_camp(&self, player: Player, camp_owner: Player) -> usize {
        let camp = self.masks().camp[camp_owner];
        self.stones[player]
            .iter()
            .filter(|&&l| on_board(l) && camp >> l & 1 == 1)
            .count()
    }

    /// The squares as a mask of a square list, for tests and drawing.
    pub fn mask_squares(&self, mask: u128) -> Vec<Square> {
        let g = self.geometry();
        (0..g.squares() as u8)
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| g.square(i))
            .collect()
    }
}
