//! Game analysis: every decision of every player rated by the strongest
//! evaluation the game has (the rating of the action played against the
//! best one, the loss and a mark), the luck of every roll in the dice games,
//! and per player the error rate, the marks and a luck-adjusted result.
//! Decisions are analysed independently, in parallel over threads; each
//! uses an analyser seeded by its place in the game, so the result does not
//! depend on the number of threads.

mod judge;
mod luck;
mod position;
mod rate;

use crate::spec::{AgentSpec, Budget};
use serde::{Deserialize, Serialize};
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::{
    DynState, Error as EngineError, Game, GameState, GameVisitor, Notation, Player, Record, Resign,
    Turn, visit_game,
};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use judge::{
    Judge, Mark, Unit, analyser, mark, mark_with, thresholds, thresholds_with, valid_thresholds,
};
pub use position::{PositionAnalysis, PositionRating, analyse_position};
pub use rate::{Rated, RatedAction, rate_decision, rate_every_action};

/// How to analyse a game.
#[derive(Clone, Debug)]
pub struct AnalysisConfig {
    /// The analyser: a level (`hard` or `expert`, see [`analyser`]) or an
    /// agent spec (e.g. `mcts:iters=20000`).
    pub level: String,
    /// A time budget per decision in milliseconds for the searches
    /// (MCTS, ISMCTS, alpha-beta); `None`: the analyser's own budget in
    /// iterations or nodes, reproducible for a seed.
    pub millis: Option<u64>,
    /// Decisions analysed at once.
    pub threads: usize,
    /// The seed of the analysers' searches.
    pub seed: u64,
    /// The losses from which a move is doubtful, bad and very bad, in the
    /// moves' unit; `None`: [`thresholds`] (GNU Backgammon 1.07's).
    pub thresholds: Option<[f64; 3]>,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        AnalysisConfig {
            level: "expert".into(),
            millis: None,
            threads: 1,
            seed: 1,
            thresholds: None,
        }
    }
}

/// Why a game could not be analysed.
#[derive(Debug)]
pub enum AnalysisError {
    /// The record does not replay.
    Record(EngineError),
    /// The analyser is neither a level nor an agent spec.
    Analyser(String),
    /// The position cannot be read, or nobody is to move in it.
    Position(String),
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::Record(e) => write!(f, "the record does not replay: {e}"),
            AnalysisError::Analyser(e) | AnalysisError::Position(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// Told how many steps an analysis has and when each is done.
pub trait Progress: Sync {
    /// The analysis has `total` steps (decisions and rolls).
    fn start(&self, _total: usize) {}
    /// One more step is done.
    fn tick(&self) {}
}

impl Progress for () {}

/// One rated decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The action's place in the record (0 = the first action).
    pub index: usize,
    /// Who decided.
    pub player: Player,
    /// Whether it was a doubling-cube decision.
    pub cube: bool,
    /// How many legal actions there were.
    pub choices: usize,
    /// The action played, in the game's notation.
    pub played: String,
    /// The best action by the analyser.
    pub best: String,
    /// The rating of the action played; `None` where the analyser cannot
    /// compare the actions (a cube decision outside the networks' games).
    pub played_rating: Option<f64>,
    /// The rating of the best action.
    pub best_rating: Option<f64>,
    /// The rating's unit.
    pub unit: Unit,
    /// The best rating less the played one (0 when the played action is
    /// rated at least as high).
    pub loss: Option<f64>,
    /// The mark the loss earns.
    pub mark: Option<Mark>,
    /// The mover's chance to win (expected score 0..1) after the action
    /// played, by the analyser's estimate.
    pub chance: Option<f64>,
}

/// The luck of one roll: every player's value after the roll less before it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    /// The roll's place in the record.
    pub index: usize,
    /// The roll, in the game's notation.
    pub roll: String,
    /// The player who moves after the roll, if any.
    pub roller: Option<Player>,
    /// The roller's value (chance to win) before the roll.
    pub before: f64,
    /// The roller's value after it (with his best play of it).
    pub after: f64,
    /// Each player's change of value (chance to win) by the roll.
    pub luck: Vec<f64>,
    /// Whether every player rolled (an opening roll before anyone has
    /// decided anything): its luck is each player's, not the roller's.
    #[serde(default)]
    pub shared: bool,
}

/// One player's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The seat.
    pub player: Player,
    /// The name from the record ("?" if it names none).
    pub name: String,
    /// The seat's colour where the game gives seats colours (High-O Gammon,
    /// Tric-Trac), as the game's observation names it.
    pub colour: Option<String>,
    /// Rated decisions with a choice, the cube's apart.
    pub moves: usize,
    /// Sum of the moves' losses.
    pub move_loss: f64,
    /// Mean loss per rated move.
    pub move_error_rate: f64,
    /// Rated cube decisions.
    pub cube_decisions: usize,
    /// Sum of the cube decisions' losses.
    pub cube_loss: f64,
    /// Mean loss per rated cube decision.
    pub cube_error_rate: f64,
    /// Decisions marked doubtful.
    pub doubtful: usize,
    /// Decisions marked bad.
    pub bad: usize,
    /// Decisions marked very bad.
    pub very_bad: usize,
    /// The sum of the luck of every roll (chance to win), in the dice games.
    pub luck: Option<f64>,
    /// The player's final score (1 won, 0 lost, a draw 0.5; with more
    /// players the share of the others finished ahead of), once over.
    pub score: Option<f64>,
    /// The final score less the luck, within the possible scores (0..1),
    /// in the dice games once over.
    pub luck_adjusted_score: Option<f64>,
    /// The returns (points) of the game, once over.
    pub points: Option<f64>,
}

/// A game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The game's id.
    pub game: String,
    /// The analyser (an agent spec) and its budget.
    pub analyser: String,
    /// The judge in a player's words (an analysis stored before the judge
    /// was named reads as `custom`).
    #[serde(default)]
    pub judge: Judge,
    /// The rating unit of the moves.
    pub unit: Unit,
    /// Thresholds of the marks (doubtful, bad, very bad) in that unit.
    pub thresholds: [f64; 3],
    /// Whether the game had a doubling cube to decide on.
    #[serde(default)]
    pub cube: bool,
    /// Every decision with a choice, in the game's order.
    pub decisions: Vec<Decision>,
    /// Every roll with its luck (dice games only).
    pub rolls: Vec<Roll>,
    /// Per player.
    pub players: Vec<PlayerSummary>,
}

/// The analyser's spec for game `G`, with a time budget when given.
pub(crate) fn analyser_spec<G: Game>(
    config: &AnalysisConfig,
) -> Result<(AgentSpec, String), AnalysisError> {
    let text = analyser(G::ID, &config.level);
    let mut spec = crate::resolve::<G>(&text, G::PLAYERS.0)
        .map_err(|e| AnalysisError::Analyser(format!("analyser `{}`: {e}", config.level)))?;
    let mut name = text;
    if let Some(ms) = config.millis {
        spec = crate::hint::with_budget(spec, Budget::Millis(ms));
        name = format!("{name} ({ms} ms a decision)");
    }
    Ok((spec, name))
}

/// One step of the analysis: a decision or a roll, with the state before it.
enum Step<S: GameState> {
    Decision(usize, S, S::Action),
    /// A roll, and whether every player rolled it.
    Roll(usize, S, S::Action, bool),
}

enum Done {
    Decision(Decision),
    Roll(Roll),
}

impl Analysis {
    /// Marks the moves again with the thresholds `t` (in the moves' unit;
    /// decisions in another unit keep theirs) and counts the marks again.
    pub fn remark(&mut self, t: [f64; 3]) {
        for d in &mut self.decisions {
            if d.unit == self.unit {
                d.mark = d.loss.and_then(|l| mark_with(l, t));
            }
        }
        for p in &mut self.players {
            let count = |m: Mark| {
                self.decisions
                    .iter()
                    .filter(|d| d.player == p.player && d.mark == Some(m))
                    .count()
            };
            (p.doubtful, p.bad, p.very_bad) = (
                count(Mark::Doubtful),
                count(Mark::Bad),
                count(Mark::VeryBad),
            );
        }
        self.thresholds = t;
    }
}

/// Analyses a game given as a record (finished or not).
pub fn analyse_record(
    record: &Record,
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Analysis, AnalysisError> {
    visit_game(
        &record.game,
        Visit {
            record,
            config,
            progress,
        },
    )
    .map_err(AnalysisError::Record)?
}

struct Visit<'a> {
    record: &'a Record,
    config: &'a AnalysisConfig,
    progress: &'a dyn Progress,
}

impl GameVisitor for Visit<'_> {
    type Output = Result<Analysis, AnalysisError>;
    fn visit<G: Game>(self) -> Self::Output {
        let (start, actions) = replay::<G>(self.record)?;
        analyse_entries::<G>(
            start,
            &actions,
            &self.record.players,
            self.config,
            self.progress,
        )
    }
}

/// An entry of a record: an action of the game, or a seat's resignation
/// (not judged: the game's rules pay it).
#[derive(Clone, Copy, Debug)]
pub enum Entry<A> {
    /// An action, chance included.
    Action(A),
    /// A seat gave up.
    Resign(Resign),
}

/// The record's first state and its entries as the game's actions.
#[allow(clippy::type_complexity)]
fn replay<G: Game>(
    record: &Record,
) -> Result<(G::State, Vec<Entry<<G::State as GameState>::Action>>), AnalysisError> {
    // Check the whole record (result and outcome too) first.
    record.replay().map_err(AnalysisError::Record)?;
    let mut state: Box<dyn DynState> = record.start_state().map_err(AnalysisError::Record)?;
    let start = concrete::<G>(state.as_ref()).clone();
    let mut actions = Vec::with_capacity(record.actions.len());
    for text in &record.actions {
        let info = state.apply_recorded(text).map_err(AnalysisError::Record)?;
        if let Some(resign) = Resign::parse(text) {
            actions.push(Entry::Resign(resign.map_err(AnalysisError::Record)?));
            continue;
        }
        let action = serde_json::from_value(info.json)
            .map_err(|e| AnalysisError::Record(EngineError::BadJson(e.to_string())))?;
        actions.push(Entry::Action(action));
    }
    Ok((start, actions))
}

fn concrete<G: Game>(state: &dyn DynState) -> &G::State {
    &state
        .as_any()
        .downcast_ref::<StateOf<G>>()
        .expect("a state of the visited game")
        .0
}

/// Analyses the game that `actions` play from `start`, with `names` for the
/// seats.
pub fn analyse_game<G: Game>(
    start: G::State,
    actions: &[<G::State as GameState>::Action],
    names: &[String],
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Analysis, AnalysisError> {
    let entries: Vec<_> = actions.iter().map(|&a| Entry::Action(a)).collect();
    analyse_entries::<G>(start, &entries, names, config, progress)
}

/// Analyses the game that `entries` play from `start` (a resignation is
/// applied, not judged), with `names` for the seats.
pub fn analyse_entries<G: Game>(
    start: G::State,
    entries: &[Entry<<G::State as GameState>::Action>],
    names: &[String],
    config: &AnalysisConfig,
    progress: &dyn Progress,
) -> Result<Analysis, AnalysisError> {
    let (spec, analyser_name) = analyser_spec::<G>(config)?;
    let dice = !G::HIDDEN_INFORMATION;
    let (steps, end) = collect_steps::<G>(start, entries)?;
    progress.start(steps.len());
    let custom = config.thresholds;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Done)>> = Mutex::new(Vec::with_capacity(steps.len()));
    let threads = config.threads.clamp(1, steps.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(step) = steps.get(i) else { break };
                    let result = match step {
                        Step::Decision(index, s, a) => {
                            let seed = config.seed ^ (*index as u64).wrapping_mul(0x9E37_79B9);
                            Done::Decision(decision::<G>(*index, s, *a, &spec, seed, custom))
                        }
                        Step::Roll(index, s, a, shared) => {
                            let mut roll = luck::roll::<G>(*index, s, *a, &spec);
                            roll.shared = *shared;
                            Done::Roll(roll)
                        }
                    };
                    done.lock().expect("no thread panicked").push((i, result));
                    progress.tick();
                }
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panicked");
    done.sort_by_key(|(i, _)| *i);
    let mut decisions = Vec::new();
    let mut rolls = Vec::new();
    for (_, d) in done {
        match d {
            Done::Decision(d) => decisions.push(d),
            Done::Roll(r) => rolls.push(r),
        }
    }
    let unit = moves_unit(&spec);
    // Games without chance (Läger) have no luck to report.
    let luck = (dice && !rolls.is_empty()).then_some(&rolls[..]);
    let players = summaries(&end, names, &decisions, luck);
    Ok(Analysis {
        game: G::ID.into(),
        analyser: analyser_name,
        judge: Judge::of(&config.level),
        unit,
        thresholds: thresholds_with(unit, unit, custom),
        cube: decisions.iter().any(|d| d.cube),
        decisions,
        rolls,
        players,
    })
}

/// The decisions with a choice and (in the dice games) the rolls of the
/// game that `actions` play from `start`, with its last state.
#[allow(clippy::type_complexity)]
fn collect_steps<G: Game>(
    start: G::State,
    entries: &[Entry<<G::State as GameState>::Action>],
) -> Result<(Vec<Step<G::State>>, G::State), AnalysisError> {
    let dice = !G::HIDDEN_INFORMATION;
    let mut steps = Vec::new();
    let mut state = start;
    let mut legal = Vec::new();
    // Rolls before the first decision are everyone's (the opening roll).
    let mut opening = true;
    for (index, &entry) in entries.iter().enumerate() {
        // A resignation is applied, not judged: the game's rules pay it.
        let action = match entry {
            Entry::Action(action) => action,
            Entry::Resign(r) => {
                state
                    .resign(r.seat, r.kind)
                    .map_err(AnalysisError::Record)?;
                continue;
            }
        };
        match state.turn() {
            Turn::Player(_) => {
                opening = false;
                state.legal_actions(&mut legal);
                if legal.len() > 1 {
                    steps.push(Step::Decision(index, state.clone(), action));
                }
            }
            Turn::Chance if dice => {
                steps.push(Step::Roll(index, state.clone(), action, opening));
            }
            _ => {}
        }
        state.apply(action);
    }
    Ok((steps, state))
}

/// Rates one decision: the action played against the best.
fn decision<G: Game>(
    index: usize,
    state: &G::State,
    played: <G::State as GameState>::Action,
    spec: &AgentSpec,
    seed: u64,
    custom: Option<[f64; 3]>,
) -> Decision {
    let Turn::Player(player) = state.turn() else {
        unreachable!("decisions are at a player's turn")
    };
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut rated = rate_decision::<G>(state, played, spec, seed);
    // A move judged better than the search's best is the best.
    if let (Some(b), Some(p)) = (rated.best_rating, rated.played_rating)
        && p >= b
    {
        rated.best = played;
        rated.best_rating = Some(p);
    }
    let loss = match (rated.best_rating, rated.played_rating) {
        (Some(b), Some(p)) => Some((b - p).max(0.0)),
        _ => None,
    };
    // The thresholds of the moves' unit (the search's first estimate's).
    let t = thresholds_with(rated.unit, moves_unit(spec), custom);
    Decision {
        index,
        player,
        cube: state.cube_action(played).is_some(),
        choices: legal.len(),
        played: state.format_action(played),
        best: state.format_action(rated.best),
        played_rating: rated.played_rating,
        best_rating: rated.best_rating,
        unit: rated.unit,
        loss,
        mark: loss.and_then(|l| mark_with(l, t)),
        chance: rated.played_chance,
    }
}

/// The unit of the moves' ratings by the analyser `spec`.
fn moves_unit(spec: &AgentSpec) -> Unit {
    if matches!(spec, AgentSpec::Net(_)) {
        Unit::Equity
    } else {
        Unit::WinChance
    }
}

/// Each player's figures.
fn summaries<S: GameState>(
    end: &S,
    names: &[String],
    decisions: &[Decision],
    rolls: Option<&[Roll]>,
) -> Vec<PlayerSummary> {
    let over = end.turn() == Turn::Over;
    let scores = crate::values::final_scores(end);
    let view = serde_json::to_value(end.observation(spelbord_engine::Viewer::Spectator))
        .unwrap_or_default();
    let colour = |p: usize| view["players"][p]["colour"].as_str().map(String::from);
    (0..end.num_players())
        .map(|p| {
            let mine = || decisions.iter().filter(move |d| d.player == p);
            let (mut moves, mut move_loss, mut cube_decisions, mut cube_loss) = (0, 0.0, 0, 0.0);
            for d in mine() {
                let Some(loss) = d.loss else { continue };
                if d.cube {
                    cube_decisions += 1;
                    cube_loss += loss;
                } else {
                    moves += 1;
                    move_loss += loss;
                }
            }
            let count = |m: Mark| mine().filter(|d| d.mark == Some(m)).count();
            let luck = rolls.map(|r| r.iter().map(|r| r.luck[p]).sum::<f64>());
            let score = over.then_some(scores[p]);
            let rate = |loss: f64, n: usize| if n == 0 { 0.0 } else { loss / n as f64 };
            PlayerSummary {
                player: p,
                name: names.get(p).cloned().unwrap_or_else(|| "?".into()),
                colour: colour(p),
                moves,
                move_loss,
                move_error_rate: rate(move_loss, moves),
                cube_decisions,
                cube_loss,
                cube_error_rate: rate(cube_loss, cube_decisions),
                doubtful: count(Mark::Doubtful),
                bad: count(Mark::Bad),
                very_bad: count(Mark::VeryBad),
                luck,
                score,
                // The luck is summed roll by roll, each by an estimate; the
                // sum can pass what the result can make up for.
                luck_adjusted_score: score.zip(luck).map(|(s, l)| (s - l).clamp(0.0, 1.0)),
                points: over.then(|| end.returns().get(p)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
