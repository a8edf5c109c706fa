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
        ("tawla" | "backgammon", Level::Easy) => "greedy:temp=0.03",
        ("tawla" | "backgammon", Level::Medium) => "greedy",
        ("tawla" | "backgammon", Level::Hard) => "expectimax:depth=2,root=8",
        ("tawla" | "backgammon", Level::Expert) => "mcts:prior=on,cutoff=0,iters=5000,c=1.0",
        ("stumphog", Level::Easy) => "greedy:temp=0.03",
        ("stumphog", Level::Medium) => "greedy",
        ("stumphog", Level::Hard) => "expectimax:depth=2,root=8",
        ("stumphog", Level::Expert) => "mcts:prior=on,cutoff=0,iters=5000,c=1.0",
        ("lager", Level::Easy) => "greedy:temp=0.03",
        ("lager", Level::Medium) => "greedy",
        ("lager", Level::Hard) => "alphabeta:nodes=20000",
        ("lager", Level::Expert) => "alphabeta:nodes=200000",
        ("stortok", Level::Easy) => "greedy:temp=0.03",
        ("stortok", Level::Medium) => "greedy",
        ("stortok", Level::Hard) => "ismcts:iters=1000,cutoff=40",
        ("stortok", Level::Expert) => "ismcts:iters=5000,cutoff=40",
        (_, Level::Easy) => "greedy:temp=0.03",
        (_, Level::Medium) => "greedy",
        (_, Level::Hard) => "expectimax:depth=2,root=8",
        (_, Level::Expert) => "mcts:prior=on,cutoff=0,iters=5000,c=1.0",
    }
}
