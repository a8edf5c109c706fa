//! The moves a person has typed so far in a turn at the terminal. In the
//! games whose plays are made of steps (the tables games) the play is built
//! on the engine's step graph, as the web client builds it: each typed move
//! is a step the graph offers from the position reached, or several steps of
//! one checker (`24/13`), and the plays still possible are those whose end
//! the graph still reaches; the engine reads the whole play as typed once it
//! is complete (its `*` marks). In the other games typed words are matched
//! against the words of the legal actions' notation.

use spelbord_engine::tables::StepsView;
use std::io::Write;

/// Reads a typed move as the single steps (from, to) it names, or says why
/// it names none.
pub(crate) type ReadMove<'a> = &'a dyn Fn(&str) -> Result<Vec<(u8, u8)>, String>;

/// The moves typed so far in a turn.
pub(crate) enum Pending {
    /// Words matched against the legal actions' notation.
    Words(Vec<String>),
    /// Moves followed on the engine's step graph.
    Steps(StepPlay),
}

/// What a typed line did to the moves typed so far.
pub(crate) enum Typed {
    /// The line was taken; these actions (indices) can still be made.
    GoesOn(Vec<usize>),
    /// The line names a whole action (index) with what came before.
    Complete(usize),
    /// The line was not taken, for this reason.
    Refused(String),
}

impl Pending {
    /// Nothing typed yet: on `graph` where the game has one.
    pub(crate) fn new(graph: Option<StepsView>) -> Self {
        match graph {
            Some(graph) => Pending::Steps(StepPlay {
                graph,
                typed: Vec::new(),
            }),
            None => Pending::Words(Vec::new()),
        }
    }

    /// The moves typed so far, as typed (lower case).
    pub(crate) fn words(&self) -> Vec<String> {
        match self {
            Pending::Words(words) => words.clone(),
            Pending::Steps(play) => play.typed.iter().map(|t| t.0.clone()).collect(),
        }
    }

    /// Takes back the last move typed; false when there is none.
    pub(crate) fn undo(&mut self) -> bool {
        match self {
            Pending::Words(words) => words.pop().is_some(),
            Pending::Steps(play) => play.typed.pop().is_some(),
        }
    }

    /// The legal actions (`texts`: index and notation) that agree with the
    /// moves typed so far.
    pub(crate) fn candidates(&self, texts: &[(usize, String)]) -> Vec<(usize, String)> {
        match self {
            Pending::Words(words) => texts
                .iter()
                .filter(|(_, t)| contains_all(&split(t), words))
                .cloned()
                .collect(),
            Pending::Steps(play) => {
                let reach = play.reachable(play.at());
                texts
                    .iter()
                    .filter(|(i, _)| reach.contains(i))
                    .cloned()
                    .collect()
            }
        }
    }

    /// The action that the moves typed so far name in full, if any.
    pub(crate) fn complete(&self, texts: &[(usize, String)]) -> Option<usize> {
        match self {
            Pending::Words(words) => match self.candidates(texts).as_slice() {
                [(i, t)] if split(t).len() == words.len() => Some(*i),
                _ => None,
            },
            Pending::Steps(play) => play.complete(),
        }
    }

    /// Takes the words of `line` after those typed so far, if they agree
    /// with some legal action (`texts`: index and notation); `moves` reads a
    /// typed move as the single steps (from, to) it names, or says why it
    /// cannot; `why` says why a typed text names no legal action. On a
    /// refusal nothing changes.
    pub(crate) fn take(
        &mut self,
        line: &str,
        texts: &[(usize, String)],
        moves: ReadMove,
        why: &dyn Fn(&str) -> String,
    ) -> Typed {
        match self {
            Pending::Words(words) => {
                let mut wanted = words.clone();
                wanted.extend(split(line));
                let matching: Vec<(usize, String)> = texts
                    .iter()
                    .filter(|(_, t)| contains_all(&split(t), &wanted))
                    .cloned()
                    .collect();
                if matching.is_empty() {
                    return Typed::Refused(why(line));
                }
                *words = wanted;
                match matching.as_slice() {
                    [(i, t)] if split(t).len() == words.len() => Typed::Complete(*i),
                    _ => Typed::GoesOn(matching.iter().map(|(i, _)| *i).collect()),
                }
            }
            Pending::Steps(play) => {
                let before = play.typed.len();
                for word in split(line) {
                    let taken = moves(&word).and_then(|steps| {
                        play.push(&word, &steps).then_some(()).ok_or_else(|| {
                            format!("`{word}` is not a move that a legal play goes on with here")
                        })
                    });
                    if let Err(reason) = taken {
                        play.typed.truncate(before);
                        return Typed::Refused(reason);
                    }
                }
                match play.complete() {
                    Some(i) => Typed::Complete(i),
                    None => Typed::GoesOn(play.reachable(play.at())),
                }
            }
        }
    }

    /// Takes back the moves typed after the first `keep`.
    pub(crate) fn truncate(&mut self, keep: usize) {
        match self {
            Pending::Words(words) => words.truncate(keep),
            Pending::Steps(play) => play.typed.truncate(keep),
        }
    }

    /// The short form of a long list of plays (`plays`: index and
    /// notation): each single move that some of them can still make next,
    /// with how many plays go on with it, most first.
    pub(crate) fn show_moves(
        &self,
        out: &mut dyn Write,
        plays: &[(usize, String)],
        step_text: &dyn Fn(u8, u8) -> String,
    ) -> std::io::Result<()> {
        let counts = match self {
            Pending::Words(words) => word_counts(plays, words),
            Pending::Steps(play) => play.next_moves(plays, step_text),
        };
        write_moves(out, plays.len(), !self.words().is_empty(), counts)
    }
}

/// A play being built on the engine's step graph.
pub(crate) struct StepPlay {
    graph: StepsView,
    /// Each typed move with the graph's position after it.
    typed: Vec<(String, usize)>,
}

impl StepPlay {
    /// The position reached (0: the start).
    fn at(&self) -> usize {
        self.typed.last().map_or(0, |t| t.1)
    }

    /// Follows the single steps `steps` (from, to) from the position
    /// reached, each a step the graph offers or several steps of one
    /// checker, and keeps `word` with the position after them; false (and
    /// nothing kept) when the graph does not offer them.
    fn push(&mut self, word: &str, steps: &[(u8, u8)]) -> bool {
        let mut at = self.at();
        for &(from, to) in steps {
            match self.route(at, from, to) {
                Some(next) => at = next,
                None => return false,
            }
        }
        self.typed.push((word.to_string(), at));
        true
    }

    /// The position after the checker at `from` went to `to` from position
    /// `at`: by one step, else by several steps of that checker, the fewest
    /// first, then the smallest dice (as the web client moves a checker).
    fn route(&self, at: usize, from: u8, to: u8) -> Option<usize> {
        let mut frontier = vec![(at, from)];
        for _ in 0..4 {
            let mut next = Vec::new();
            for &(at, from) in &frontier {
                let mut options: Vec<_> = self
                    .graph
                    .moves
                    .iter()
                    .filter(|m| m.at == at && m.from == from)
                    .collect();
                options.sort_by_key(|m| m.die);
                if let Some(m) = options.iter().find(|m| m.to == to) {
                    return Some(m.next);
                }
                next.extend(
                    options
                        .iter()
                        .filter(|m| m.to != from)
                        .map(|m| (m.next, m.to)),
                );
            }
            frontier = next;
        }
        None
    }

    /// The legal actions (indices) whose play the graph completes from
    /// position `start`.
    fn reachable(&self, start: usize) -> Vec<usize> {
        let mut reach = vec![false; self.graph.boards.len()];
        if let Some(r) = reach.get_mut(start) {
            *r = true;
        }
        // Positions come before those they lead to, and moves by position.
        for m in &self.graph.moves {
            if reach[m.at] {
                reach[m.next] = true;
            }
        }
        let mut out: Vec<usize> = self
            .graph
            .ends
            .iter()
            .filter(|e| reach[e.at])
            .map(|e| e.action)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The action whose play ends at the position reached, once a move is typed.
    fn complete(&self) -> Option<usize> {
        let at = self.typed.last()?.1;
        self.graph
            .ends
            .iter()
            .find(|e| e.at == at)
            .map(|e| e.action)
    }

    /// The steps the graph offers next, each written as in the plays that
    /// make it (`plays`, with its `*` mark) or else by `step_text`, with how
    /// many plays go on with it.
    fn next_moves(
        &self,
        plays: &[(usize, String)],
        step_text: &dyn Fn(u8, u8) -> String,
    ) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, Vec<usize>)> = Vec::new();
        for m in self.graph.moves.iter().filter(|m| m.at == self.at()) {
            let through = self.reachable(m.next);
            let plain = step_text(m.from, m.to);
            let written = plays
                .iter()
                .filter(|(i, _)| through.contains(i))
                .flat_map(|(_, t)| split(t))
                .find(|w| bare(w) == plain)
                .unwrap_or(plain);
            match counts.iter_mut().find(|(w, _)| *w == written) {
                Some((_, actions)) => actions.extend(through),
                None => counts.push((written, through)),
            }
        }
        counts
            .into_iter()
            .map(|(w, mut actions)| {
                actions.sort_unstable();
                actions.dedup();
                (w, actions.len())
            })
            .collect()
    }
}

/// The words of an action's notation, lower case, `*` marks kept.
pub(crate) fn split(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect()
}

/// A word without its `*` marks, for matching typed moves.
fn bare(word: &str) -> &str {
    word.trim_end_matches('*')
}

/// The words of `whole` left after taking one for each word of `part`
/// (matched without `*` marks), or `None` when some word of `part` is not there.
fn words_left(whole: &[String], part: &[String]) -> Option<Vec<String>> {
    let mut left: Vec<String> = whole.to_vec();
    for t in part {
        let i = left.iter().position(|w| bare(w) == bare(t))?;
        left.swap_remove(i);
    }
    Some(left)
}

/// Whether every word of `part` can be matched by a distinct word of `whole`.
fn contains_all(whole: &[String], part: &[String]) -> bool {
    words_left(whole, part).is_some()
}

/// Each word that some of `plays` still has after `pending`, with how many
/// plays have it.
fn word_counts(plays: &[(usize, String)], pending: &[String]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (_, text) in plays {
        let Some(mut left) = words_left(&split(text), pending) else {
            continue;
        };
        left.sort_unstable();
        left.dedup();
        for w in left {
            match counts.iter_mut().find(|(m, _)| *m == w) {
                Some((_, n)) => *n += 1,
                None => counts.push((w, 1)),
            }
        }
    }
    counts
}

/// Writes the moves with their counts, most first, in rows under a line
/// saying how many plays there are.
fn write_moves(
    out: &mut dyn Write,
    plays: usize,
    going_on: bool,
    mut counts: Vec<(String, usize)>,
) -> std::io::Result<()> {
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let cells: Vec<String> = counts.iter().map(|(m, n)| format!("{m} ({n})")).collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0) + 2;
    let per_line = (78 / width).max(1);
    writeln!(
        out,
        "{plays} legal plays{}; the moves in them (how many plays have each):",
        if going_on { " go on from here" } else { "" }
    )?;
    for row in cells.chunks(per_line) {
        let line: Vec<String> = row.iter().map(|c| format!("{c:<width$}")).collect();
        writeln!(out, "  {}", line.concat().trim_end())?;
    }
    writeln!(
        out,
        "Type a move, then the next (or a whole play); `list all` shows every play."
    )
}
