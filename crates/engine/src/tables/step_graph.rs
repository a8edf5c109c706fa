//! A turn made step by step, as a person plays it: every order in which the
//! single steps of the legal plays may be made, each step checked by the
//! game's own step rules, the positions in between, and where each legal
//! play ends. A user interface follows it instead of knowing the rules.

use super::movegen::{DiceRule, StepBoard, StepList};
use super::play::{Play, Step};
use serde::Serialize;
use std::collections::HashMap;

/// One single step from one position to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StepMove {
    /// The position it starts from (an index into the positions).
    pub at: usize,
    /// Where the checker starts.
    pub from: u8,
    /// Where it ends.
    pub to: u8,
    /// The die used.
    pub die: u8,
    /// The position after the step.
    pub next: usize,
}

/// Where a legal play is complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlayEnd {
    /// The position after the last step of the play.
    pub at: usize,
    /// The play's index in the legal actions.
    pub action: usize,
}

/// The positions of a turn (the start first) joined by single steps.
#[derive(Clone, Debug, PartialEq)]
pub struct StepGraph<B> {
    /// The positions, parents before children; index 0 is the start.
    pub boards: Vec<B>,
    /// Every step that keeps a legal play within reach.
    pub moves: Vec<StepMove>,
    /// The position where each legal play ends.
    pub ends: Vec<PlayEnd>,
}

/// Builds the graph of `plays` (the legal plays of `dice` on `board`, in the
/// order of the legal actions) under `rule`. Only steps that the board offers
/// and that lead on to a legal play are kept.
pub fn step_graph<B: StepBoard>(
    board: &B,
    dice: &[u8],
    rule: DiceRule,
    plays: &[Play],
) -> StepGraph<B> {
    let mut finals: HashMap<(u128, usize), usize> = HashMap::new();
    for (i, play) in plays.iter().enumerate() {
        if play.is_empty() {
            continue;
        }
        let mut b = *board;
        for &s in play.steps() {
            b.apply_step(s);
        }
        finals.entry((b.key(), play.len())).or_insert(i);
    }
    let mut walk = Walk {
        rule,
        finals,
        max_len: plays.iter().map(Play::len).max().unwrap_or(0),
        seen: HashMap::new(),
        boards: Vec::new(),
        moves: Vec::new(),
        ends: Vec::new(),
    };
    let root = walk.visit(board, dice, 0);
    walk.into_graph(board, root)
}

/// The search state: positions found so far, in post-order.
struct Walk<B> {
    rule: DiceRule,
    finals: HashMap<(u128, usize), usize>,
    max_len: usize,
    /// (position key, dice left) to the position's index, or `None` when no
    /// legal play can be completed from it.
    seen: HashMap<(u128, [u8; 4]), Option<usize>>,
    boards: Vec<B>,
    /// Moves with `at` and `next` as post-order indices.
    moves: Vec<StepMove>,
    ends: Vec<PlayEnd>,
}

impl<B: StepBoard> Walk<B> {
    /// The index of the position `board` with `left` dice to play, after
    /// `depth` steps, or `None` when no legal play goes through it.
    fn visit(&mut self, board: &B, left: &[u8], depth: usize) -> Option<usize> {
        let memo = (board.key(), dice_key(left, self.rule));
        if let Some(&known) = self.seen.get(&memo) {
            return known;
        }
        let end = self.finals.get(&(memo.0, depth)).copied();
        let mut out: Vec<(Step, usize)> = Vec::new();
        if depth < self.max_len {
            let mut tried = [false; 7];
            for i in 0..left.len() {
                let die = left[i];
                if tried[die as usize] {
                    continue;
                }
                tried[die as usize] = true;
                let mut rest = [0u8; 4];
                let mut n = 0;
                for (j, &d) in left.iter().enumerate() {
                    if j != i {
                        rest[n] = d;
                        n += 1;
                    }
                }
                let mut steps = StepList::default();
                board.steps(die, &mut steps);
                for &step in steps.as_slice() {
                    let mut next = *board;
                    next.apply_step(step);
                    if let Some(child) = self.visit(&next, &rest[..n], depth + 1) {
                        out.push((step, child));
                    }
                }
                if self.rule == DiceRule::InOrder {
                    break;
                }
            }
        }
        let found = if end.is_some() || !out.is_empty() {
            let id = self.boards.len();
            self.boards.push(*board);
            if let Some(action) = end {
                self.ends.push(PlayEnd { at: id, action });
            }
            for (step, child) in out {
                self.moves.push(StepMove {
                    at: id,
                    from: step.from,
                    to: step.to,
                    die: step.die,
                    next: child,
                });
            }
            Some(id)
        } else {
            None
        };
        self.seen.insert(memo, found);
        found
    }

    /// The graph with positions renumbered from the start (reverse
    /// post-order: every position before those it leads to).
    fn into_graph(self, start: &B, root: Option<usize>) -> StepGraph<B> {
        let Some(root) = root else {
            return StepGraph {
                boards: vec![*start],
                moves: Vec::new(),
                ends: Vec::new(),
            };
        };
        let last = root;
        let renumber = |i: usize| last - i;
        let mut boards = self.boards;
        boards.truncate(last + 1);
        boards.reverse();
        let mut moves: Vec<StepMove> = self
            .moves
            .into_iter()
            .map(|m| StepMove {
                at: renumber(m.at),
                next: renumber(m.next),
                ..m
            })
            .collect();
        moves.sort_by_key(|m| (m.at, m.from, m.to, m.die));
        let mut ends: Vec<PlayEnd> = self
            .ends
            .into_iter()
            .map(|e| PlayEnd {
                at: renumber(e.at),
                ..e
            })
            .collect();
        ends.sort_by_key(|e| e.at);
        StepGraph {
            boards,
            moves,
            ends,
        }
    }
}

/// The positions a play passes through from `start`: the start, then the
/// board after each of `steps` (each made by `apply`), each drawn by `draw`
/// (a played move shown step by step).
pub fn play_boards<B: Copy>(
    start: B,
    steps: &[Step],
    apply: impl Fn(&mut B, Step),
    draw: impl Fn(&B) -> serde_json::Value,
) -> Vec<serde_json::Value> {
    let mut board = start;
    let mut out = Vec::with_capacity(steps.len() + 1);
    out.push(draw(&board));
    for &step in steps {
        apply(&mut board, step);
        out.push(draw(&board));
    }
    out
}

/// The dice left as a memo key: in order for [`DiceRule::InOrder`], sorted
/// otherwise.
fn dice_key(left: &[u8], rule: DiceRule) -> [u8; 4] {
    let mut key = [0u8; 4];
    key[..left.len()].copy_from_slice(left);
    if rule == DiceRule::Maximize {
        key[..left.len()].sort_unstable();
    }
    key
}

impl<B> StepGraph<B> {
    /// The steps of every path from the start to the end of a legal play,
    /// as (action index, steps) pairs (for tests and tools).
    pub fn paths(&self) -> Vec<(usize, Vec<Step>)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, Vec<Step>)> = vec![(0, Vec::new())];
        while let Some((at, path)) = stack.pop() {
            for e in self.ends.iter().filter(|e| e.at == at) {
                out.push((e.action, path.clone()));
            }
            for m in self.moves.iter().filter(|m| m.at == at) {
                let mut longer = path.clone();
                longer.push(Step {
                    from: m.from,
                    to: m.to,
                    die: m.die,
                });
                stack.push((m.next, longer));
            }
        }
        out
    }
}

/// A [`StepGraph`] as sent to a user interface: positions as JSON (in the
/// observation's own form), steps in the legal actions' codes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepsView {
    /// The positions; index 0 is the start.
    pub boards: Vec<serde_json::Value>,
    /// Every step that keeps a legal play within reach.
    pub moves: Vec<StepMove>,
    /// The position where each legal play ends.
    pub ends: Vec<PlayEnd>,
}

impl<B> StepGraph<B> {
    /// The graph for a user interface: each position drawn by `board`, each
    /// step's codes written by `code` (from the board's to the actions').
    pub fn view(
        &self,
        board: impl Fn(&B) -> serde_json::Value,
        code: impl Fn(u8) -> u8,
    ) -> StepsView {
        StepsView {
            boards: self.boards.iter().map(board).collect(),
            moves: self
                .moves
                .iter()
                .map(|m| StepMove {
                    from: code(m.from),
                    to: code(m.to),
                    ..*m
                })
                .collect(),
            ends: self.ends.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamic::DynState;
    use crate::game::{Turn, Viewer};
    use crate::registry::find_game;
    use crate::rng::seeded;
    use crate::tables::StepsView;
    use serde_json::Value;

    /// The parts of an observation that a step changes.
    fn board_part(game: &str, obs: &Value) -> Value {
        if game == "high-gammon" || game == "tric-trac" {
            let players = obs["players"].as_array().expect("players");
            let each = |k: &str| Value::Array(players.iter().map(|p| p[k].clone()).collect());
            serde_json::json!({
                "fields": obs["fields"],
                "bar": each("bar"),
                "waiting": each("waiting"),
                "off": each("off"),
            })
        } else {
            obs["board"].clone()
        }
    }

    /// Checks one turn's graph against the engine: every legal play of
    /// steps ends somewhere, on the board that applying it gives, and every
    /// position's steps lead on.
    fn check(state: &dyn DynState, view: &StepsView) {
        let game = state.game_id();
        let legal = state.legal_actions();
        let start = board_part(game, &state.observation_json(Viewer::Spectator));
        assert_eq!(view.boards[0], start, "{game}: the start is the board now");
        for (i, action) in legal.iter().enumerate() {
            let steps = action.json["play"].as_array().map_or(0, Vec::len);
            let ends: Vec<_> = view.ends.iter().filter(|e| e.action == i).collect();
            if steps == 0 {
                assert!(ends.is_empty(), "{game}: a pass has no steps");
                continue;
            }
            assert!(!ends.is_empty(), "{game}: {} ends somewhere", action.text);
            let mut after = state.clone_box();
            after.apply_json(&action.json).expect("a legal action");
            let expected = board_part(game, &after.observation_json(Viewer::Spectator));
            for end in &ends {
                assert_eq!(
                    view.boards[end.at], expected,
                    "{game}: {} ends on its board",
                    action.text
                );
            }
            // The engine's own order of the steps is one of the paths, and
            // the positions the play passes through are the path's.
            let mut at = 0;
            let mut path = vec![view.boards[0].clone()];
            for s in action.json["play"].as_array().expect("steps") {
                let m = view
                    .moves
                    .iter()
                    .find(|m| {
                        m.at == at && s["from"] == m.from && s["to"] == m.to && s["die"] == m.die
                    })
                    .unwrap_or_else(|| panic!("{game}: step {s} of {} offered", action.text));
                at = m.next;
                path.push(view.boards[at].clone());
            }
            assert!(
                ends.iter().any(|e| e.at == at),
                "{game}: {} in its own order",
                action.text
            );
            assert_eq!(
                state.play_boards(&action.json),
                Some(path),
                "{game}: the positions {} passes through",
                action.text
            );
        }
        for m in &view.moves {
            assert!(
                m.next > m.at,
                "{game}: positions come before those they lead to"
            );
            let leads_on = view.ends.iter().any(|e| e.at == m.next)
                || view.moves.iter().any(|n| n.at == m.next);
            assert!(leads_on, "{game}: a step that leads nowhere");
        }
    }

    #[test]
    fn every_legal_play_can_be_made_step_by_step_in_every_tables_game() {
        for id in ["tawla", "backgammon", "high-gammon", "tric-trac"] {
            let game = find_game(id).expect("registered");
            let mut rng = seeded(7);
            let mut checked = 0;
            for _ in 0..6 {
                let mut state = game
                    .new_state(&game.parse_options(&[]).expect("defaults"))
                    .expect("a state");
                for _ in 0..400 {
                    match state.turn() {
                        Turn::Over => break,
                        Turn::Chance => {
                            let a = state.sample_chance(&mut rng);
                            state.apply_json(&a.json).expect("chance");
                        }
                        Turn::Player(_) => {
                            if let Some(view) = state.play_steps() {
                                check(&*state, &view);
                                checked += 1;
                            }
                            let legal = state.legal_actions();
                            let pick = rand::Rng::random_range(&mut rng, 0..legal.len());
                            state.apply_json(&legal[pick].json).expect("legal");
                        }
                    }
                }
            }
            assert!(checked > 100, "{id}: only {checked} turns checked");
        }
    }

    #[test]
    fn only_a_legal_play_passes_through_positions() {
        for id in ["tawla", "backgammon", "high-gammon"] {
            let game = find_game(id).expect("registered");
            let mut state = game
                .new_state(&game.parse_options(&[]).expect("defaults"))
                .expect("a state");
            let mut rng = seeded(3);
            while state.play_steps().is_none() {
                let a = state.sample_chance(&mut rng);
                state.apply_json(&a.json).expect("chance");
                if state.play_steps().is_none() && !matches!(state.turn(), Turn::Chance) {
                    let first = state.legal_actions().remove(0);
                    state.apply_json(&first.json).expect("legal");
                }
            }
            let nowhere = serde_json::json!({ "play": [{ "from": 3, "to": 2, "die": 1 }] });
            assert_eq!(state.play_boards(&nowhere), None, "{id}: not a legal play");
            assert_eq!(state.play_boards(&serde_json::json!("roll")), None, "{id}");
            assert_eq!(
                state.play_boards(&serde_json::json!({ "x": 1 })),
                None,
                "{id}"
            );
        }
    }

    #[test]
    fn one_checker_may_use_the_dice_the_other_way_round() {
        // Backgammon, 6-5 from the start: 13/2 goes by 7 or by 8.
        let game = find_game("backgammon").expect("registered");
        let mut state = game
            .new_state(&game.parse_options(&[]).expect("defaults"))
            .expect("a state");
        state.apply_text("open 6-5").expect("opening");
        let view = state.play_steps().expect("moving");
        let step = |at: usize, from: u8, to: u8| {
            view.moves
                .iter()
                .find(|m| m.at == at && m.from == from && m.to == to)
                .map(|m| m.next)
        };
        let by_7 = step(0, 13, 7).and_then(|at| step(at, 7, 2));
        let by_8 = step(0, 13, 8).and_then(|at| step(at, 8, 2));
        assert!(by_7.is_some() && by_7 == by_8, "{:?}", view.moves);
        // The lover's leap goes only by 18: the opponent holds 19.
        assert!(step(0, 24, 18).is_some() && step(0, 24, 19).is_none());
    }
}
