//! Notation: a card is written rank then suit (`10S`, `QH`, `A♠`), a pick-up
//! is `take`, and chance cards are `deal 7C`, `turn 8S` or `draw KD`.

use super::cards::{Card, Kind};
use super::rules::{DealStep, StortokAction};
use super::{Phase, StortokState};
use crate::error::{Error, Result};
use crate::game::{GameEvent, Notation, Viewer};
use serde_json::json;

const TAKE_WORDS: [&str; 6] = ["take", "t", "pick up", "pickup", "pick", "decline"];

impl Notation for StortokState {
    fn format_action(&self, action: StortokAction) -> String {
        match action {
            StortokAction::Play(c) => c.to_string(),
            StortokAction::PickUp => "take".into(),
            StortokAction::Chance(c) => {
                let word = match self.phase {
                    Phase::Draw => "draw",
                    // The trump card: turned, or dealt face up in 1858 (STO-10).
                    Phase::Deal
                        if matches!(self.deal_step(), DealStep::Turn | DealStep::FaceUp(_)) =>
                    {
                        "turn"
                    }
                    _ => "deal",
                };
                format!("{word} {c}")
            }
        }
    }

    fn parse_action(&self, text: &str) -> Result<StortokAction> {
        let t = text.trim().to_lowercase();
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if TAKE_WORDS.contains(&t.as_str()) {
            return Ok(StortokAction::PickUp);
        }
        let card = |s: &str| {
            s.parse::<Card>().map_err(|reason| Error::BadNotation {
                text: text.into(),
                reason: format!(
                    "{reason}; write a card such as 10S, QH or A♠, or `take` to pick up"
                ),
            })
        };
        for word in ["deal ", "turn ", "draw "] {
            if let Some(rest) = t.strip_prefix(word) {
                return Ok(StortokAction::Chance(card(rest)?));
            }
        }
        if let Some(rest) = t.strip_prefix("play ") {
            return Ok(StortokAction::Play(card(rest)?));
        }
        let c = card(&t)?;
        Ok(match self.phase {
            Phase::Deal | Phase::Draw => StortokAction::Chance(c),
            _ => StortokAction::Play(c),
        })
    }

    fn explain_illegal(&self, action: StortokAction) -> String {
        let p = self.to_move;
        match (self.phase, action) {
            (Phase::Over, _) => "the game is over".into(),
            (Phase::Deal | Phase::Draw, StortokAction::Chance(_)) => {
                "not a card chance can give here".into()
            }
            (Phase::Deal, _) => "the cards are being dealt".into(),
            (Phase::Draw, _) => format!("P{p} is drawing from the stock"),
            (Phase::Play, StortokAction::Chance(_)) => {
                format!("it is P{p}'s turn to play, not a deal or draw")
            }
            (Phase::Play, StortokAction::PickUp) => {
                "there is nothing to pick up: lead any card from your hand".into()
            }
            (Phase::Play, StortokAction::Play(c)) => {
                if self.hands[p as usize] & c.bit() == 0 {
                    return format!("P{p} does not hold {c}");
                }
                let top = self.top().expect("answering a card");
                let trumps = self.trumps().expect("trumps fixed");
                let how = match trumps.kind(top) {
                    Kind::Plain => format!(
                        "a higher {} or any trump ({} or {})",
                        top.suit().name(),
                        trumps.high.name(),
                        trumps.low().name()
                    ),
                    Kind::LowTrump => format!(
                        "a higher {} (low trump) or any {} (high trump)",
                        top.suit().name(),
                        trumps.high.name()
                    ),
                    Kind::HighTrump => format!("only a higher {} (high trump)", top.suit().name()),
                };
                format!("{c} does not beat {top}: it is beaten by {how}; or `take`")
            }
        }
    }

    fn render(&self, viewer: Viewer, color: bool) -> String {
        super::render::render(self, viewer, color)
    }

    fn private_events(&self, viewer: Viewer) -> Vec<String> {
        match (self.events.drew, viewer) {
            (Some(c), Viewer::Player(p)) if p == self.events.actor as usize => {
                vec![format!("you drew {c}")]
            }
            _ => Vec::new(),
        }
    }

    fn game_events(&self) -> Vec<GameEvent> {
        let e = self.events;
        let mut out = Vec::new();
        if e.picked > 0 {
            let s = if e.picked == 1 { "" } else { "s" };
            out.push(GameEvent::new(
                "pick_up",
                json!({ "player": e.actor, "cards": e.picked }),
                format!("P{} picks up {} card{s}", e.actor, e.picked),
            ));
        }
        if e.trick_done {
            out.push(GameEvent::new(
                "trick_complete",
                json!({}),
                "the trick is complete",
            ));
        }
        if e.set_aside > 0 {
            out.push(GameEvent::new(
                "set_aside",
                json!({ "cards": e.set_aside }),
                format!("{} card(s) set aside", e.set_aside),
            ));
        }
        for q in 0..self.n {
            if e.out & (1 << q) != 0 {
                out.push(GameEvent::new(
                    "player_out",
                    json!({ "player": q }),
                    format!("P{q} has no cards left and is out"),
                ));
            }
        }
        if self.phase == Phase::Over {
            out.push(match (self.loser, self.resigned) {
                (Some(l), true) => GameEvent::new(
                    "end_resigned",
                    json!({ "loser": l }),
                    format!("P{l} resigns and is the stortok"),
                ),
                (Some(l), false) => GameEvent::new(
                    "end_stortok",
                    json!({ "loser": l }),
                    format!("P{l} is left holding cards: P{l} is the stortok"),
                ),
                (None, _) => GameEvent::new(
                    "end_cap",
                    json!({ "cap": self.cap }),
                    format!("the safety cap of {} turns is reached: no loser", self.cap),
                ),
            });
        }
        out
    }
}
