//! A play: the single checker steps of one turn, in order.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The source point of a step that enters from the bar.
pub const BAR: u8 = 25;
/// The destination point of a step that bears a checker off.
pub const OFF: u8 = 0;

/// One checker moved by one die, in the mover's own numbering (24 down to 1;
/// [`BAR`] as a source, [`OFF`] as a destination).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Step {
    /// Where the checker starts.
    pub from: u8,
    /// Where it ends.
    pub to: u8,
    /// The die used.
    pub die: u8,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let point = |p: u8| match p {
            BAR => "bar".to_string(),
            OFF => "off".to_string(),
            n => n.to_string(),
        };
        write!(f, "{}/{}", point(self.from), point(self.to))
    }
}

/// Up to four steps played in one turn (none: the roll cannot be played).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// The empty play (a pass).
    pub const EMPTY: Play = Play {
        steps: [Step {
            from: 0,
            to: 0,
            die: 0,
        }; 4],
        len: 0,
    };

    /// A play of these steps (at most four; more are ignored).
    pub fn from_steps(steps: &[Step]) -> Play {
        let mut play = Play::EMPTY;
        for &s in steps.iter().take(4) {
            play = play.with(s);
        }
        play
    }

    /// This play with one more step.
    #[inline]
    pub fn with(mut self, step: Step) -> Play {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self
    }

    /// The steps in order.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Number of dice used.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no die is used (a pass).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same checker movements with a step that continues another merged
    /// into it ("24/18 18/13" → "24/13"), sorted; for matching typed plays.
    /// Steps are taken from the highest source down, so the order they
    /// were written or played in does not matter ("8/2 13/8" → "13/2").
    pub fn merged(steps: &[(u8, u8)]) -> Vec<(u8, u8)> {
        let mut chains: Vec<(u8, u8)> = Vec::with_capacity(4);
        let mut ordered = steps.to_vec();
        ordered.sort_by_key(|s| std::cmp::Reverse(s.0));
        for &(from, to) in &ordered {
            match chains.iter_mut().find(|c| c.1 == from && from != OFF) {
                Some(chain) => chain.1 = to,
                None => chains.push((from, to)),
            }
        }
        chains.sort_unstable();
        chains
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("pass");
        }
        for (i, s) in self.steps().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Play({self})")
    }
}

impl Serialize for Play {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.steps().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Play {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let steps = Vec::<Step>::deserialize(d)?;
        if steps.len() > 4 {
            return Err(serde::de::Error::custom("a play has at most 4 steps"));
        }
        Ok(Play::from_steps(&steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_continuing_steps() {
        assert_eq!(Play::merged(&[(24, 18), (18, 13)]), vec![(24, 13)]);
        assert_eq!(Play::merged(&[(8, 5), (6, 5)]), vec![(6, 5), (8, 5)]);
        assert_eq!(Play::merged(&[(8, 2), (13, 8)]), vec![(13, 2)]);
    }

    #[test]
    fn json_round_trip() {
        let play = Play::from_steps(&[
            Step {
                from: 24,
                to: 18,
                die: 6,
            },
            Step {
                from: 18,
                to: 13,
                die: 5,
            },
        ]);
        let json = serde_json::to_string(&play).unwrap();
        assert_eq!(serde_json::from_str::<Play>(&json).unwrap(), play);
        assert_eq!(play.to_string(), "24/18 18/13");
    }
}
