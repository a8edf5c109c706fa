//! The game interface of a two-player tables state: turns, legal and
//! chance actions, applying them, results and resignation.

use super::{MAX_PLIES_PER_GAME, Phase, TablesAction, TablesState, TablesVariant, TablesView};
use crate::error::{Error, Result};
use crate::game::{CubeAction, GameState, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use crate::tables::dice::{self, OPENING_P, OPENING_ROLLS, ROLLS};
use crate::tables::with_play_gen;

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
        with_play_gen(|g| {
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
