//! The state of a game of High-O Gammon or Tric-Trac and its turn cycle:
//! the opening roll, the cube, rolling and playing, and the result.

use super::board::{Board, MoverView};
use super::geometry::{
    BAR_CODE, FIELDS, GOAL_FIRST, HOME_STRETCH, IN_CODE, MAX_SEATS, OFF_CODE, STONES, TRACK, seats,
};
use super::rules::{Doubles, HgRules, Scoring};
use crate::game::{CubeAction, GameState, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use crate::tables::dice::{self, ROLLS};
use crate::tables::{
    DiceRule, Play, PlayGen, Step, StepBoard, StepList, StepsView, play_boards, step_graph,
};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

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

thread_local! {
    static PLAY_GEN: RefCell<PlayGen> = RefCell::new(PlayGen::default());
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

    /// The next player after `p` in turn order (counter-clockwise, HG-5)
    /// who is still in the game.
    fn next_active(&self, p: u8) -> u8 {
        let n = self.rules.players;
        let mut q = p;
        for _ in 0..n {
            q = (q + 1) % n;
            if self.active >> q & 1 == 1 {
                return q;
            }
        }
        p
    }

    fn begin_turn(&mut self) {
        self.phase = if self.rules.scoring == Scoring::Cube
            && !self.rules.tric
            && self.cube_log2 < MAX_CUBE_LOG2
        {
            Phase::CubeDecision
        } else {
            Phase::Rolling { again: false }
        };
    }

    /// Calls `f` with the distinct legal plays of `dice` for the player to
    /// move, in absolute codes.
    pub fn with_plays<T>(
        &self,
        dice: [u8; 2],
        f: impl FnOnce(&mut dyn Iterator<Item = Play>) -> T,
    ) -> T {
        let (view, seat) = self.mover_view();
        self.with_generator(&view, dice, |g| {
            f(&mut g.plays().map(|play| absolute_play(play, seat)))
        })
    }

    /// The mover's view of the board, and his seat.
    fn mover_view(&self) -> (MoverView, u8) {
        let p = self.mover as usize;
        let seat = self.seat(p);
        (self.board.view(p, seat, self.rules.tric), seat)
    }

    /// Calls `f` with the play generator holding the legal plays of `dice`
    /// on the mover's `view` (in the mover's frame).
    fn with_generator<T>(
        &self,
        view: &MoverView,
        dice: [u8; 2],
        f: impl FnOnce(&PlayGen) -> T,
    ) -> T {
        let mut buf = [0u8; 4];
        let len = self.rules.dice_list(dice, &mut buf);
        PLAY_GEN.with(|g| {
            let mut g = g.borrow_mut();
            // HG-8: the smaller number first; a number that cannot be played
            // ends the play.
            g.generate(view, &buf[..len], DiceRule::InOrder);
            f(&g)
        })
    }

    /// A uniformly random legal play of `dice` (the one at index
    /// `rng.random_range(0..n)` of [`HgState::with_plays`]).
    fn random_play<R: rand::Rng + ?Sized>(&self, dice: [u8; 2], rng: &mut R) -> Play {
        let (view, seat) = self.mover_view();
        self.with_generator(&view, dice, |g| {
            absolute_play(g.play(rng.random_range(0..g.len())), seat)
        })
    }

    /// The legal plays made step by step, with the board after each step
    /// (see [`mod@crate::tables::step_graph`]); steps in absolute codes.
    pub fn play_steps(&self) -> Option<StepsView> {
        let Phase::Moving { dice } = self.phase else {
            return None;
        };
        let p = self.mover as usize;
        let (view, seat) = self.mover_view();
        let mut buf = [0u8; 4];
        let len = self.rules.dice_list(dice, &mut buf);
        let plays: Vec<Play> = self.with_generator(&view, dice, |g| g.plays().collect());
        let start = Traced {
            view,
            board: self.board,
            player: p,
            seat,
        };
        let graph = step_graph(&start, &buf[..len], DiceRule::InOrder, &plays);
        Some(graph.view(|t| self.board_json(&t.board), |c| absolute_code(c, seat)))
    }

    /// The positions the legal play `action` passes through, the board now
    /// first, as [`HgState::play_steps`] draws them.
    pub fn play_boards(&self, action: HgAction) -> Option<Vec<serde_json::Value>> {
        let HgAction::Play(play) = action else {
            return None;
        };
        if !matches!(self.phase, Phase::Moving { .. }) || !self.is_legal(action) {
            return None;
        }
        let p = self.mover as usize;
        let apply = |b: &mut Board, step| {
            b.apply_step(p, step);
        };
        Some(play_boards(self.board, play.steps(), apply, |b| {
            self.board_json(b)
        }))
    }

    /// A board as the observation shows its stones.
    fn board_json(&self, board: &Board) -> serde_json::Value {
        let n = self.rules.players as usize;
        serde_json::json!({
            "fields": board.cnt,
            "bar": &board.bar[..n],
            "waiting": &board.pool[..n],
            "off": &board.off[..n],
        })
    }

    fn apply_play(&mut self, play: Play) {
        let p = self.mover as usize;
        let mut hits = [(0u8, 0u8); 4];
        for (i, &step) in play.steps().iter().enumerate() {
            if let Some(victim) = self.board.apply_step(p, step) {
                hits[i] = (step.to, victim as u8);
            }
        }
        self.last = Last::Played {
            by: self.mover,
            hits,
        };
        if self.has_won(p) {
            self.winner = self.mover;
            self.phase = Phase::Over;
            return;
        }
        let rolled_double = matches!(self.phase, Phase::Moving { dice } if dice[0] == dice[1]);
        if rolled_double && self.rules.doubles == Doubles::Reroll {
            // HG-13 a: after playing a double, roll again.
            self.phase = Phase::Rolling { again: true };
        } else {
            self.mover = self.next_active(self.mover);
            self.begin_turn();
        }
    }

    /// HG-15: all 9 borne off; TT-4: all 9 on the goal points, 3 on each.
    fn has_won(&self, p: Player) -> bool {
        if self.rules.tric {
            let seat = self.seat(p);
            (GOAL_FIRST..TRACK).all(|d| self.board.at(p, seat, d) == 3)
        } else {
            self.board.off[p] == STONES
        }
    }

    /// `p` resigns: he leaves the game as a dropper does (HG-17: owing the
    /// stake; without the cube, what the scoring charges the most, see
    /// [`HgState::payments`]) and the others play on; the last one left
    /// wins. His turn, or his answer to a double, passes on.
    fn leave(&mut self, p: u8) {
        self.resigned |= 1 << p;
        if let Phase::CubeResponse { responder } = self.phase
            && responder == p
        {
            self.answer_double(p, false);
            return;
        }
        self.dropped[p as usize] = self.cube_log2 + 1;
        self.active &= !(1 << p);
        self.board.remove_player(p as usize);
        self.last = Last::Nothing;
        if self.active.count_ones() == 1 {
            self.winner = self.active.trailing_zeros() as u8;
            self.mover = self.winner;
            self.phase = Phase::Over;
            return;
        }
        match self.phase {
            Phase::Opening { rolling, first } => {
                let rolling = match rolling & self.active {
                    0 | 1 | 2 | 4 | 8 => self.active,
                    left => left,
                };
                self.phase = Phase::Opening { rolling, first };
            }
            // A double offered by the resigner lapses.
            Phase::CubeResponse { .. } if self.mover == p => {
                self.mover = self.next_active(p);
                self.begin_turn();
            }
            _ if self.mover == p => {
                self.mover = self.next_active(p);
                self.begin_turn();
            }
            _ => {}
        }
    }

    fn answer_double(&mut self, responder: u8, accept: bool) {
        if !accept {
            // HG-17: the dropper owes the stake before this double and leaves.
            self.dropped[responder as usize] = self.cube_log2 + 1;
            self.active &= !(1 << responder);
            self.board.remove_player(responder as usize);
        }
        let next = self.next_active(responder);
        self.last = Last::Answered {
            by: responder,
            accept,
            settled: next == self.mover,
        };
        if next != self.mover {
            self.phase = Phase::CubeResponse { responder: next };
            return;
        }
        if self.active == 1 << self.mover {
            // everyone else dropped: the doubler wins at once
            self.winner = self.mover;
            self.phase = Phase::Over;
        } else {
            self.cube_log2 += 1;
            self.phase = Phase::Rolling { again: false };
        }
    }

    fn apply_opening(&mut self, dice: [u8; 4]) {
        let Phase::Opening { rolling, first } = self.phase else {
            return;
        };
        self.opening = dice;
        let n = self.rules.players as usize;
        let rollers = (0..n).filter(|&p| rolling >> p & 1 == 1);
        let high = rollers.clone().map(|p| dice[p]).max().unwrap_or(0);
        let tied = rollers
            .clone()
            .filter(|&p| dice[p] == high)
            .fold(0u8, |m, p| m | 1 << p);
        if first && self.rules.scoring == Scoring::Cube && !self.rules.tric {
            // HG-17: equal numbers in the roll for the start double the stake.
            let any_pair = rollers
                .clone()
                .any(|p| rollers.clone().any(|q| q > p && dice[q] == dice[p]));
            if any_pair {
                self.cube_log2 = 1;
                self.opening_doubled = true;
            }
        }
        self.last = Last::Opening {
            tied,
            doubled: first && self.opening_doubled,
        };
        if tied.count_ones() == 1 {
            // HG-5: the highest chooses his colour and moves first.
            self.mover = tied.trailing_zeros() as u8;
            self.phase = Phase::ColourChoice;
        } else {
            self.phase = Phase::Opening {
                rolling: tied,
                first: false,
            };
        }
    }

    /// HG-5: the opening winner takes seat `seat`; the others keep their
    /// turn order after him, each in the next seat in play counter-clockwise.
    /// The stones are set up again for the new seats (High-O Gammon).
    fn choose_colour(&mut self, seat: u8) {
        let n = self.rules.players as usize;
        let in_play = seats(n);
        let Some(k) = in_play.iter().position(|&s| s == seat) else {
            return;
        };
        let w = self.mover as usize;
        let was = self.table[w];
        for i in 0..n {
            self.table[(w + i) % n] = in_play[(k + i) % n];
        }
        if !self.rules.tric {
            self.board = Board::high_gammon(&self.table[..n]);
        }
        self.last = Last::Chose {
            by: self.mover,
            was,
        };
        self.begin_turn();
    }

    /// What each loser pays the winner (HG-16..HG-18; Tric-Trac: 1 each).
    pub fn payments(&self) -> [u32; MAX_SEATS] {
        let mut pay = [0u32; MAX_SEATS];
        let Some(w) = self.winner() else {
            return pay;
        };
        for (q, owed) in pay.iter_mut().enumerate().take(self.rules.players as usize) {
            if q == w {
                continue;
            }
            *owed = if self.rules.tric {
                1
            } else {
                match self.rules.scoring {
                    // A resigner's stones are gone: he owes what the most
                    // stones on the bar would.
                    Scoring::Points if self.resigned >> q & 1 == 1 => 8 * STONES as u32,
                    Scoring::Traditional if self.resigned >> q & 1 == 1 => 3,
                    Scoring::Points => self.points_owed(q),
                    Scoring::Cube => match self.dropped_at(q) {
                        Some(stake) => stake,
                        None => self.cube_value(),
                    },
                    Scoring::Traditional => self.traditional_owed(q),
                }
            };
        }
        pay
    }

    /// HG-16: 4 per stone not yet on its goal points, 8 per stone on the bar.
    fn points_owed(&self, q: Player) -> u32 {
        4 * self.short_of_goal(q) + 8 * self.board.bar[q] as u32
    }

    /// `q`'s stones on the board short of its goal points (HG-16's count).
    pub fn short_of_goal(&self, q: Player) -> u32 {
        let seat = self.seat(q);
        (0..GOAL_FIRST)
            .map(|d| self.board.at(q, seat, d) as u32)
            .sum::<u32>()
    }

    /// HG-18: single if any stone is borne off; double if none; triple if
    /// none and a stone is on the bar or short of the home stretch.
    fn traditional_owed(&self, q: Player) -> u32 {
        let seat = self.seat(q);
        if self.board.off[q] > 0 {
            1
        } else if self.board.bar[q] > 0 || (0..HOME_STRETCH).any(|d| self.board.at(q, seat, d) > 0)
        {
            3
        } else {
            2
        }
    }

    /// Pips player p still has to travel: to off (High-O Gammon) or to the
    /// first goal point (Tric-Trac); a stone on the bar or not yet entered
    /// counts as one short of the start.
    pub fn pips(&self, p: Player) -> u32 {
        let seat = self.seat(p);
        let target = if self.rules.tric { GOAL_FIRST } else { TRACK } as u32;
        let mut pips = (self.board.bar[p] as u32 + self.board.pool[p] as u32) * (target + 1);
        for d in 0..TRACK {
            pips += self.board.at(p, seat, d) as u32 * target.saturating_sub(d as u32);
        }
        pips
    }
}

/// The seats of HG-4 by player, before any choice of colour.
fn default_table(players: usize) -> [u8; MAX_SEATS] {
    let mut table = [0; MAX_SEATS];
    table[..players].copy_from_slice(seats(players));
    table
}

/// A play from the mover's relative codes (d + 1) to absolute ones.
fn absolute_play(play: Play, seat: u8) -> Play {
    let mut out = Play::EMPTY;
    for s in play.steps() {
        out = out.with(absolute_step(*s, seat));
    }
    out
}

/// A step from the mover's relative codes to absolute ones.
fn absolute_step(step: Step, seat: u8) -> Step {
    Step {
        from: absolute_code(step.from, seat),
        to: absolute_code(step.to, seat),
        die: step.die,
    }
}

/// A field code from the mover's relative numbering (d + 1) to the ring's.
#[inline]
fn absolute_code(code: u8, seat: u8) -> u8 {
    ABSOLUTE_CODES[seat as usize % MAX_SEATS][code as usize % 32]
}

/// [`absolute_code`] by seat and relative code (all codes are below 32).
const ABSOLUTE_CODES: [[u8; 32]; MAX_SEATS] = {
    let mut codes = [[0u8; 32]; MAX_SEATS];
    let mut seat = 0;
    while seat < MAX_SEATS {
        let mut c = 0;
        while c < 32 {
            codes[seat][c] = match c as u8 {
                BAR_CODE | IN_CODE | OFF_CODE => c as u8,
                // the same as field(seat, c - 1) + 1
                _ => ((7 * seat + c - 1) % FIELDS) as u8 + 1,
            };
            c += 1;
        }
        seat += 1;
    }
    codes
};

/// The mover's view with the whole board beside it, so that the board after
/// each step of a play is known.
#[derive(Clone, Copy, Debug)]
struct Traced {
    view: MoverView,
    board: Board,
    player: usize,
    seat: u8,
}

impl StepBoard for Traced {
    fn steps(&self, die: u8, out: &mut StepList) {
        self.view.steps(die, out);
    }
    fn apply_step(&mut self, step: Step) {
        self.view.apply_step(step);
        self.board
            .apply_step(self.player, absolute_step(step, self.seat));
    }
    fn key(&self) -> u128 {
        self.view.key()
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::high_gammon::geometry::field;

    /// HG-3: the table of absolute codes is the seat's track laid on the
    /// ring (d = code - 1 at field 7·seat + d), bar, entry and off kept.
    #[test]
    fn hg3_absolute_codes_follow_the_track() {
        for seat in 0..MAX_SEATS as u8 {
            for code in 0..32u8 {
                let want = match code {
                    BAR_CODE | IN_CODE | OFF_CODE => code,
                    c => field(seat, c as usize - 1) as u8 + 1,
                };
                assert_eq!(absolute_code(code, seat), want, "seat {seat} code {code}");
            }
        }
    }
}
