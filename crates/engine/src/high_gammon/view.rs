//! What everybody sees of a game (there is nothing hidden): the JSON form
//! of observations and of the whole state.

use super::geometry::{COLOURS, FIELDS, LETTERS, goal_labels, start_label};
use super::rules::{Doubles, Scoring};
use super::state::{HgState, Phase};
use crate::game::{GameState, Player, Turn};
use serde::Serialize;

/// One player as everyone sees him.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// Colour name (Blue, Red, Yellow, Green).
    pub colour: &'static str,
    /// Colour letter used on the board and in notation.
    pub letter: char,
    /// Seat 0..3 on the square board.
    pub seat: u8,
    /// Start field (1..28).
    pub start: usize,
    /// Goal fields (1..28), third-last first.
    pub goal: [usize; 3],
    /// Stones on the board.
    pub on_board: u8,
    /// Stones on the bar.
    pub bar: u8,
    /// Stones borne off.
    pub off: u8,
    /// Tric-Trac stones not yet entered.
    pub waiting: u8,
    /// Pips still to travel.
    pub pips: u32,
    /// Whether still in the game (not dropped out).
    pub active: bool,
    /// The stake at which he dropped out (cube scoring).
    pub dropped_at: Option<u32>,
    /// Stones on the board short of his goal points (what HG-16 counts).
    pub short_of_goal: u32,
    /// What he pays the winner, once the game is over (0 for the winner).
    pub pays: Option<u32>,
}

/// The whole state of a game, in absolute terms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HgView {
    /// The game's id.
    pub game: &'static str,
    /// Whose turn: a player, chance, or over.
    pub turn: Turn,
    /// The phase (and dice, responder, rolling players).
    #[serde(flatten)]
    pub phase: Phase,
    /// The player to move (the doubler while a double is answered).
    pub mover: Player,
    /// What doubles bring.
    pub doubles: Doubles,
    /// How the game is scored (High-O Gammon).
    pub scoring: Option<Scoring>,
    /// Per player.
    pub players: Vec<PlayerView>,
    /// `fields[r][p]`: player p's stones on field r + 1.
    pub fields: [[u8; 4]; FIELDS],
    /// The cube's value (the stake), with cube scoring.
    pub cube: Option<u32>,
    /// Whether equal numbers in the opening roll doubled the stake.
    pub opening_doubled: bool,
    /// The dice of the last opening round, per player (0: did not roll).
    pub opening: Vec<u8>,
    /// The winner, once over.
    pub winner: Option<Player>,
    /// What each player wins (positive) or pays (negative), once over.
    pub result: Option<Vec<f64>>,
}

impl HgView {
    /// The view of a state.
    pub fn of(s: &HgState) -> Self {
        let rules = s.rules();
        let n = rules.players as usize;
        let b = s.board();
        let players = (0..n)
            .map(|p| {
                let seat = s.seat(p);
                PlayerView {
                    colour: COLOURS[seat as usize],
                    letter: LETTERS[seat as usize],
                    seat,
                    start: start_label(seat),
                    goal: goal_labels(seat),
                    on_board: b.on_ring(p),
                    bar: b.bar[p],
                    off: b.off[p],
                    waiting: b.pool[p],
                    pips: s.pips(p),
                    active: s.is_active(p),
                    dropped_at: s.dropped_at(p),
                    short_of_goal: s.short_of_goal(p),
                    pays: s.winner().map(|_| s.payments()[p]),
                }
            })
            .collect();
        HgView {
            game: if rules.tric {
                "tric-trac"
            } else {
                "high-gammon"
            },
            turn: s.turn(),
            phase: s.phase(),
            mover: s.mover(),
            doubles: rules.doubles,
            scoring: (!rules.tric).then_some(rules.scoring),
            players,
            fields: b.cnt,
            cube: (!rules.tric && rules.scoring == Scoring::Cube).then(|| s.cube_value()),
            opening_doubled: s.opening_doubled(),
            opening: s.opening_dice()[..n].to_vec(),
            winner: s.winner(),
            result: s.winner().map(|_| s.returns().as_slice().to_vec()),
        }
    }
}
