//! Reading and writing the actions of a two-player tables game, its
//! drawing, and its heuristic.

use super::{Phase, TablesAction, TablesState, TablesVariant};
use crate::error::{Error, Result};
use crate::game::{GameState, Heuristic, Notation, Player, Viewer, terminal_value};
use crate::tables::movegen::StepBoard;
use crate::tables::notation::{
    MarkedPlay, parse_point, parse_typed, point_text, resolve_typed, same_steps_in_order,
};
use crate::tables::play::{Play, Step};
use crate::tables::render::render_board;
use crate::tables::step_graph::{StepsView, play_boards, step_graph};

/// Dice written as `6-5`, `6 5` or `6,5`.
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
