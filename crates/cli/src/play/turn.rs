//! A person's turn at the terminal: the board, the legal actions, and the
//! prompt that reads a number, a play in notation (whole or move by move)
//! or a command.

use super::list::{MAX_LIST_ROWS, list_actions, list_rows, show_hints};
use super::read_line;
use crate::play_moves::{Pending, Typed};
use anyhow::Result;
use spelbord_ai::Hint;
use spelbord_engine::{Notation, Viewer};
use std::io::{BufRead, Write};
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

/// How a person's turn at the terminal goes.
pub(super) struct TurnSettings {
    /// The game's id (for `help`).
    pub(super) game: &'static str,
    /// ANSI colours.
    pub(super) color: bool,
    /// Whether a single legal action is played without asking.
    pub(super) auto_forced: bool,
}

/// Seat `p`'s turn at the terminal: the board and the legal actions, then
/// lines read until one chooses an action (`None`: he quit, or the input
/// ended); `hint` gives the computer's best actions.
pub(super) fn human_turn<S: Notation>(
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
    // Plays made of single moves (the tables games) are built move by move
    // on the engine's step graph; where they are too many to list, only
    // the moves that can come next are shown.
    let mut pending = Pending::new(state.play_steps());
    let prompt = Prompt::new(state, p, actions, &pending);
    if prompt.actions.len() == 1 && how.auto_forced {
        writeln!(out, "Seat {p}: {}", prompt.forced())?;
        return Ok(Some(prompt.actions[0]));
    }
    prompt.show(out, &prompt.all, &pending)?;
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
        match prompt.command(&line, how, hint, &mut pending, out)? {
            Answer::Quit => return Ok(None),
            Answer::Chosen(a) => return Ok(Some(a)),
            Answer::Again => continue,
            Answer::Play => {}
        }
        if let Some(a) = prompt.play(&line, &typed, &mut pending, out)? {
            return Ok(Some(a));
        }
    }
}

/// What a line typed at the prompt comes to.
enum Answer<A> {
    /// The person quits the game.
    Quit,
    /// He chose this action.
    Chosen(A),
    /// A command done or a number refused: prompt again.
    Again,
    /// Neither a command nor a number: (part of) a play in notation.
    Play,
}

/// A person's prompt: the legal actions in notation and in words.
struct Prompt<'a, S: Notation> {
    state: &'a S,
    p: usize,
    actions: Vec<S::Action>,
    /// Each action's index and notation.
    all: Vec<(usize, String)>,
    /// Each action told from the person's side.
    labels: Vec<String>,
    /// Whether plays are built move by move on the step graph.
    by_moves: bool,
}

impl<'a, S: Notation> Prompt<'a, S> {
    fn new(state: &'a S, p: usize, actions: Vec<S::Action>, pending: &Pending) -> Self {
        let all = actions
            .iter()
            .map(|&a| state.format_action(a))
            .enumerate()
            .collect();
        let labels = actions
            .iter()
            .map(|&a| state.describe_action(a, Viewer::Player(p)))
            .collect();
        Prompt {
            state,
            p,
            actions,
            all,
            labels,
            by_moves: matches!(pending, Pending::Steps(_)),
        }
    }

    /// The only legal action in words, told as forced (or a pass).
    fn forced(&self) -> String {
        if self.all[0].1 == "pass" {
            "no legal move: pass".to_string()
        } else {
            format!("forced: {}", self.labels[0])
        }
    }

    /// `list` with the actions in words instead of notation.
    fn labelled(&self, list: &[(usize, String)]) -> Vec<(usize, String)> {
        list.iter()
            .map(|(i, _)| (*i, self.labels[*i].clone()))
            .collect()
    }

    /// A single step in the game's notation.
    fn step_text(&self, from: u8, to: u8) -> String {
        step_text(self.state, from, to)
    }

    /// Shows `list`: in full, or where plays are built move by move and the
    /// list is long, as the moves that can come next.
    fn show(&self, out: &mut dyn Write, list: &[(usize, String)], pending: &Pending) -> Result<()> {
        if self.by_moves && list_rows(list) > MAX_LIST_ROWS {
            Ok(pending.show_moves(out, list, &|from, to| self.step_text(from, to))?)
        } else {
            list_actions(out, &self.labelled(list))
        }
    }

    /// Does what `line` asks if it is a command or an action's number.
    fn command(
        &self,
        line: &str,
        how: &TurnSettings,
        hint: &dyn Fn(&S) -> Vec<Hint>,
        pending: &mut Pending,
        out: &mut dyn Write,
    ) -> Result<Answer<S::Action>> {
        let candidates = pending.candidates(&self.all);
        match line.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return Ok(Answer::Quit),
            "help" | "?" | "h" => writeln!(out, "{}\n{COMMANDS}", notation_help(how.game))?,
            "hint" | "hints" => show_hints(out, &hint(self.state))?,
            "board" | "b" => write!(
                out,
                "{}",
                self.state.render(Viewer::Player(self.p), how.color)
            )?,
            "list" | "l" => self.show(out, &candidates, pending)?,
            "list all" | "l all" => list_actions(out, &self.labelled(&candidates))?,
            "undo" | "u" => {
                if !pending.undo() {
                    writeln!(out, "Nothing to undo in this turn.")?;
                }
            }
            "" => {
                if let Some(i) = pending.complete(&self.all) {
                    return Ok(Answer::Chosen(self.actions[i]));
                }
            }
            _ => {
                let Ok(n) = line.parse::<usize>() else {
                    return Ok(Answer::Play);
                };
                if (1..=self.actions.len()).contains(&n) {
                    return Ok(Answer::Chosen(self.actions[n - 1]));
                }
                writeln!(
                    out,
                    "There is no action {n}: choose 1 to {}.",
                    self.actions.len()
                )?;
            }
        }
        Ok(Answer::Again)
    }

    /// Reads `line` as a whole legal play, or as moves that go on from the
    /// ones `typed` before (kept in `pending`); tells what they come to.
    fn play(
        &self,
        line: &str,
        typed: &[String],
        pending: &mut Pending,
        out: &mut dyn Write,
    ) -> Result<Option<S::Action>> {
        if typed.is_empty()
            && let Ok(a) = self.state.parse_action(line)
            && self.actions.contains(&a)
        {
            return Ok(Some(a));
        }
        let why = |text: &str| match self.state.parse_action(text) {
            Err(e) => format!("{e} (type `list` or `help`)"),
            Ok(a) => format!(
                "`{text}` is not legal here: {} (type `list` or `help`)",
                self.state.explain_illegal(a)
            ),
        };
        let moves = |word: &str| step_moves(self.state, word);
        match pending.take(line, &self.all, &moves, &why) {
            Typed::Refused(reason) => writeln!(out, "{reason}")?,
            Typed::Complete(i) => self.complete(i, typed.len(), pending, out)?,
            Typed::GoesOn(more) => self.goes_on(&more, pending, out)?,
        }
        Ok(None)
    }

    /// The whole play `i` is typed: where the notation reads it as a legal
    /// play, it must be this one, its `*` marks included, in the order typed
    /// (a route of the play that the notation does not name, the step graph
    /// vouches for); otherwise the last line's moves are taken back.
    fn complete(
        &self,
        i: usize,
        typed_before: usize,
        pending: &mut Pending,
        out: &mut dyn Write,
    ) -> Result<()> {
        match self.state.parse_action(&pending.words().join(" ")) {
            Ok(a) if a == self.actions[i] || !self.actions.contains(&a) => writeln!(
                out,
                "Complete: {}. Press Enter to confirm, or `undo`.",
                self.labels[i]
            )?,
            Ok(_) => {
                pending.truncate(typed_before);
                writeln!(out, "That is not one play: type `list`.")?;
            }
            Err(e) => {
                pending.truncate(typed_before);
                writeln!(out, "{e}")?;
            }
        }
        Ok(())
    }

    /// Shows the plays (indices `more`) that go on from the moves typed.
    fn goes_on(&self, more: &[usize], pending: &Pending, out: &mut dyn Write) -> Result<()> {
        let more: Vec<(usize, String)> = self
            .all
            .iter()
            .filter(|(i, _)| more.contains(i))
            .cloned()
            .collect();
        if self.by_moves && list_rows(&more) > MAX_LIST_ROWS {
            pending.show_moves(out, &more, &|from, to| self.step_text(from, to))?;
        } else {
            let n = more.len();
            let plays = if n == 1 { "play goes" } else { "plays go" };
            writeln!(out, "{n} legal {plays} on from here:")?;
            list_actions(out, &self.labelled(&more))?;
        }
        Ok(())
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
