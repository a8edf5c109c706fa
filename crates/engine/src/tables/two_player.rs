//! A two-player tables game (Tawla, backgammon): the turn cycle of opening
//! roll, cube decision, roll and play, with the doubling cube and match play
//! (Crawford rule) shared; the board and its rules come from a variant.

use super::dice::{self, OPENING_P, OPENING_ROLLS, ROLLS};
use super::movegen::{DiceRule, PlayGen, StepBoard, StepList};
use super::notation::{
    MarkedPlay, mark_hits, parse_point, parse_typed, point_text, resolve_typed, same_steps_in_order,
};
use super::play::{Play, Step};
use super::render::render_board;
use super::step_graph::{StepsView, play_boards, step_graph};
use crate::error::{Error, PositionError, Result};
use crate::game::{
    CubeAction, GameState, Heuristic, Notation, Player, Returns, Turn, Viewer, terminal_value,
};
use crate::options::{OptionKind, OptionSpec, Options};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt::Debug;
use std::hash::Hash;

mod abs_board;
mod gnubg_id;
mod position;

pub use abs_board::AbsBoard;

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

thread_local! {
    static PLAY_GEN: RefCell<PlayGen> = RefCell::new(PlayGen::default());
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
        PLAY_GEN.with(|g| {
            let mut g = g.borrow_mut();
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

impl<V: TablesVariant> GameState for TablesState<V> {
    type Action = TablesAction;
    type Observation = TablesView;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Opening | Phase::Rolling => Turn::Chance,
            Phase::CubeResponse => Turn::Player((self.side ^ 1) as Player),
            Phase::CubeDecision | Phase::Moving(_) => Turn::Player(self.side as Player),
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<TablesAction>) {
        out.clear();
        match self.phase {
            Phase::CubeDecision => out.extend([TablesAction::Roll, TablesAction::Double]),
            Phase::CubeResponse => out.extend([TablesAction::Take, TablesAction::Drop]),
            Phase::Moving(dice) => {
                self.with_plays(dice, |plays| out.extend(plays.map(TablesAction::Play)))
            }
            Phase::Opening | Phase::Rolling | Phase::Over => {}
        }
    }

    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<TablesAction>,
    ) -> TablesAction {
        let Phase::Moving(dice) = self.phase else {
            self.legal_actions(scratch);
            return scratch[rng.random_range(0..scratch.len())];
        };
        PLAY_GEN.with(|g| {
            let mut g = g.borrow_mut();
            let mut buf = [0; 4];
            g.generate(&self.board, Self::dice_list(dice, &mut buf), V::DICE_RULE);
            TablesAction::Play(g.play(rng.random_range(0..g.len())))
        })
    }

    fn chance_outcomes(&self, out: &mut Vec<(TablesAction, f64)>) {
        out.clear();
        match self.phase {
            Phase::Opening => out.extend(
                OPENING_ROLLS
                    .iter()
                    .map(|&r| (TablesAction::Opening(r), OPENING_P)),
            ),
            Phase::Rolling => out.extend(ROLLS.iter().map(|&(r, p)| (TablesAction::Dice(r), p))),
            _ => {}
        }
    }

    fn sample_chance<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> TablesAction {
        match self.phase {
            Phase::Opening => TablesAction::Opening(dice::opening_roll(rng)),
            _ => TablesAction::Dice(dice::roll(rng)),
        }
    }

    fn apply(&mut self, action: TablesAction) {
        match action {
            TablesAction::Opening([a, b]) => {
                self.face_side(if a > b { 0 } else { 1 });
                if V::OPENING_DICE_PLAYED {
                    self.phase = Phase::Moving([a.max(b), a.min(b)]);
                } else {
                    self.begin_turn();
                }
            }
            TablesAction::Dice(dice) => self.phase = Phase::Moving(dice),
            TablesAction::Roll => self.phase = Phase::Rolling,
            TablesAction::Double => self.phase = Phase::CubeResponse,
            TablesAction::Take => {
                self.cube_log2 += 1;
                self.cube_owner = self.side ^ 1;
                self.phase = Phase::Rolling;
            }
            TablesAction::Drop => {
                let doubler = self.side;
                self.end_game(Some(doubler), 1, Ending::Dropped);
            }
            TablesAction::Play(play) => self.apply_play(play),
        }
    }

    fn max_game_length(&self) -> u64 {
        // Every game of a match gives the winner at least a point, so a
        // match to n points has at most 2n - 1 games.
        let games = (2 * self.options.match_to as u64).max(2) - 1;
        games * MAX_PLIES_PER_GAME
    }

    fn returns(&self) -> Returns {
        if self.phase != Phase::Over {
            return Returns::zeros(2);
        }
        match (self.options.match_to, self.last_game) {
            (0, Some((w, pts, _))) if w < 2 => Returns::two_player(w as Player, pts as f64),
            (m, _) if m > 0 => {
                let winner = if self.score[0] >= m { 0 } else { 1 };
                Returns::two_player(winner, 1.0)
            }
            _ => Returns::zeros(2),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let m = self.options.match_to;
        if m > 0 {
            let winner = if self.score[0] >= m { 0 } else { 1 };
            return Some(Outcome::winner(2, winner, Ending::Match));
        }
        let (w, _, ending) = self.last_game?;
        Some(match w {
            0 | 1 => Outcome::winner(2, w as Player, ending),
            _ => Outcome::draw(2, ending),
        })
    }

    fn observation(&self, _viewer: Viewer) -> TablesView {
        TablesView::of(self)
    }

    fn resign(&mut self, player: Player, kind: Resignation) -> Result<()> {
        if self.phase == Phase::Over {
            return Err(Error::GameOver);
        }
        if player > 1 {
            return Err(not_offered(kind, "a tables game has players 0 and 1"));
        }
        if kind == Resignation::Backgammon && !V::BACKGAMMONS {
            return Err(not_offered(kind, "this game scores no backgammons"));
        }
        let winner = (player ^ 1) as u8;
        if kind == Resignation::Match && self.options.match_to > 0 {
            let missing = self.options.match_to - self.score[winner as usize];
            self.last_game = Some((winner, missing, Ending::Resigned));
            self.score[winner as usize] = self.options.match_to;
            self.phase = Phase::Over;
            return Ok(());
        }
        self.end_game(Some(winner), kind.tables_points(), Ending::Resigned);
        Ok(())
    }

    fn cube_action(&self, action: TablesAction) -> Option<CubeAction> {
        match action {
            TablesAction::Roll => Some(CubeAction::NoDouble),
            TablesAction::Double => Some(CubeAction::Double),
            TablesAction::Take => Some(CubeAction::Take),
            TablesAction::Drop => Some(CubeAction::Drop),
            _ => None,
        }
    }
}

/// Everything about a two-player tables state, in absolute terms (both
/// players see all of it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TablesView {
    /// The game's id.
    pub game: &'static str,
    /// Whose turn: a player, chance, or over.
    pub turn: Turn,
    /// The phase and, when moving, the dice.
    #[serde(flatten)]
    pub phase: Phase,
    /// When moving, the dice to play, one per step (a double's four times).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice_to_play: Option<Vec<u8>>,
    /// The board; index i is the first player's point i+1.
    pub board: AbsBoard,
    /// The cube's value.
    pub cube: u32,
    /// The cube's owner, or none while it is in the middle.
    pub cube_owner: Option<Player>,
    /// Whether the cube is in play.
    pub cube_enabled: bool,
    /// Points to win the match (0: single game).
    pub match_to: u8,
    /// Match score.
    pub score: [u8; 2],
    /// Whether this is the Crawford game.
    pub crawford_game: bool,
    /// Last finished game's winner (none: draw) and points.
    pub last_game: Option<(Option<Player>, u8)>,
    /// How the last finished game ended (gammon, the mother pinned, ...).
    pub last_ending: Option<Ending>,
}

impl TablesView {
    fn of<V: TablesVariant>(s: &TablesState<V>) -> Self {
        TablesView {
            game: V::ID,
            turn: s.turn(),
            phase: s.phase,
            dice_to_play: match s.phase {
                Phase::Moving(dice) => {
                    Some(TablesState::<V>::dice_list(dice, &mut [0; 4]).to_vec())
                }
                _ => None,
            },
            board: s.absolute(),
            cube: s.cube_value(),
            cube_owner: (s.cube_owner < 2).then_some(s.cube_owner as Player),
            cube_enabled: s.options.cube,
            match_to: s.options.match_to,
            score: s.score,
            crawford_game: s.crawford == 1,
            last_game: s.last_game(),
            last_ending: s.last_ending(),
        }
    }
}

impl<V: TablesVariant> Serialize for TablesState<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::position::WithPosition {
            view: TablesView::of(self),
            position: self.to_string(),
        }
        .serialize(s)
    }
}

fn parse_dice(text: &str) -> Option<[u8; 2]> {
    let (a, b) = text.split_once(['-', ' ', ','])?;
    let a: u8 = a.trim().parse().ok()?;
    let b: u8 = b.trim().parse().ok()?;
    ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some([a, b])
}

impl<V: TablesVariant> Notation for TablesState<V> {
    /// At a cube decision: the roll with `always`; otherwise the roll only
    /// where the cube is dead for the player to move: in a match, his score
    /// plus the cube's value already reaches the match's length, so winning
    /// this game at the present stake wins the match and doubling cannot
    /// gain (it would only give the opponent the cube). The Crawford game,
    /// the cube off, the opponent's cube and the highest cube never reach a
    /// cube decision ([`Phase::Rolling`] directly).
    fn auto_roll(&self, always: bool) -> Option<TablesAction> {
        if self.phase != Phase::CubeDecision {
            return None;
        }
        let dead = self.options.match_to > 0
            && u32::from(self.score[self.side as usize]) + self.cube_value()
                >= u32::from(self.options.match_to);
        (always || dead).then_some(TablesAction::Roll)
    }

    fn play_steps(&self) -> Option<StepsView> {
        let Phase::Moving(dice) = self.phase else {
            return None;
        };
        let plays: Vec<Play> = self.with_plays(dice, |plays| plays.collect());
        let mut buf = [0; 4];
        let graph = step_graph(
            &self.board,
            Self::dice_list(dice, &mut buf),
            V::DICE_RULE,
            &plays,
        );
        Some(graph.view(|b| self.absolute_json(b), |code| code))
    }

    fn play_boards(&self, action: TablesAction) -> Option<Vec<serde_json::Value>> {
        let TablesAction::Play(play) = self.canonical_action(action) else {
            return None;
        };
        if !matches!(self.phase, Phase::Moving(_)) || !self.is_legal(TablesAction::Play(play)) {
            return None;
        }
        Some(play_boards(
            self.board,
            play.steps(),
            |b, step| b.apply_step(step),
            |b| self.absolute_json(b),
        ))
    }

    fn format_action(&self, action: TablesAction) -> String {
        match action {
            TablesAction::Opening([a, b]) => format!("open {a}-{b}"),
            TablesAction::Dice([a, b]) => format!("{a}-{b}"),
            TablesAction::Play(play) => self.marked(play).text(point_text),
            TablesAction::Roll => "roll".into(),
            TablesAction::Double => "double".into(),
            TablesAction::Take => "take".into(),
            TablesAction::Drop => "drop".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<TablesAction> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |reason: String| Error::BadNotation {
            text: text.into(),
            reason,
        };
        match t.as_str() {
            "roll" | "r" => return Ok(TablesAction::Roll),
            "double" | "d" => return Ok(TablesAction::Double),
            "take" | "t" | "accept" => return Ok(TablesAction::Take),
            "drop" | "pass cube" | "refuse" => return Ok(TablesAction::Drop),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("open") {
            let [a, b] = parse_dice(rest.trim())
                .ok_or_else(|| bad("an opening roll is written `open 5-3`".into()))?;
            return Ok(TablesAction::Opening([a, b]));
        }
        if let Some([a, b]) = parse_dice(&t).filter(|_| !t.contains('/')) {
            return Ok(TablesAction::Dice([a.max(b), a.min(b)]));
        }
        let typed = parse_typed(&t, parse_point, "24/18").map_err(bad)?;
        // Resolve against the legal plays: the same moves in any order, or
        // the same checker movements with moves of one checker merged, the
        // `*` marks agreeing with the hits.
        if let Phase::Moving(dice) = self.phase {
            let plays: Vec<Play> = self.with_plays(dice, |plays| plays.collect());
            let legal: Vec<MarkedPlay> = plays.into_iter().map(|p| self.marked(p)).collect();
            if let Some(play) = resolve_typed(
                text,
                &typed,
                &legal,
                Play::merged,
                |m| m.text(point_text),
                |p| match self.hits_of(p) {
                    (hits, true) => Some(hits),
                    _ => None,
                },
            )? {
                return Ok(TablesAction::Play(play));
            }
        }
        let steps: Vec<Step> = typed
            .iter()
            .map(|t| Step {
                from: t.from,
                to: t.to,
                die: V::step_die(t.from, t.to),
            })
            .collect();
        Ok(TablesAction::Play(Play::from_steps(&steps)))
    }

    fn canonical_action(&self, action: TablesAction) -> TablesAction {
        if let (Phase::Moving(dice), TablesAction::Play(play)) = (self.phase, action)
            && let Some(legal) = self.with_plays(dice, |plays| same_steps_in_order(play, plays))
        {
            return TablesAction::Play(legal);
        }
        action
    }

    fn explain_illegal(&self, action: TablesAction) -> String {
        match (self.phase, action) {
            (Phase::Moving(dice), TablesAction::Play(_)) => {
                let (n, any) = self.with_plays(dice, |p| {
                    let v: Vec<Play> = p.collect();
                    (v.len(), v.first().map(|p| p.len()).unwrap_or(0))
                });
                format!(
                    "not one of the {n} legal plays of {}-{} (a legal play here uses {any} dice; \
                     both dice must be used when possible, else the higher)",
                    dice[0], dice[1]
                )
            }
            (Phase::Over, _) => "the game is over".into(),
            (Phase::Opening | Phase::Rolling, _) => "it is time to roll the dice".into(),
            (Phase::CubeDecision, _) => "first choose `roll` or `double`".into(),
            (Phase::CubeResponse, _) => "the double must be answered: `take` or `drop`".into(),
            (Phase::Moving(d), _) => format!(
                "play the roll {}-{} (a list of moves such as 24/18 18/13)",
                d[0], d[1]
            ),
        }
    }

    fn render(&self, viewer: Viewer, color: bool) -> String {
        render_board(self, viewer, color)
    }
}

impl<V: TablesVariant> Heuristic for TablesState<V> {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        let v = self.variant.heuristic(&self.board);
        if player == self.mover() { v } else { -v }
    }
}
