//! The state and the turn cycle: the roll for Stumpen, then roll and act,
//! turn after turn, until someone is past 40, someone dries out, or the
//! turn cap (STU-4, STU-5, STU-8..STU-18).

use super::action::StumphogAction;
use super::board::{Board, COLUMNS, Landing, STUMPEN, is_hemma, pile_of, track_of};
use crate::error::{Error, Result};
use crate::game::{GameState, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use crate::tables::dice::{self, OPENING_P, OPENING_ROLLS, ROLLS};
use serde::Serialize;

/// The Ute count at which "Stumpvarning" is announced (STU-16).
pub const STUMPVARNING: u8 = 30;

/// The rules a game is played with (its options).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Rules {
    /// A player whose Ute holds at least this many stones wins (STU-16; 41:
    /// "more than 40").
    pub win: u8,
    /// After this many turns the game is a draw (STU-18).
    pub turn_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            win: 41,
            turn_cap: 2000,
        }
    }
}

/// Where the game is in its turn cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "phase", content = "dice")]
pub enum Phase {
    /// Chance: one die each for who lays Stumpen (STU-4).
    Opening,
    /// Chance: the player to move rolls two dice (STU-8).
    Rolling,
    /// The player to move acts on these dice (higher first).
    Acting([u8; 2]),
    /// The game is over.
    Over,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "how")]
pub enum End {
    /// STU-16: the winner's Ute reached the threshold ("past 40").
    PastForty {
        /// Who won.
        winner: Player,
    },
    /// STU-17: this player had no stones in Hög nor Ute.
    DriedOut {
        /// Who lost.
        loser: Player,
    },
    /// STU-17, our reading: both dried out by the same action; a draw.
    BothDriedOut,
    /// STU-18: the turn cap; a draw.
    TurnCap,
    /// This player resigned.
    Resigned {
        /// Who lost.
        loser: Player,
    },
}

/// What the last action did, for [`crate::game::Notation::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Last {
    Nothing,
    Opening([u8; 2]),
    Moved { landing: Landing, stones: u8 },
    BatIn([u8; 3]),
    BatOut([u8; 2]),
}

/// A Stumphög state: a small `Copy` value. Two states are equal when their
/// positions are: what the last action did, kept for its events, does not
/// count.
#[derive(Clone, Copy, Debug)]
pub struct StumphogState {
    pub(super) board: Board,
    pub(super) rules: Rules,
    pub(super) phase: Phase,
    /// The player to move (or who moved last, when over).
    pub(super) side: u8,
    /// Turns played (decisions, passes included).
    pub(super) turns: u32,
    /// Whether each player's Stumpvarning has been announced.
    pub(super) warned: [bool; 2],
    /// Bit p: player p's Stumpvarning came with the last action.
    pub(super) warn_now: u8,
    pub(super) end: Option<End>,
    pub(super) last: Last,
    /// Who made the last action.
    pub(super) last_by: u8,
}

impl StumphogState {
    /// Everything the rules look at: the position without the memory of
    /// the last action.
    #[allow(clippy::type_complexity)]
    fn key(&self) -> (&Board, &Rules, &Phase, u8, u32, [bool; 2], &Option<End>) {
        (
            &self.board,
            &self.rules,
            &self.phase,
            self.side,
            self.turns,
            self.warned,
            &self.end,
        )
    }
}

impl PartialEq for StumphogState {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for StumphogState {}

impl std::hash::Hash for StumphogState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl StumphogState {
    /// A new game before the roll for Stumpen.
    pub fn new(rules: Rules) -> Self {
        StumphogState {
            board: Board::before_setup(),
            rules,
            phase: Phase::Opening,
            side: 0,
            turns: 0,
            warned: [false; 2],
            warn_now: 0,
            end: None,
            last: Last::Nothing,
            last_by: 0,
        }
    }

    /// A state with this board and `side` to move: about to roll, or with
    /// `dice` already rolled (each brought into 1..=6). For tests and
    /// analysis.
    pub fn with_position(rules: Rules, board: Board, side: Player, dice: Option<[u8; 2]>) -> Self {
        let mut s = Self::new(rules);
        s.board = board;
        s.side = (side & 1) as u8;
        s.warned = [board.ute[0] >= STUMPVARNING, board.ute[1] >= STUMPVARNING];
        s.phase = match dice {
            Some([a, b]) => {
                let (a, b) = (a.clamp(1, 6), b.clamp(1, 6));
                Phase::Acting([a.max(b), a.min(b)])
            }
            None => Phase::Rolling,
        };
        s
    }

    /// All the stones.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The phase of the turn cycle.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player to move (or who moved last, when over).
    pub fn mover(&self) -> Player {
        self.side as Player
    }

    /// Turns played so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// How the game ended, once over.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// Whether each player's Stumpvarning has been announced.
    pub fn stumpvarning(&self) -> [bool; 2] {
        self.warned
    }

    /// All 70 stones, the two in hand before the set-up included (STU-1).
    pub fn total_stones(&self) -> u32 {
        self.board.total() + if self.phase == Phase::Opening { 2 } else { 0 }
    }

    /// Gives each legal action for `dice` (STU-8..STU-15) to `push`.
    #[inline]
    fn generate(&self, [a, b]: [u8; 2], mut push: impl FnMut(StumphogAction)) {
        let p = self.side as usize;
        let mut listed = 0u32;
        let mut only = StumphogAction::Pass;
        let mut emit = |action| {
            listed += 1;
            only = action;
            push(action);
        };
        let choices = [(a, b), (b, a)];
        // STU-15: 4-4 as stones or steps is the same choice, listed once.
        let choices = if a == b { &choices[..1] } else { &choices[..] };
        for &(stones, steps) in choices {
            for t in 0..STUMPEN {
                let (row, col) = pile_of(t);
                // STU-10: out of Hemma only by one step.
                if is_hemma(col) && steps != 1 {
                    continue;
                }
                // STU-9: keep one stone in every board pile.
                if self.board.at(p, t) > stones {
                    emit(StumphogAction::Move {
                        stones,
                        steps,
                        row,
                        col,
                    });
                }
            }
        }
        // STU-12: a six bats in as many as the other die.
        if a == 6 {
            let plan = self.board.bat_in_plan(p, b, false);
            if plan.iter().sum::<u8>() > 0 {
                emit(StumphogAction::BatIn(b));
            }
            // Double six from the opponent; the same as the above when the
            // own Hög is empty (STU-15: then listed once).
            if b == 6 && self.board.hog[p] > 0 {
                let plan = self.board.bat_in_plan(p, 6, true);
                if plan.iter().sum::<u8>() > 0 {
                    emit(StumphogAction::BatInFromOpponent);
                }
            }
        }
        // STU-14: doubles bat out the sum.
        if a == b {
            let plan = self.board.bat_out_plan(p, a + b);
            if plan[0] + plan[1] > 0 {
                emit(StumphogAction::BatOut(a + b));
            }
        }
        // STU-12, STU-15: after a double six a player whose only action is
        // batting in the opponent's stones may pass instead ("om man vill
        // och kan"); with an empty own Hög `bat in 6` takes only his.
        let opponents_only = match only {
            StumphogAction::BatInFromOpponent => true,
            StumphogAction::BatIn(6) => self.board.hog[p] == 0,
            _ => false,
        };
        if listed == 0 || (a == 6 && b == 6 && listed == 1 && opponents_only) {
            push(StumphogAction::Pass);
        }
    }

    fn act(&mut self, action: StumphogAction) {
        let p = self.side as usize;
        self.last_by = self.side;
        self.last = match action {
            StumphogAction::Move {
                stones,
                steps,
                row,
                col,
            } => {
                let landing = self.board.apply_move(p, track_of(row, col), stones, steps);
                Last::Moved { landing, stones }
            }
            StumphogAction::BatIn(n) => Last::BatIn(self.board.bat_in(p, n, false)),
            StumphogAction::BatInFromOpponent => Last::BatIn(self.board.bat_in(p, 6, true)),
            StumphogAction::BatOut(n) => Last::BatOut(self.board.bat_out(p, n)),
            _ => Last::Nothing,
        };
        self.turns += 1;
        self.after_action();
    }

    /// STU-16..STU-18, checked after every action for both players.
    fn after_action(&mut self) {
        let p = self.side as usize;
        let b = &self.board;
        self.warn_now = 0;
        for x in 0..2 {
            if !self.warned[x] && b.ute[x] >= STUMPVARNING {
                self.warned[x] = true;
                self.warn_now |= 1 << x;
            }
        }
        let end = if b.ute[p] >= self.rules.win {
            Some(End::PastForty { winner: p })
        } else if b.ute[1 - p] >= self.rules.win {
            Some(End::PastForty { winner: 1 - p })
        } else {
            match (b.dried_out(p), b.dried_out(1 - p)) {
                (true, true) => Some(End::BothDriedOut),
                (true, false) => Some(End::DriedOut { loser: p }),
                (false, true) => Some(End::DriedOut { loser: 1 - p }),
                (false, false) => (self.turns >= self.rules.turn_cap).then_some(End::TurnCap),
            }
        };
        self.end = end;
        if end.is_some() {
            self.phase = Phase::Over;
        } else {
            self.side ^= 1;
            self.phase = Phase::Rolling;
        }
    }
}

impl GameState for StumphogState {
    type Action = StumphogAction;
    type Observation = StumphogView;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Opening | Phase::Rolling => Turn::Chance,
            Phase::Acting(_) => Turn::Player(self.side as Player),
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<StumphogAction>) {
        out.clear();
        if let Phase::Acting(dice) = self.phase {
            self.generate(dice, |a| out.push(a));
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(StumphogAction, f64)>) {
        out.clear();
        match self.phase {
            Phase::Opening => out.extend(
                OPENING_ROLLS
                    .iter()
                    .map(|&r| (StumphogAction::Opening(r), OPENING_P)),
            ),
            Phase::Rolling => out.extend(ROLLS.iter().map(|&(r, p)| (StumphogAction::Roll(r), p))),
            _ => {}
        }
    }

    fn sample_chance<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> StumphogAction {
        match self.phase {
            Phase::Opening => StumphogAction::Opening(dice::opening_roll(rng)),
            _ => StumphogAction::Roll(dice::roll(rng)),
        }
    }

    fn is_legal(&self, action: StumphogAction) -> bool {
        match (self.phase, action) {
            (Phase::Opening, StumphogAction::Opening(r)) => OPENING_ROLLS.contains(&r),
            (Phase::Rolling, StumphogAction::Roll(r)) => ROLLS.iter().any(|&(d, _)| d == r),
            (Phase::Acting(dice), _) => {
                let mut found = false;
                self.generate(dice, |a| found |= a == action);
                found
            }
            _ => false,
        }
    }

    fn apply(&mut self, action: StumphogAction) {
        match action {
            StumphogAction::Opening([a, b]) => {
                // STU-4, STU-5: the higher die lays Stumpen and begins.
                let layer = if a > b { 0 } else { 1 };
                self.board.set_up(layer);
                self.side = layer as u8;
                self.phase = Phase::Rolling;
                self.last = Last::Opening([a, b]);
                self.warn_now = 0;
            }
            StumphogAction::Roll(dice) => {
                self.phase = Phase::Acting(dice);
                self.last = Last::Nothing;
                self.warn_now = 0;
            }
            decision => self.act(decision),
        }
    }

    fn max_game_length(&self) -> u64 {
        // The opening roll, then per turn one roll and one action; STU-18:
        // a draw after `turn_cap` turns.
        1 + 2 * self.rules.turn_cap as u64
    }

    fn returns(&self) -> Returns {
        match self.end {
            Some(End::PastForty { winner }) => Returns::two_player(winner, 1.0),
            Some(End::DriedOut { loser } | End::Resigned { loser }) => {
                Returns::two_player(1 - loser, 1.0)
            }
            _ => Returns::zeros(2),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(match self.end? {
            End::PastForty { winner } => Outcome::winner(2, winner, Ending::UteThreshold),
            End::DriedOut { loser } => Outcome::winner(2, 1 - loser, Ending::DriedOut),
            End::BothDriedOut => Outcome::draw(2, Ending::BothDriedOut),
            End::TurnCap => Outcome::draw(2, Ending::TurnCap),
            End::Resigned { loser } => Outcome::winner(2, 1 - loser, Ending::Resigned),
        })
    }

    fn resign(&mut self, player: Player, kind: Resignation) -> Result<()> {
        // The game, the whole of it: Stumphög has no match and no gammons.
        match kind {
            _ if self.phase == Phase::Over => Err(Error::GameOver),
            Resignation::Single | Resignation::Match if player < 2 => {
                self.end = Some(End::Resigned { loser: player });
                self.phase = Phase::Over;
                Ok(())
            }
            _ => Err(not_offered(kind, "Stumphög is resigned as a whole game")),
        }
    }

    fn observation(&self, _viewer: Viewer) -> StumphogView {
        StumphogView::of(self)
    }
}

/// Everything about a state, in absolute terms; both players see all of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StumphogView {
    /// The game's id.
    pub game: &'static str,
    /// Whose turn: a player, chance, or over.
    pub turn: Turn,
    /// The phase and, when acting, the dice.
    #[serde(flatten)]
    pub phase: Phase,
    /// The player to move (or who moved last, when over).
    pub side: Player,
    /// `rows[p][c]`: player p's own row, column c+1 (7 next to Stumpen).
    pub rows: [[u8; COLUMNS]; 2],
    /// Stones in Stumpen.
    pub stumpen: u8,
    /// Each player's Hög.
    pub hog: [u8; 2],
    /// Each player's Ute.
    pub ute: [u8; 2],
    /// Stones still in hand before the roll for Stumpen.
    pub in_hand: u8,
    /// Turns played.
    pub turns: u32,
    /// The options.
    pub rules: Rules,
    /// Whether each player's Stumpvarning has been announced.
    pub stumpvarning: [bool; 2],
    /// How the game ended.
    pub end: Option<End>,
}

impl StumphogView {
    fn of(s: &StumphogState) -> Self {
        StumphogView {
            game: super::ID,
            turn: s.turn(),
            phase: s.phase,
            side: s.side as Player,
            rows: s.board.rows,
            stumpen: s.board.stumpen,
            hog: s.board.hog,
            ute: s.board.ute,
            in_hand: if s.phase == Phase::Opening { 2 } else { 0 },
            turns: s.turns,
            rules: s.rules,
            stumpvarning: s.warned,
            end: s.end,
        }
    }
}

impl Serialize for StumphogState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::position::WithPosition {
            view: StumphogView::of(self),
            position: self.to_string(),
        }
        .serialize(s)
    }
}
