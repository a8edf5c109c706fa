//! Cube decisions from a network's outcome probabilities: cubeful equity by
//! Janowski's interpolation between a dead cube (the cubeless
//! probabilities) and a perfectly live cube, with cube efficiency
//! [`CUBE_EFFICIENCY`]. In money play a result is worth its points; in match
//! play it is worth the match winning chance it leads to, read from the
//! match equity table ([`crate::met`]). [`cube_equities_searched`] values a
//! decision by a search of the rolls ahead ([`CubeNode`]), both sides'
//! cube actions at every node and this formula at the leaves.
//!
//! With a live cube a player's equity is a straight line in his winning
//! chance p between two points: on the left, where the opponent cashes
//! (his doubling point, our take point) or p = 0 when the opponent cannot
//! double; on the right, where we cash (the opponent's take point) or
//! p = 1 when we cannot double. Past a cash point the line runs on to the
//! average win (or loss) where playing on for the gammon is worth more.
//! Take points are found the same way one cube level up (the taker then
//! owns the cube), to a fixed depth.

use super::Probs;
use super::eval::CubeNode;
use crate::met::{Crawford, crawford_after, match_winning_chance};

/// Janowski's cube efficiency: the share of a live cube's value a real
/// cube keeps (0: dead cube, 1: perfectly live).
pub const CUBE_EFFICIENCY: f64 = 0.68;
/// How much more waiting must be worth than doubling for a player to wait:
/// a thousandth of a point per cube, below which a network's stray gammon
/// chances in a race would keep him from cashing.
pub const CASH_MARGIN: f64 = 1e-3;
/// The largest cube value.
const MAX_CUBE: u32 = 64;
/// Cube levels looked up when finding take points.
const DEPTH: u32 = 8;

/// Who holds the cube, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// In the middle: either may double.
    Centre,
    /// The player on roll.
    Roller,
    /// His opponent.
    Opponent,
}

/// The score, when a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchScore {
    /// Points the player on roll still needs.
    pub away: i32,
    /// Points his opponent still needs.
    pub other_away: i32,
    /// Where the Crawford rule stands.
    pub crawford: Crawford,
}

/// Everything a cube decision depends on, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeSituation {
    /// The outcome probabilities of the player on roll (before rolling).
    pub probs: Probs,
    /// The cube's value.
    pub cube: u32,
    /// Who holds it.
    pub holder: Holder,
    /// The match score; `None` in a money game.
    pub score: Option<MatchScore>,
}

/// The three cubeful values of a cube decision for the player on roll, in
/// points per current cube value (money) or as match winning chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeEquities {
    /// The cubeless winning chance of the player on roll.
    pub win: f64,
    /// Not doubling.
    pub no_double: f64,
    /// Doubling, and the opponent takes.
    pub double_take: f64,
    /// Doubling, and the opponent drops.
    pub double_drop: f64,
}

impl CubeEquities {
    /// Whether the player on roll should double: where doubling is worth
    /// as much as waiting, within [`CASH_MARGIN`] (a cash now or next
    /// turn, as a search finds it), he doubles and takes no risk.
    pub fn should_double(&self) -> bool {
        self.double_take.min(self.double_drop) > self.no_double - CASH_MARGIN
    }

    /// Whether the opponent should take a double.
    pub fn should_take(&self) -> bool {
        self.double_take <= self.double_drop
    }
}

/// One player's side of the valuation: his probabilities and score.
#[derive(Clone, Copy, Debug)]
struct Side {
    probs: [f64; 5],
    score: Option<MatchScore>,
}

impl Side {
    fn other(&self) -> Side {
        let p = self.probs;
        Side {
            probs: [1.0 - p[0], p[3], p[4], p[1], p[2]],
            score: self.score.map(|s| MatchScore {
                away: s.other_away,
                other_away: s.away,
                crawford: s.crawford,
            }),
        }
    }

    /// The value to this side of winning `points` (negative: losing) at
    /// cube `cube`.
    fn value(&self, points: i32, cube: u32) -> f64 {
        let won = points * cube as i32;
        match self.score {
            None => f64::from(won),
            Some(s) => {
                let (a, b) = if won > 0 {
                    (s.away - won, s.other_away)
                } else {
                    (s.away, s.other_away + won)
                };
                match_winning_chance(a, b, crawford_after(s.crawford, a, b))
            }
        }
    }

    /// The average value of this side's wins at `cube` (gammons counted).
    fn win_average(&self, cube: u32) -> f64 {
        let [w, wg, wb, _, _] = self.probs;
        if w <= 1e-9 {
            return self.value(1, cube);
        }
        ((w - wg) * self.value(1, cube)
            + (wg - wb) * self.value(2, cube)
            + wb * self.value(3, cube))
            / w
    }

    /// The average value of this side's losses at `cube`.
    fn loss_average(&self, cube: u32) -> f64 {
        let [w, _, _, lg, lb] = self.probs;
        let l = 1.0 - w;
        if l <= 1e-9 {
            return self.value(-1, cube);
        }
        ((l - lg) * self.value(-1, cube)
            + (lg - lb) * self.value(-2, cube)
            + lb * self.value(-3, cube))
            / l
    }

    /// The cubeless (dead cube) value at `cube`.
    fn dead(&self, cube: u32) -> f64 {
        let w = self.probs[0];
        w * self.win_average(cube) + (1.0 - w) * self.loss_average(cube)
    }

    /// Whether doubling `cube` can still gain this side anything: the cube
    /// may go higher, this side needs more than a single win at `cube`,
    /// and it is not the Crawford game.
    fn may_use_cube(&self, cube: u32) -> bool {
        cube < MAX_CUBE
            && match self.score {
                None => true,
                Some(s) => s.crawford != Crawford::ThisGame && s.away > cube as i32,
            }
    }

    /// This side's winning chance at which it is indifferent between taking
    /// a double from `cube` to twice `cube` and dropping.
    fn take_point(&self, cube: u32, depth: u32) -> f64 {
        let up = cube * 2;
        let drop = self.value(-1, cube);
        let low = self.loss_average(up);
        // After taking this side holds the cube: its equity runs from
        // `low` at p = 0 to its cash at its cash point (or to its average
        // win at p = 1 when it can never cash).
        let (x, y) = if depth > 0 && self.may_use_cube(up) {
            (
                1.0 - self.other().take_point(up, depth - 1),
                self.value(1, up),
            )
        } else {
            (1.0, self.win_average(up))
        };
        if y - low <= 1e-12 {
            return 0.0;
        }
        (x * (drop - low) / (y - low)).clamp(0.0, 1.0)
    }

    /// The equity at `cube` held by `holder`, with a perfectly live cube.
    fn live(&self, cube: u32, holder: Holder) -> f64 {
        let p = self.probs[0];
        let opponent_may = holder != Holder::Roller && self.other().may_use_cube(cube);
        let we_may = holder != Holder::Opponent && self.may_use_cube(cube);
        let left = if opponent_may {
            (self.take_point(cube, DEPTH), self.value(-1, cube))
        } else {
            (0.0, self.loss_average(cube))
        };
        let right = if we_may {
            (
                1.0 - self.other().take_point(cube, DEPTH),
                self.value(1, cube),
            )
        } else {
            (1.0, self.win_average(cube))
        };
        if p <= left.0 {
            // Beyond the opponent's cash point he doubles us out, or plays
            // on where that is worth more to him (too good): the line from
            // our average loss at p = 0.
            let on = line((0.0, self.loss_average(cube)), left, p);
            left.1.min(on)
        } else if p >= right.0 {
            // Beyond our cash point we cash, or play on for the gammon where
            // that is worth more (too good): the line to our average win.
            let on = line(right, (1.0, self.win_average(cube)), p);
            right.1.max(on)
        } else if right.0 - left.0 <= 1e-12 {
            right.1
        } else {
            left.1 + (right.1 - left.1) * (p - left.0) / (right.0 - left.0)
        }
    }

    /// Janowski's cubeful equity at `cube` held by `holder`.
    fn cubeful(&self, cube: u32, holder: Holder) -> f64 {
        CUBE_EFFICIENCY * self.live(cube, holder) + (1.0 - CUBE_EFFICIENCY) * self.dead(cube)
    }
}

impl Side {
    /// This side with other probabilities.
    fn with(&self, probs: Probs) -> Side {
        Side {
            probs: super::eval::consistent(probs).map(f64::from),
            score: self.score,
        }
    }

    /// This side's value at `cube` held by `holder` when it is on roll and
    /// takes its best cube action first (doubling where that is better and
    /// allowed; the opponent answers at his best).
    fn on_roll(&self, cube: u32, holder: Holder, keep: f64, doubled: impl FnOnce() -> f64) -> f64 {
        if holder == Holder::Opponent || !self.may_use_cube(cube) {
            return keep;
        }
        keep.max(doubled().min(self.value(1, cube)))
    }

    /// This side's value of `node` (this side on roll there) at `cube`
    /// held by `holder`, cube actions included.
    fn node(&self, node: &CubeNode, cube: u32, holder: Holder) -> f64 {
        match node {
            CubeNode::Leaf(p) | CubeNode::Ended(p) => {
                let side = self.with(*p);
                let keep = side.cubeful(cube, holder);
                side.on_roll(cube, holder, keep, || {
                    side.cubeful(2 * cube, Holder::Opponent)
                })
            }
            CubeNode::Rolls(rolls) => {
                let keep = self.rolls(rolls, cube, holder);
                self.on_roll(cube, holder, keep, || {
                    self.rolls(rolls, 2 * cube, Holder::Opponent)
                })
            }
        }
    }

    /// This side's value, on roll at `cube` held by `holder` without a cube
    /// action, of the `rolls` that follow.
    fn rolls(&self, rolls: &[(f64, CubeNode)], cube: u32, holder: Holder) -> f64 {
        let other = self.other();
        let theirs = match holder {
            Holder::Centre => Holder::Centre,
            Holder::Roller => Holder::Opponent,
            Holder::Opponent => Holder::Roller,
        };
        rolls
            .iter()
            .map(|(p, next)| {
                p * match next {
                    CubeNode::Ended(probs) => self.with(*probs).dead(cube),
                    node => {
                        let v = other.node(node, cube, theirs);
                        match self.score {
                            None => -v,
                            Some(_) => 1.0 - v,
                        }
                    }
                }
            })
            .sum()
    }
}

/// The cubeful values of doubling or not for the player on roll, searched:
/// each roll of `tree` (its root a [`CubeNode::Rolls`]) valued with both
/// sides' best cube actions at every node below, Janowski's at the leaves;
/// `situation.probs` give the answer's `win`.
pub fn cube_equities_searched(situation: &CubeSituation, tree: &CubeNode) -> CubeEquities {
    let CubeNode::Rolls(rolls) = tree else {
        return cube_equities(situation);
    };
    decision(situation, |side, cube, holder| {
        side.rolls(rolls, cube, holder)
    })
}

/// The value at `p` of the straight line through `a` and `b` (`a`'s value
/// where they meet).
fn line(a: (f64, f64), b: (f64, f64), p: f64) -> f64 {
    if (b.0 - a.0).abs() <= 1e-12 {
        return a.1;
    }
    a.1 + (b.1 - a.1) * (p - a.0) / (b.0 - a.0)
}

/// The cubeful values of doubling or not for the player on roll.
pub fn cube_equities(situation: &CubeSituation) -> CubeEquities {
    decision(situation, |side, cube, holder| side.cubeful(cube, holder))
}

/// The values of a cube decision, `keep` valuing the player on roll's
/// position at a cube and holder when he does not double now.
fn decision(situation: &CubeSituation, keep: impl Fn(&Side, u32, Holder) -> f64) -> CubeEquities {
    let side = Side {
        probs: super::eval::consistent(situation.probs).map(f64::from),
        score: situation.score,
    };
    let c = situation.cube;
    // Money values are given per current cube, as is usual.
    let unit = if situation.score.is_none() {
        f64::from(c)
    } else {
        1.0
    };
    CubeEquities {
        win: side.probs[0],
        no_double: keep(&side, c, situation.holder) / unit,
        // Taken: the opponent holds the cube at twice its value.
        double_take: keep(&side, 2 * c, Holder::Opponent) / unit,
        double_drop: side.value(1, c) / unit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(probs: Probs, holder: Holder) -> CubeEquities {
        cube_equities(&CubeSituation {
            probs,
            cube: 1,
            holder,
            score: None,
        })
    }

    #[test]
    fn money_take_point_without_gammons_is_janowskis_twenty_percent() {
        let side = Side {
            probs: [0.5, 0.0, 0.0, 0.0, 0.0],
            score: None,
        };
        // (L - 1/2) / (W + L + 1/2) with W = L = 1.
        assert!((side.take_point(1, DEPTH) - 0.2).abs() < 1e-3);
    }

    #[test]
    fn even_position_is_no_double_and_a_take() {
        let e = money([0.5, 0.1, 0.0, 0.1, 0.0], Holder::Centre);
        assert!(!e.should_double(), "{e:?}");
        assert!(e.should_take(), "{e:?}");
    }

    #[test]
    fn strong_position_without_gammons_is_double_and_drop() {
        let e = money([0.85, 0.0, 0.0, 0.0, 0.0], Holder::Centre);
        assert!(e.should_double(), "{e:?}");
        assert!(!e.should_take(), "{e:?}");
        assert!((e.double_drop - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_moderate_lead_doubles_and_is_taken() {
        let e = money([0.72, 0.1, 0.0, 0.05, 0.0], Holder::Centre);
        assert!(e.should_double(), "{e:?}");
        assert!(e.should_take(), "{e:?}");
    }

    #[test]
    fn too_good_to_double_when_gammons_are_likely() {
        let e = money([0.9, 0.6, 0.05, 0.0, 0.0], Holder::Centre);
        assert!(!e.should_double(), "{e:?}");
        assert!(e.no_double > 1.0, "{e:?}");
    }

    #[test]
    fn no_double_in_the_crawford_game_and_post_crawford_trailer_doubles() {
        let crawford = cube_equities(&CubeSituation {
            probs: [0.7, 0.1, 0.0, 0.1, 0.0],
            cube: 1,
            holder: Holder::Centre,
            score: Some(MatchScore {
                away: 3,
                other_away: 1,
                crawford: Crawford::ThisGame,
            }),
        });
        // Neither may use the cube: no-double is the dead cube value, and
        // the winning chance grows with the probabilities.
        assert!(crawford.no_double > 0.0 && crawford.no_double < 1.0);
        let trailer = cube_equities(&CubeSituation {
            probs: [0.45, 0.1, 0.0, 0.1, 0.0],
            cube: 1,
            holder: Holder::Centre,
            score: Some(MatchScore {
                away: 4,
                other_away: 1,
                crawford: Crawford::After,
            }),
        });
        // The leader loses the match with any loss: doubling costs the
        // trailer nothing, so he doubles even as the underdog.
        assert!(trailer.should_double(), "{trailer:?}");
        assert!(trailer.should_take(), "{trailer:?}");
    }

    /// A last roll: the player on roll wins with chance `q`, else his
    /// opponent, on roll next, bears off at once.
    fn last_roll(q: f64) -> CubeEquities {
        let tree = CubeNode::Rolls(vec![
            (q, CubeNode::Ended([1.0, 0.0, 0.0, 0.0, 0.0])),
            (1.0 - q, CubeNode::Leaf([1.0, 0.0, 0.0, 0.0, 0.0])),
        ]);
        let situation = CubeSituation {
            probs: [q as f32, 0.0, 0.0, 0.0, 0.0],
            cube: 1,
            holder: Holder::Centre,
            score: None,
        };
        cube_equities_searched(&situation, &tree)
    }

    #[test]
    fn a_last_roll_is_valued_exactly_by_the_search() {
        // No double below 50%, double and take to 75%, pass above.
        let e = last_roll(0.4);
        assert!((e.no_double - -0.2).abs() < 1e-9, "{e:?}");
        assert!(!e.should_double(), "{e:?}");
        let e = last_roll(0.6);
        assert!((e.no_double - 0.2).abs() < 1e-9, "{e:?}");
        assert!((e.double_take - 0.4).abs() < 1e-9, "{e:?}");
        assert!(e.should_double() && e.should_take(), "{e:?}");
        let e = last_roll(0.8);
        assert!(e.should_double() && !e.should_take(), "{e:?}");
    }

    #[test]
    fn the_searched_opponent_redoubles_where_the_cube_is_his() {
        // After the double the opponent holds the cube at 2 and, on roll
        // with a sure win, redoubles us out: -2 (not -4) when he may, and
        // his sure win counts the same either way.
        let tree = CubeNode::Rolls(vec![(1.0, CubeNode::Leaf([0.9, 0.0, 0.0, 0.0, 0.0]))]);
        let situation = CubeSituation {
            probs: [0.1, 0.0, 0.0, 0.0, 0.0],
            cube: 1,
            holder: Holder::Centre,
            score: None,
        };
        let e = cube_equities_searched(&situation, &tree);
        // Centred: he doubles and we drop (-1). Taken at 2: he owns the
        // cube, redoubles to 4 and we drop: -2 per cube 1.
        assert!((e.no_double - -1.0).abs() < 1e-9, "{e:?}");
        assert!((e.double_take - -2.0).abs() < 1e-9, "{e:?}");
        assert!(!e.should_double(), "{e:?}");
    }

    #[test]
    fn an_owned_cube_is_kept_when_the_gammon_is_worth_more_than_the_cash() {
        // Past the opponent's take point with many gammons: cashing gives
        // 1, playing on more (too good to redouble). Without gammons the
        // same chance cashes.
        let gammons = cube_equities(&CubeSituation {
            probs: [0.84, 0.30, 0.0, 0.02, 0.0],
            cube: 2,
            holder: Holder::Roller,
            score: None,
        });
        assert!(gammons.no_double > 1.0, "{gammons:?}");
        assert!(!gammons.should_double(), "{gammons:?}");
        let plain = cube_equities(&CubeSituation {
            probs: [0.85, 0.0, 0.0, 0.0, 0.0],
            cube: 2,
            holder: Holder::Roller,
            score: None,
        });
        assert!(plain.should_double() && !plain.should_take(), "{plain:?}");
    }
}
