//! Who judges a game and how its decisions are marked: the judge in a
//! player's words, the analyser of each game and level, the units of the
//! ratings and the thresholds of the marks.

use serde::{Deserialize, Serialize};

/// The unit of a rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Expected points per cube value (the networks of the tables games:
    /// cubeless for plays, cubeful for cube decisions in money play).
    Equity,
    /// The match winning chance, 0..1 (cube decisions in match play).
    MatchWinningChance,
    /// The mover's expected score 0..1: for two players the chance to win,
    /// a draw counting half.
    WinChance,
}

/// How bad a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The loss reached the first threshold.
    Doubtful,
    /// The loss reached the second threshold.
    Bad,
    /// The loss reached the third threshold.
    VeryBad,
}

impl Mark {
    /// The mark's name, as players write it (`?!`, `?`, `??`).
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Doubtful => "?!",
            Mark::Bad => "?",
            Mark::VeryBad => "??",
        }
    }
}

/// The losses from which a decision is doubtful, bad and very bad by
/// default: in equity GNU Backgammon 1.07's (`show analysis`: 0.030,
/// 0.060, 0.120), the same in the chance to win, half of them in the match
/// winning chance.
pub fn thresholds(unit: Unit) -> [f64; 3] {
    match unit {
        Unit::Equity | Unit::WinChance => [0.03, 0.06, 0.12],
        Unit::MatchWinningChance => [0.015, 0.03, 0.06],
    }
}

/// Whether `t` are thresholds: finite, positive and rising.
pub fn valid_thresholds(t: [f64; 3]) -> bool {
    t.iter().all(|x| x.is_finite() && *x > 0.0) && t[0] <= t[1] && t[1] <= t[2]
}

/// The thresholds of `unit` when the moves' unit is `moves` and `custom`
/// replaces the defaults there (other units keep theirs).
pub fn thresholds_with(unit: Unit, moves: Unit, custom: Option<[f64; 3]>) -> [f64; 3] {
    match custom {
        Some(t) if unit == moves => t,
        _ => thresholds(unit),
    }
}

/// The mark a loss earns in `unit` with the default thresholds; `None`
/// below the first threshold.
pub fn mark(loss: f64, unit: Unit) -> Option<Mark> {
    mark_with(loss, thresholds(unit))
}

/// The mark a loss earns with the thresholds `t`.
pub fn mark_with(loss: f64, t: [f64; 3]) -> Option<Mark> {
    let [doubtful, bad, very_bad] = t;
    if loss >= very_bad {
        Some(Mark::VeryBad)
    } else if loss >= bad {
        Some(Mark::Bad)
    } else if loss >= doubtful {
        Some(Mark::Doubtful)
    } else {
        None
    }
}

/// Who judged a game, in a player's words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judge {
    /// The computer at its deepest (`--level expert`, the default).
    Deep,
    /// The computer, quicker (`--level hard`).
    Quick,
    /// An agent spec given by the user (or the server's operator).
    #[default]
    Custom,
}

impl Judge {
    /// The judge of an analysis level (`expert`, `hard` or an agent spec).
    pub fn of(level: &str) -> Judge {
        match level {
            "expert" => Judge::Deep,
            "hard" => Judge::Quick,
            _ => Judge::Custom,
        }
    }

    /// The judge in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            Judge::Deep => "the computer, deep",
            Judge::Quick => "the computer, quick",
            Judge::Custom => "the computer, as asked",
        }
    }
}

/// The analyser of `game` at `level`, never an agent that a level plays
/// and as deep as the deepest level or deeper: `expert` (the default)
/// searches the networks two plies (backgammon, Tawla), in backgammon over
/// more candidates at every ply than `ai:expert`'s two plies (12 at the
/// root, 6 below, within 0.32 of the best) and with every position valued
/// by the mean of the shipped network and the older one (`with=older`),
/// an evaluation no level plays, its two best plays and the play made
/// then ranked by rollouts with the luck taken out; and otherwise the hints'
/// searches with their terminal budgets; `hard` is quicker (two plies over
/// fewer candidates, a quarter of the budget). Anything else is read as an
/// agent spec.
pub fn analyser(game: &str, level: &str) -> String {
    let spec = match (level, game) {
        ("expert", "backgammon") => {
            "net:ply=2,filter=12,inner=6,window=0.32,with=older,rollout=36,turns=10,width=2"
        }
        ("expert", "tawla") => "net:ply=2",
        ("hard", "backgammon" | "tawla") => "net:ply=2,filter=3",
        ("expert", "lager") => "alphabeta:nodes=300000",
        ("hard", "lager") => "alphabeta:nodes=75000",
        ("expert", "stortok") => "ismcts:iters=4000,cutoff=40",
        ("hard", "stortok") => "ismcts:iters=1000,cutoff=40",
        ("expert", _) => "mcts:prior=on,cutoff=4,c=1.0,iters=4000",
        ("hard", _) => "mcts:prior=on,cutoff=4,c=1.0,iters=1000",
        (other, _) => other,
    };
    spec.to_string()
}
