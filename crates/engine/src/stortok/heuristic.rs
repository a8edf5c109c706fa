//! A quick evaluation: every card held is a burden to shed, a strong card
//! (high trumps most) a lighter one, and what counts is one's own burden
//! against the others'. A card picked up always weighs, so picking up never
//! looks good in itself (an evaluation on the hand's mean strength could
//! rate a hand higher for a strong card picked up).

use super::cards::{Card, Cards, Kind, Trumps};
use super::rules::StortokAction;
use super::{Phase, StortokState};
use crate::game::{Heuristic, Player, terminal_value};

/// How strong a card is for beating and for not being beaten, 0..1: plain
/// cards 0..0.5 by rank, low trumps 0.5..0.75, high trumps 0.75..1.
pub fn card_strength(card: Card, trumps: Option<Trumps>) -> f64 {
    let r = (card.rank() as f64 - 2.0) / 12.0;
    match trumps.map(|t| t.kind(card)) {
        Some(Kind::HighTrump) => 0.75 + 0.25 * r,
        Some(Kind::LowTrump) => 0.5 + 0.25 * r,
        _ => 0.5 * r,
    }
}

/// How much a card weighs in a hand, 0.4..1: a weak card is hardest to be
/// rid of.
fn burden(card: Card, trumps: Option<Trumps>) -> f64 {
    1.0 - 0.6 * card_strength(card, trumps)
}

/// Turns after which the computer players stop deliberating and shed by
/// the playout rule ([`Heuristic::playout_action`]), which ends games:
/// between searching players 1858 games go round in circles (docs/ai.md).
pub const SETTLE_AFTER: u32 = 500;

impl Heuristic for StortokState {
    fn heuristic(&self, player: Player) -> f64 {
        if let Some(value) = terminal_value(self, player) {
            return value;
        }
        let n = self.n as usize;
        if self.hands[player] == 0 && self.phase != Phase::Deal && self.stock_len() == 0 {
            // Out: safe, only the game's end is pending.
            return 0.9;
        }
        let trumps = self.trumps();
        let load = |q: usize| Cards(self.hands[q]).map(|c| burden(c, trumps)).sum::<f64>();
        let mine = load(player);
        let others: Vec<f64> = (0..n)
            .filter(|&q| q != player && self.hands[q] != 0)
            .map(load)
            .collect();
        let avg = if others.is_empty() {
            0.0
        } else {
            others.iter().sum::<f64>() / others.len() as f64
        };
        (0.95 * (avg - mine) / (avg + mine + 1.0)).clamp(-0.95, 0.95)
    }

    /// Sheds the weakest card that may be played (a lead, or the cheapest
    /// beat); picks up only when nothing beats.
    fn playout_action(&self) -> Option<StortokAction> {
        if self.phase != Phase::Play {
            return None;
        }
        let trumps = self.trumps();
        let weakest = Cards(self.playable())
            .min_by(|&a, &b| card_strength(a, trumps).total_cmp(&card_strength(b, trumps)));
        Some(weakest.map_or(StortokAction::PickUp, StortokAction::Play))
    }

    /// After [`SETTLE_AFTER`] turns, the playout rule: it reads only the
    /// mover's hand and the top card.
    fn settling_action(&self) -> Option<StortokAction> {
        if self.plies() < SETTLE_AFTER {
            return None;
        }
        self.playout_action()
    }

    /// The version: each has its own computer levels (docs/ai.md).
    fn level_variant(&self) -> Option<&'static str> {
        Some(self.version.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameState, Turn};
    use crate::rng::seeded;
    use crate::stortok::{Stortok, Version};
    use rand::Rng;

    fn table(version: &str, players: u8) -> Stortok {
        Stortok {
            version: Version::from_name(version).unwrap(),
            players,
            cap: 5000,
        }
    }

    /// Plays one game, each player's action from `policy`, and calls `each`
    /// on every state where a player is to move.
    fn play(
        g: &Stortok,
        seed: u64,
        mut policy: impl FnMut(&StortokState, &[StortokAction], &mut dyn rand::RngCore) -> StortokAction,
        mut each: impl FnMut(&StortokState, &[StortokAction]),
    ) -> StortokState {
        let mut rng = seeded(seed);
        let mut s = g.initial_state();
        let mut actions = Vec::new();
        loop {
            let a = match s.turn() {
                Turn::Over => return s,
                Turn::Chance => s.sample_chance(&mut rng),
                Turn::Player(_) => {
                    s.legal_actions(&mut actions);
                    each(&s, &actions);
                    policy(&s, &actions, &mut rng)
                }
            };
            s.apply(a);
        }
    }

    fn random(
        _: &StortokState,
        actions: &[StortokAction],
        rng: &mut dyn rand::RngCore,
    ) -> StortokAction {
        actions[rng.random_range(0..actions.len())]
    }

    /// The action whose result the heuristic likes best for the mover.
    fn greedy(
        s: &StortokState,
        actions: &[StortokAction],
        _: &mut dyn rand::RngCore,
    ) -> StortokAction {
        let Turn::Player(p) = s.turn() else {
            unreachable!()
        };
        let mut best = (f64::NEG_INFINITY, actions[0]);
        for &a in actions {
            let mut t = *s;
            t.apply(a);
            if t.heuristic(p) > best.0 {
                best = (t.heuristic(p), a);
            }
        }
        best.1
    }

    #[test]
    fn picking_up_always_looks_worse_for_the_picker() {
        // STO-8, STO-11, STO-14: a pick-up adds cards; a strong card picked
        // up must not make the hand look better.
        for version in Version::NAMES {
            for n in 2..=5 {
                let g = table(version, n);
                for seed in 0..4 {
                    play(&g, seed, random, |s, actions| {
                        let Turn::Player(p) = s.turn() else { return };
                        if !actions.contains(&StortokAction::PickUp) {
                            return;
                        }
                        let mut t = *s;
                        t.apply(StortokAction::PickUp);
                        if t.turn() != Turn::Over {
                            assert!(t.heuristic(p) < s.heuristic(p), "{version} {n}: {s:?}");
                        }
                    });
                }
            }
        }
    }

    #[test]
    fn the_playout_action_sheds_the_weakest_playable_card() {
        // STO-3: it beats when it can, with the weakest beater; it picks up
        // only when nothing beats.
        for version in Version::NAMES {
            let g = table(version, 3);
            play(&g, 7, random, |s, actions| {
                let a = s.playout_action().expect("a player is to move");
                assert!(actions.contains(&a));
                let plays: Vec<Card> = actions
                    .iter()
                    .filter_map(|&a| match a {
                        StortokAction::Play(c) => Some(c),
                        _ => None,
                    })
                    .collect();
                match a {
                    StortokAction::PickUp => assert!(plays.is_empty()),
                    StortokAction::Play(c) => {
                        let t = s.trumps();
                        assert!(
                            plays
                                .iter()
                                .all(|&d| card_strength(c, t) <= card_strength(d, t))
                        );
                    }
                    StortokAction::Chance(_) => panic!("a chance action for a player"),
                }
            });
        }
    }

    #[test]
    fn players_settle_on_the_playout_rule_after_settle_after_turns() {
        // STO-11: deliberation stops at SETTLE_AFTER turns, not before.
        let g = table("1858", 3);
        let mut seen_after = false;
        play(&g, 3, random, |s, _| {
            if s.plies() < SETTLE_AFTER {
                assert_eq!(s.settling_action(), None);
            } else {
                seen_after = true;
                assert_eq!(s.settling_action(), s.playout_action());
            }
        });
        assert!(seen_after, "random 1858 play reaches {SETTLE_AFTER} turns");
    }

    #[test]
    fn settled_play_ends_1858_games_that_went_round_in_circles() {
        // STO-4, STO-11: random play never sheds for good (it reaches the
        // cap); from wherever it stands after SETTLE_AFTER turns, the
        // settling rule in every seat ends the game.
        for n in 2..=5 {
            let g = table("1858", n);
            for seed in 0..10 {
                let end = play(
                    &g,
                    seed,
                    |s, actions, rng| match s.settling_action() {
                        Some(a) => a,
                        None => random(s, actions, rng),
                    },
                    |_, _| {},
                );
                assert!(
                    !end.capped(),
                    "{n} players, seed {seed}: {} turns",
                    end.plies
                );
            }
        }
    }

    #[test]
    fn greedy_play_finishes_1858_at_every_table_size() {
        // STO-11: with no tricks every card played comes back when the pile
        // is picked up; greedy play on this evaluation still ends the game.
        for n in 2..=5 {
            let g = table("1858", n);
            for seed in 0..10 {
                let end = play(&g, seed, greedy, |_, _| {});
                assert!(
                    !end.capped(),
                    "{n} players, seed {seed}: {} turns",
                    end.plies
                );
            }
        }
    }
}
