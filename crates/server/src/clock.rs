//! Time controls: a table's clock, pure logic over milliseconds (no I/O, no
//! system time: callers pass `now`, in milliseconds of a monotonic clock).
//!
//! A table's [`TimeControl`] gives every seat `initial_s`; a seat's clock
//! runs while it has a decision to make (its turn), and stops when the turn
//! passes. The first `delay_s` of each turn are free (simple delay, the
//! usual backgammon clock); `increment_s` is added when the turn ends
//! (Fischer); in a match, `per_game_s` is added to every seat when a new
//! game of the match begins (a reserve that grows per game). A turn is a
//! seat's whole decision: consecutive decisions of one seat (a backgammon
//! roll-or-double, then the steps of its play, with the dice rolled
//! between) are one turn. Remaining time never grows except by the
//! increment at the end of a turn and the per-game reserve.

use serde::{Deserialize, Serialize};

/// The most seconds of initial time.
pub const MAX_INITIAL_S: u64 = 86_400;
/// The most seconds of increment or delay.
pub const MAX_STEP_S: u64 = 600;
/// The most seconds of per-game reserve.
pub const MAX_PER_GAME_S: u64 = 3_600;
/// Below this many milliseconds left the web table warns.
pub const LOW_TIME_MS: i64 = 10_000;

/// A table's time control, as given at creation (seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Each seat's time at the start.
    #[serde(default)]
    pub initial_s: u64,
    /// Added to a seat's time after each of its turns (Fischer).
    #[serde(default)]
    pub increment_s: u64,
    /// The first seconds of each turn that cost nothing (simple delay).
    #[serde(default)]
    pub delay_s: u64,
    /// Added to every seat's time at each new game of a match.
    #[serde(default)]
    pub per_game_s: u64,
}

impl TimeControl {
    /// Checks the bounds; the message names the field that is out of them.
    pub fn check(&self) -> Result<(), String> {
        if self.initial_s == 0 || self.initial_s > MAX_INITIAL_S {
            return Err(format!("clock.initial_s is 1 to {MAX_INITIAL_S}"));
        }
        if self.increment_s > MAX_STEP_S {
            return Err(format!("clock.increment_s is 0 to {MAX_STEP_S}"));
        }
        if self.delay_s > MAX_STEP_S {
            return Err(format!("clock.delay_s is 0 to {MAX_STEP_S}"));
        }
        if self.per_game_s > MAX_PER_GAME_S {
            return Err(format!("clock.per_game_s is 0 to {MAX_PER_GAME_S}"));
        }
        Ok(())
    }

    fn increment_ms(&self) -> i64 {
        self.increment_s as i64 * 1000
    }

    fn delay_ms(&self) -> i64 {
        self.delay_s as i64 * 1000
    }
}

/// The turn whose clock runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Running {
    /// The seat to move.
    pub seat: usize,
    /// When its turn began (or began again, after a load).
    pub since: i64,
    /// Its time left when the turn began.
    pub base: i64,
}

/// The clocks of a table's seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Each seat's time left (ms) when its clock last stopped or was charged.
    pub remaining: Vec<i64>,
    /// The running turn, if any.
    pub running: Option<Running>,
}

impl Clock {
    /// Fresh clocks for `seats` seats.
    pub fn new(control: TimeControl, seats: usize) -> Self {
        Clock {
            control,
            remaining: vec![control.initial_s as i64 * 1000; seats],
            running: None,
        }
    }

    /// Clocks with these times left (as stored), none running.
    pub fn with_remaining(control: TimeControl, remaining: Vec<i64>) -> Self {
        Clock {
            control,
            remaining,
            running: None,
        }
    }

    /// Starts `seat`'s turn at `now` (nothing if its turn runs already;
    /// another seat's running turn is stopped first, charged but without
    /// its increment).
    pub fn start(&mut self, seat: usize, now: i64) {
        if self.running.is_some_and(|r| r.seat == seat) || seat >= self.remaining.len() {
            return;
        }
        self.stop(now);
        self.running = Some(Running {
            seat,
            since: now,
            base: self.remaining[seat],
        });
    }

    /// The time the running turn has taken at `now`.
    pub fn elapsed(&self, now: i64) -> i64 {
        self.running.map_or(0, |r| (now - r.since).max(0))
    }

    /// What is left of the running turn's delay at `now`.
    pub fn delay_left(&self, now: i64) -> i64 {
        match self.running {
            Some(_) => (self.control.delay_ms() - self.elapsed(now)).max(0),
            None => 0,
        }
    }

    /// `seat`'s time left at `now`.
    pub fn left(&self, seat: usize, now: i64) -> i64 {
        match self.running {
            Some(r) if r.seat == seat => {
                r.base - (self.elapsed(now) - self.control.delay_ms()).max(0)
            }
            _ => self.remaining.get(seat).copied().unwrap_or(0),
        }
    }

    /// Every seat's time left at `now`.
    pub fn all_left(&self, now: i64) -> Vec<i64> {
        (0..self.remaining.len())
            .map(|s| self.left(s, now))
            .collect()
    }

    /// Charges the running seat for its turn so far (an action of its turn
    /// at `now`); returns the milliseconds since the turn began, or `None`
    /// if `seat`'s clock does not run.
    pub fn charge(&mut self, seat: usize, now: i64) -> Option<i64> {
        let r = self.running.filter(|r| r.seat == seat)?;
        self.remaining[seat] = self.left(seat, now);
        Some(now - r.since)
    }

    /// Ends the running turn at `now`: the seat is charged and gets the
    /// increment. Nothing if no turn runs.
    pub fn pass(&mut self, now: i64) {
        if let Some(r) = self.running.take() {
            let left = Clock {
                running: Some(r),
                ..self.clone()
            }
            .left(r.seat, now);
            self.remaining[r.seat] = left + self.control.increment_ms();
        }
    }

    /// Stops the running turn without charging or crediting it (the seat
    /// was taken over by an AI, or the table ended).
    pub fn stop(&mut self, now: i64) {
        if let Some(r) = self.running.take() {
            let left = Clock {
                running: Some(r),
                ..self.clone()
            }
            .left(r.seat, now);
            self.remaining[r.seat] = left;
        }
    }

    /// A new game of a match begins: every seat gets the per-game reserve
    /// (the running turn keeps running, its base raised as well).
    pub fn new_game(&mut self) {
        let add = self.control.per_game_s as i64 * 1000;
        for r in &mut self.remaining {
            *r += add;
        }
        if let Some(r) = &mut self.running {
            r.base += add;
        }
    }

    /// The seat whose flag has fallen at `now`, if any.
    pub fn flagged(&self, now: i64) -> Option<usize> {
        let r = self.running?;
        (self.left(r.seat, now) <= 0).then_some(r.seat)
    }

    /// When (in the caller's milliseconds) the running seat's flag falls.
    pub fn deadline(&self) -> Option<i64> {
        let r = self.running?;
        Some(r.since + self.control.delay_ms() + r.base.max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn control(initial: u64, increment: u64, delay: u64, per_game: u64) -> TimeControl {
        TimeControl {
            initial_s: initial,
            increment_s: increment,
            delay_s: delay,
            per_game_s: per_game,
        }
    }

    #[test]
    fn fischer_charges_the_turn_and_adds_the_increment() {
        let mut c = Clock::new(control(60, 2, 0, 0), 2);
        c.start(0, 1_000);
        assert_eq!(c.left(0, 6_000), 55_000);
        assert_eq!(c.left(1, 6_000), 60_000);
        c.pass(6_000);
        assert_eq!(c.remaining, vec![57_000, 60_000]);
        assert_eq!(c.running, None);
    }

    #[test]
    fn delay_is_never_charged() {
        let mut c = Clock::new(control(60, 0, 12, 0), 2);
        c.start(1, 0);
        assert_eq!(c.left(1, 11_999), 60_000);
        assert_eq!(c.delay_left(5_000), 7_000);
        assert_eq!(c.left(1, 15_000), 57_000);
        c.pass(10_000);
        assert_eq!(c.remaining, vec![60_000, 60_000]);
    }

    #[test]
    fn several_actions_of_one_turn_get_the_delay_once() {
        let mut c = Clock::new(control(60, 0, 5, 0), 2);
        c.start(0, 0);
        assert_eq!(c.charge(0, 4_000), Some(4_000));
        assert_eq!(c.remaining[0], 60_000);
        assert_eq!(c.charge(0, 8_000), Some(8_000));
        assert_eq!(c.remaining[0], 57_000);
        assert_eq!(c.charge(1, 8_000), None);
        c.pass(9_000);
        assert_eq!(c.remaining[0], 56_000);
    }

    #[test]
    fn the_flag_falls_at_the_deadline() {
        let mut c = Clock::new(control(2, 0, 1, 0), 2);
        c.start(0, 100);
        assert_eq!(c.deadline(), Some(3_100));
        assert_eq!(c.flagged(3_099), None);
        assert_eq!(c.flagged(3_100), Some(0));
    }

    #[test]
    fn a_new_game_adds_the_reserve() {
        let mut c = Clock::new(control(60, 0, 0, 30), 2);
        c.start(0, 0);
        c.new_game();
        assert_eq!(c.left(0, 10_000), 80_000);
        assert_eq!(c.remaining[1], 90_000);
    }

    #[test]
    fn bounds_are_checked() {
        assert!(control(60, 0, 0, 0).check().is_ok());
        assert!(control(0, 0, 0, 0).check().is_err());
        assert!(control(86_401, 0, 0, 0).check().is_err());
        assert!(control(60, 601, 0, 0).check().is_err());
        assert!(control(60, 0, 601, 0).check().is_err());
        assert!(control(60, 0, 0, 3_601).check().is_err());
    }

    #[derive(Clone, Debug)]
    enum Step {
        Wait(i64),
        Start(usize),
        Charge(usize),
        Pass,
        NewGame,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (0i64..20_000).prop_map(Step::Wait),
            (0usize..3).prop_map(Step::Start),
            (0usize..3).prop_map(Step::Charge),
            Just(Step::Pass),
            Just(Step::NewGame),
        ]
    }

    proptest! {
        /// Remaining time never grows except by the increment at the end of
        /// a turn and the per-game reserve; a turn no longer than the delay
        /// costs nothing; a seat whose clock does not run is never charged.
        #[test]
        fn remaining_only_grows_by_increment_or_reserve(
            initial in 1u64..100, increment in 0u64..5, delay in 0u64..5, per_game in 0u64..5,
            steps in proptest::collection::vec(step(), 0..60),
        ) {
            let tc = control(initial, increment, delay, per_game);
            let mut c = Clock::new(tc, 3);
            let mut now = 0i64;
            for s in steps {
                let before = c.all_left(now);
                let running = c.running;
                match s {
                    Step::Wait(ms) => {
                        now += ms;
                        let after = c.all_left(now);
                        for seat in 0..3 {
                            prop_assert!(after[seat] <= before[seat]);
                            if running.map(|r| r.seat) != Some(seat) {
                                prop_assert_eq!(after[seat], before[seat]);
                            }
                        }
                        if let Some(r) = running {
                            if now - r.since <= delay as i64 * 1000 {
                                prop_assert_eq!(after[r.seat], r.base);
                            }
                        }
                    }
                    Step::Start(seat) => {
                        c.start(seat, now);
                        prop_assert_eq!(c.all_left(now), before);
                    }
                    Step::Charge(seat) => {
                        c.charge(seat, now);
                        prop_assert_eq!(c.all_left(now), before);
                    }
                    Step::Pass => {
                        c.pass(now);
                        let after = c.all_left(now);
                        for seat in 0..3 {
                            let gain = if running.map(|r| r.seat) == Some(seat) {
                                increment as i64 * 1000
                            } else {
                                0
                            };
                            prop_assert_eq!(after[seat], before[seat] + gain);
                        }
                    }
                    Step::NewGame => {
                        c.new_game();
                        let after = c.all_left(now);
                        for seat in 0..3 {
                            prop_assert_eq!(after[seat], before[seat] + per_game as i64 * 1000);
                        }
                    }
                }
            }
        }
    }
}
