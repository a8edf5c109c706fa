//! The levels of every game: which agent and budget `ai:easy`, `ai:medium`,
//! `ai:hard` and `ai:expert` stand for. Chosen by arena measurements (see
//! `docs/ai.md`); budgets are iteration or node counts, so that play is
//! reproducible for a seed, sized to answer well within the time limits
//! (hard 1 s, expert 5 s per move on one core).

use crate::spec::Level;

/// The games the level table knows, by their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameId {
    /// `tawla`
    Tawla,
    /// `backgammon`
    Backgammon,
    /// `high-gammon`
    HighGammon,
    /// `tric-trac`
    TricTrac,
    /// `stumphog`
    Stumphog,
    /// `stortok`
    Stortok,
    /// `lager`
    Lager,
}

impl GameId {
    /// The game of an id; `None` for an id the table does not know.
    pub fn parse(id: &str) -> Option<GameId> {
        Some(match id {
            "tawla" => GameId::Tawla,
            "backgammon" => GameId::Backgammon,
            "high-gammon" => GameId::HighGammon,
            "tric-trac" => GameId::TricTrac,
            "stumphog" => GameId::Stumphog,
            "stortok" => GameId::Stortok,
            "lager" => GameId::Lager,
            _ => return None,
        })
    }
}

/// The seat network's agent for `level` in High-O Gammon or Tric-Trac with
/// `players` players where it measured better than the rollout level it
/// replaces, the whole 95% interval above 50% (docs/ai.md, "The trained seat
/// networks against the rollout levels" and "The expert with three and four
/// players"); `None` keeps the rollouts.
fn seat_net_level(game: GameId, players: usize, level: Level) -> Option<&'static str> {
    use GameId::*;
    match (game, players, level) {
        // Four-player Tric-Trac's network did not beat the short rollouts.
        (TricTrac, 4, _) => None,
        (HighGammon | TricTrac, _, Level::Hard) => Some("net"),
        // One ply with two players; with three and four, rollouts guided by
        // the network, which beat both the rollout expert and `net`.
        (HighGammon | TricTrac, 2, Level::Expert) => Some("net:ply=1"),
        (HighGammon | TricTrac, _, Level::Expert) => Some("net:rollout=64,turns=4,width=4"),
        _ => None,
    }
}

/// Stortok's `hard` and `expert` for a version (`None`: 1847, the
/// default) and number of players, chosen by arena measurement with one
/// player of a level alone at a table of the level below (docs/ai.md,
/// "Stortok's levels per version and table size"): the same agents
/// measured stronger at every version and table size.
fn stortok_level(version: Option<&str>, players: usize, level: Level) -> &'static str {
    let _ = (version, players);
    match level {
        Level::Easy => "greedy:temp=0.03",
        Level::Medium => "greedy",
        Level::Hard => "ismcts:iters=500,playout=greedy0.1,cutoff=40",
        Level::Expert => "ismcts:iters=2000,playout=greedy0.1,cutoff=40",
    }
}

/// The agent (in the command line's notation) of `level` in game `game`
/// with `players` players and the rules variant `variant` (Stortok's
/// version; `None`: the game's default); a game the table does not know
/// plays greedily.
pub fn level_agent(
    game: &str,
    players: usize,
    variant: Option<&str>,
    level: Level,
) -> &'static str {
    let Some(game) = GameId::parse(game) else {
        return match level {
            Level::Easy => "greedy:temp=0.03",
            _ => "greedy",
        };
    };
    use GameId::*;
    match (game, level) {
        (_, Level::Easy) => "greedy:temp=0.03",
        (_, Level::Medium) => "greedy",
        // The networks trained by self-play (docs/ai.md). Backgammon,
        // chosen against GNU Backgammon: one ply (all 21 rolls) for hard,
        // two for expert. Tawla: the network alone for hard; for expert two
        // plies with the opponent's reply chosen at 0-ply (`inner=1`): 58.85%
        // against the 870,000-game expert over 1,000 games where one ply
        // scored 56.3% on the same dice, 156 ms a move (measure/). Tawla's
        // levels before the network:
        // `expectimax:depth=2,root=8` and `mcts:prior=on,cutoff=0,iters=5000,c=1.0`.
        (Backgammon, Level::Hard) => "net:ply=1",
        // Expert's close cube decisions are rolled out (84 trials to the end).
        (Backgammon, Level::Expert) => "net:ply=2,cube_rollout=84",
        (Tawla, Level::Hard) => "net",
        (Tawla, Level::Expert) => "net:ply=2,inner=1",
        (Stumphog, Level::Hard) => "expectimax:depth=3,root=8,width=8",
        // Nothing measured stronger: a wider depth-3 search plays the same
        // moves, depth 4 was no better and far slower (docs/ai.md).
        (Stumphog, Level::Expert) => "expectimax:depth=3,root=8,width=8",
        (Lager, Level::Hard) => "alphabeta:nodes=20000",
        (Lager, Level::Expert) => "alphabeta:nodes=200000",
        (Stortok, _) => stortok_level(variant, players, level),
        // High-O Gammon, Tric-Trac: the seat networks where they measured
        // better than the rollouts; elsewhere short greedy rollouts (common
        // dice for every candidate), which beat greedy play, and longer ones
        // with more samples, which look further and beat the short ones.
        (HighGammon | TricTrac, Level::Hard) => {
            seat_net_level(game, players, level).unwrap_or("rollout:n=32,width=3,cutoff=4")
        }
        (HighGammon | TricTrac, Level::Expert) => {
            seat_net_level(game, players, level).unwrap_or("rollout:n=200,width=4,cutoff=10")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::AgentSpec;

    #[test]
    fn every_level_of_every_game_is_a_valid_agent() {
        for game in spelbord_engine::games() {
            for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
                assert!(GameId::parse(game.id()).is_some(), "{}", game.id());
                let text = level_agent(game.id(), 2, None, level);
                assert!(AgentSpec::parse(text).is_ok(), "{} {text}", game.id());
            }
        }
    }

    #[test]
    fn stortok_has_a_valid_level_per_version_and_table_size() {
        // STO-1, STO-16: a level for every version (the option's values and
        // the default) and every table size, each a valid agent; the easy
        // and medium levels are the same everywhere.
        let versions = [
            None,
            Some("1847"),
            Some("1858"),
            Some("schenkmanis"),
            Some("helmfrid"),
        ];
        for version in versions {
            for players in 2..=5 {
                for level in Level::ALL {
                    let text = level_agent("stortok", players, version, level);
                    assert!(
                        AgentSpec::parse(text).is_ok(),
                        "{version:?} {players} {text}"
                    );
                }
                assert_eq!(
                    level_agent("stortok", players, version, Level::Medium),
                    "greedy"
                );
            }
        }
        assert_eq!(
            level_agent("stortok", 4, None, Level::Hard),
            level_agent("stortok", 4, Some("1847"), Level::Hard)
        );
    }

    #[test]
    fn high_gammon_and_tric_trac_levels_per_number_of_players() {
        // HG-15 / TT-4: the networks where they measured better than the
        // rollouts they replace (docs/ai.md), the rollouts elsewhere.
        let table = |game: &str| -> Vec<(&str, &str)> {
            (2..=4)
                .map(|p| {
                    (
                        level_agent(game, p, None, Level::Hard),
                        level_agent(game, p, None, Level::Expert),
                    )
                })
                .collect()
        };
        const ROLLOUTS: (&str, &str) = (
            "rollout:n=32,width=3,cutoff=4",
            "rollout:n=200,width=4,cutoff=10",
        );
        const NET_ROLLOUT: &str = "net:rollout=64,turns=4,width=4";
        assert_eq!(
            table("high-gammon"),
            [
                ("net", "net:ply=1"),
                ("net", NET_ROLLOUT),
                ("net", NET_ROLLOUT)
            ]
        );
        assert_eq!(
            table("tric-trac"),
            [("net", "net:ply=1"), ("net", NET_ROLLOUT), ROLLOUTS]
        );
        for game in ["high-gammon", "tric-trac"] {
            for p in 2..=4 {
                for level in Level::ALL {
                    let text = level_agent(game, p, None, level);
                    assert!(AgentSpec::parse(text).is_ok(), "{game} {p} {text}");
                }
            }
        }
        for p in 2..=4 {
            assert_eq!(
                level_agent("stumphog", p, None, Level::Expert),
                "expectimax:depth=3,root=8,width=8"
            );
        }
    }
}
