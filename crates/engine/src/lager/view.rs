//! What a viewer sees of a Läger state (everything: no hidden information),
//! and the state's JSON form.

use super::geometry::{Square, Stone};
use super::state::{Captured, End, LagerState, Location, Piece};
use crate::game::{GameState, Turn};
use serde::Serialize;

/// The seats' names: the first player's camp is row 1 (south).
pub const PLAYER_NAMES: [&str; 2] = ["South", "North"];

/// The letter of a piece on the board: upper case for the first player.
pub fn piece_letter(player: usize, piece: Piece) -> char {
    let c = match piece {
        Piece::Stone(s) => s.letter(),
        Piece::Blockade => 'R',
    };
    if player == 0 {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

fn location_text(loc: Location) -> String {
    match loc {
        Location::Unplayed => "unplayed".into(),
        Location::At(sq) => sq.to_string(),
        Location::Out => "out".into(),
    }
}

/// One player's pieces: a square, `unplayed` or `out`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// "South" or "North".
    pub name: &'static str,
    /// The blue stone.
    pub blue: String,
    /// The yellow stone.
    pub yellow: String,
    /// The black stone.
    pub black: String,
    /// The white stone.
    pub white: String,
    /// The blockade (`out` once knocked out).
    pub blockade: String,
    /// Stones in the opponent's camp (two win).
    pub in_opponent_camp: usize,
}

/// A Läger state as seen by anyone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LagerView {
    /// The game's id.
    pub game: &'static str,
    /// Whose turn, or over.
    pub turn: Turn,
    /// Board width.
    pub columns: u8,
    /// Board length.
    pub rows: u8,
    /// What happens to knocked-out stones.
    pub captured: Captured,
    /// The ply cap.
    pub max_plies: u16,
    /// Whether each player's first action must place a stone.
    pub stone_first: bool,
    /// Plies played.
    pub plies: u16,
    /// The board, far row (North's camp) first: `.` empty, `BYKW` South's
    /// stones, `bykw` North's, `R`/`r` the blockades.
    pub board: Vec<String>,
    /// Both players' pieces.
    pub players: [PlayerView; 2],
    /// Squares the player to move threatens (LAG-6).
    pub threatened: Vec<Square>,
    /// Pieces the player to move can knock out now (LAG-7).
    pub capturable: Vec<Square>,
    /// How often this position has occurred with this player to move (LAG-11).
    pub occurrences: usize,
    /// How the game ended.
    pub end: Option<End>,
}

impl LagerView {
    /// The view of a state.
    pub fn of(s: &LagerState) -> Self {
        let g = s.geometry();
        let board = (0..g.rows)
            .rev()
            .map(|row| {
                (0..g.columns)
                    .map(|col| match s.piece_at(Square::new(col, row)) {
                        Some((p, piece)) => piece_letter(p, piece),
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        let player = |p: usize| PlayerView {
            name: PLAYER_NAMES[p],
            blue: location_text(s.stone_location(p, Stone::Blue)),
            yellow: location_text(s.stone_location(p, Stone::Yellow)),
            black: location_text(s.stone_location(p, Stone::Black)),
            white: location_text(s.stone_location(p, Stone::White)),
            blockade: location_text(s.blockade_location(p)),
            in_opponent_camp: s.stones_in_camp(p, 1 - p),
        };
        let (threatened, capturable) = if s.turn() == Turn::Over {
            (Vec::new(), Vec::new())
        } else {
            let t = s.threatened(s.mover());
            (
                s.mask_squares(t),
                s.mask_squares(t & s.capturable(s.mover())),
            )
        };
        let c = s.config();
        LagerView {
            game: "lager",
            turn: s.turn(),
            columns: g.columns,
            rows: g.rows,
            captured: c.captured,
            max_plies: c.max_plies,
            stone_first: c.stone_first,
            plies: s.plies(),
            board,
            players: [player(0), player(1)],
            threatened,
            capturable,
            occurrences: s.occurrences(),
            end: s.end(),
        }
    }
}
