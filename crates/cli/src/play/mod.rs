//! `spelbord play`: a game in the terminal, people and agents at the table.

use crate::play_moves::{Pending, Typed};
use crate::term::color_wanted;
use anyhow::{Context, Result, bail};
use clap::Args;
use rand::Rng;
use spelbord_ai::{
    Agent, Equity, EquityKind, Hint, default_hint_budget, hints_for, make_agent_for,
};
use spelbord_engine::rng::seeded;
use spelbord_engine::{
    Game, GameState, GameVisitor, Notation, Options, Outcome, Record, Turn, Viewer, visit_game,
};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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

enum Seat<S: GameState> {
    Human,
    Agent(Box<dyn Agent<S>>),
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

/// How to write actions in the game at hand (the first part of `help`).
fn notation_help(game: &str) -> &'static str {
    match game {
        "tawla" | "backgammon" => {
            "Enter a number from the list, or a play in notation: its checker moves in
your own numbering, e.g. `24/18 18/13`, `bar/22`, `6/off`, with `*` after a
move that hits (`13/7*`). You may also enter one checker move at a time
(`24/18`), then the next; `undo` takes back the last one, Enter confirms a
complete play. Cube: `roll`, `double`, `take`, `drop`."
        }
        "high-gammon" => {
            "Enter a number from the list, or a play in notation: fields 1-28 as on the
board, e.g. `1/3 3/8`, `5/10*` for a hit, `bar/4`, `19/off` (Tric-Trac:
`in/2`). You may also enter one move at a time, then the next; `undo` takes
back the last one, Enter confirms a complete play. Cube: `roll`, `double`,
`accept`, `drop`."
        }
        "stumphog" => {
            "Enter a number from the list, or an action in notation, rows named from
your side: `3 stones 5 steps from Bortom 4` (short `3x5 b4`), `bat in 5`,
`bat in 6 from opponent`, `bat out 8`, `pass`."
        }
        "lager" => {
            "Enter a number from the list, or an action in notation: place a stone
`B@c1` (B blue, Y yellow, K black, W white), the blockade `R@c4`, move
`c1-c3`, knock out `b3xc4`."
        }
        "stortok" => {
            "Enter a number from the list, or a card: rank then suit letter, e.g. `10H`,
`QS`, `TD` (T for 10); `take` picks up."
        }
        _ => "Enter a number from the list, or an action in the game's notation.",
    }
}

/// The commands every prompt understands (the second part of `help`).
const COMMANDS: &str = "\
Other commands: `list` (the legal actions again; where they are many, the
moves in them, and `list all` every one), `board`, `hint` (the
computer's best three actions with its estimated chance to win after each),
`help`, `quit`.";

fn play<G: Game>(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
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
    let seed = args.seed.unwrap_or_else(|| rand::rng().random());
    let mut rng = seeded(seed);
    let mut seats: Vec<Seat<G::State>> = Vec::new();
    let mut names = Vec::new();
    for p in 0..players {
        let who = args.seats.get(p).cloned().unwrap_or_else(|| {
            if p == 0 {
                "human".into()
            } else {
                "ai:medium".into()
            }
        });
        if who == "human" {
            seats.push(Seat::Human);
        } else {
            let agent = make_agent_for::<G>(&who, players, seed.wrapping_add(1 + p as u64))?;
            seats.push(Seat::Agent(agent));
        }
        names.push(who);
    }
    let humans: Vec<usize> = (0..players)
        .filter(|&p| matches!(seats[p], Seat::Human))
        .collect();
    let color = color_wanted(args.no_color);
    let mut record = Record::new(G::ID, options, names.clone());
    record.seed = Some(seed);
    // The seed recomputes every die, deal and stock: shown only after the
    // game (STO-5).
    writeln!(out, "{} — seats: {}", G::NAME, names.join(", "))?;
    let viewer = match humans.as_slice() {
        [one] => Viewer::Player(*one),
        _ => Viewer::Spectator,
    };
    let mut last_human = None;
    let quit = loop {
        let action = match state.turn() {
            Turn::Over => break false,
            Turn::Chance => {
                let a = state.sample_chance(&mut rng);
                // Dealt and drawn cards are secret: the drawing shows each
                // player what he may see.
                if !G::HIDDEN_INFORMATION {
                    writeln!(out, "  chance: {}", state.format_action(a))?;
                }
                a
            }
            Turn::Player(p) => match &mut seats[p] {
                Seat::Agent(agent) => {
                    let a = agent.choose(&state);
                    // Told from the side of the person at the table.
                    writeln!(
                        out,
                        "  seat {p} ({}) plays {}",
                        agent.name(),
                        state.describe_action(a, viewer)
                    )?;
                    a
                }
                Seat::Human => {
                    if G::HIDDEN_INFORMATION && humans.len() > 1 && last_human != Some(p) {
                        // Clear the screen and its scrollback: the last
                        // player's hand must not be a scroll away.
                        write!(
                            out,
                            "\x1b[H\x1b[2J\x1b[3JPass the screen to seat {p}, then press Enter. "
                        )?;
                        out.flush()?;
                        if read_line(input)?.is_none() {
                            break true;
                        }
                    }
                    last_human = Some(p);
                    let hint = |s: &G::State| {
                        hints_for::<G>(
                            s,
                            3,
                            default_hint_budget(G::ID),
                            seed ^ record.actions.len() as u64,
                        )
                    };
                    // STO-5: with hidden information a forced action is
                    // not played for the player, or others could tell.
                    let how = TurnSettings {
                        game: G::ID,
                        color,
                        auto_forced: !G::HIDDEN_INFORMATION,
                    };
                    match human_turn(&state, p, &how, &hint, input, out)? {
                        Some(a) => {
                            let text = state.describe_action(a, Viewer::Player(p));
                            writeln!(out, "  seat {p} (you) plays {text}")?;
                            a
                        }
                        None => break true,
                    }
                }
            },
        };
        record.actions.push(state.format_action(action));
        // Agents that keep their search between moves follow the game;
        // with hidden cards nobody is told (a drawn card would show).
        if !G::HIDDEN_INFORMATION {
            for seat in seats.iter_mut() {
                if let Seat::Agent(agent) = seat {
                    agent.inform(&state, action);
                }
            }
        }
        state.apply(action);
        for event in state.events() {
            writeln!(out, "  *** {event} ***")?;
        }
        // What chance showed one person at the table alone (the card he drew).
        for &h in &humans {
            for event in state.private_events(Viewer::Player(h)) {
                writeln!(out, "  seat {h}: {event}")?;
            }
        }
    };
    if quit {
        writeln!(out, "Game abandoned. The seed was {seed}.")?;
    } else {
        write!(out, "{}", state.render(viewer, color))?;
        let returns = state.returns();
        let outcome = state.outcome();
        record.finish(returns.as_slice(), outcome);
        writeln!(
            out,
            "Game over: {}",
            outcome_line(outcome, returns.as_slice(), &names)
        )?;
        writeln!(out, "The seed was {seed}.")?;
    }
    if let Some(path) = &args.save {
        std::fs::write(path, record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "Record saved to {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
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

fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

/// Rows of at most 80 columns that `texts` take, each with its number.
fn list_rows(texts: &[(usize, String)]) -> usize {
    let width = texts.iter().map(|(_, t)| t.len()).max().unwrap_or(0) + 7;
    texts.len().div_ceil((80 / width).max(1))
}

/// The most rows a list of actions may take under the board; a longer one
/// is shown short (see [`Pending::show_moves`]) so that the board stays in sight.
const MAX_LIST_ROWS: usize = 12;

fn list_actions(out: &mut dyn Write, texts: &[(usize, String)]) -> Result<()> {
    let width = texts.iter().map(|(_, t)| t.len()).max().unwrap_or(0) + 7;
    let per_line = (80 / width).max(1);
    for (k, (i, t)) in texts.iter().enumerate() {
        write!(out, "{:>4}) {:<w$}", i + 1, t, w = width - 6)?;
        if (k + 1) % per_line == 0 {
            writeln!(out)?;
        }
    }
    if !texts.len().is_multiple_of(per_line) {
        writeln!(out)?;
    }
    Ok(())
}

fn show_hints(out: &mut dyn Write, hints: &[Hint]) -> Result<()> {
    if hints.is_empty() {
        writeln!(out, "No hint here.")?;
        return Ok(());
    }
    writeln!(
        out,
        "Hints (estimated chance to win after each action, or its equity):"
    )?;
    let width = hints.iter().map(|h| h.text.len()).max().unwrap_or(0);
    for (i, h) in hints.iter().enumerate() {
        let sure = match h.margin {
            Some(0.0) => "certain".to_string(),
            Some(m) => format!("± {:.1}%, {} playouts", 100.0 * m, h.samples),
            None => format!("confidence {:.0}%", 100.0 * h.confidence),
        };
        match &h.equity {
            Some(e) => writeln!(out, "  {}) {:<width$}  {}", i + 1, h.text, equity_text(e))?,
            None => writeln!(
                out,
                "  {}) {:<width$}  {:>5.1}%  ({sure})",
                i + 1,
                h.text,
                100.0 * h.estimate
            )?,
        }
    }
    Ok(())
}

/// A network's value of an action: the equity, and after a play the
/// chances of each result.
fn equity_text(e: &Equity) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    match (e.kind, e.outcomes) {
        (EquityKind::MatchWinningChance, _) => format!("match winning chance {}", pct(e.value)),
        (_, None) => format!("cubeful equity {:+.3}", e.value),
        (_, Some(o)) => format!(
            "equity {:+.3}  win {} (gammon {}, backgammon {})  lose {} (gammon {}, backgammon {})",
            e.value,
            pct(o.win),
            pct(o.win_gammon),
            pct(o.win_backgammon),
            pct(1.0 - o.win),
            pct(o.lose_gammon),
            pct(o.lose_backgammon)
        ),
    }
}

/// How a person's turn at the terminal goes.
struct TurnSettings {
    /// The game's id (for `help`).
    game: &'static str,
    /// ANSI colours.
    color: bool,
    /// Whether a single legal action is played without asking.
    auto_forced: bool,
}

fn human_turn<S: Notation>(
    state: &S,
    p: usize,
    how: &TurnSettings,
    hint: &dyn Fn(&S) -> Vec<Hint>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<S::Action>> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    write!(out, "\n{}", state.render(Viewer::Player(p), how.color))?;
    let texts: Vec<String> = actions.iter().map(|&a| state.format_action(a)).collect();
    let labels: Vec<String> = actions
        .iter()
        .map(|&a| state.describe_action(a, Viewer::Player(p)))
        .collect();
    let labelled = |list: &[(usize, String)]| -> Vec<(usize, String)> {
        list.iter().map(|(i, _)| (*i, labels[*i].clone())).collect()
    };
    if actions.len() == 1 && how.auto_forced {
        let what = if texts[0] == "pass" {
            "no legal move: pass".to_string()
        } else {
            format!("forced: {}", labels[0])
        };
        writeln!(out, "Seat {p}: {what}")?;
        return Ok(Some(actions[0]));
    }
    let all: Vec<(usize, String)> = texts.iter().cloned().enumerate().collect();
    // Plays made of single moves (the tables games) are built move by move
    // on the engine's step graph; where they are too many to list, only
    // the moves that can come next are shown.
    let mut pending = Pending::new(state.play_steps());
    let by_moves = matches!(pending, Pending::Steps(_));
    let step_text = |from: u8, to: u8| step_text(state, from, to);
    let show = |out: &mut dyn Write, list: &[(usize, String)], pending: &Pending| {
        if by_moves && list_rows(list) > MAX_LIST_ROWS {
            Ok(pending.show_moves(out, list, &step_text)?)
        } else {
            list_actions(out, &labelled(list))
        }
    };
    show(out, &all, &pending)?;
    loop {
        let typed = pending.words();
        if typed.is_empty() {
            write!(out, "seat {p}> ")?;
        } else {
            write!(out, "seat {p} [{}]> ", typed.join(" "))?;
        }
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(None);
        };
        let candidates = pending.candidates(&all);
        match line.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return Ok(None),
            "help" | "?" | "h" => {
                writeln!(out, "{}\n{COMMANDS}", notation_help(how.game))?;
                continue;
            }
            "hint" | "hints" => {
                show_hints(out, &hint(state))?;
                continue;
            }
            "board" | "b" => {
                write!(out, "{}", state.render(Viewer::Player(p), how.color))?;
                continue;
            }
            "list" | "l" => {
                show(out, &candidates, &pending)?;
                continue;
            }
            "list all" | "l all" => {
                list_actions(out, &labelled(&candidates))?;
                continue;
            }
            "undo" | "u" => {
                if !pending.undo() {
                    writeln!(out, "Nothing to undo in this turn.")?;
                }
                continue;
            }
            "" => {
                if let Some(i) = pending.complete(&all) {
                    return Ok(Some(actions[i]));
                }
                continue;
            }
            _ => {}
        }
        if let Ok(n) = line.parse::<usize>() {
            if (1..=actions.len()).contains(&n) {
                return Ok(Some(actions[n - 1]));
            }
            writeln!(
                out,
                "There is no action {n}: choose 1 to {}.",
                actions.len()
            )?;
            continue;
        }
        if typed.is_empty()
            && let Ok(a) = state.parse_action(&line)
            && actions.contains(&a)
        {
            return Ok(Some(a));
        }
        let why = |text: &str| match state.parse_action(text) {
            Err(e) => format!("{e} (type `list` or `help`)"),
            Ok(a) => format!(
                "`{text}` is not legal here: {} (type `list` or `help`)",
                state.explain_illegal(a)
            ),
        };
        let moves = |word: &str| step_moves(state, word);
        match pending.take(&line, &all, &moves, &why) {
            Typed::Refused(reason) => writeln!(out, "{reason}")?,
            Typed::Complete(i) => {
                // The whole play is typed: where the notation reads it as a
                // legal play, it must be this one, its `*` marks included,
                // in the order typed (a route of the play that the notation
                // does not name, the step graph vouches for).
                match state.parse_action(&pending.words().join(" ")) {
                    Ok(a) if a == actions[i] || !actions.contains(&a) => writeln!(
                        out,
                        "Complete: {}. Press Enter to confirm, or `undo`.",
                        labels[i]
                    )?,
                    Ok(_) => {
                        pending.truncate(typed.len());
                        writeln!(out, "That is not one play: type `list`.")?;
                    }
                    Err(e) => {
                        pending.truncate(typed.len());
                        writeln!(out, "{e}")?;
                    }
                }
            }
            Typed::GoesOn(more) => {
                let more: Vec<(usize, String)> = all
                    .iter()
                    .filter(|(i, _)| more.contains(i))
                    .cloned()
                    .collect();
                if by_moves && list_rows(&more) > MAX_LIST_ROWS {
                    pending.show_moves(out, &more, &step_text)?;
                } else {
                    let n = more.len();
                    let plays = if n == 1 { "play goes" } else { "plays go" };
                    writeln!(out, "{n} legal {plays} on from here:")?;
                    list_actions(out, &labelled(&more))?;
                }
            }
        }
    }
}

/// The single steps (from, to) that a typed move names, read by the game's
/// notation, or why it names none.
fn step_moves<S: Notation>(state: &S, word: &str) -> std::result::Result<Vec<(u8, u8)>, String> {
    let action = state.parse_action(word).map_err(|e| e.to_string())?;
    let json = serde_json::to_value(action).map_err(|e| e.to_string())?;
    let steps = json["play"]
        .as_array()
        .ok_or_else(|| format!("`{word}` is not a move of a checker"))?;
    Ok(steps
        .iter()
        .map(|s| {
            let code = |k: &str| {
                s[k].as_u64()
                    .and_then(|c| u8::try_from(c).ok())
                    .unwrap_or(0)
            };
            (code("from"), code("to"))
        })
        .collect())
}

/// A single step from `from` to `to` in the game's notation, without marks.
fn step_text<S: Notation>(state: &S, from: u8, to: u8) -> String {
    let json = serde_json::json!({ "play": [{ "from": from, "to": to, "die": 1 }] });
    serde_json::from_value::<S::Action>(json)
        .map(|a| state.format_action(a).replace('*', "").to_ascii_lowercase())
        .unwrap_or_else(|_| format!("{from}/{to}"))
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
