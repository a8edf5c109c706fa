//! The levels of every game: which agent and budget `ai:easy`, `ai:medium`,
//! `ai:hard` and `ai:expert` stand for. Chosen by arena measurements (see
//! `docs/ai.md`); budgets are iteration or node counts, so that play is
//! reproducible for a seed, sized to answer well within the time limits
//! (hard 1 s, expert 5 s per move on one core).

use crate::spec::Level;

/// The agent (in the command line's notation) of `level` in game `game`
/// with `players` players.
pub fn level_agent(game: &str, players: usize, level: Level) -> &'static str {
    let _ = players;
    match (game, level) {
        (_, Level::Easy) => "greedy:temp=0.03",
        (_, Level::Medium) => "greedy",
        ("tawla", Level::Hard) => "expectimax:depth=2,root=8",
        ("tawla", Level::Expert) => "mcts:prior=on,cutoff=0,iters=5000,c=1.0",
        ("stumphog", Level::Hard) => "expectimax:depth=3,root=8,width=8",
        // Nothing measured stronger: a wider depth-3 search plays the same
        // moves, depth 4 was no better and far slower (docs/ai.md).
        ("stumphog", Level::Expert) => "expectimax:depth=3,root=8,width=8",
        ("lager", Level::Hard) => "alphabeta:nodes=20000",
        ("lager", Level::Expert) => "alphabeta:nodes=200000",
        ("stortok", Level::Hard) => "ismcts:iters=500,playout=greedy0.1,cutoff=40",
        ("stortok", Level::Expert) => "ismcts:iters=2000,playout=greedy0.1,cutoff=40",
        // Backgammon, High-O Gammon, Tric-Trac: short greedy rollouts
        // (common dice for every candidate) beat greedy play; longer ones
        // with more samples look further and beat the short ones.
        (_, Level::Hard) => "rollout:n=32,width=3,cutoff=4",
        (_, Level::Expert) => "rollout:n=200,width=4,cutoff=10",
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
                let text = level_agent(game.id(), 2, level);
                assert!(AgentSpec::parse(text).is_ok(), "{} {text}", game.id());
            }
        }
    }
}
