//! GNU Backgammon's position ID (14 characters: the checkers, those of the
//! player not on roll first, as GNU Backgammon 1.07 reads them) and match ID (12 characters: cube, turn, dice, match
//! length and score), written `POSITION:MATCH`, for backgammon. Seat 0 is
//! GNU Backgammon's player 0. Reading turns an ID into the position
//! notation, which then reads as any position.

use super::{Phase, TablesState, TablesVariant};
use crate::error::PositionError;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bits written least significant first into bytes, as GNU Backgammon packs its keys.
struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    fn new(bytes: usize) -> Self {
        Bits {
            bytes: vec![0; bytes],
            len: 0,
        }
    }
    fn push(&mut self, bit: bool) {
        if bit && let Some(b) = self.bytes.get_mut(self.len / 8) {
            *b |= 1 << (self.len % 8);
        }
        self.len += 1;
    }
    fn push_value(&mut self, value: u32, width: u32) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }
}

fn get(bytes: &[u8], i: usize) -> bool {
    bytes.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1)
}

fn value(bytes: &[u8], from: usize, width: usize) -> u32 {
    (0..width).fold(0, |v, i| v | (u32::from(get(bytes, from + i)) << i))
}

fn encode(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for i in 0..chars {
        let bit = i * 6;
        let mut v = 0usize;
        for k in 0..6 {
            let b = bit + k;
            let byte = bytes.get(b / 8).copied().unwrap_or(0);
            v = v << 1 | usize::from(byte >> (7 - b % 8) & 1);
        }
        out.push(char::from(ALPHABET[v]));
    }
    out
}

fn decode(text: &str, bytes: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; bytes];
    for (i, c) in text.bytes().enumerate() {
        let v = ALPHABET.iter().position(|&a| a == c)?;
        for k in 0..6 {
            let b = i * 6 + k;
            if v >> (5 - k) & 1 == 1 {
                if b / 8 >= bytes {
                    return None;
                }
                out[b / 8] |= 1 << (7 - b % 8);
            }
        }
    }
    Some(out)
}

/// Checkers of `player` on his own points 1..24 (index 0..24) and the bar (24).
fn checkers(top: &[i8; 24], bar: [u8; 2], player: usize) -> [u8; 25] {
    let mut out = [0u8; 25];
    for (j, o) in out.iter_mut().take(24).enumerate() {
        let v = if player == 0 { top[j] } else { -top[23 - j] };
        *o = v.max(0) as u8;
    }
    out[24] = bar[player];
    out
}

impl<V: TablesVariant> TablesState<V> {
    /// GNU Backgammon's position ID and match ID of this position,
    /// `POSITION:MATCH` (meaningful for backgammon only).
    pub fn gnubg_id(&self) -> String {
        let abs = self.absolute();
        let roller = usize::from(self.side);
        let mut key = Bits::new(10);
        for player in [1 - roller, roller] {
            for n in checkers(&abs.top, abs.bar, player) {
                for _ in 0..n {
                    key.push(true);
                }
                key.push(false);
            }
        }
        let mut m = Bits::new(9);
        m.push_value(u32::from(self.cube_log2), 4);
        m.push_value(
            if self.cube_owner < 2 {
                u32::from(self.cube_owner)
            } else {
                3
            },
            2,
        );
        m.push_value(u32::from(self.side), 1);
        m.push_value(u32::from(self.crawford == 1), 1);
        let game_state = match self.phase {
            Phase::Opening => 0,
            Phase::Over => 2,
            _ => 1,
        };
        m.push_value(game_state, 3);
        let responding = self.phase == Phase::CubeResponse;
        m.push_value(u32::from(self.side) ^ u32::from(responding), 1);
        m.push_value(u32::from(responding), 1);
        m.push_value(0, 2);
        let dice = match self.phase {
            Phase::Moving([a, b]) => [a, b],
            _ => [0, 0],
        };
        m.push_value(u32::from(dice[0]), 3);
        m.push_value(u32::from(dice[1]), 3);
        m.push_value(u32::from(self.options.match_to), 15);
        m.push_value(u32::from(self.score[0]), 15);
        m.push_value(u32::from(self.score[1]), 15);
        format!("{}:{}", encode(&key.bytes, 14), encode(&m.bytes, 12))
    }
}

/// Whether `text` is a GNU Backgammon position ID, with or without a match ID.
pub fn is_gnubg_id(text: &str) -> bool {
    let t = text.trim();
    let (pos, matched) = t.split_once(':').unwrap_or((t, ""));
    let b64 = |s: &str| s.bytes().all(|c| ALPHABET.contains(&c));
    pos.len() == 14
        && b64(pos)
        && ((matched.is_empty() && !t.contains(':')) || (matched.len() == 12 && b64(matched)))
}

/// The position notation of a GNU Backgammon `POSITION[:MATCH]` ID. Without
/// a match ID the position is a cubeless money game with player 0 on roll.
pub fn gnubg_id_to_notation(text: &str) -> Result<String, PositionError> {
    let bad = |why: &str| PositionError::Unreadable {
        field: "gnubg id",
        text: text.into(),
        expected: why.into(),
    };
    let t = text.trim();
    let (pos, matched) = t.split_once(':').map_or((t, None), |(p, m)| (p, Some(m)));
    let key = decode(pos, 10).ok_or_else(|| bad("a 14-character position ID"))?;
    let mkey = match matched {
        Some(m) if m.len() == 12 => {
            Some(decode(m, 9).ok_or_else(|| bad("a 12-character match ID"))?)
        }
        Some(_) => return Err(bad("a 12-character match ID after the colon")),
        None => None,
    };
    let field = |from, width| mkey.as_ref().map_or(0, |k| value(k, from, width));
    let roller = field(6, 1) as usize;
    // The checkers, the player not on roll's first, each from his ace point to the bar.
    let mut counts = [[0u8; 25]; 2];
    let mut bit = 0;
    for player in [1 - roller, roller] {
        for count in counts[player].iter_mut() {
            while get(&key, bit) {
                *count += 1;
                bit += 1;
                if bit >= 80 {
                    return Err(bad("a position ID of at most 15 checkers a side"));
                }
            }
            bit += 1;
        }
    }
    let mut top = [0i8; 24];
    for (j, t) in top.iter_mut().enumerate() {
        let mine = counts[0][j];
        let theirs = counts[1][23 - j];
        if mine > 0 && theirs > 0 {
            return Err(PositionError::Inconsistent(format!(
                "both players have checkers on point {}",
                j + 1
            )));
        }
        *t = mine as i8 - theirs as i8;
    }
    let on_board = |p: usize| counts[p].iter().map(|&c| u32::from(c)).sum::<u32>();
    let off = [0, 1].map(|p| 15u32.checked_sub(on_board(p)));
    let [Some(off0), Some(off1)] = off else {
        return Err(bad("a position ID of at most 15 checkers a side"));
    };
    let points: Vec<String> = top.iter().map(i8::to_string).collect();
    let mut out = points.join(",");
    let (cube_log2, owner, crawford) = (field(0, 4), field(4, 2), field(7, 1));
    let (game_state, double) = (field(8, 3), field(12, 1));
    let dice = [field(15, 3), field(18, 3)];
    let (length, score) = (field(21, 15), [field(36, 15), field(51, 15)]);
    let phase = if game_state == 2 {
        "over".to_string()
    } else if double == 1 {
        "cube_response".to_string()
    } else if dice != [0, 0] {
        format!("{}-{}", dice[0], dice[1])
    } else if mkey.is_some() && crawford == 0 && (owner == 3 || owner as usize == roller) {
        "cube_decision".to_string()
    } else {
        "rolling".to_string()
    };
    out.push_str(&format!(" {roller} {phase}"));
    let bar = [counts[0][24], counts[1][24]];
    if bar != [0, 0] {
        out.push_str(&format!(" bar={},{}", bar[0], bar[1]));
    }
    if [off0, off1] != [0, 0] {
        out.push_str(&format!(" off={off0},{off1}"));
    }
    if mkey.is_some() {
        if cube_log2 > 0 {
            out.push_str(&format!(
                " stake={} owner={owner}",
                1u32 << cube_log2.min(15)
            ));
        }
        if score != [0, 0] {
            out.push_str(&format!(" score={},{}", score[0], score[1]));
        }
        if crawford == 1 {
            out.push_str(" crawford=game");
        } else if length > 0 && score.contains(&(length - 1)) {
            out.push_str(" crawford=after");
        }
        out.push_str(&format!(" cube=on match={length}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::BackgammonRules;
    use crate::game::{Game, GameState};
    use crate::rng::seeded;

    type State = TablesState<BackgammonRules>;

    #[test]
    fn the_start_has_gnu_backgammons_id() {
        let start: State = "-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2 0 rolling"
            .parse()
            .unwrap();
        assert!(start.gnubg_id().starts_with("4HPwATDgc/ABMA:"));
        let read: State = "4HPwATDgc/ABMA".parse().unwrap();
        assert_eq!(read.absolute(), start.absolute());
    }

    #[test]
    fn an_id_reads_as_gnu_backgammon_draws_it() {
        // GNU Backgammon 1.07 (`new match 5`, `set matchid EYGmAAAAAAAA`,
        // `set board ezLgATBsm2YGAA`, `show board`) draws player 0 (on roll,
        // 5-1 rolled) with two checkers on each of his 3 to 6, 9, 11 and 13
        // points and one on his 8; player 1 with two on his 1, 6 and 24, four on
        // his 2 and 13, one on his 4; player 1 owns the cube at 2.
        let id = "ezLgATBsm2YGAA:EYGmAAAAAAAA";
        let read: State = id.parse().unwrap();
        let mut top = [0i8; 24];
        for (point, n) in [
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (8, 1),
            (9, 2),
            (11, 2),
            (13, 2),
        ] {
            top[point - 1] = n;
        }
        for (point, n) in [(1, 2), (2, 4), (4, 1), (6, 2), (13, 4), (24, 2)] {
            top[24 - point] = -n;
        }
        assert_eq!(read.absolute().top, top);
        assert_eq!((read.mover(), read.phase()), (0, Phase::Moving([5, 1])));
        assert_eq!(
            (read.cube_log2, read.cube_owner, read.options.match_to),
            (1, 1, 5)
        );
        assert_eq!(read.gnubg_id(), id);
    }

    #[test]
    fn ids_read_back_to_the_same_position() {
        use crate::backgammon::Backgammon;
        let game = Backgammon::from_options(
            &crate::Options::from_map(
                "backgammon",
                Backgammon::option_specs(),
                [("cube".into(), "on".into()), ("match".into(), "7".into())],
            )
            .unwrap(),
        )
        .unwrap();
        let mut rng = seeded(3);
        let mut state = game.initial_state();
        let mut checked = 0;
        let mut scratch = Vec::new();
        while state.turn() != crate::Turn::Over {
            if state.phase() != Phase::Opening && state.turn() != crate::Turn::Chance {
                let id = state.gnubg_id();
                assert!(is_gnubg_id(&id), "{id}");
                let read: State = id.parse().unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(read.absolute(), state.absolute(), "{id}");
                assert_eq!(read.phase(), state.phase(), "{id} {state}");
                assert_eq!(read.mover(), state.mover(), "{id}");
                assert_eq!(read.gnubg_id(), id);
                checked += 1;
            }
            let a = match state.turn() {
                crate::Turn::Chance => state.sample_chance(&mut rng),
                _ => state.random_action(&mut rng, &mut scratch),
            };
            state.apply(a);
        }
        assert!(checked > 100);
    }

    #[test]
    fn bad_ids_are_errors() {
        for bad in [
            "4HPwATDgc/ABM!",
            "////////////////:cIkmAQAAAAAA",
            "4HPwATDgc/ABMA:cIk",
        ] {
            assert!(bad.parse::<State>().is_err(), "{bad}");
        }
        // Too many checkers.
        assert!("//////////////".parse::<State>().is_err());
    }
}
