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

/// The agent (in the command line's notation) of `level` in game `game`
/// with `players` players; a game the table does not know plays greedily.
pub fn level_agent(game: &str, players: usize, level: Level) -> &'static str {
    let _ = players;
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
        // The networks trained by self-play (docs/ai.md): alone for hard,
        // with one ply of search (all 21 rolls) for expert. Tawla's levels
        // before them: `expectimax:depth=2,root=8` (hard) and
        // `mcts:prior=on,cutoff=0,iters=5000,c=1.0` (expert).
        (Tawla | Backgammon, Level::Hard) => "net",
        (Tawla | Backgammon, Level::Expert) => "net:ply=1",
        (Stumphog, Level::Hard) => "expectimax:depth=3,root=8,width=8",
        // Nothing measured stronger: a wider depth-3 search plays the same
        // moves, depth 4 was no better and far slower (docs/ai.md).
        (Stumphog, Level::Expert) => "expectimax:depth=3,root=8,width=8",
        (Lager, Level::Hard) => "alphabeta:nodes=20000",
        (Lager, Level::Expert) => "alphabeta:nodes=200000",
        (Stortok, Level::Hard) => "ismcts:iters=500,playout=greedy0.1,cutoff=40",
        (Stortok, Level::Expert) => "ismcts:iters=2000,playout=greedy0.1,cutoff=40",
        // High-O Gammon, Tric-Trac: short greedy rollouts (common dice for
        // every candidate) beat greedy play; longer ones with more samples
        // look further and beat the short ones.
        (HighGammon | TricTrac, Level::Hard) => "rollout:n=32,width=3,cutoff=4",
        (HighGammon | TricTrac, Level::Expert) => "rollout:n=200,width=4,cutoff=10",
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
                let text = level_agent(game.id(), 2, level);
                assert!(AgentSpec::parse(text).is_ok(), "{} {text}", game.id());
            }
        }
    }
}
