//! Notation: `open B5 R3`, `choose Yellow`, `2-5` (dice, smaller first),
//! `1/3 3/8*`, `bar/4`, `in/2`, `19/off`, `pass`, `roll`, `double`,
//! `accept`, `drop`.

use super::board::Board;
use super::geometry::{BAR_CODE, COLOURS, FIELDS, IN_CODE, LETTERS, OFF_CODE, distance, seats};
use super::state::{HgAction, HgState, Last, Phase};
use crate::error::{Error, Result};
use crate::game::{GameEvent, GameState, Notation, Viewer};
use crate::tables::notation::{
    MarkedPlay, TypedStep, mark_hits, parse_typed, resolve_typed, same_steps_in_order,
};
use crate::tables::{Play, Step};
use serde_json::json;

fn field_text(code: u8) -> String {
    match code {
        BAR_CODE => "bar".into(),
        IN_CODE => "in".into(),
        OFF_CODE => "off".into(),
        c => c.to_string(),
    }
}

fn parse_field(word: &str) -> std::result::Result<u8, String> {
    match word {
        "bar" | "b" => Ok(BAR_CODE),
        "in" | "i" => Ok(IN_CODE),
        "off" | "o" => Ok(OFF_CODE),
        n => n
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=FIELDS as u8).contains(n))
            .ok_or_else(|| format!("`{word}` is not a field (1..28, bar, in or off)")),
    }
}

/// Reads typed steps such as `1/3 3/8*`, `1/3/8`, `5/10*(2)`, `bar/4`,
/// `19/off`, with their `*` marks; `pass` gives none.
fn parse_steps(text: &str) -> std::result::Result<Vec<TypedStep>, String> {
    parse_typed(text, parse_field, "1/3")
}

/// The seat of a colour written as its name or letter (`yellow`, `y`).
fn seat_of_colour(word: &str) -> Option<u8> {
    (0..COLOURS.len())
        .find(|&seat| {
            COLOURS[seat].eq_ignore_ascii_case(word)
                || LETTERS[seat].to_string().eq_ignore_ascii_case(word)
        })
        .map(|seat| seat as u8)
}

fn parse_dice(text: &str) -> Option<[u8; 2]> {
    let (a, b) = text.split_once('-')?;
    let a: u8 = a.trim().parse().ok()?;
    let b: u8 = b.trim().parse().ok()?;
    ((1..=6).contains(&a) && (1..=6).contains(&b)).then_some([a.min(b), a.max(b)])
}

impl HgState {
    /// `play` with the steps that hit a blot marked, simulated on a copy
    /// (safely: marking stops at a step that is not possible).
    pub fn marked(&self, play: Play) -> MarkedPlay {
        let p = self.mover();
        let (hits, _) = mark_hits(self.board(), play.steps(), |board, s| {
            let lands = s.to == OFF_CODE || (1..=FIELDS as u8).contains(&s.to);
            (stone_there(board, p, s.from) && lands).then(|| board.apply_step(p, s).is_some())
        });
        MarkedPlay { play, hits }
    }

    fn player_of_letter(&self, letter: char) -> Option<usize> {
        (0..self.num_players()).find(|&p| LETTERS[self.seat(p) as usize] == letter)
    }

    /// A typed step's die, guessed from the distance (for error messages).
    fn guess_die(&self, from: u8, to: u8) -> u8 {
        let seat = self.seat(self.mover());
        let d = |c: u8| match c {
            BAR_CODE | IN_CODE => -1,
            OFF_CODE => 20,
            c => distance(seat, c as usize - 1) as i32,
        };
        (d(to) - d(from)).clamp(1, 6) as u8
    }

    /// The board after typed steps and whether each hit, if each step
    /// moves a stone that is there to a field (no rules checked: for
    /// matching positions only).
    fn board_after(&self, typed: &[TypedStep]) -> Option<(Board, Vec<bool>)> {
        let p = self.mover();
        let mut board = *self.board();
        let mut hits = Vec::with_capacity(typed.len());
        for t in typed {
            if !stone_there(&board, p, t.from)
                || !(t.to == OFF_CODE || (1..=FIELDS as u8).contains(&t.to))
            {
                return None;
            }
            let step = Step {
                from: t.from,
                to: t.to,
                die: 0,
            };
            hits.push(board.apply_step(p, step).is_some());
        }
        Some((board, hits))
    }

    /// Resolves typed steps against the legal plays: the same steps in any
    /// order; else the same stone movements with continuing steps merged;
    /// else a legal play that leaves the same position. The `*` marks must
    /// agree with the hits.
    fn resolve(&self, text: &str, dice: [u8; 2], typed: &[TypedStep]) -> Result<Option<Play>> {
        let plays: Vec<Play> = self.with_plays(dice, |plays| plays.collect());
        let legal: Vec<MarkedPlay> = plays.into_iter().map(|p| self.marked(p)).collect();
        if let Some(play) = resolve_typed(
            text,
            typed,
            &legal,
            merged,
            |m| m.text(field_text),
            |_| None,
        )? {
            return Ok(Some(play));
        }
        let Some((want, typed_hits)) = self.board_after(typed) else {
            return Ok(None);
        };
        let p = self.mover();
        let Some(m) = legal.iter().find(|m| {
            let mut b = *self.board();
            for &st in m.play.steps() {
                b.apply_step(p, st);
            }
            b == want
        }) else {
            return Ok(None);
        };
        if typed_hits.iter().zip(typed).any(|(&hit, t)| hit != t.hit) {
            return Err(Error::BadNotation {
                text: text.into(),
                reason: format!(
                    "the `*` marks do not match the hits: this play is written `{}` \
                     (a `*` after each move that hits)",
                    m.text(field_text)
                ),
            });
        }
        Ok(Some(m.play))
    }
}

/// Whether player `p` has a stone at the source code `from`.
fn stone_there(board: &Board, p: usize, from: u8) -> bool {
    match from {
        BAR_CODE => board.bar[p] > 0,
        IN_CODE => board.pool[p] > 0,
        c if (1..=FIELDS as u8).contains(&c) => board.cnt[c as usize - 1][p] > 0,
        _ => false,
    }
}

/// Stone movements with continuing steps merged ("1/3 3/8" → "1/8", in
/// any order), sorted.
fn merged(steps: &[(u8, u8)]) -> Vec<(u8, u8)> {
    let mut chains: Vec<(u8, u8)> = steps.to_vec();
    let continues = |end: u8, start: u8| {
        end == start && start != BAR_CODE && start != IN_CODE && start != OFF_CODE
    };
    while let Some((i, j)) = (0..chains.len()).find_map(|i| {
        (0..chains.len())
            .find(|&j| j != i && continues(chains[i].1, chains[j].0))
            .map(|j| (i, j))
    }) {
        chains[i].1 = chains[j].1;
        chains.remove(j);
    }
    chains.sort_unstable();
    chains
}

impl Notation for HgState {
    /// At a cube decision, the roll with `always`. High Gammon has no
    /// matches, so its cube is never dead: without `always` it always asks
    /// (a cube at its highest value asks nothing, HG-17).
    fn auto_roll(&self, always: bool) -> Option<HgAction> {
        (always && self.phase == Phase::CubeDecision).then_some(HgAction::Roll)
    }

    fn play_steps(&self) -> Option<crate::tables::StepsView> {
        HgState::play_steps(self)
    }

    fn play_boards(&self, action: HgAction) -> Option<Vec<serde_json::Value>> {
        HgState::play_boards(self, self.canonical_action(action))
    }

    fn format_action(&self, action: HgAction) -> String {
        match action {
            HgAction::Opening(dice) => {
                let mut text = "open".to_string();
                for (p, &d) in dice.iter().enumerate().take(self.num_players()) {
                    if d > 0 {
                        text.push(' ');
                        text.push(LETTERS[self.seat(p) as usize]);
                        text.push_str(&d.to_string());
                    }
                }
                text
            }
            HgAction::Dice([a, b]) => format!("{}-{}", a.min(b), a.max(b)),
            HgAction::Colour(seat) => match COLOURS.get(seat as usize) {
                Some(colour) => format!("choose {colour}"),
                None => format!("choose seat {seat}"),
            },
            HgAction::Play(play) if play.is_empty() => "pass".into(),
            HgAction::Play(play) => self.marked(play).text(field_text),
            HgAction::Roll => "roll".into(),
            HgAction::Double => "double".into(),
            HgAction::Take => "take".into(),
            HgAction::Drop => "drop".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<HgAction> {
        let t = text.trim().to_ascii_lowercase();
        let bad = |reason: String| Error::BadNotation {
            text: text.into(),
            reason,
        };
        match t.as_str() {
            "roll" | "r" => return Ok(HgAction::Roll),
            "double" | "d" => return Ok(HgAction::Double),
            // `accept` and `a`: as records written before read.
            "take" | "t" | "accept" | "a" => return Ok(HgAction::Take),
            "drop" => return Ok(HgAction::Drop),
            _ => {}
        }
        let colour_word = t.strip_prefix("choose").map(str::trim);
        if let Some(word) = colour_word.or(COLOURS
            .iter()
            .any(|c| c.eq_ignore_ascii_case(&t))
            .then_some(t.as_str()))
        {
            let players = self.num_players();
            return match seat_of_colour(word) {
                Some(seat) if seats(players).contains(&seat) => Ok(HgAction::Colour(seat)),
                _ => Err(bad(format!(
                    "`{word}` is not a colour in play: {}",
                    seats(players)
                        .iter()
                        .map(|&s| COLOURS[s as usize])
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            };
        }
        if let Some(rest) = t.strip_prefix("open") {
            let mut dice = [0u8; 4];
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.is_empty() {
                return Err(bad("an opening roll is written like `open B5 R3`".into()));
            }
            for w in words {
                let mut chars = w.chars();
                let letter = chars.next().map(|c| c.to_ascii_uppercase());
                let value: Option<u8> = chars.as_str().parse().ok();
                match (letter.and_then(|l| self.player_of_letter(l)), value) {
                    (Some(p), Some(v)) if (1..=6).contains(&v) && dice[p] == 0 => dice[p] = v,
                    _ => {
                        return Err(bad(format!(
                            "`{w}` is not a colour letter of this game with a die 1..6"
                        )));
                    }
                }
            }
            return Ok(HgAction::Opening(dice));
        }
        if !t.contains('/')
            && let Some(dice) = parse_dice(&t)
        {
            return Ok(HgAction::Dice(dice));
        }
        let typed = parse_steps(&t).map_err(bad)?;
        if let Phase::Moving { dice } = self.phase()
            && let Some(play) = self.resolve(text, dice, &typed)?
        {
            return Ok(HgAction::Play(play));
        }
        let steps: Vec<Step> = typed
            .iter()
            .map(|t| Step {
                from: t.from,
                to: t.to,
                die: self.guess_die(t.from, t.to),
            })
            .collect();
        Ok(HgAction::Play(Play::from_steps(&steps)))
    }

    fn canonical_action(&self, action: HgAction) -> HgAction {
        if let (Phase::Moving { dice }, HgAction::Play(play)) = (self.phase(), action)
            && let Some(legal) = self.with_plays(dice, |plays| same_steps_in_order(play, plays))
        {
            return HgAction::Play(legal);
        }
        action
    }

    fn explain_illegal(&self, action: HgAction) -> String {
        match (self.phase(), action) {
            (Phase::Moving { dice }, HgAction::Play(_)) => {
                let n = self.with_plays(dice, |p| p.count());
                format!(
                    "not one of the {n} legal plays of {}-{}: the smaller number is played \
                     first, each number moves one stone by exactly that many fields, and \
                     stones on the bar enter first",
                    dice[0], dice[1]
                )
            }
            (Phase::Over, _) => "the game is over".into(),
            (Phase::Opening { .. }, _) => "it is time for the opening roll".into(),
            (Phase::Rolling { .. }, _) => "it is time to roll the dice".into(),
            (Phase::ColourChoice, _) => format!(
                "{} rolled highest and first chooses a colour, his place at the table: \
                 `choose Blue`, `choose Red`, …",
                COLOURS[self.seat(self.mover()) as usize]
            ),
            (_, HgAction::Colour(_)) => {
                "a colour is chosen only by the opening winner, before the first roll".into()
            }
            (Phase::CubeDecision, _) => "first choose `roll` or `double`".into(),
            (Phase::CubeResponse { .. }, _) => {
                "the double must be answered: `accept` or `drop`".into()
            }
            (Phase::Moving { dice }, _) => format!(
                "play the roll {}-{} (moves such as 1/3 3/8, or pass)",
                dice[0], dice[1]
            ),
        }
    }

    fn render(&self, viewer: Viewer, color: bool) -> String {
        super::render::render(self, viewer, color)
    }

    fn game_events(&self) -> Vec<GameEvent> {
        let name = |p: u8| self.colour_name(p);
        let mut events = Vec::new();
        match self.last() {
            Last::Nothing => {}
            Last::Opening { tied, doubled } => self.push_opening_events(tied, doubled, &mut events),
            Last::Chose { by, was } => {
                let n = self.num_players();
                events.push(GameEvent::new(
                    "colour_chosen",
                    json!({
                        "player": by,
                        "colour": name(by),
                        "was": COLOURS[was as usize],
                        "seats": (0..n).map(|p| self.seat(p)).collect::<Vec<_>>(),
                    }),
                    if self.seat(by as usize) == was {
                        format!("{} keeps his colour and starts", name(by))
                    } else {
                        format!(
                            "{} chooses to play {} and starts; the others keep their turn \
                             order after him and take the next colours",
                            COLOURS[was as usize],
                            name(by)
                        )
                    },
                ));
            }
            Last::Played { by, hits } => {
                for (field, victim) in hits {
                    if field > 0 {
                        events.push(GameEvent::new(
                            "hit",
                            json!({ "by": by, "victim": victim, "field": field }),
                            format!("{} hits {} on {field}", name(by), name(victim)),
                        ));
                    }
                }
                if self.phase() == Phase::Over {
                    events.push(GameEvent::new(
                        "won",
                        json!({ "winner": by }),
                        format!("{} has won", name(by)),
                    ));
                } else if self.phase() == (Phase::Rolling { again: true }) {
                    events.push(GameEvent::new(
                        "roll_again",
                        json!({ "player": by }),
                        format!("{} rolled a double and rolls again", name(by)),
                    ));
                }
            }
            Last::Answered {
                by,
                accept,
                settled,
            } => self.push_answer_events(by, accept, settled, &mut events),
        }
        events
    }
}

impl HgState {
    /// Player `p`'s colour.
    fn colour_name(&self, p: u8) -> &'static str {
        COLOURS[self.seat(p as usize) as usize]
    }

    /// Pushes the events of an opening round: a doubled stake, then who
    /// starts or who ties (bit p of `tied`: player p).
    fn push_opening_events(&self, tied: u8, doubled: bool, events: &mut Vec<GameEvent>) {
        let name = |p: u8| self.colour_name(p);
        if doubled {
            events.push(GameEvent::new(
                "opening_doubled",
                json!({ "stake": self.cube_value() }),
                format!(
                    "equal numbers in the roll for the start: the stake doubles to {}",
                    self.cube_value()
                ),
            ));
        }
        let tied: Vec<u8> = (0..self.num_players() as u8)
            .filter(|&p| tied >> p & 1 == 1)
            .collect();
        let who: Vec<&str> = tied.iter().map(|&p| name(p)).collect();
        if who.len() == 1 {
            events.push(GameEvent::new(
                "starts",
                json!({ "player": tied[0] }),
                format!("{} rolled highest, chooses a colour and starts", who[0]),
            ));
        } else {
            events.push(GameEvent::new(
                "opening_tie",
                json!({ "players": tied }),
                format!("{} tie for the highest and roll again", who.join(" and ")),
            ));
        }
    }

    /// Pushes the events of `by`'s answer to a double, and, once the double
    /// is `settled`, its result.
    fn push_answer_events(&self, by: u8, accept: bool, settled: bool, events: &mut Vec<GameEvent>) {
        let name = |p: u8| self.colour_name(p);
        if accept {
            events.push(GameEvent::new(
                "take",
                json!({ "player": by }),
                format!("{} takes the double", name(by)),
            ));
        } else {
            let owes = self.dropped_at(by as usize).unwrap_or(1);
            events.push(GameEvent::new(
                "drop",
                json!({ "player": by, "owes": owes }),
                format!(
                    "{} drops out, owing {owes} to the winner; those stones leave the board",
                    name(by)
                ),
            ));
        }
        if settled && self.phase() == Phase::Over {
            events.push(GameEvent::new(
                "won_by_drops",
                json!({ "winner": self.mover() }),
                format!(
                    "everyone else dropped out: {} wins",
                    name(self.mover() as u8)
                ),
            ));
        } else if settled {
            events.push(GameEvent::new(
                "stake",
                json!({ "stake": self.cube_value() }),
                format!("the stake is now {}", self.cube_value()),
            ));
        }
    }
}
