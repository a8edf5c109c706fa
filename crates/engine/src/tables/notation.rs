//! Plays as text: each step that hits is marked with `*`, and typed plays
//! are read back against the legal plays, in any step order, with moves of
//! one checker merged (`24/13`), and with the `*` marks checked.

use super::play::{BAR, OFF, Play, Step};
use crate::error::{Error, Result};

/// One typed checker move of one die, and whether it was written with `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TypedStep {
    /// Where the checker starts.
    pub from: u8,
    /// Where it ends.
    pub to: u8,
    /// Whether the move was marked as a hit.
    pub hit: bool,
}

/// A play with the steps that hit (a blot sent to the bar, or pinned in Tawla).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkedPlay {
    /// The play.
    pub play: Play,
    /// Whether each step, in order, hits.
    pub hits: [bool; 4],
}

impl MarkedPlay {
    /// The play in notation, points written by `point`: `24/18* 18/13`, or `pass`.
    pub fn text(&self, point: impl Fn(u8) -> String) -> String {
        if self.play.is_empty() {
            return "pass".into();
        }
        let words: Vec<String> = self
            .play
            .steps()
            .iter()
            .zip(self.hits)
            .map(|(s, hit)| {
                let star = if hit { "*" } else { "" };
                format!("{}/{}{star}", point(s.from), point(s.to))
            })
            .collect();
        words.join(" ")
    }

    /// The steps as typed steps, sorted (for comparing with typed text).
    fn typed(&self) -> Vec<TypedStep> {
        let mut out: Vec<TypedStep> = self
            .play
            .steps()
            .iter()
            .zip(self.hits)
            .map(|(s, hit)| TypedStep {
                from: s.from,
                to: s.to,
                hit,
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The points where this play hits.
    fn hit_points(&self) -> impl Iterator<Item = u8> + '_ {
        self.play
            .steps()
            .iter()
            .zip(self.hits)
            .filter(|(_, hit)| *hit)
            .map(|(s, _)| s.to)
    }
}

/// A point of the two-player tables games as typed: 1..24, `bar` or `off`.
pub fn parse_point(p: &str) -> std::result::Result<u8, String> {
    match p.to_ascii_lowercase().as_str() {
        "bar" | "b" => Ok(BAR),
        "off" | "o" => Ok(OFF),
        n => n
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=24).contains(n))
            .ok_or_else(|| format!("`{p}` is not a point (1..24, bar or off)")),
    }
}

/// A point of the two-player tables games in notation.
pub fn point_text(p: u8) -> String {
    match p {
        BAR => "bar".into(),
        OFF => "off".into(),
        n => n.to_string(),
    }
}

/// Which of `steps` hit, made one by one on a copy of a board: `step`
/// makes one and says whether it hit, or `None` when it is not possible
/// (marking stops there). Also whether every step was possible.
pub fn mark_hits<B: Copy>(
    board: &B,
    steps: &[Step],
    step: impl Fn(&mut B, Step) -> Option<bool>,
) -> ([bool; 4], bool) {
    let mut marks = [false; 4];
    let mut b = *board;
    for (i, &s) in steps.iter().enumerate().take(4) {
        match step(&mut b, s) {
            Some(hit) => marks[i] = hit,
            None => return (marks, false),
        }
    }
    (marks, true)
}

/// Reads typed steps such as `24/18* 18/13`, `24/18*/13`, `13/7*(2)`,
/// `bar/22`, `6/off` with the game's reading of a point (`example` shows a
/// move in the error message); `pass` gives none. A `*` after a point marks
/// the move that lands there as a hit; in a repeated move (`13/7*(2)`) it
/// marks the first of them.
pub fn parse_typed(
    text: &str,
    point: impl Fn(&str) -> std::result::Result<u8, String>,
    example: &str,
) -> std::result::Result<Vec<TypedStep>, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") || text == "-" {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        let (body, times) = match word.split_once('(') {
            Some((body, rest)) => {
                let n = rest
                    .strip_suffix(')')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("`{word}`: a repeat is written (2), (3) or (4)"))?;
                (body, n)
            }
            None => (word, 1),
        };
        let mut points = Vec::new();
        for (i, part) in body.split('/').enumerate() {
            let bare = part.trim_end_matches('*');
            if i == 0 && bare.len() < part.len() {
                return Err(format!(
                    "`{word}`: a `*` follows the point where the hit is, as in `13/7*`"
                ));
            }
            points.push((point(bare)?, bare.len() < part.len()));
        }
        if points.len() < 2 {
            return Err(format!("`{word}` is not a move like {example}"));
        }
        for n in 0..times {
            for pair in points.windows(2) {
                out.push(TypedStep {
                    from: pair[0].0,
                    to: pair[1].0,
                    hit: pair[1].1 && n == 0,
                });
            }
        }
    }
    if out.len() > 4 {
        return Err("a play has at most four steps".into());
    }
    Ok(out)
}

/// The legal play that typed steps name, if any: the same moves in any
/// order, or the same checker movements with moves of one checker merged
/// (`24/13` for `24/18 18/13`). A `*` must mark exactly the moves that hit;
/// a merged move that two legal plays can make with different hits is
/// ambiguous. `merge` merges a game's moves, `write` writes a legal play,
/// `marks` gives the hits of a play made in its own order (`None` when that
/// order is not possible: in Tawla, leaving a pin and pinning again hits in
/// one order and not in the other). `Ok(None)`: no legal play has these moves.
pub fn resolve_typed(
    text: &str,
    typed: &[TypedStep],
    legal: &[MarkedPlay],
    merge: impl Fn(&[(u8, u8)]) -> Vec<(u8, u8)>,
    write: impl Fn(&MarkedPlay) -> String,
    marks: impl Fn(Play) -> Option<[bool; 4]>,
) -> Result<Option<Play>> {
    let bad = |reason: String| Error::BadNotation {
        text: text.into(),
        reason,
    };
    let pairs = |steps: &mut dyn Iterator<Item = (u8, u8)>| {
        let mut v: Vec<(u8, u8)> = steps.collect();
        v.sort_unstable();
        v
    };
    let mut want = typed.to_vec();
    want.sort_unstable();
    let want_pairs = pairs(&mut want.iter().map(|t| (t.from, t.to)));
    if let Some(m) = legal
        .iter()
        .find(|m| pairs(&mut m.play.steps().iter().map(|s| (s.from, s.to))) == want_pairs)
    {
        if m.typed() == want || typed_order_marks(typed, m, marks) {
            return Ok(Some(m.play));
        }
        return Err(bad(format!(
            "the `*` marks do not match the hits: this play is written `{}` \
             (a `*` after each move that hits)",
            write(m)
        )));
    }
    let typed_pairs: Vec<(u8, u8)> = typed.iter().map(|t| (t.from, t.to)).collect();
    let want_merged = merge(&typed_pairs);
    let same_moves: Vec<&MarkedPlay> = legal
        .iter()
        .filter(|m| {
            let steps: Vec<(u8, u8)> = m.play.steps().iter().map(|s| (s.from, s.to)).collect();
            merge(&steps) == want_merged
        })
        .collect();
    if same_moves.is_empty() {
        return Ok(None);
    }
    // The marks speak of the points written: a `*` there must be a hit,
    // a point written without one must not be hit.
    let starred: Vec<u8> = typed.iter().filter(|t| t.hit).map(|t| t.to).collect();
    let plain: Vec<u8> = typed
        .iter()
        .map(|t| t.to)
        .filter(|p| !starred.contains(p))
        .collect();
    let fits: Vec<&MarkedPlay> = same_moves
        .iter()
        .copied()
        .filter(|m| {
            let hit: Vec<u8> = m.hit_points().collect();
            starred.iter().all(|p| hit.contains(p)) && !plain.iter().any(|p| hit.contains(p))
        })
        .collect();
    match fits.as_slice() {
        [] => Err(bad(format!(
            "the `*` marks do not match the hits: this play is written {}",
            same_moves
                .iter()
                .map(|m| format!("`{}`", write(m)))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
        [one] => Ok(Some(one.play)),
        more => Err(Error::AmbiguousPlay {
            text: text.into(),
            plays: more.iter().map(|m| write(m)).collect(),
        }),
    }
}

/// Whether the marks of `typed` are the hits of `legal`'s steps made in
/// the typed order.
fn typed_order_marks(
    typed: &[TypedStep],
    legal: &MarkedPlay,
    marks: impl Fn(Play) -> Option<[bool; 4]>,
) -> bool {
    let mut left: Vec<Step> = legal.play.steps().to_vec();
    let mut steps = Vec::with_capacity(typed.len());
    for t in typed {
        let Some(i) = left.iter().position(|s| (s.from, s.to) == (t.from, t.to)) else {
            return false;
        };
        steps.push(left.swap_remove(i));
    }
    marks(Play::from_steps(&steps))
        .is_some_and(|hits| typed.iter().zip(hits).all(|(t, hit)| t.hit == hit))
}

/// The legal play with the same steps as `play` in another order, if any.
pub fn same_steps_in_order(play: Play, legal: impl Iterator<Item = Play>) -> Option<Play> {
    let sorted = |p: &Play| {
        let mut s = p.steps().to_vec();
        s.sort_unstable();
        s
    };
    let want = sorted(&play);
    legal.into_iter().find(|p| sorted(p) == want)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> std::result::Result<Vec<(u8, u8, bool)>, String> {
        parse_typed(text, parse_point, "24/18")
            .map(|v| v.iter().map(|t| (t.from, t.to, t.hit)).collect())
    }

    #[test]
    fn reads_moves_with_their_hit_marks() {
        assert_eq!(
            parse("24/18* 18/13").unwrap(),
            vec![(24, 18, true), (18, 13, false)]
        );
        assert_eq!(
            parse("24/18*/13").unwrap(),
            vec![(24, 18, true), (18, 13, false)]
        );
        assert_eq!(
            parse("13/7*(2)").unwrap(),
            vec![(13, 7, true), (13, 7, false)]
        );
        assert_eq!(
            parse("bar/22*, 6/off").unwrap(),
            vec![(25, 22, true), (6, 0, false)]
        );
        assert_eq!(parse("pass").unwrap(), vec![]);
        assert!(parse("24*/18").is_err());
        assert!(parse("24/18 18").is_err());
        assert!(parse("25/18").is_err());
        assert!(parse("6/5(5)").is_err());
        assert!(parse("6/5 5/4 4/3 3/2 2/1").is_err());
    }

    fn step(from: u8, to: u8, die: u8) -> Step {
        Step { from, to, die }
    }

    fn marked(steps: &[Step], hits: [bool; 4]) -> MarkedPlay {
        MarkedPlay {
            play: Play::from_steps(steps),
            hits,
        }
    }

    fn write(m: &MarkedPlay) -> String {
        m.text(point_text)
    }

    /// 6-5 with an opposing blot on 18: 24/13 goes by 18 (hitting) or by 19.
    fn two_routes() -> Vec<MarkedPlay> {
        vec![
            marked(
                &[step(24, 18, 6), step(18, 13, 5)],
                [true, false, false, false],
            ),
            marked(&[step(24, 19, 5), step(19, 13, 6)], [false; 4]),
            marked(&[step(13, 7, 6), step(13, 8, 5)], [false; 4]),
        ]
    }

    fn resolve(text: &str) -> Result<Option<Play>> {
        let typed = parse_typed(text, parse_point, "24/18").expect("readable");
        resolve_typed(text, &typed, &two_routes(), Play::merged, write, |_| None)
    }

    #[test]
    fn a_star_must_mark_exactly_the_hits() {
        let legal = two_routes();
        assert_eq!(resolve("24/18* 18/13").unwrap(), Some(legal[0].play));
        assert_eq!(resolve("18/13 24/18*").unwrap(), Some(legal[0].play));
        assert_eq!(resolve("24/18*/13").unwrap(), Some(legal[0].play));
        assert_eq!(resolve("24/19 19/13").unwrap(), Some(legal[1].play));
        assert_eq!(resolve("13/8 13/7").unwrap(), Some(legal[2].play));
        let e = resolve("24/18 18/13").unwrap_err().to_string();
        assert!(e.contains("`24/18* 18/13`"), "{e}");
        assert!(resolve("24/19* 19/13").is_err());
        assert!(resolve("13/7* 13/8").is_err());
        assert_eq!(resolve("6/1 5/1").unwrap(), None);
    }

    #[test]
    fn a_merged_move_whose_routes_differ_in_hits_is_ambiguous() {
        let e = resolve("24/13").unwrap_err();
        assert_eq!(
            e,
            Error::AmbiguousPlay {
                text: "24/13".into(),
                plays: vec!["24/18* 18/13".into(), "24/19 19/13".into()],
            }
        );
        assert!(e.to_string().contains("24/18* 18/13 or 24/19 19/13"));
        // A route that is written is not ambiguous.
        assert!(resolve("24/13*").is_err());
    }

    #[test]
    fn a_json_play_in_another_order_is_the_legal_play() {
        let legal = two_routes();
        let shuffled = Play::from_steps(&[step(18, 13, 5), step(24, 18, 6)]);
        assert_eq!(
            same_steps_in_order(shuffled, legal.iter().map(|m| m.play)),
            Some(legal[0].play)
        );
        let other = Play::from_steps(&[step(24, 18, 5), step(18, 13, 6)]);
        assert_eq!(
            same_steps_in_order(other, legal.iter().map(|m| m.play)),
            None
        );
    }

    /// Random games of every tables game (Tric-Trac also with `underside`
    /// doubles): at each play, every listed play's text (a sample where
    /// there are many) reads back as that play, marks and all, and its JSON
    /// with the steps reversed is applied as the same play.
    mod every_game {
        use crate::dynamic::DynState;
        use crate::game::Turn;
        use crate::registry::find_game;
        use crate::rng::seeded;
        use proptest::prelude::*;
        use rand::Rng;
        use rand::seq::SliceRandom;

        fn check_turn(state: &dyn DynState, rng: &mut impl Rng) -> usize {
            let mut legal = state.legal_actions();
            legal.shuffle(rng);
            let mut checked = 0;
            for action in legal.iter().take(40) {
                let read = state
                    .parse_text(&action.text)
                    .unwrap_or_else(|e| panic!("{}: `{}`: {e}", state.game_id(), action.text));
                assert_eq!(read.json, action.json, "`{}` read back", action.text);
                if let Some(steps) = action.json["play"].as_array() {
                    let mut reversed = action.json.clone();
                    reversed["play"] = steps.iter().rev().cloned().collect();
                    let mut after = state.clone_box();
                    let applied = after
                        .apply_json(&reversed)
                        .unwrap_or_else(|e| panic!("`{}` reversed: {e}", action.text));
                    assert_eq!(applied.json, action.json);
                    assert_eq!(applied.text, action.text);
                    checked += 1;
                }
            }
            checked
        }

        fn play_game(id: &str, options: &[String], seed: u64) -> usize {
            let game = find_game(id).expect("registered");
            let options = game.parse_options(options).expect("options");
            let mut state = game.new_state(&options).expect("a state");
            let mut rng = seeded(seed);
            let mut checked = 0;
            for _ in 0..160 {
                match state.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        let a = state.sample_chance(&mut rng);
                        state.apply_json(&a.json).expect("chance");
                    }
                    Turn::Player(_) => {
                        checked += check_turn(&*state, &mut rng);
                        let legal = state.legal_actions();
                        let pick = rng.random_range(0..legal.len());
                        state.apply_text(&legal[pick].text).expect("its own text");
                    }
                }
            }
            checked
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(12))]
            #[test]
            fn listed_plays_read_back_and_json_steps_in_any_order(seed in any::<u64>()) {
                for (id, options) in [
                    ("tawla", vec![]),
                    ("backgammon", vec![]),
                    ("high-gammon", vec!["players=3".to_string()]),
                    ("tric-trac", vec!["doubles=underside".to_string()]),
                ] {
                    let checked = play_game(id, &options, seed);
                    prop_assert!(checked > 0, "{} checked no play", id);
                }
            }
        }
    }
}
