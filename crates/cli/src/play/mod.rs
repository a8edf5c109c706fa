//! `spelbord play`: a game in the terminal, people and agents at the table.

mod list;
mod table;
mod turn;

use crate::term::color_wanted;
use anyhow::{Context, Result, bail};
use clap::Args;
use rand::Rng;
use spelbord_engine::{Game, GameState, GameVisitor, Options, Outcome, Turn, visit_game};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use table::Table;
#[cfg(test)]
use {
    list::MAX_LIST_ROWS,
    spelbord_engine::rng::seeded,
    spelbord_engine::{Notation, Viewer},
    turn::{TurnSettings, human_turn},
};

/// Options of `spelbord play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game's id (see `spelbord games`).
    pub game: String,
    /// Who sits in each seat, in order: `human`, a level `ai:easy`,
    /// `ai:medium`, `ai:hard` or `ai:expert`, or an agent such as `random`
    /// or `mcts:iters=2000` (repeat per seat; unnamed seats: the first is
    /// human, the rest `ai:medium`).
    #[arg(long = "seat", value_name = "WHO")]
    pub seats: Vec<String>,
    /// Seed for the dice, deals and agents (default: a random seed, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A game option as key=value (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Save the game's record to this file when it ends or you quit.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// No ANSI colours.
    #[arg(long)]
    pub no_color: bool,
    /// Start from this position, written in the game's position notation
    /// (docs/engine.md; in backgammon also GNU Backgammon's
    /// `POSITIONID:MATCHID`), with the options it names; not with `--save`.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub position: Option<String>,
}

struct Play(PlayArgs);

impl GameVisitor for Play {
    type Output = Result<ExitCode>;
    fn visit<G: Game>(self) -> Result<ExitCode> {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        play::<G>(&self.0, &mut input, &mut out)
    }
}

/// Runs `spelbord play`.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    visit_game(&args.game.clone(), Play(args))?
}

/// Plays one game at the terminal: `input` the people's lines, `out` all
/// that the table is told.
fn play<G: Game>(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let (options, state) = start::<G>(args)?;
    let seed = args.seed.unwrap_or_else(|| rand::rng().random());
    let mut table = Table::<G>::seat(args, options, state, seed)?;
    writeln!(out, "{} — seats: {}", G::NAME, table.names().join(", "))?;
    let quit = loop {
        let action = match table.state.turn() {
            Turn::Over => break false,
            Turn::Chance => table.chance(out)?,
            Turn::Player(p) => match table.player_action(p, input, out)? {
                Some(a) => a,
                None => break true,
            },
        };
        table.apply(action, out)?;
    };
    table.finish(quit, out)?;
    if let Some(path) = &args.save {
        std::fs::write(path, table.record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "Record saved to {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The game's options and its first state: the start, or `--position`;
/// refused where more seats are named than the game has.
fn start<G: Game>(args: &PlayArgs) -> Result<(Options, G::State)> {
    let options = Options::parse(G::ID, G::option_specs(), &args.options)?;
    let game = G::from_options(&options)?;
    let mut state = game.initial_state();
    if let Some(text) = &args.position {
        if args.save.is_some() || !args.options.is_empty() {
            bail!(
                "--position names its own options and cannot be saved as a record \
                 (a record replays from the start): leave out --option and --save"
            );
        }
        state = text.parse()?;
    }
    let players = state.num_players();
    if args.seats.len() > players {
        bail!(
            "{} has {players} seats here but {} were given",
            G::ID,
            args.seats.len()
        );
    }
    Ok((options, state))
}

/// The result in words: the winner first (even when his win pays nothing),
/// or the loser, or a draw; then how it ended and each seat's return.
pub(crate) fn outcome_line(outcome: Option<Outcome>, returns: &[f64], names: &[String]) -> String {
    let seat = |p: usize| format!("seat {p} ({})", names[p]);
    let who = match outcome {
        None => "no result".to_string(),
        Some(o) if o.is_draw() => format!("a draw ({})", o.ending().text()),
        Some(o) => match (o.sole_winner(), o.sole_loser()) {
            (Some(w), _) => format!("{} wins ({})", seat(w), o.ending().text()),
            (None, Some(l)) => format!("{} loses ({})", seat(l), o.ending().text()),
            (None, None) => format!("ranked {:?} ({})", o.places(), o.ending().text()),
        },
    };
    let points: Vec<String> = returns
        .iter()
        .enumerate()
        .map(|(p, &r)| format!("seat {p} {}", signed(r)))
        .collect();
    format!("{who}; returns: {}", points.join(", "))
}

/// A return with its sign, never "-0".
fn signed(value: f64) -> String {
    let v = value + 0.0;
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:+}")
    }
}

/// The next line typed, trimmed; `None` at the end of the input.
fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::high_gammon::TricTrac;
    use spelbord_engine::{Ending, games};
    use std::io::Cursor;

    /// A person's turn at the terminal with `typed` lines as input: the
    /// action chosen and everything written.
    fn turn_with<S: Notation>(state: &S, typed: &str) -> (Option<S::Action>, String) {
        let how = TurnSettings {
            game: "test",
            color: false,
            auto_forced: true,
        };
        let mut input = Cursor::new(typed.as_bytes().to_vec());
        let mut out = Vec::new();
        let p = match state.turn() {
            Turn::Player(p) => p,
            other => panic!("not a player's turn: {other:?}"),
        };
        let chosen = human_turn(state, p, &how, &|_| Vec::new(), &mut input, &mut out)
            .expect("no I/O error");
        (chosen, String::from_utf8(out).expect("text"))
    }

    /// A Tric-Trac turn (doubles: underside) with at least `at_least` legal plays.
    fn many_plays(at_least: usize) -> <TricTrac as Game>::State {
        let pairs = ["players=2".to_string(), "doubles=underside".to_string()];
        let options = Options::parse(TricTrac::ID, TricTrac::option_specs(), &pairs).unwrap();
        let game = TricTrac::from_options(&options).unwrap();
        let mut rng = seeded(3);
        let mut actions = Vec::new();
        for _ in 0..200 {
            let mut state = game.initial_state();
            while state.turn() != Turn::Over {
                if state.turn() == Turn::Chance {
                    let a = state.sample_chance(&mut rng);
                    state.apply(a);
                    continue;
                }
                state.legal_actions(&mut actions);
                if actions.len() >= at_least {
                    return state;
                }
                state.apply(actions[rng.random_range(0..actions.len())]);
            }
        }
        panic!("no turn with {at_least} plays");
    }

    #[test]
    fn a_long_list_of_plays_is_shown_short_and_built_move_by_move() {
        let state = many_plays(300);
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let target = *actions.last().unwrap();
        let text = state.format_action(target);
        let mut typed: String = text.split(' ').map(|w| format!("{w}\n")).collect();
        typed.push('\n');
        let (chosen, out) = turn_with(&state, &typed);
        assert_eq!(chosen, Some(target), "{out}");
        // The board and the short list fit under each other: what comes
        // before the first prompt is the board and a few rows.
        let p = match state.turn() {
            Turn::Player(p) => p,
            _ => unreachable!(),
        };
        let board = state.render(Viewer::Player(p), false).lines().count();
        let first = out.split("seat 0> ").next().unwrap_or_default();
        let first = first
            .split(&format!("seat {p}> "))
            .next()
            .unwrap_or_default();
        assert!(first.contains("legal plays; the moves in them"), "{first}");
        assert!(
            first.lines().count() <= board + MAX_LIST_ROWS + 4,
            "{} lines for {} plays:\n{first}",
            first.lines().count(),
            actions.len()
        );
        assert!(out.contains(&format!("Complete: {text}.")), "{out}");
        // `list all` still lists every play, numbered.
        let (_, out) = turn_with(&state, "list all\n");
        assert!(out.contains(&format!("{:>4}) ", actions.len())), "{out}");
    }

    /// A backgammon position, the first player to play `dice`: his
    /// checkers on points (his numbering) by positive counts, the other's
    /// by negative ones.
    fn backgammon_at(
        points: &[(usize, i8)],
        dice: [u8; 2],
    ) -> spelbord_engine::backgammon::BackgammonState {
        use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules, BackgammonState};
        use spelbord_engine::tables::TablesOptions;
        let mut pts = [0i8; 24];
        for &(point, n) in points {
            pts[point - 1] = n;
        }
        let board = BackgammonBoard::from_parts(pts, [0, 0], [0, 0]);
        BackgammonState::with_position(BackgammonRules, TablesOptions::default(), board, 0)
            .with_dice(dice)
    }

    #[test]
    fn a_typed_play_must_mark_its_hits() {
        // An opposing blot on 18: 6-5 by 18 hits, by 19 does not.
        let points = [
            (24, 2),
            (13, 5),
            (8, 3),
            (6, 5),
            (18, -1),
            (12, -5),
            (1, -9),
        ];
        let state = backgammon_at(&points, [6, 5]);
        let hit = state.parse_action("24/18* 18/13").unwrap();
        // The whole play without its `*`, then move by move, then with it.
        let (chosen, out) = turn_with(&state, "24/18 18/13\n24/13\n24/18\n18/13\n\n");
        assert!(out.contains("24/18* 18/13"), "{out}");
        assert!(out.contains("is ambiguous"), "{out}");
        assert_eq!(chosen, None, "nothing confirmed:\n{out}");
        let (chosen, _) = turn_with(&state, "24/18*\n18/13\n\n");
        assert_eq!(chosen, Some(hit));
        let (chosen, _) = turn_with(&state, "24/18* 18/13\n");
        assert_eq!(chosen, Some(hit));
    }

    #[test]
    fn a_play_is_built_on_the_step_graph_a_checkers_steps_typed_as_one_move() {
        // The start with 3-3: 24/18 is one checker's two steps (by 21).
        let start = [
            (24, 2),
            (13, 5),
            (8, 3),
            (6, 5),
            (1, -2),
            (12, -5),
            (17, -3),
            (19, -5),
        ];
        let state = backgammon_at(&start, [3, 3]);
        let play = state.parse_action("24/21 21/18 13/10 13/10").unwrap();
        let (chosen, out) = turn_with(&state, "24/18\n13/10\n13/10\n\n");
        assert_eq!(chosen, Some(play), "{out}");
        assert!(out.contains("seat 0 [24/18 13/10]> "), "{out}");
        // A move no legal play goes on with is refused, and nothing changes.
        let (chosen, out) = turn_with(&state, "24/18\n24/12\nundo\nundo\nundo\n");
        assert_eq!(chosen, None);
        assert!(out.contains("`24/12` is not a move"), "{out}");
        assert!(
            out.contains("Nothing to undo"),
            "only 24/18 was kept: {out}"
        );
    }

    /// Plays one game a little way with a person (who types `1`) against
    /// `random`; what the terminal wrote.
    struct Echo;
    impl GameVisitor for Echo {
        type Output = String;
        fn visit<G: Game>(self) -> String {
            let args = PlayArgs {
                game: G::ID.into(),
                seats: vec!["human".into(), "random".into()],
                seed: Some(5),
                options: Vec::new(),
                save: None,
                no_color: true,
                position: None,
            };
            let mut input = Cursor::new("1\n".repeat(6).into_bytes());
            let mut out = Vec::new();
            play::<G>(&args, &mut input, &mut out).expect("plays");
            String::from_utf8(out).expect("text")
        }
    }

    #[test]
    fn the_persons_own_move_is_echoed_in_every_game() {
        for game in games() {
            let out = visit_game(game.id(), Echo).expect("registered");
            assert!(
                out.contains("seat 0 (you) plays "),
                "{}: no echo of the person's move:\n{out}",
                game.id()
            );
        }
    }

    #[test]
    fn a_zero_point_win_names_the_winner_first_and_never_minus_zero() {
        // HG-15: a High-O Gammon win that pays nothing is still a win.
        let names = vec!["human".to_string(), "ai:hard".to_string()];
        let outcome = Outcome::ranking(&[1, 0], Ending::BorneOff);
        let line = outcome_line(Some(outcome), &[-0.0, 0.0], &names);
        assert_eq!(
            line,
            "seat 1 (ai:hard) wins (all stones borne off); returns: seat 0 0, seat 1 0"
        );
        assert!(!line.contains("-0"));
    }

    fn args(game: &str, position: &str) -> PlayArgs {
        PlayArgs {
            game: game.into(),
            seats: vec!["human".into(), "random".into()],
            seed: Some(1),
            options: Vec::new(),
            save: None,
            no_color: true,
            position: Some(position.into()),
        }
    }

    #[test]
    fn play_starts_from_a_position() {
        // TAW-10: White has borne off all 15, Black 3: a single game.
        let finished = "-12,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 0 over \
                        off=15,3 last=0,1,single";
        let mut out = Vec::new();
        let mut input = std::io::empty();
        play::<spelbord_engine::tawla::Tawla>(&args("tawla", finished), &mut input, &mut out)
            .unwrap();
        let text = String::from_utf8(std::mem::take(&mut out)).unwrap();
        assert!(text.contains("seat 0 (human) wins"), "{text}");
        // A checker short is refused with the reason.
        let short = finished.replace("-12,", "-11,");
        let err =
            play::<spelbord_engine::tawla::Tawla>(&args("tawla", &short), &mut input, &mut out)
                .unwrap_err();
        assert!(
            err.to_string().contains("player 1 has 14 checkers, not 15"),
            "{err}"
        );
    }

    #[test]
    fn the_stortok_and_draws_are_told_as_such() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let line = outcome_line(
            Some(Outcome::loser(3, 2, Ending::Stortok)),
            &[0.5, 0.5, -1.0],
            &names,
        );
        assert!(line.starts_with("seat 2 (c) loses (the last one holding cards)"));
        assert!(line.ends_with("seat 0 +0.5, seat 1 +0.5, seat 2 -1"));
        let line = outcome_line(Some(Outcome::draw(2, Ending::TurnCap)), &[0.0, 0.0], &names);
        assert!(line.starts_with("a draw (turn cap reached)"));
    }
}
