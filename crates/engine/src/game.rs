//! The fast generic game API, in the shape of OpenSpiel's Game and State.

use crate::error::{Error, Result};
use crate::options::{OptionSpec, Options};
use crate::outcome::Outcome;
use crate::resign::Resignation;
use rand::Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use std::hash::Hash;

/// The most players any game has.
pub const MAX_PLAYERS: usize = 5;

/// A seat at the table, numbered from 0.
pub type Player = usize;

/// What happens next in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// This player chooses an action.
    Player(Player),
    /// Chance chooses an outcome (dice, a deal).
    Chance,
    /// The game is over.
    Over,
}

/// Who looks at a state: one player, or a spectator who sees only public facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A seated player, who also sees his own hidden things.
    Player(Player),
    /// Anyone else: public information only.
    Spectator,
}

/// Returns per player, without heap allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Returns {
    values: [f64; MAX_PLAYERS],
    len: u8,
}

impl Returns {
    /// All-zero returns for `players` players.
    pub fn zeros(players: usize) -> Self {
        assert!(players <= MAX_PLAYERS, "at most {MAX_PLAYERS} players");
        Returns {
            values: [0.0; MAX_PLAYERS],
            len: players as u8,
        }
    }

    /// Returns from a slice of per-player values.
    pub fn from_slice(values: &[f64]) -> Self {
        let mut r = Self::zeros(values.len());
        for (p, &v) in values.iter().enumerate() {
            r.set(p, v);
        }
        r
    }

    /// The per-player values.
    pub fn as_slice(&self) -> &[f64] {
        &self.values[..self.len as usize]
    }

    /// The value for one player.
    pub fn get(&self, player: Player) -> f64 {
        self.as_slice()[player]
    }

    /// Sets the value for one player (a negative zero is stored as 0, so
    /// that no result ever reads "-0").
    pub fn set(&mut self, player: Player, value: f64) {
        self.values[..self.len as usize][player] = value + 0.0;
    }

    /// Returns for a two-player zero-sum result: `winner` gets `points`.
    pub fn two_player(winner: Player, points: f64) -> Self {
        let mut r = Self::zeros(2);
        r.set(winner, points);
        r.set(1 - winner, -points);
        r
    }
}

/// A game's state: the fast generic trait that agents and benches use.
///
/// Decision nodes list legal actions; chance nodes list outcomes with exact
/// probabilities. Chance outcomes are ordinary actions, so a game is replayed
/// exactly from its list of actions. Two states are equal when they are the
/// same position with the same history that the rules look at.
pub trait GameState: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// One action: a decision or a chance outcome.
    type Action: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + 'static;
    /// What one viewer may see of the state.
    type Observation: Clone + Debug + Serialize;

    /// Number of players in this game.
    fn num_players(&self) -> usize;

    /// Whose turn it is, or chance, or over.
    fn turn(&self) -> Turn;

    /// Replaces `out` with the legal actions of the player to move (empty at
    /// chance nodes and when the game is over). Each action is listed once.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Replaces `out` with the chance outcomes and their probabilities (empty
    /// unless [`Turn::Chance`]). Probabilities are exact and sum to 1.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>);

    /// Applies a legal action or chance outcome. The caller guarantees that it
    /// is legal; use [`GameState::try_apply`] for untrusted input.
    fn apply(&mut self, action: Self::Action);

    /// The result per player: final when the game is over, zeros before.
    fn returns(&self) -> Returns;

    /// Who won (or the ranking, or a draw) and how the game ended, once it
    /// is over; `None` before. A win stays a win even when it pays nothing.
    fn outcome(&self) -> Option<Outcome>;

    /// What `viewer` may see: never anything hidden from that viewer.
    fn observation(&self, viewer: Viewer) -> Self::Observation;

    /// Ends the game (with [`Resignation::Match`], the match) as if `player`
    /// gave up: the game's rules say what that pays and who goes on. At any
    /// time, whoever is to move; an error, and no change, when the game is
    /// over or does not offer `kind`.
    fn resign(&mut self, player: Player, kind: Resignation) -> Result<()>;

    /// The most plies, chance plies included, that a game with this state's
    /// rules and options can last (OpenSpiel's `MaxGameLength`): exact where
    /// the rules cap the game, otherwise a bound that play never reaches, so
    /// that a longer game is a bug. Playouts and the server stop there.
    fn max_game_length(&self) -> u64;

    /// Draws a chance outcome with the right probabilities.
    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Action {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        sample_weighted(&outcomes, rng)
    }

    /// A uniformly random legal action of the player to move: the one at
    /// index `rng.random_range(0..n)` of [`GameState::legal_actions`], so it
    /// picks exactly what indexing that list would. `scratch` is a buffer a
    /// game may use; games override this to skip building the list.
    fn random_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Self::Action>,
    ) -> Self::Action {
        self.legal_actions(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// Whether `action` may be applied now (a legal decision or a chance
    /// outcome of positive probability).
    fn is_legal(&self, action: Self::Action) -> bool {
        match self.turn() {
            Turn::Over => false,
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes.iter().any(|&(a, p)| a == action && p > 0.0)
            }
            Turn::Player(_) => {
                let mut actions = Vec::new();
                self.legal_actions(&mut actions);
                actions.contains(&action)
            }
        }
    }

    /// Applies `action` if it is legal; otherwise returns a typed error and
    /// leaves the state unchanged.
    fn try_apply(&mut self, action: Self::Action) -> Result<()>
    where
        Self: Notation,
    {
        if self.turn() == Turn::Over {
            return Err(Error::GameOver);
        }
        if !self.is_legal(action) {
            return Err(Error::IllegalAction {
                action: self.format_action(action),
                reason: self.explain_illegal(action),
            });
        }
        self.apply(action);
        Ok(())
    }

    /// What `action` means for the doubling cube, when it is a cube action
    /// (so that agents can decide doubles from their own estimates and keep
    /// the cube out of their searches). `None` for every other action.
    fn cube_action(&self, _action: Self::Action) -> Option<CubeAction> {
        None
    }

    /// A hash of the position for transposition tables: equal positions with
    /// the same player to move give equal hashes. `None` if the game keeps none.
    fn position_hash(&self) -> Option<u64> {
        None
    }

    /// Information-set sampling: a full state consistent with everything
    /// `observation` shows, unseen parts drawn at random. It reads only the
    /// observation, so an agent searching such states uses only what its
    /// viewer may see. `None` when the game does not provide it or the
    /// observation is inconsistent.
    fn sample_from_observation<R: Rng + ?Sized>(
        _observation: &Self::Observation,
        _rng: &mut R,
    ) -> Option<Self> {
        None
    }
}

/// The meaning of a doubling-cube action (see [`GameState::cube_action`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeAction {
    /// Roll without doubling.
    NoDouble,
    /// Offer a double.
    Double,
    /// Accept a double.
    Take,
    /// Refuse a double.
    Drop,
}

/// Draws from a list of weighted outcomes.
pub fn sample_weighted<A: Copy, R: Rng + ?Sized>(outcomes: &[(A, f64)], rng: &mut R) -> A {
    let mut x: f64 = rng.random::<f64>();
    for &(a, p) in outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// A notable event of an action, typed so that a user interface can word
/// it in any language: what happened (`kind`), who and how much (`fields`,
/// players by seat number from 0), and the English sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameEvent {
    /// What happened, e.g. `hit` or `stumpvarning`.
    pub kind: &'static str,
    /// The details, a JSON object.
    pub fields: serde_json::Value,
    /// The event in English.
    pub text: String,
}

impl GameEvent {
    /// An event of `kind` with `fields` (a JSON object) and its English `text`.
    pub fn new(kind: &'static str, fields: serde_json::Value, text: impl Into<String>) -> Self {
        GameEvent {
            kind,
            fields,
            text: text.into(),
        }
    }
}

/// Text notation and drawing for a game's actions and states.
pub trait Notation: GameState {
    /// The action in the game's short text notation.
    fn format_action(&self, action: Self::Action) -> String;

    /// Reads an action in notation (in the context of this state, so that
    /// short forms can be resolved). Does not check legality.
    fn parse_action(&self, text: &str) -> Result<Self::Action>;

    /// The legal action that `action` stands for where one action can be
    /// given in several forms (a play's steps in another order); otherwise
    /// `action` itself. Applied to actions read from JSON.
    fn canonical_action(&self, action: Self::Action) -> Self::Action {
        action
    }

    /// The action described for `viewer` in a menu or a log: the notation,
    /// told from the viewer's side where the notation is the mover's, and
    /// what it does where that is not plain. Not for parsing.
    fn describe_action(&self, action: Self::Action, _viewer: Viewer) -> String {
        self.format_action(action)
    }

    /// A player-readable reason why `action` is not legal here.
    fn explain_illegal(&self, _action: Self::Action) -> String {
        match self.turn() {
            Turn::Chance => "not a possible chance outcome here".into(),
            Turn::Over => "the game is over".into(),
            Turn::Player(p) => format!("not among player {p}'s legal actions"),
        }
    }

    /// A text drawing of the state as `viewer` sees it; `color` allows ANSI colours.
    fn render(&self, viewer: Viewer, color: bool) -> String;

    /// Notable events of the last action (e.g. "Stumpvarning"), typed for
    /// user interfaces, each with its English sentence.
    fn game_events(&self) -> Vec<GameEvent> {
        Vec::new()
    }

    /// The English sentences of [`Notation::game_events`], for logs.
    fn events(&self) -> Vec<String> {
        self.game_events().into_iter().map(|e| e.text).collect()
    }

    /// The legal plays of the player to move made step by step (the tables
    /// games), so that a user interface builds moves without the rules.
    fn play_steps(&self) -> Option<crate::tables::StepsView> {
        None
    }

    /// The positions the legal play of steps `action` passes through (the
    /// tables games): the board now, then after each of its steps, in the
    /// observation's own form, so that a user interface draws a played move
    /// without the rules; `None` for any other action.
    fn play_boards(&self, _action: Self::Action) -> Option<Vec<serde_json::Value>> {
        None
    }

    /// The roll the server may play for the player to move instead of
    /// asking "double or roll?" (the auto-roll setting of a seat): with
    /// `always`, the roll at every cube decision; otherwise only where
    /// doubling cannot gain (a dead cube: see each game). `None` where no
    /// cube decision is pending, or the game has no cube. A cube that cannot
    /// be offered (the Crawford game, the cube off, the opponent owns it, the
    /// highest value) asks nothing in the first place: the engine goes
    /// straight to the roll.
    fn auto_roll(&self, _always: bool) -> Option<Self::Action> {
        None
    }

    /// What the last action showed `viewer` alone (e.g. "you drew 9H"),
    /// never anything hidden from that viewer; empty for anyone else.
    fn private_events(&self, _viewer: Viewer) -> Vec<String> {
        Vec::new()
    }
}

/// A game: its id, options and initial state. A value of it holds parsed options.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// The game's state type: written and read in the game's position
    /// notation (`Display`, `FromStr`) and as JSON.
    type State: GameState
        + Notation
        + Heuristic
        + crate::tensor::ObservationTensor
        + Serialize
        + DeserializeOwned
        + std::fmt::Display
        + std::str::FromStr<Err = Error>;

    /// The id used on the command line and in records, e.g. `tawla`.
    const ID: &'static str;
    /// The game's display name.
    const NAME: &'static str;
    /// A one-line description.
    const SUMMARY: &'static str;
    /// Fewest and most players.
    const PLAYERS: (usize, usize);

    /// The options this game accepts, with defaults.
    fn option_specs() -> &'static [OptionSpec];

    /// The game with these (already validated) options.
    fn from_options(options: &Options) -> Result<Self>;

    /// The state before the first action.
    fn initial_state(&self) -> Self::State;

    /// The rules for players, in Markdown (the project's `docs/rules/<id>.md`).
    const RULES: &'static str = "";
    /// Whether players hold information others may not see (cards).
    const HIDDEN_INFORMATION: bool = false;
    /// Whether chance acts (dice, deals); false: a game of perfect
    /// information without luck, whose states are never chance nodes.
    const CHANCE: bool = true;

    /// Number of players this configuration seats.
    fn num_players(&self) -> usize {
        Self::PLAYERS.0
    }
}

/// A quick per-game evaluation for agents that search shallowly.
pub trait Heuristic: GameState {
    /// How good the state looks for `player`, from -1 (lost) to 1 (won),
    /// roughly that player's expected return scaled to [-1, 1]. At the end of
    /// the game it is [`terminal_value`]: the outcome's value, 0 on a draw.
    fn heuristic(&self, player: Player) -> f64;

    /// A cheap action for the player to move that playouts may take instead
    /// of scoring every action by the heuristic (`None`: the game has none).
    fn playout_action(&self) -> Option<Self::Action> {
        None
    }

    /// The action a computer player plays without deliberating once the
    /// game has gone on so long that its play may be going round in circles
    /// (`None`, the default: deliberate as usual). It must read only what
    /// the player to move sees.
    fn settling_action(&self) -> Option<Self::Action> {
        None
    }

    /// The rules variant whose computer levels are chosen apart from the
    /// others' (Stortok's version); `None`, the default: one table of
    /// levels serves every variant of the game.
    fn level_variant(&self) -> Option<&'static str> {
        None
    }
}

/// The heuristic value of a finished game for `player`: 1 won, -1 lost, 0 a
/// draw (see [`Outcome::value`]); `None` while the game goes on.
pub fn terminal_value<S: GameState>(state: &S, player: Player) -> Option<f64> {
    state.outcome().map(|o| o.value(player))
}
