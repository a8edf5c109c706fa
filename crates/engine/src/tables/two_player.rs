//! A two-player tables game (Tawla, backgammon): the turn cycle of opening
//! roll, cube decision, roll and play, with the doubling cube and match play
//! (Crawford rule) shared; the board and its rules come from a variant.

use super::dice::ROLLS;
use super::movegen::{DiceRule, StepBoard, StepList, with_play_gen};
use super::notation::{MarkedPlay, mark_hits};
use super::play::Play;
use crate::error::PositionError;
use crate::game::Player;
use crate::options::{OptionKind, OptionSpec, Options};
use crate::outcome::Ending;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

mod abs_board;
mod game_state;
mod gnubg_id;
mod notation;
mod position;
mod view;

pub use abs_board::AbsBoard;
pub use view::TablesView;

/// The highest cube value, as a power of two (64).
pub const MAX_CUBE_LOG2: u8 = 6;

/// How a game ended, seen from the player who just moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The mover wins this many points (before the cube), in this way.
    MoverWins(u8, Ending),
    /// Nobody wins, for this reason.
    Draw(Ending),
}

/// The most plies, chance and cube actions included, of one game of
/// tables: far beyond the longest random game measured.
pub const MAX_PLIES_PER_GAME: u64 = 20_000;

/// The rules that make one tables game: its board and how a game ends.
pub trait TablesVariant:
    Copy + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The board, always kept in the frame of the player whose turn it is.
    type Board: StepBoard + Debug + PartialEq + Eq + Hash + Send + Sync;
    /// The game's id.
    const ID: &'static str;
    /// How the dice must be used.
    const DICE_RULE: DiceRule = DiceRule::Maximize;
    /// Whether the two dice of the opening roll are the first player's first
    /// roll (backgammon), and every game of a match begins with an opening
    /// roll. When false (Tawla) the opening roll only decides who starts,
    /// and in a match the winner of a game starts the next.
    const OPENING_DICE_PLAYED: bool = false;
    /// Whether a game can be won as a backgammon (three times the stake);
    /// when not, a network's backgammon outputs are read as 0.
    const BACKGAMMONS: bool = false;
    /// The start position (in either player's frame: it is symmetric).
    fn start_board(&self) -> Self::Board;
    /// Turns the board to the other player's frame.
    fn flip(board: &mut Self::Board);
    /// Whether the mover's play (board in the mover's frame) ended the game.
    fn game_end(&self, board: &Self::Board) -> Option<GameEnd>;
    /// The board in absolute terms, given in the first player's frame.
    fn absolute(board: &Self::Board) -> AbsBoard;
    /// How good the board looks for the player to move, -1..1.
    fn heuristic(&self, board: &Self::Board) -> f64;
    /// The game's options (the variant's own, the cube and match).
    fn option_specs() -> &'static [OptionSpec];
    /// The variant's rules from the game's options.
    fn from_options(options: &Options) -> Self;
    /// The variant's own options that differ from their defaults, as
    /// `key=value` (for the position notation).
    fn option_fields(&self) -> Vec<String> {
        Vec::new()
    }
    /// A board from its absolute drawing (in the first player's frame),
    /// checked: every checker count, no point shared, nothing the variant
    /// does not have (a bar, pinned checkers).
    fn board_from_absolute(abs: &AbsBoard) -> std::result::Result<Self::Board, PositionError>;
    /// Whether a typed step `(from, to)` may be played with `die` in principle
    /// (used to guess the dice of a play that matches no legal play).
    fn step_die(from: u8, to: u8) -> u8 {
        from.saturating_sub(to).clamp(1, 6)
    }
}

/// Options every two-player tables game has: the cube and match play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TablesOptions {
    /// Whether the doubling cube is in play.
    pub cube: bool,
    /// Points to win the match; 0 for a single game.
    pub match_to: u8,
}

impl TablesOptions {
    /// The option specs for the cube and match play.
    pub const SPECS: [OptionSpec; 2] = [
        OptionSpec {
            key: "cube",
            default: "off",
            kind: OptionKind::Choice {
                values: &["off", "on"],
            },
            help: "doubling cube: double before rolling, take or drop; up to 64",
        },
        OptionSpec {
            key: "match",
            default: "0",
            kind: OptionKind::Int { min: 0, max: 25 },
            help: "play a match to this many points (0: a single game); Crawford rule with the cube",
        },
    ];

    /// Reads the cube and match options.
    pub fn from_options(options: &Options) -> Self {
        TablesOptions {
            cube: options.get("cube") == "on",
            match_to: options.int("match").clamp(0, 25) as u8,
        }
    }

    /// These options where they differ from the defaults, as `key=value`.
    pub fn option_fields(&self) -> Vec<String> {
        let mut fields = Vec::new();
        if self.cube {
            fields.push("cube=on".to_string());
        }
        if self.match_to > 0 {
            fields.push(format!("match={}", self.match_to));
        }
        fields
    }
}

/// Where a two-player tables game is in its turn cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "phase", content = "dice")]
pub enum Phase {
    /// Chance: one die each to decide who starts.
    Opening,
    /// The player to move may double before rolling.
    CubeDecision,
    /// The opponent answers a double.
    CubeResponse,
    /// Chance: the player to move rolls two dice.
    Rolling,
    /// The player to move plays these dice (higher first).
    Moving([u8; 2]),
    /// The game (or match) is over.
    Over,
}

/// An action of a two-player tables game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TablesAction {
    /// Chance: the opening roll, first player's die then second's (never equal).
    Opening([u8; 2]),
    /// Chance: the roll of two dice, higher first.
    Dice([u8; 2]),
    /// The checker steps of a turn.
    Play(Play),
    /// Roll without doubling.
    Roll,
    /// Offer a double.
    Double,
    /// Accept a double.
    Take,
    /// Refuse a double and lose the game at the current stake.
    Drop,
}

/// The state of a two-player tables game; a small `Copy` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TablesState<V: TablesVariant> {
    board: V::Board,
    variant: V,
    options: TablesOptions,
    side: u8,
    phase: Phase,
    cube_log2: u8,
    /// 0 or 1: the owner; 2: the cube is in the middle.
    cube_owner: u8,
    score: [u8; 2],
    /// 0: no Crawford game yet; 1: this game is the Crawford game; 2: after it.
    crawford: u8,
    /// Last game's winner (2: draw), points and ending, once a game has ended.
    last_game: Option<(u8, u8, Ending)>,
}

impl<V: TablesVariant> TablesState<V> {
    /// A new game (or match) before the opening roll.
    pub fn new(variant: V, options: TablesOptions) -> Self {
        TablesState {
            board: variant.start_board(),
            variant,
            options,
            side: 0,
            phase: Phase::Opening,
            cube_log2: 0,
            cube_owner: 2,
            score: [0, 0],
            crawford: 0,
            last_game: None,
        }
    }

    /// The board in the frame of the player to move.
    pub fn board(&self) -> &V::Board {
        &self.board
    }

    /// The board in absolute terms (the first player's numbering).
    pub fn absolute(&self) -> AbsBoard {
        self.absolute_of(&self.board)
    }

    /// `board`, in the frame of the player to move, in absolute terms.
    fn absolute_of(&self, board: &V::Board) -> AbsBoard {
        let mut board = *board;
        if self.side == 1 {
            V::flip(&mut board);
        }
        V::absolute(&board)
    }

    /// `board`, in the frame of the player to move, as the observation
    /// shows it.
    fn absolute_json(&self, board: &V::Board) -> serde_json::Value {
        serde_json::to_value(self.absolute_of(board)).unwrap_or_default()
    }

    /// The phase of the turn cycle.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player whose turn it is (or who last moved, when over).
    pub fn mover(&self) -> Player {
        self.side as Player
    }

    /// The variant's rules.
    pub fn variant(&self) -> &V {
        &self.variant
    }

    /// The cube and match options.
    pub fn options(&self) -> TablesOptions {
        self.options
    }

    /// The cube's value.
    pub fn cube_value(&self) -> u32 {
        1 << self.cube_log2
    }

    /// Match score per player.
    pub fn score(&self) -> [u8; 2] {
        self.score
    }

    /// Last finished game's winner (None for a draw) and points.
    pub fn last_game(&self) -> Option<(Option<Player>, u8)> {
        self.last_game
            .map(|(w, p, _)| (if w == 2 { None } else { Some(w as Player) }, p))
    }

    /// How the last finished game ended.
    pub fn last_ending(&self) -> Option<Ending> {
        self.last_game.map(|(_, _, e)| e)
    }

    /// A state with this board and the player to move about to roll; for
    /// tests and analysis. `board` is in `side`'s frame.
    pub fn with_position(
        variant: V,
        options: TablesOptions,
        board: V::Board,
        side: Player,
    ) -> Self {
        let mut s = Self::new(variant, options);
        s.board = board;
        s.side = side as u8;
        s.phase = Phase::Rolling;
        s
    }

    /// This state with the player to move about to play `dice`.
    pub fn with_dice(mut self, dice: [u8; 2]) -> Self {
        self.phase = Phase::Moving([dice[0].max(dice[1]), dice[0].min(dice[1])]);
        self
    }

    fn may_double(&self) -> bool {
        self.options.cube
            && self.cube_log2 < MAX_CUBE_LOG2
            && (self.cube_owner == 2 || self.cube_owner == self.side)
            && self.crawford != 1
    }

    fn begin_turn(&mut self) {
        self.phase = if self.may_double() {
            Phase::CubeDecision
        } else {
            Phase::Rolling
        };
    }

    fn pass_turn(&mut self) {
        V::flip(&mut self.board);
        self.side ^= 1;
        self.begin_turn();
    }

    fn face_side(&mut self, player: u8) {
        if self.side != player {
            V::flip(&mut self.board);
            self.side = player;
        }
    }

    /// Dice as the list of dice to play.
    fn dice_list(dice: [u8; 2], buf: &mut [u8; 4]) -> &[u8] {
        if dice[0] == dice[1] {
            *buf = [dice[0]; 4];
            &buf[..4]
        } else {
            buf[0] = dice[0];
            buf[1] = dice[1];
            &buf[..2]
        }
    }

    /// Calls `f` with the distinct legal plays of `dice` for the player to move.
    pub fn with_plays<T>(
        &self,
        dice: [u8; 2],
        f: impl FnOnce(&mut dyn Iterator<Item = Play>) -> T,
    ) -> T {
        with_play_gen(|g| {
            let mut buf = [0; 4];
            g.generate(&self.board, Self::dice_list(dice, &mut buf), V::DICE_RULE);
            f(&mut g.plays())
        })
    }

    /// `play` with the steps that hit marked (a blot sent to the bar, or
    /// pinned in Tawla); marking stops at a step that is not possible.
    pub fn marked(&self, play: Play) -> MarkedPlay {
        MarkedPlay {
            play,
            hits: self.hits_of(play).0,
        }
    }

    /// Which steps of `play` hit, and whether every step was possible.
    fn hits_of(&self, play: Play) -> ([bool; 4], bool) {
        mark_hits(&self.board, play.steps(), |board, s| {
            if !(1..=6).contains(&s.die) {
                return None;
            }
            let mut steps = StepList::default();
            board.steps(s.die, &mut steps);
            if !steps.as_slice().contains(&s) {
                return None;
            }
            let hit = (1..=24).contains(&s.to) && V::absolute(board).top[s.to as usize - 1] < 0;
            board.apply_step(s);
            Some(hit)
        })
    }

    fn end_game(&mut self, winner: Option<u8>, points: u8, ending: Ending) {
        let (w, pts) = match winner {
            Some(w) => (w, points.saturating_mul(1 << self.cube_log2)),
            None => (2, 0),
        };
        self.last_game = Some((w, pts, ending));
        if self.options.match_to == 0 {
            self.phase = Phase::Over;
            return;
        }
        let Some(w) = winner else {
            self.start_next_game(None);
            return;
        };
        self.score[w as usize] = self.score[w as usize].saturating_add(pts);
        if self.score[w as usize] >= self.options.match_to {
            self.phase = Phase::Over;
            return;
        }
        self.crawford = match self.crawford {
            0 if self.score.contains(&(self.options.match_to - 1)) => 1,
            1 => 2,
            c => c,
        };
        self.start_next_game(Some(w));
    }

    fn start_next_game(&mut self, starter: Option<u8>) {
        self.board = self.variant.start_board();
        self.side = 0;
        self.cube_log2 = 0;
        self.cube_owner = 2;
        match starter.filter(|_| !V::OPENING_DICE_PLAYED) {
            Some(w) => {
                self.face_side(w);
                self.begin_turn();
            }
            None => self.phase = Phase::Opening,
        }
    }

    fn apply_play(&mut self, play: Play) {
        for &step in play.steps() {
            self.board.apply_step(step);
        }
        match self.variant.game_end(&self.board) {
            Some(GameEnd::MoverWins(points, ending)) => {
                self.end_game(Some(self.side), points, ending)
            }
            Some(GameEnd::Draw(ending)) => self.end_game(None, 0, ending),
            None if play.is_empty() && self.is_dead() => {
                self.end_game(None, 0, Ending::DeadPosition)
            }
            None => self.pass_turn(),
        }
    }

    /// Whether neither player can ever move again (no roll gives either a
    /// play): the position can never change, so the game is drawn. Tawla
    /// without the mother rule can reach this (both last checkers pinned at
    /// home, everything else on the last point).
    fn is_dead(&self) -> bool {
        let mut other = *self;
        V::flip(&mut other.board);
        [self, &other].iter().all(|s| {
            ROLLS.iter().all(|&(dice, _)| {
                s.with_plays(dice, |plays| plays.next().is_some_and(|p| p.is_empty()))
            })
        })
    }
}
