//! `spelbord play`: a game in the terminal, people and agents at the table.

use crate::term::color_wanted;
use anyhow::{Context, Result, bail};
use clap::Args;
use rand::Rng;
use spelbord_ai::{Agent, Hint, default_hint_budget, hints_for, make_agent_for};
use spelbord_engine::rng::seeded;
use spelbord_engine::{
    Game, GameState, GameVisitor, Notation, Options, Record, Turn, Viewer, visit_game,
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

const HELP: &str = "\
Enter a number from the list, or an action in notation (e.g. `24/18 18/13`).
In tables games you may also enter one checker move at a time (`24/18`), then
the next; `undo` takes back the last one, Enter confirms a complete play.
Other commands: `list` (the legal actions again), `board`, `hint` (the
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
    writeln!(
        out,
        "{} — seed {seed}; seats: {}",
        G::NAME,
        names.join(", ")
    )?;
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
                    writeln!(
                        out,
                        "  seat {p} ({}) plays {}",
                        agent.name(),
                        state.format_action(a)
                    )?;
                    a
                }
                Seat::Human => {
                    if G::HIDDEN_INFORMATION && humans.len() > 1 && last_human != Some(p) {
                        write!(
                            out,
                            "\x1b[2J\x1b[HPass the screen to seat {p}, then press Enter. "
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
                    match human_turn(&state, p, color, &hint, input, out)? {
                        Some(a) => a,
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
    };
    let viewer = match humans.as_slice() {
        [one] => Viewer::Player(*one),
        _ => Viewer::Spectator,
    };
    if quit {
        writeln!(out, "Game abandoned.")?;
    } else {
        write!(out, "{}", state.render(viewer, color))?;
        let returns = state.returns();
        record.result = Some(returns.as_slice().to_vec());
        let line: Vec<String> = returns
            .as_slice()
            .iter()
            .enumerate()
            .map(|(p, r)| format!("seat {p} ({}) {r:+}", names[p]))
            .collect();
        writeln!(out, "Game over: {}", line.join(", "))?;
    }
    if let Some(path) = &args.save {
        std::fs::write(path, record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "Record saved to {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn read_line(input: &mut dyn BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

/// The words of an action's notation, normalised for matching typed moves.
fn tokens(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|t| t.trim_end_matches('*').to_ascii_lowercase())
        .collect()
}

/// Whether every token of `part` can be matched by a distinct token of `whole`.
fn contains_all(whole: &[String], part: &[String]) -> bool {
    let mut left: Vec<&String> = whole.iter().collect();
    part.iter()
        .all(|t| match left.iter().position(|w| *w == t) {
            Some(i) => {
                left.swap_remove(i);
                true
            }
            None => false,
        })
}

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
    writeln!(out, "Hints (estimated chance to win after each action):")?;
    let width = hints.iter().map(|h| h.text.len()).max().unwrap_or(0);
    for (i, h) in hints.iter().enumerate() {
        let sure = match h.margin {
            Some(0.0) => "certain".to_string(),
            Some(m) => format!("± {:.1}%, {} playouts", 100.0 * m, h.samples),
            None => format!("confidence {:.0}%", 100.0 * h.confidence),
        };
        writeln!(
            out,
            "  {}) {:<width$}  {:>5.1}%  ({sure})",
            i + 1,
            h.text,
            100.0 * h.estimate
        )?;
    }
    Ok(())
}

fn human_turn<S: Notation>(
    state: &S,
    p: usize,
    color: bool,
    hint: &dyn Fn(&S) -> Vec<Hint>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<S::Action>> {
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    write!(out, "\n{}", state.render(Viewer::Player(p), color))?;
    let texts: Vec<String> = actions.iter().map(|&a| state.format_action(a)).collect();
    if actions.len() == 1 {
        let what = if texts[0] == "pass" {
            "no legal move: pass".to_string()
        } else {
            format!("forced: {}", texts[0])
        };
        writeln!(out, "Seat {p}: {what}")?;
        return Ok(Some(actions[0]));
    }
    let all: Vec<(usize, String)> = texts.iter().cloned().enumerate().collect();
    list_actions(out, &all)?;
    let mut pending: Vec<String> = Vec::new();
    loop {
        if pending.is_empty() {
            write!(out, "seat {p}> ")?;
        } else {
            write!(out, "seat {p} [{}]> ", pending.join(" "))?;
        }
        out.flush()?;
        let Some(line) = read_line(input)? else {
            return Ok(None);
        };
        let candidates: Vec<(usize, String)> = all
            .iter()
            .filter(|(_, t)| contains_all(&tokens(t), &pending))
            .cloned()
            .collect();
        match line.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return Ok(None),
            "help" | "?" | "h" => {
                writeln!(out, "{HELP}")?;
                continue;
            }
            "hint" | "hints" => {
                show_hints(out, &hint(state))?;
                continue;
            }
            "board" | "b" => {
                write!(out, "{}", state.render(Viewer::Player(p), color))?;
                continue;
            }
            "list" | "l" => {
                list_actions(out, &candidates)?;
                continue;
            }
            "undo" | "u" => {
                if pending.pop().is_none() {
                    writeln!(out, "Nothing to undo in this turn.")?;
                }
                continue;
            }
            "" => {
                if let [(i, t)] = candidates.as_slice()
                    && tokens(t).len() == pending.len()
                {
                    return Ok(Some(actions[*i]));
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
        if pending.is_empty()
            && let Ok(a) = state.parse_action(&line)
            && actions.contains(&a)
        {
            return Ok(Some(a));
        }
        let mut wanted = pending.clone();
        wanted.extend(tokens(&line));
        let matching: Vec<(usize, String)> = all
            .iter()
            .filter(|(_, t)| contains_all(&tokens(t), &wanted))
            .cloned()
            .collect();
        match matching.as_slice() {
            [] => {
                let reason = match state.parse_action(&line) {
                    Err(e) => e.to_string(),
                    Ok(a) => format!("`{line}` is not legal here: {}", state.explain_illegal(a)),
                };
                writeln!(out, "{reason} (type `list` or `help`)")?;
            }
            [(_, t)] if tokens(t).len() == wanted.len() => {
                pending = wanted;
                writeln!(out, "Complete: {t}. Press Enter to confirm, or `undo`.")?;
            }
            more => {
                pending = wanted;
                writeln!(
                    out,
                    "{} legal plays continue this; enter the next move (or `list`).",
                    more.len()
                )?;
            }
        }
    }
}
