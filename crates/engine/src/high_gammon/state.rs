//! The state of a game of High-O Gammon or Tric-Trac: its phase in the turn
//! cycle, the actions, and the game's interface; the cycle itself, the
//! plays and the scoring are in the files under `state/`.

mod plays;
mod scoring;
mod turn;

use super::board::Board;
use super::geometry::{MAX_SEATS, seats};
use super::rules::HgRules;
use crate::game::{CubeAction, GameState, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use crate::tables::Play;
use crate::tables::dice::{self, ROLLS};
use serde::{Deserialize, Serialize};

/// The highest cube value as a power of two: 64 (HG-17).
pub const MAX_CUBE_LOG2: u8 = 6;
pub(super) const NOBODY: u8 = u8::MAX;
/// The most plies, chance included, of a game of High-O Gammon or
/// Tric-Trac: far beyond the longest random game measured.
pub const MAX_PLIES: u64 = 200_000;

/// Where the game is in its turn cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// Chance: the players in `rolling` (a bit per player) each roll one
    /// die to decide who starts (HG-5); `first` for the first round.
    Opening {
        /// Bit p: player p rolls in this round.
        rolling: u8,
        /// Whether this is the first round (everyone rolls).
        first: bool,
    },
    /// The opening winner (the mover) chooses his colour: his place at the
    /// table (HG-5).
    ColourChoice,
    /// The player to move may double before rolling (HG-17).
    CubeDecision,
    /// A remaining player answers the double.
    CubeResponse {
        /// The player who answers now.
        responder: u8,
    },
    /// Chance: the player to move rolls two dice; `again` after a double
    /// under `doubles=reroll`.
    Rolling {
        /// Whether this is a roll again after a double (HG-13 a).
        again: bool,
    },
    /// The player to move plays these dice (smaller first).
    Moving {
        /// The dice, smaller first.
        dice: [u8; 2],
    },
    /// The game is over.
    Over,
}

/// An action of High-O Gammon or Tric-Trac.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HgAction {
    /// Chance: one die per player for the start (0 for a player not rolling).
    Opening([u8; 4]),
    /// Chance: the roll of two dice, smaller first.
    Dice([u8; 2]),
    /// The opening winner takes the colour of this seat (0..3); the others
    /// keep their order after him (HG-5).
    Colour(u8),
    /// The stone steps of a turn, in absolute field codes (1..28; 29 bar,
    /// 30 from off the board in Tric-Trac, 0 borne off).
    Play(Play),
    /// Roll without doubling.
    Roll,
    /// Double the stake before rolling (HG-17).
    Double,
    /// Take (accept) a double and play on; JSON `accept`, as written
    /// before, is read too.
    #[serde(alias = "accept")]
    Take,
    /// Drop out: pay the stake before this double and leave.
    Drop,
}

/// A game of High-O Gammon or Tric-Trac: a small `Copy` value. Two states
/// are equal when their positions are: what the last action did, kept for
/// its events, does not count.
#[derive(Clone, Copy, Debug)]
pub struct HgState {
    pub(super) rules: HgRules,
    pub(super) board: Board,
    pub(super) phase: Phase,
    /// The player whose turn it is (the doubler while a double is
    /// answered; the winner when over).
    pub(super) mover: u8,
    /// Bit p: player p is still in the game.
    pub(super) active: u8,
    pub(super) cube_log2: u8,
    /// 0: still in; k + 1: dropped out when the stake was 2^k.
    pub(super) dropped: [u8; 4],
    pub(super) winner: u8,
    /// The seat (colour) of each player: the defaults of HG-4 until the
    /// opening winner chooses (HG-5).
    pub(super) table: [u8; MAX_SEATS],
    /// The dice of the last opening round (0: did not roll).
    pub(super) opening: [u8; 4],
    /// Whether equal numbers in the opening doubled the stake (HG-17).
    pub(super) opening_doubled: bool,
    /// Bit p: player p resigned (he left as a dropper does, see
    /// [`HgState::resign`]).
    pub(super) resigned: u8,
    /// What the last action did, for [`crate::game::Notation::events`].
    pub(super) last: Last,
}

/// What the last action did (for the events shown to players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Last {
    /// Nothing worth telling.
    Nothing,
    /// An opening round: who starts (or who rolls again), and whether the
    /// stake doubled.
    Opening {
        /// Bit p: tied for the highest (one bit: the starter).
        tied: u8,
        /// Whether equal numbers doubled the stake.
        doubled: bool,
    },
    /// The opening winner `by` chose his colour; `was` is the seat he had.
    Chose {
        /// The opening winner.
        by: u8,
        /// His seat before the choice.
        was: u8,
    },
    /// A play by `by`: up to four hits as (field + 1, victim), 0 for none.
    Played {
        /// The player who played.
        by: u8,
        /// Hits: (field 1..28, victim player).
        hits: [(u8, u8); 4],
    },
    /// `by` answered a double.
    Answered {
        /// The answering player.
        by: u8,
        /// Whether he accepted.
        accept: bool,
        /// Whether this was the last answer (the double is settled).
        settled: bool,
    },
}

impl HgState {
    /// Everything but the memory of the last action.
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        HgRules,
        &Board,
        Phase,
        [u8; 4],
        [u8; 4],
        [u8; 4],
        [u8; 4],
        bool,
    ) {
        (
            self.rules,
            &self.board,
            self.phase,
            [self.mover, self.active, self.cube_log2, self.winner],
            self.dropped,
            self.table,
            self.opening,
            self.opening_doubled,
        )
    }
}

impl PartialEq for HgState {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for HgState {}

impl std::hash::Hash for HgState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

impl HgState {
    /// A new game before the opening roll.
    pub fn new(rules: HgRules) -> Self {
        let n = rules.players as usize;
        let board = if rules.tric {
            Board::tric_trac(n)
        } else {
            Board::high_gammon(seats(n))
        };
        HgState {
            rules,
            board,
            phase: Phase::Opening {
                rolling: (1u8 << n) - 1,
                first: true,
            },
            mover: 0,
            active: (1u8 << n) - 1,
            cube_log2: 0,
            dropped: [0; 4],
            winner: NOBODY,
            table: default_table(n),
            opening: [0; 4],
            opening_doubled: false,
            resigned: 0,
            last: Last::Nothing,
        }
    }

    /// A state with this board and `player` about to play `dice`; for tests
    /// and analysis.
    pub fn with_position(rules: HgRules, board: Board, player: Player, dice: [u8; 2]) -> Self {
        let mut s = Self::new(rules);
        s.board = board;
        s.mover = player as u8;
        s.phase = Phase::Moving {
            dice: [dice[0].min(dice[1]), dice[0].max(dice[1])],
        };
        s
    }

    /// The rules agreed for this game.
    pub fn rules(&self) -> HgRules {
        self.rules
    }

    /// The stones.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The phase of the turn cycle.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player to move (the doubler while a double is answered).
    pub fn mover(&self) -> Player {
        self.mover as Player
    }

    /// The seat (0..3), and so the colour, of player p.
    pub fn seat(&self, p: Player) -> u8 {
        self.table[p]
    }

    /// Whether player p is still in the game.
    pub fn is_active(&self, p: Player) -> bool {
        self.active >> p & 1 == 1
    }

    /// The stake: the cube's value (HG-17; 1 without the cube).
    pub fn cube_value(&self) -> u32 {
        1 << self.cube_log2
    }

    /// The stake at which player p dropped out, if he did.
    pub fn dropped_at(&self, p: Player) -> Option<u32> {
        (self.dropped[p] > 0).then(|| 1 << (self.dropped[p] - 1))
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Player> {
        (self.winner != NOBODY).then_some(self.winner as Player)
    }

    /// The dice of the last opening round (0: did not roll).
    pub fn opening_dice(&self) -> [u8; 4] {
        self.opening
    }

    /// Whether equal numbers in the opening roll doubled the stake.
    pub fn opening_doubled(&self) -> bool {
        self.opening_doubled
    }

    /// What the last action did.
    pub fn last(&self) -> Last {
        self.last
    }
}

/// The seats of HG-4 by player, before any choice of colour.
fn default_table(players: usize) -> [u8; MAX_SEATS] {
    let mut table = [0; MAX_SEATS];
    table[..players].copy_from_slice(seats(players));
    table
}

impl GameState for HgState {
    type Action = HgAction;
    type Observation = super::view::HgView;

    fn num_players(&self) -> usize {
        self.rules.players as usize
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Opening { .. } | Phase::Rolling { .. } => Turn::Chance,
            Phase::CubeResponse { responder } => Turn::Player(responder as Player),
            Phase::ColourChoice | Phase::CubeDecision | Phase::Moving { .. } => {
                Turn::Player(self.mover as Player)
            }
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<HgAction>) {
        out.clear();
        match self.phase {
            Phase::ColourChoice => {
                let n = self.rules.players as usize;
                out.extend(seats(n).iter().map(|&seat| HgAction::Colour(seat)));
            }
            Phase::CubeDecision => out.extend([HgAction::Roll, HgAction::Double]),
            Phase::CubeResponse { .. } => out.extend([HgAction::Take, HgAction::Drop]),
            Phase::Moving { dice } => {
                self.with_plays(dice, |plays| out.extend(plays.map(HgAction::Play)))
            }
            Phase::Opening { .. } | Phase::Rolling { .. } | Phase::Over => {}
        }
    }

    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<HgAction>,
    ) -> HgAction {
        match self.phase {
            Phase::Moving { dice } => HgAction::Play(self.random_play(dice, rng)),
            _ => {
                self.legal_actions(scratch);
                scratch[rng.random_range(0..scratch.len())]
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(HgAction, f64)>) {
        out.clear();
        match self.phase {
            Phase::Opening { rolling, .. } => {
                let rollers: Vec<usize> = (0..4).filter(|&p| rolling >> p & 1 == 1).collect();
                let total = 6usize.pow(rollers.len() as u32);
                let prob = 1.0 / total as f64;
                for mut i in 0..total {
                    let mut dice = [0u8; 4];
                    for &p in &rollers {
                        dice[p] = (i % 6) as u8 + 1;
                        i /= 6;
                    }
                    out.push((HgAction::Opening(dice), prob));
                }
            }
            Phase::Rolling { .. } => out.extend(
                ROLLS
                    .iter()
                    .map(|&([hi, lo], p)| (HgAction::Dice([lo, hi]), p)),
            ),
            _ => {}
        }
    }

    fn sample_chance<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> HgAction {
        match self.phase {
            Phase::Opening { rolling, .. } => {
                let mut dice = [0u8; 4];
                for (p, d) in dice.iter_mut().enumerate() {
                    if rolling >> p & 1 == 1 {
                        *d = rng.random_range(1..=6);
                    }
                }
                HgAction::Opening(dice)
            }
            _ => {
                let [hi, lo] = dice::roll(rng);
                HgAction::Dice([lo, hi])
            }
        }
    }

    fn apply(&mut self, action: HgAction) {
        match action {
            HgAction::Opening(dice) => self.apply_opening(dice),
            HgAction::Dice(dice) => {
                self.last = Last::Nothing;
                self.phase = Phase::Moving {
                    dice: [dice[0].min(dice[1]), dice[0].max(dice[1])],
                }
            }
            HgAction::Play(play) => self.apply_play(play),
            HgAction::Colour(seat) => {
                if self.phase == Phase::ColourChoice {
                    self.choose_colour(seat);
                }
            }
            HgAction::Roll => {
                self.last = Last::Nothing;
                self.phase = Phase::Rolling { again: false }
            }
            HgAction::Double => {
                self.last = Last::Nothing;
                self.phase = Phase::CubeResponse {
                    responder: self.next_active(self.mover),
                }
            }
            HgAction::Take | HgAction::Drop => {
                if let Phase::CubeResponse { responder } = self.phase {
                    self.answer_double(responder, action == HgAction::Take);
                }
            }
        }
    }

    fn max_game_length(&self) -> u64 {
        MAX_PLIES
    }

    fn returns(&self) -> Returns {
        let n = self.rules.players as usize;
        let mut r = Returns::zeros(n);
        let Some(w) = self.winner() else {
            return r;
        };
        let pay = self.payments();
        let mut total = 0.0;
        for (q, &owed) in pay.iter().enumerate().take(n) {
            if q != w {
                r.set(q, -(owed as f64));
                total += owed as f64;
            }
        }
        r.set(w, total);
        r
    }

    fn outcome(&self) -> Option<Outcome> {
        let w = self.winner()?;
        let n = self.rules.players as usize;
        let pay = self.payments();
        // The winner first; the others after him, who paid less ahead of who paid more.
        let mut places = [0u8; MAX_SEATS];
        for q in (0..n).filter(|&q| q != w) {
            let paid_less = (0..n).filter(|&o| o != w && pay[o] < pay[q]).count();
            places[q] = 1 + paid_less as u8;
        }
        let ending = match (self.has_won(w), self.rules.tric) {
            (true, true) => Ending::GoalPoints,
            (true, false) => Ending::BorneOff,
            _ if self.resigned != 0 => Ending::Resigned,
            (false, _) => Ending::Dropped,
        };
        Some(Outcome::ranking(&places[..n], ending))
    }

    fn resign(&mut self, player: Player, kind: Resignation) -> crate::error::Result<()> {
        let in_game = player < self.rules.players as usize && self.is_active(player);
        match kind {
            _ if self.phase == Phase::Over => Err(crate::error::Error::GameOver),
            Resignation::Single | Resignation::Match if in_game => {
                self.leave(player as u8);
                Ok(())
            }
            _ => Err(not_offered(
                kind,
                "a player still in the game resigns the whole game",
            )),
        }
    }

    fn observation(&self, _viewer: Viewer) -> super::view::HgView {
        super::view::HgView::of(self)
    }

    fn cube_action(&self, action: HgAction) -> Option<CubeAction> {
        match action {
            HgAction::Roll => Some(CubeAction::NoDouble),
            HgAction::Double => Some(CubeAction::Double),
            HgAction::Take => Some(CubeAction::Take),
            HgAction::Drop => Some(CubeAction::Drop),
            _ => None,
        }
    }
}

impl Serialize for HgState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::position::WithPosition {
            view: super::view::HgView::of(self),
            position: self.to_string(),
        }
        .serialize(s)
    }
}
