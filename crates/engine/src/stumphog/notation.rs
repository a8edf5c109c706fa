//! Notation, reasons for illegal actions, events (Stumpvarning), drawing.

use super::action::{self, StumphogAction};
use super::board::{Landing, Row, is_hemma, track_of};
use super::render::{name, render};
use super::state::{End, Last, Phase, StumphogState};
use crate::error::Result;
use crate::game::{GameEvent, Notation, Viewer};
use serde_json::json;

fn plural(n: u8, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl StumphogState {
    fn explain_move(&self, [a, b]: [u8; 2], stones: u8, steps: u8, row: Row, col: u8) -> String {
        if !(1..=7).contains(&col) {
            return "the columns are numbered 1 to 7 (7 next to Stumpen)".into();
        }
        if (stones, steps) != (a, b) && (stones, steps) != (b, a) {
            return format!(
                "with {a}-{b} a move is {} {} or {} {} (STU-8)",
                plural(a, "stone"),
                plural(b, "step"),
                plural(b, "stone"),
                plural(a, "step")
            );
        }
        if is_hemma(col) && steps != 1 {
            return format!(
                "{} {col} is in Hemma: stones leave Hemma only one step at a time, \
                 with a die showing 1 as the steps (STU-10)",
                row.name()
            );
        }
        let have = self.board().pile(self.mover(), row, col);
        format!(
            "{} {col} holds {}; every pile must keep one stone, so moving {} needs at least {} (STU-9)",
            row.name(),
            plural(have, "stone"),
            stones,
            stones + 1
        )
    }

    fn explain_decision(&self, [a, b]: [u8; 2], action: StumphogAction) -> String {
        let p = self.mover();
        let board = self.board();
        match action {
            StumphogAction::Move {
                stones,
                steps,
                row,
                col,
            } => self.explain_move([a, b], stones, steps, row, col),
            StumphogAction::BatIn(n) => {
                if a != 6 {
                    "batting in needs a six (STU-12)".into()
                } else if n != b {
                    format!("with 6-{b} you bat in {b} (the die beside the six; STU-12)")
                } else {
                    "there are no stones to bat in: your Hög and the opponent's Hög and Ute are empty"
                        .into()
                }
            }
            StumphogAction::BatInFromOpponent => {
                if (a, b) != (6, 6) {
                    "batting in six from the opponent needs a double six (STU-12)".into()
                } else if board.hog[p] == 0 {
                    "your Hög is empty, so `bat in 6` already takes them all from the opponent"
                        .into()
                } else {
                    "the opponent has no stones in Ute or Hög".into()
                }
            }
            StumphogAction::BatOut(n) => {
                if a != b {
                    "batting out needs doubles (STU-14)".into()
                } else if n != a + b {
                    format!("with {a}-{a} you bat out {} (the sum; STU-14)", a + b)
                } else {
                    "Stumpen has only its last stone and your Hög is empty (STU-14)".into()
                }
            }
            StumphogAction::Pass => "you have a legal action, so you may not pass (STU-15)".into(),
            StumphogAction::Opening(_) | StumphogAction::Roll(_) => {
                format!("the dice are rolled ({a}-{b}); {} must act", name(p))
            }
        }
    }
}

impl Notation for StumphogState {
    fn format_action(&self, action: StumphogAction) -> String {
        action::format(action)
    }

    fn parse_action(&self, text: &str) -> Result<StumphogAction> {
        action::parse(text)
    }

    fn describe_action(&self, action: StumphogAction, viewer: Viewer) -> String {
        let p = self.mover();
        let Phase::Acting(_) = self.phase() else {
            return self.format_action(action);
        };
        let board = self.board();
        match action {
            StumphogAction::Move {
                stones,
                steps,
                row,
                col,
            } => {
                // Rows are named from the mover's side: the mover's Bortom is
                // the other player's Hitom.
                let (row_name, whose) = match viewer {
                    Viewer::Player(v) if v != p => (
                        match row {
                            Row::Hitom => Row::Bortom.name(),
                            Row::Bortom => Row::Hitom.name(),
                        },
                        "your ",
                    ),
                    _ => (row.name(), ""),
                };
                let mut b = *board;
                let landing = b.apply_move(p, track_of(row, col), stones, steps);
                let what = match landing {
                    Landing::Pile => String::new(),
                    Landing::Stumpen => ", into Stumpen".into(),
                    Landing::Over => format!(", past Stumpen to {}'s Hög", name(1 - p)),
                };
                format!(
                    "{} {} from {whose}{row_name} {col}{what}",
                    plural(stones, "stone"),
                    plural(steps, "step"),
                )
            }
            StumphogAction::BatIn(_) | StumphogAction::BatInFromOpponent => {
                let (n, opp) = match action {
                    StumphogAction::BatIn(n) => (n, false),
                    _ => (6, true),
                };
                let moved: u8 = board.bat_in_plan(p, n, opp).iter().sum();
                let text = self.format_action(action);
                if moved < n {
                    format!("{text} (only {} there)", plural(moved, "stone"))
                } else {
                    text
                }
            }
            StumphogAction::BatOut(n) => {
                let moved: u8 = board.bat_out_plan(p, n).iter().sum();
                if moved < n {
                    format!("bat out {n} (only {} there)", plural(moved, "stone"))
                } else {
                    format!("bat out {n}")
                }
            }
            _ => self.format_action(action),
        }
    }

    fn explain_illegal(&self, action: StumphogAction) -> String {
        match self.phase() {
            Phase::Over => "the game is over".into(),
            Phase::Opening => "first the roll for Stumpen, written like `open 5-3`".into(),
            Phase::Rolling => "it is time to roll the dice, written like `4-2`".into(),
            Phase::Acting(dice) => self.explain_decision(dice, action),
        }
    }

    fn render(&self, viewer: Viewer, color: bool) -> String {
        render(self, viewer, color)
    }

    fn game_events(&self) -> Vec<GameEvent> {
        let mut events = Vec::new();
        self.push_last_events(&mut events);
        let b = self.board();
        for p in 0..2 {
            if self.warn_now >> p & 1 == 1 {
                events.push(GameEvent::new(
                    "stumpvarning",
                    json!({ "player": p, "ute": b.ute[p] }),
                    format!("Stumpvarning! {} has {} stones in Ute", name(p), b.ute[p]),
                ));
            }
        }
        self.push_end_events(&mut events);
        events
    }
}

impl StumphogState {
    /// Pushes the events of the last action: the opening roll, a stone
    /// past or out of Stumpen, batting in or out.
    fn push_last_events(&self, events: &mut Vec<GameEvent>) {
        let by = self.last_by as usize;
        match self.last {
            Last::Nothing => {}
            Last::Opening([d0, d1]) => {
                let layer = if d0 > d1 { 0 } else { 1 };
                events.push(GameEvent::new(
                    "opening",
                    json!({ "dice": [d0, d1], "starter": layer, "other": 1 - layer }),
                    format!(
                        "{} rolls {d0}, {} rolls {d1}: {} lays Stumpen and begins; {} gets the other stone in Hög",
                        name(0),
                        name(1),
                        name(layer),
                        name(1 - layer)
                    ),
                ));
            }
            Last::Moved { landing, stones } => match landing {
                Landing::Pile => {}
                Landing::Stumpen => events.push(GameEvent::new(
                    "stumpen_out",
                    json!({ "by": by, "stones": stones, "stay": stones - 1 }),
                    if stones == 1 {
                        format!("Slå ut: the stone goes on from Stumpen to {}'s Ute", name(by))
                    } else {
                        format!(
                            "Slå ut: 1 of the {stones} stones goes on to {}'s Ute, {} stay in Stumpen",
                            name(by),
                            stones - 1
                        )
                    },
                )),
                Landing::Over => events.push(GameEvent::new(
                    "over_stumpen",
                    json!({ "by": by, "stones": stones, "to": 1 - by }),
                    format!(
                        "Slagna över: {} past Stumpen to {}'s Hög",
                        plural(stones, "stone"),
                        name(1 - by)
                    ),
                )),
            },
            Last::BatIn([own, ute, hog]) => {
                let mut parts = Vec::new();
                if own > 0 {
                    parts.push(format!("{own} from own Hög"));
                }
                if ute > 0 {
                    parts.push(format!("{ute} from {}'s Ute", name(1 - by)));
                }
                if hog > 0 {
                    parts.push(format!("{hog} from {}'s Hög", name(1 - by)));
                }
                events.push(GameEvent::new(
                    "bat_in",
                    json!({ "by": by, "own_hog": own, "their_ute": ute, "their_hog": hog }),
                    format!(
                        "Slå in: {} to {}'s Port ({})",
                        plural(own + ute + hog, "stone"),
                        name(by),
                        parts.join(", ")
                    ),
                ));
            }
            Last::BatOut([stumpen, hog]) => {
                let mut text = format!(
                    "Slå ut: {} to {}'s Ute ({stumpen} from Stumpen",
                    plural(stumpen + hog, "stone"),
                    name(by)
                );
                if hog > 0 {
                    text.push_str(&format!(", {hog} from own Hög"));
                }
                text.push(')');
                events.push(GameEvent::new(
                    "bat_out",
                    json!({ "by": by, "stumpen": stumpen, "own_hog": hog }),
                    text,
                ));
            }
        }
    }

    /// Pushes the event of the game's end, if it is over.
    fn push_end_events(&self, events: &mut Vec<GameEvent>) {
        let b = self.board();
        match self.end() {
            Some(End::PastForty { winner }) => events.push(GameEvent::new(
                "end_ute",
                json!({ "winner": winner, "ute": b.ute[winner] }),
                format!(
                    "{} has {} stones in Ute and wins",
                    name(winner),
                    b.ute[winner]
                ),
            )),
            Some(End::DriedOut { loser }) => events.push(GameEvent::new(
                "end_dried_out",
                json!({ "loser": loser }),
                format!(
                    "{} is uttorkad (no stones in Hög or Ute) and loses",
                    name(loser)
                ),
            )),
            Some(End::Resigned { loser }) => events.push(GameEvent::new(
                "end_resigned",
                json!({ "loser": loser }),
                format!("{} resigns", name(loser)),
            )),
            Some(End::BothDriedOut) => events.push(GameEvent::new(
                "end_both_dried_out",
                json!({}),
                "Both players are uttorkade: a draw",
            )),
            Some(End::TurnCap) => events.push(GameEvent::new(
                "end_turn_cap",
                json!({ "cap": self.rules().turn_cap }),
                format!(
                    "The turn cap ({}) is reached: a draw",
                    self.rules().turn_cap
                ),
            )),
            None => {}
        }
    }
}
