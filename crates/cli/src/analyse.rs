//! `spelbord analyse`: every decision of a recorded game rated by the
//! computer, the luck of every roll, and per player the error rate, the
//! marks and a luck-adjusted result (see docs/ai.md).

use anyhow::{Context, Result, bail};
use clap::Args;
use spelbord_ai::analysis::{
    Analysis, AnalysisConfig, Judge, PlayerSummary, PositionAnalysis, Progress, Roll, Unit,
    analyse_position, analyse_record, thresholds, valid_thresholds,
};
use spelbord_engine::Record;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `spelbord analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game record (JSON) to analyse.
    #[arg(required_unless_present = "position", conflicts_with = "position")]
    file: Option<PathBuf>,
    /// Rate every legal action of this position instead, written in the
    /// game's position notation (docs/engine.md; in backgammon also GNU
    /// Backgammon's `POSITIONID:MATCHID`).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    position: Option<String>,
    /// The game of `--position`.
    #[arg(long, default_value = "backgammon", requires = "position")]
    game: String,
    /// The judge: `expert` ("the computer, deep": deeper than every level),
    /// `hard` ("the computer, quick") or an agent spec such as
    /// `mcts:iters=20000`.
    #[arg(long, default_value = "expert")]
    level: String,
    /// A time budget per decision in milliseconds for the searches
    /// (instead of their iteration budgets, which are reproducible).
    #[arg(long)]
    ms: Option<u64>,
    /// Decisions analysed at once (one core each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the analysers' searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The losses from which a move is doubtful, bad and very bad, in the
    /// moves' unit (default GNU Backgammon 1.07's: 0.03,0.06,0.12).
    #[arg(long, value_name = "D,B,V", value_delimiter = ',', num_args = 3)]
    thresholds: Option<Vec<f64>>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn start(&self, total: usize) {
        self.0.set_length(total as u64);
    }
    fn tick(&self) {
        self.0.inc(1);
    }
}

/// Runs `spelbord analyse`.
pub fn run(args: AnalyseArgs) -> Result<ExitCode> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let thresholds = match args.thresholds.as_deref() {
        None => None,
        Some(&[d, b, v]) if valid_thresholds([d, b, v]) => Some([d, b, v]),
        Some(_) => bail!("--thresholds takes three positive, rising numbers, e.g. 0.03,0.06,0.12"),
    };
    let config = AnalysisConfig {
        level: args.level,
        millis: args.ms,
        threads: args.threads,
        seed: args.seed,
        thresholds,
    };
    let (Some(file), None) = (&args.file, &args.position) else {
        let position = args.position.as_deref().unwrap_or_default();
        let analysis = analyse_position(&args.game, position, &config)?;
        if args.json {
            println!("{}", serde_json::to_string(&analysis)?);
        } else {
            print!("{}", render_position(&analysis));
        }
        return Ok(ExitCode::SUCCESS);
    };
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let record = Record::from_json(&text)?;
    let bar = crate::term::progress(0, crate::term::progress_wanted(args.json));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} decisions and rolls  eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let analysis = analyse_record(&record, &config, &Bar(bar.clone()))?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&analysis)?);
    } else {
        print!("{}", render(&analysis));
    }
    Ok(ExitCode::SUCCESS)
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Equity => "equity",
        Unit::MatchWinningChance => "match winning chance",
        Unit::WinChance => "chance to win",
    }
}

/// A position's analysis as text: every legal action, best first, with its
/// rating, its loss against the best and the mark it would earn.
pub fn render_position(a: &PositionAnalysis) -> String {
    let mut out = String::new();
    let [d, b, v] = a.thresholds;
    let _ = writeln!(
        out,
        "{} {}, player {} to {}; judged by {}; ratings in {}; marks ?! from a loss of {d}, ? from {b}, ?? from {v}",
        a.game,
        a.position,
        a.player,
        if a.cube { "decide on the cube" } else { "move" },
        judge_words(a.judge, &a.analyser),
        unit_name(a.unit)
    );
    let w = a
        .actions
        .iter()
        .map(|r| r.action.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "{:>4}  {:<w$} {:>8} {:>7} {:>7}",
        "rank", "action", "rating", "loss", "win"
    );
    for (i, r) in a.actions.iter().enumerate() {
        let num = |x: Option<f64>, f: fn(f64) -> String| x.map_or_else(|| "-".into(), f);
        let _ = writeln!(
            out,
            "{:>4}  {:<w$} {:>8} {:>7} {:>7} {}",
            i + 1,
            r.action,
            num(r.rating, |x| format!("{x:+.3}")),
            num(r.loss, |x| format!("{x:.3}")),
            num(r.chance, |x| format!("{:.1}%", 100.0 * x)),
            r.mark.map_or("", |m| m.symbol()),
        );
    }
    out
}

/// The analysis as text: the decisions and rolls in the game's order, then
/// the per-player summary.
pub fn render(a: &Analysis) -> String {
    let mut out = String::new();
    let [d, b, v] = a.thresholds;
    let _ = writeln!(
        out,
        "{} judged by {}; ratings in {}; marks ?! doubtful from a loss of {d}, ? bad from {b}, ?? very bad from {v}",
        a.game,
        judge_words(a.judge, &a.analyser),
        unit_name(a.unit)
    );
    if a.decisions.iter().any(|d| d.unit != a.unit) {
        let [d, b, v] = thresholds(Unit::MatchWinningChance);
        let _ = writeln!(
            out,
            "cube decisions in match winning chance: ?! from {d}, ? from {b}, ?? from {v}"
        );
    }
    let name = |p: usize| a.players.get(p).map_or_else(|| "?".to_string(), seat_name);
    let wn = a
        .players
        .iter()
        .map(|p| seat_name(p).len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut rolls = a.rolls.iter().peekable();
    for dec in &a.decisions {
        while let Some(r) = rolls.next_if(|r| r.index < dec.index) {
            roll_line(&mut out, r, &name, wn);
        }
        let rating = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:+.3}"));
        let mark = dec.mark.map_or("", |m| m.symbol());
        let best = if dec.best == dec.played {
            "(best)".to_string()
        } else {
            format!("best {} {}", dec.best, rating(dec.best_rating))
        };
        let loss = dec
            .loss
            .filter(|&l| l > 0.0)
            .map_or_else(String::new, |l| format!("  loss {l:.3}"));
        let _ = writeln!(
            out,
            "{:>5}  {:<wn$} {} {} {best}{loss} {mark}",
            dec.index,
            name(dec.player),
            dec.played,
            rating(dec.played_rating),
        );
    }
    for r in rolls {
        roll_line(&mut out, r, &name, wn);
    }
    summary_table(&mut out, a, wn);
    out
}

/// The judge in a player's words; an agent spec the user gave as it is.
fn judge_words(judge: Judge, analyser: &str) -> String {
    match judge {
        Judge::Custom => format!("{} ({analyser})", judge.words()),
        _ => judge.words().to_string(),
    }
}

/// A player as the review names him: his seat (and colour), then his name.
fn seat_name(p: &PlayerSummary) -> String {
    match &p.colour {
        Some(c) => format!("seat {} ({c}) {}", p.player + 1, p.name),
        None => format!("seat {} {}", p.player + 1, p.name),
    }
}

/// A roll's line: the roller's luck, or every player's for a roll that
/// every player rolled.
fn roll_line(out: &mut String, r: &Roll, name: &dyn Fn(usize) -> String, w: usize) {
    let luck = if r.shared {
        let each: Vec<String> = (0..r.luck.len())
            .map(|p| format!("{} {:+.3}", name(p), r.luck[p]))
            .collect();
        format!("luck {}", each.join(", "))
    } else {
        format!("luck {:+.3}", r.roller.map_or(0.0, |p| r.luck[p]))
    };
    let who = match (r.shared, r.roller) {
        (true, _) => "everyone".to_string(),
        (false, Some(p)) => name(p),
        (false, None) => "-".to_string(),
    };
    let _ = writeln!(out, "{:>5}  {who:<w$} rolls {:<8} {luck}", r.index, r.roll);
}

/// The per-player table; the cube's columns only in a game with a cube.
fn summary_table(out: &mut String, a: &Analysis, w: usize) {
    let cube = |x: &str, y: &str| {
        if a.cube {
            format!(" {x:>5} {y:>10}")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "\n{:<w$} {:>6} {:>10}{} {:>4} {:>4} {:>4} {:>7} {:>6} {:>8} {:>7}",
        "player",
        "moves",
        "error rate",
        cube("cube", "error rate"),
        "?!",
        "?",
        "??",
        "luck",
        "score",
        "adjusted",
        "points"
    );
    let opt = |x: Option<f64>, f: fn(f64) -> String| x.map_or_else(|| "-".into(), f);
    for p in &a.players {
        let _ = writeln!(
            out,
            "{:<w$} {:>6} {:>10.4}{} {:>4} {:>4} {:>4} {:>7} {:>6} {:>8} {:>7}",
            seat_name(p),
            p.moves,
            p.move_error_rate,
            cube(
                &p.cube_decisions.to_string(),
                &format!("{:.4}", p.cube_error_rate)
            ),
            p.doubtful,
            p.bad,
            p.very_bad,
            opt(p.luck, |x| format!("{x:+.3}")),
            opt(p.score, |x| format!("{x:.2}")),
            opt(p.luck_adjusted_score, |x| format!("{x:.3}")),
            opt(p.points, |x| format!("{x}")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::{Options, find_game};

    #[test]
    fn the_text_lists_every_decision_and_a_line_per_player() {
        let game = find_game("lager").unwrap();
        let options = game.parse_options(&[]).unwrap();
        let mut state = game.new_state(&options).unwrap();
        let mut record = Record::new(
            "lager",
            Options::clone(&options),
            vec!["ann".into(), "bo".into()],
        );
        for _ in 0..6 {
            let a = state.legal_actions()[0].clone();
            state.apply_text(&a.text).unwrap();
            record.actions.push(a.text);
        }
        let config = AnalysisConfig {
            level: "alphabeta:nodes=500".into(),
            ..AnalysisConfig::default()
        };
        let analysis = analyse_record(&record, &config, &()).unwrap();
        let text = render(&analysis);
        assert!(
            text.starts_with("lager judged by the computer, as asked (alphabeta:nodes=500)"),
            "{text}"
        );
        let summary: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("player"))
            .collect();
        assert_eq!(summary.len(), 3, "{text}");
        assert!(
            summary[1].starts_with("seat 1 ann") && summary[2].starts_with("seat 2 bo"),
            "{text}"
        );
        // Läger has no cube: no cube column.
        assert!(!summary[0].contains("cube"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("    ")).count(),
            analysis.decisions.len(),
            "{text}"
        );
    }

    #[test]
    fn a_position_lists_every_legal_action_best_first() {
        // GNU Backgammon 1.07's IDs of root to play 3-1 after its 24/23
        // 13/11 (`set seed 5`, `new game`, `set dice 3 1`, `show board`).
        let id = "4HPkASjgc/ABMA:cIkFAAAAAAAA";
        let config = AnalysisConfig {
            level: "hard".into(),
            ..AnalysisConfig::default()
        };
        let a = analyse_position("backgammon", id, &config).unwrap();
        let text = render_position(&a);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("backgammon "), "{text}");
        assert!(
            lines[0].contains("to move; judged by the computer, quick;"),
            "{text}"
        );
        assert_eq!(lines.len(), 2 + a.actions.len(), "{text}");
        assert!(lines[2].trim_start().starts_with("1  8/5 6/5"), "{text}");
    }
}
