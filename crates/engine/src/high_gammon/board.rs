//! The stones on the ring (absolute), and the mover's view of it on which
//! the shared play generator works.

use super::geometry::{
    BAR_CODE, FIELDS, GOAL_FIRST, IN_CODE, OFF_CODE, STONES, TRACK, field, is_rest, is_rest_d,
};
use crate::tables::{Play, Step, StepBoard, StepList, points};

/// Where every stone is, by player index (not seat): counts per ring field,
/// on the bar, borne off, and (Tric-Trac) not yet entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// `cnt[r][p]`: player p's stones on ring field r.
    pub cnt: [[u8; 4]; FIELDS],
    /// Stones on the bar, per player.
    pub bar: [u8; 4],
    /// Stones borne off, per player.
    pub off: [u8; 4],
    /// Tric-Trac stones not yet entered, per player.
    pub pool: [u8; 4],
}

impl Board {
    /// An empty board.
    pub const EMPTY: Board = Board {
        cnt: [[0; 4]; FIELDS],
        bar: [0; 4],
        off: [0; 4],
        pool: [0; 4],
    };

    /// HG-6: for each seat, 2 stones on its start point (d = 0), 3 on the
    /// rest field to its right (d = 6), 4 on the last goal point of the
    /// player to its left (d = 12).
    pub fn high_gammon(seats: &[u8]) -> Self {
        let mut b = Board::EMPTY;
        for (p, &seat) in seats.iter().enumerate() {
            b.cnt[field(seat, 0)][p] = 2;
            b.cnt[field(seat, 6)][p] = 3;
            b.cnt[field(seat, 12)][p] = 4;
        }
        b
    }

    /// TT-1: all 9 stones start off the board.
    pub fn tric_trac(players: usize) -> Self {
        let mut b = Board::EMPTY;
        for p in 0..players {
            b.pool[p] = STONES;
        }
        b
    }

    /// Player p's stones on the ring.
    pub fn on_ring(&self, p: usize) -> u8 {
        self.cnt.iter().map(|f| f[p]).sum()
    }

    /// Player p's stones anywhere: ring, bar, off and not yet entered.
    pub fn stones(&self, p: usize) -> u8 {
        self.on_ring(p) + self.bar[p] + self.off[p] + self.pool[p]
    }

    /// Player p's stones at distance d along its track (seat `seat`).
    #[inline]
    pub fn at(&self, p: usize, seat: u8, d: usize) -> u8 {
        self.cnt[field(seat, d)][p]
    }

    /// Player p's stones on its three goal points.
    pub fn on_goal(&self, p: usize, seat: u8) -> u8 {
        (GOAL_FIRST..TRACK).map(|d| self.at(p, seat, d)).sum()
    }

    /// Removes all of player p's stones (a dropped player, HG-17); borne-off
    /// stones stay counted.
    pub fn remove_player(&mut self, p: usize) {
        for f in self.cnt.iter_mut() {
            f[p] = 0;
        }
        self.bar[p] = 0;
        self.pool[p] = 0;
    }

    /// The mover's view for generating plays.
    pub fn view(&self, p: usize, seat: u8, tric: bool) -> MoverView {
        // counts along the track (padded to 24 for the word-wise masks)
        let (mut own, mut opp) = ([0u8; 24], [0u8; 24]);
        let shift = 8 * p as u32;
        // all four counts of a field at once; their sum is below 256
        let mut count = |d: usize, r: usize| {
            let all = u32::from_le_bytes(self.cnt[r]);
            let mine = (all >> shift) as u8;
            own[d] = mine;
            opp[d] = (all.wrapping_mul(0x0101_0101) >> 24) as u8 - mine;
        };
        // the track runs from the start field to the ring's end, then on
        // from field 0
        let start = field(seat, 0);
        let first = (FIELDS - start).min(TRACK);
        for d in 0..first {
            count(d, start + d);
        }
        for d in first..TRACK {
            count(d, d - first);
        }
        // rest fields never block or hit (HG-11): no opposing stones there
        opp[6] = 0;
        opp[13] = 0;
        let full = if tric {
            points::at_least(&own, 3) & !REST_DISTANCES
        } else {
            0
        };
        MoverView {
            own: own[..TRACK].try_into().expect("20 of 24"),
            opp: opp[..TRACK].try_into().expect("20 of 24"),
            bar: self.bar[p],
            pool: self.pool[p],
            off: self.off[p],
            tric,
            hits: 0,
            occupied: points::at_least(&own, 1),
            full,
            bands: points::at_least(&opp, 2),
        }
    }

    /// Applies one step written in absolute codes for player p. Landing on
    /// a point holding a lone stone of another colour hits it (HG-9); the
    /// result is the hit player, if any.
    pub fn apply_step(&mut self, p: usize, step: Step) -> Option<usize> {
        match step.from {
            BAR_CODE => self.bar[p] -= 1,
            IN_CODE => self.pool[p] -= 1,
            c => self.cnt[c as usize - 1][p] -= 1,
        }
        if step.to == OFF_CODE {
            self.off[p] += 1;
            return None;
        }
        let r = step.to as usize - 1;
        let mut hit = None;
        if !is_rest(r) {
            for q in 0..4 {
                if q != p && self.cnt[r][q] == 1 {
                    self.cnt[r][q] = 0;
                    self.bar[q] += 1;
                    hit = Some(q);
                }
            }
        }
        self.cnt[r][p] += 1;
        hit
    }
}

/// Bit d: distance d on every seat's track is a rest field (d = 6, 13).
const REST_DISTANCES: u32 = 1 << 6 | 1 << 13;

/// The board as the player to move sees it along his own track: his stones
/// at each distance d = 0..19, the other players' stones there (points
/// only: rest fields never block or hit), his bar, pool and borne-off
/// counts. Steps use relative codes: d + 1 for a field, [`BAR_CODE`],
/// [`IN_CODE`], [`OFF_CODE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverView {
    own: [u8; TRACK],
    opp: [u8; TRACK],
    bar: u8,
    pool: u8,
    off: u8,
    tric: bool,
    /// Bit d: an opposing blot at distance d was hit during this turn.
    hits: u32,
    /// Bit d: the mover has stones at distance d (derived from `own`).
    occupied: u32,
    /// Bit d: Tric-Trac point d holds 3 of the mover's (TT-3; derived).
    full: u32,
    /// Bit d: an opposing band (two or more) stands at distance d (HG-10;
    /// fixed within a turn, as hits only take single stones).
    bands: u32,
}

impl MoverView {
    /// Recomputes the derived masks at distance `d`.
    #[inline]
    fn refresh(&mut self, d: usize) {
        let bit = 1u32 << d;
        let own = self.own[d];
        self.occupied = self.occupied & !bit | ((own > 0) as u32) << d;
        let full = self.tric && own >= 3 && !is_rest_d(d);
        self.full = self.full & !bit | (full as u32) << d;
    }

    /// Whether the mover may land at distance `t` (< 20): not on an
    /// opposing band (HG-10), and in Tric-Trac not on a point already
    /// holding 3 of his own (TT-3). Rest fields are always open (HG-11).
    #[inline]
    fn open(&self, t: usize) -> bool {
        (self.bands | self.full) >> t & 1 == 0
    }

    /// Whether two steps can be played from bit masks: no stone on the bar
    /// or to enter, and no bearing off within the turn (HG-14: two or more
    /// stones outside the goal points). Then every step goes from d to
    /// d + die on the track, and only Tric-Trac's full points (TT-3)
    /// change which fields are open during the turn.
    #[inline]
    fn plain_pair(&self) -> bool {
        if self.bar > 0 || self.pool > 0 {
            return false;
        }
        if self.tric {
            return true;
        }
        let outside = self.occupied & ((1 << GOAL_FIRST) - 1);
        outside.count_ones() >= 2
            || (outside != 0 && self.own[outside.trailing_zeros() as usize] >= 2)
    }

    /// The fields (bit d) the mover may land on now.
    #[inline]
    fn landing(&self) -> u32 {
        !(self.bands | self.full) & ((1 << TRACK) - 1)
    }

    /// The fields the mover may land on after a stone stepped from `d` to
    /// `t` (on a plain board, see [`MoverView::plain_pair`]): in Tric-Trac
    /// `d` is no longer full and `t` may be.
    #[inline]
    fn landing_after(&self, landing: u32, d: usize, t: usize) -> u32 {
        if !self.tric {
            return landing;
        }
        let fills = self.own[t] == 2 && !is_rest_d(t);
        let full = self.full & !(1 << d) | (fills as u32) << t;
        !(self.bands | full) & ((1 << TRACK) - 1)
    }

    /// The mover's fields after a stone stepped from `d` to `t`.
    #[inline]
    fn occupied_after(&self, d: usize, t: usize) -> u32 {
        let emptied = ((self.own[d] == 1) as u32) << d;
        self.occupied & !emptied | 1 << t
    }

    /// Appends to `out` the plays `first` then a step of `die` from each
    /// field in `sources`, then `first` alone if `none` (no second step).
    #[inline]
    fn push_pairs(first: Step, mut sources: u32, die: u8, none: bool, out: &mut Vec<Play>) {
        let play = Play::EMPTY.with(first);
        while sources != 0 {
            let d = sources.trailing_zeros() as u8;
            sources &= sources - 1;
            out.push(play.with(Step {
                from: d + 1,
                to: d + 1 + die,
                die,
            }));
        }
        if none {
            out.push(play);
        }
    }

    /// HG-14: bearing off needs every remaining stone on the goal points.
    #[inline]
    fn bearing_off(&self) -> bool {
        !self.tric
            && self.bar == 0
            && self.pool == 0
            && self.occupied & ((1 << GOAL_FIRST) - 1) == 0
    }
}

/// One of the mover's stones in the key, by relative code: a field d + 1
/// (1..20) at bit 4d, [`BAR_CODE`] at 80, [`IN_CODE`] at 84, [`OFF_CODE`] at 88.
const KEY_UNIT: [u128; 32] = {
    let mut unit = [0u128; 32];
    let mut c = 1;
    while c <= TRACK {
        unit[c] = 1 << (4 * (c - 1));
        c += 1;
    }
    unit[BAR_CODE as usize] = 1 << 80;
    unit[IN_CODE as usize] = 1 << 84;
    unit[OFF_CODE as usize] = 1 << 88;
    unit
};

/// The key bit saying a blot was hit on a field (relative code 1..20).
const KEY_HIT: [u128; 32] = {
    let mut bit = [0u128; 32];
    let mut c = 1;
    while c <= TRACK {
        bit[c] = 1 << (92 + c - 1);
        c += 1;
    }
    bit
};

impl StepBoard for MoverView {
    fn steps(&self, die: u8, out: &mut StepList) {
        out.clear();
        let n = die as usize;
        // HG-12 / TT-1: a die n enters at d = n - 1.
        let entry = n - 1;
        if self.bar > 0 {
            // HG-12: stones on the bar enter before anything else moves.
            if self.open(entry) {
                out.push(Step {
                    from: BAR_CODE,
                    to: entry as u8 + 1,
                    die,
                });
            }
            return;
        }
        if self.pool > 0 && self.open(entry) {
            // TT-1: a new stone may be entered, or a stone on the board moved.
            out.push(Step {
                from: IN_CODE,
                to: entry as u8 + 1,
                die,
            });
        }
        // moves to open fields d + n < 20, from low to high
        let landing = !(self.bands | self.full) & ((1 << TRACK) - 1);
        let mut movers = self.occupied & landing >> n;
        while movers != 0 {
            let d = movers.trailing_zeros() as u8;
            movers &= movers - 1;
            out.push(Step {
                from: d + 1,
                to: d + 1 + die,
                die,
            });
        }
        // HG-14: only the lowest occupied goal point bears off, with any
        // die that reaches beyond the last goal point.
        if self.bearing_off() && self.occupied != 0 {
            let lowest = self.occupied.trailing_zeros() as usize;
            if lowest + n >= TRACK {
                out.push(Step {
                    from: lowest as u8 + 1,
                    to: OFF_CODE,
                    die,
                });
            }
        }
    }

    /// HG-8, two different dice, the smaller `a` first. On a plain board
    /// two plays reach the same position only where one stone moves by
    /// both dice: from s by a then b repeats the stone on s + b moved by a
    /// and then s's stone by b (listed later, as first sources go from low
    /// to high) unless the landing on s + a hit a blot. So the second step
    /// from d - b after the first from d is left out when the stone on
    /// d - b could have stepped by a onto an open field without a blot.
    fn distinct_plays_in_order(&self, a: u8, b: u8, out: &mut Vec<Play>) -> bool {
        if a >= b || !self.plain_pair() {
            return false;
        }
        let landing = self.landing();
        let mut firsts = self.occupied & landing >> a;
        if firsts == 0 {
            out.push(Play::EMPTY);
            return true;
        }
        while firsts != 0 {
            let d = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let t = d + a as usize;
            let all = self.occupied_after(d, t) & self.landing_after(landing, d, t) >> b;
            let mut seconds = all;
            if let Some(s) = d.checked_sub(b as usize) {
                let via = s + a as usize;
                if landing >> via & 1 == 1 && self.opp[via] != 1 {
                    seconds &= !(1 << s);
                }
            }
            let first = Step {
                from: d as u8 + 1,
                to: t as u8 + 1,
                die: a,
            };
            Self::push_pairs(first, seconds, b, all == 0, out);
        }
        true
    }

    /// Two steps of one die on a plain board: the play with the second
    /// source below the first repeats the same sources taken the other way
    /// round (listed earlier), except in Tric-Trac where the second stone
    /// steps onto the first's field and that field was full (TT-3) before.
    fn distinct_equal_pair(&self, die: u8, out: &mut Vec<Play>) -> bool {
        if !self.plain_pair() {
            return false;
        }
        let landing = self.landing();
        let mut firsts = self.occupied & landing >> die;
        if firsts == 0 {
            out.push(Play::EMPTY);
            return true;
        }
        while firsts != 0 {
            let d = firsts.trailing_zeros() as usize;
            firsts &= firsts - 1;
            let t = d + die as usize;
            let all = self.occupied_after(d, t) & self.landing_after(landing, d, t) >> die;
            let mut kept = !((1u32 << d) - 1);
            if let (1, Some(s)) = (self.full >> d & 1, d.checked_sub(die as usize)) {
                kept |= 1 << s;
            }
            let first = Step {
                from: d as u8 + 1,
                to: t as u8 + 1,
                die,
            };
            Self::push_pairs(first, all & kept, die, all == 0, out);
        }
        true
    }

    #[inline]
    fn apply_step(&mut self, step: Step) {
        match step.from {
            BAR_CODE => self.bar -= 1,
            IN_CODE => self.pool -= 1,
            c => {
                let f = c as usize - 1;
                self.own[f] -= 1;
                self.refresh(f);
            }
        }
        if step.to == OFF_CODE {
            self.off += 1;
        } else {
            let t = step.to as usize - 1;
            if self.opp[t] == 1 {
                // HG-9: the blot is hit (which colour is fixed by the position)
                self.opp[t] = 0;
                self.hits |= 1 << t;
            }
            self.own[t] += 1;
            self.refresh(t);
        }
    }

    /// Own counts per distance (4 bits each, distance d at bit 4d), bar
    /// (bit 80), pool (84) and off (88), and the distances where a blot was
    /// hit (bits 92..112): exact within one turn.
    #[inline]
    fn key(&self) -> u128 {
        let mut k = 0u128;
        for &c in self.own.iter().rev() {
            k = k << 4 | c as u128;
        }
        k |= (self.bar as u128) << 80 | (self.pool as u128) << 84 | (self.off as u128) << 88;
        k | (self.hits as u128) << 92
    }

    #[inline]
    fn key_after(&self, key: u128, step: Step) -> u128 {
        // codes are below 32 (the masks only spare the bounds checks)
        let (from, to) = (step.from as usize & 31, step.to as usize & 31);
        let mut key = key - KEY_UNIT[from] + KEY_UNIT[to];
        // a field (not off, code 0) where a blot stands
        if self.opp.get(to.wrapping_sub(1)) == Some(&1) {
            key |= KEY_HIT[to];
        }
        key
    }
}
