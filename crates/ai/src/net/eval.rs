//! Evaluating positions with a network: the five outcome probabilities of
//! the player on roll, cubeless equity, the candidate plays of a roll scored
//! in one batch, and the deeper searches (n-ply with move filtering). Where
//! the sides can no longer meet and every checker is home or off, the
//! bear-off databases give the probabilities instead ([`bear_off`]).

use super::encode::{Encoding, NetVariant};
use super::mlp::{Mlp, Scratch};
use spelbord_engine::tables::{GameEnd, Play, ROLLS, StepBoard, TablesOptions, TablesState};

/// Candidates searched deeper at each ply below the root.
pub(crate) const INNER_FILTER: usize = 3;
/// The move filter's window, as GNU Backgammon's: only candidates whose
/// 0-ply equity is within this of the best are searched deeper.
pub const FILTER_WINDOW: f32 = 0.16;

/// Outcome probabilities of one side: win, win a gammon (or more), win a
/// backgammon, lose a gammon (or more), lose a backgammon.
pub type Probs = [f32; 5];

/// The same outcomes seen by the other side.
pub fn flip(p: Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Probabilities made consistent: a gammon is a win, a backgammon a gammon.
pub fn consistent(p: Probs) -> Probs {
    let w = p[0].clamp(0.0, 1.0);
    let wg = p[1].min(w).max(0.0);
    let wb = p[2].min(wg).max(0.0);
    let lg = p[3].min(1.0 - w).max(0.0);
    let lb = p[4].min(lg).max(0.0);
    [w, wg, wb, lg, lb]
}

/// Cubeless money equity: the expected points won (gammons and backgammons
/// counted), -3..3.
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// A cube decision's search tree, seen from the side on roll at its node.
#[derive(Clone, Debug, PartialEq)]
pub enum CubeNode {
    /// The search ends: the probabilities of the side on roll.
    Leaf(Probs),
    /// Each of the 21 rolls (with its probability) and what follows the
    /// best play: the same kind of node for the other side, now on roll.
    Rolls(Vec<(f64, CubeNode)>),
    /// The play ended the game: the exact probabilities of the side that
    /// played it.
    Ended(Probs),
}

impl CubeNode {
    /// The same search with every leaf's probabilities moved by `delta`
    /// (the side on roll at the root's terms; turned round at every ply).
    pub fn shift(&mut self, delta: Probs) {
        match self {
            CubeNode::Leaf(p) => {
                let moved: Probs = std::array::from_fn(|k| p[k] + delta[k]);
                *p = consistent(moved.map(|v| v.clamp(0.0, 1.0)));
            }
            CubeNode::Ended(_) => {}
            CubeNode::Rolls(rolls) => {
                // The other side's terms: its win is our loss, gammons swap.
                let turned = [-delta[0], delta[3], delta[4], delta[1], delta[2]];
                for (_, next) in rolls {
                    next.shift(turned);
                }
            }
        }
    }

    /// The cubeless probabilities of the side on roll here, averaged over
    /// the search below.
    pub fn mean(&self) -> Probs {
        match self {
            CubeNode::Leaf(p) | CubeNode::Ended(p) => *p,
            CubeNode::Rolls(rolls) => {
                let mut sum = [0.0f32; 5];
                for (p, next) in rolls {
                    let q = match next {
                        CubeNode::Ended(q) => *q,
                        node => flip(node.mean()),
                    };
                    for (s, v) in sum.iter_mut().zip(q) {
                        *s += *p as f32 * v;
                    }
                }
                sum
            }
        }
    }
}

/// The exact outcome for the side that just ended the game.
pub fn ended(end: GameEnd) -> Probs {
    match end {
        GameEnd::MoverWins(points, _) => [
            1.0,
            f32::from(points >= 2),
            f32::from(points >= 3),
            0.0,
            0.0,
        ],
        GameEnd::Draw(_) => [0.5, 0.0, 0.0, 0.0, 0.0],
    }
}

/// The bear-off databases' probabilities for the side on roll on `board`
/// (its frame), when `V` uses them and every checker of both sides is home
/// or off with the sides apart.
pub fn bear_off<V: NetVariant>(board: &V::Board) -> Option<Probs> {
    if !V::BEAR_OFF {
        return None;
    }
    let [mover, other] = crate::bearoff::race_homes::<V>(board)?;
    crate::bearoff::shipped()?.probs(&mover, &other)
}

/// The two-sided database's exact probabilities for the side on roll on
/// `board`, when both sides' positions are in it (see [`bear_off`]).
pub fn bear_off_exact<V: NetVariant>(board: &V::Board) -> Option<Probs> {
    if !V::BEAR_OFF {
        return None;
    }
    let [mover, other] = crate::bearoff::race_homes::<V>(board)?;
    crate::bearoff::shipped()?.exact(&mover, &other)
}

/// A legal play with the board after it (still in the mover's frame) and
/// how the game ended, if it did.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<B> {
    /// The play.
    pub play: Play,
    /// The board after it, in the mover's frame.
    pub board: B,
    /// The game's end, when the play ends it.
    pub end: Option<GameEnd>,
}

/// A network with the buffers to evaluate it.
#[derive(Clone, Debug)]
pub struct Evaluator<'n, V: NetVariant> {
    net: &'n Mlp,
    encoding: Encoding<V::Board>,
    /// A second network averaged with the first, and its inputs.
    second: Option<(&'n Mlp, Encoding<V::Board>)>,
    variant: V,
    scratch: Scratch,
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Positions evaluated by the network so far.
    pub evaluations: u64,
    /// Positions valued from the bear-off databases so far.
    pub bear_offs: u64,
    /// Candidates searched deeper at each ply below the root.
    inner: usize,
    /// The move filter's window (see [`filtered`]).
    window: f32,
}

impl<'n, V: NetVariant> Evaluator<'n, V> {
    /// An evaluator of `net`, whose inputs are `encoding`'s, for the rules
    /// of `variant`.
    pub fn new(net: &'n Mlp, encoding: Encoding<V::Board>, variant: V) -> Self {
        Evaluator {
            net,
            encoding,
            second: None,
            variant,
            scratch: Scratch::default(),
            xs: Vec::new(),
            ys: Vec::new(),
            evaluations: 0,
            bear_offs: 0,
            inner: INNER_FILTER,
            window: FILTER_WINDOW,
        }
    }

    /// The same evaluator searching `inner` candidates at each ply below
    /// the root, within `window` of the best by 0-ply.
    pub fn with_search(mut self, inner: usize, window: f32) -> Self {
        self.inner = inner.max(1);
        self.window = window.max(0.0);
        self
    }

    /// The same evaluator averaging its network's probabilities with
    /// `net`'s (inputs `encoding`) at every evaluation.
    pub fn with_second(mut self, net: &'n Mlp, encoding: Encoding<V::Board>) -> Self {
        self.second = Some((net, encoding));
        self
    }

    /// The legal plays of `dice` on `board` (the mover's frame).
    pub fn candidates(&self, board: &V::Board, dice: [u8; 2]) -> Vec<Candidate<V::Board>> {
        let state = TablesState::with_position(self.variant, TablesOptions::default(), *board, 0);
        let variant = self.variant;
        state.with_plays(dice, |plays| {
            plays
                .map(|play| {
                    let mut after = *board;
                    for &step in play.steps() {
                        after.apply_step(step);
                    }
                    Candidate {
                        play,
                        board: after,
                        end: variant.game_end(&after),
                    }
                })
                .collect()
        })
    }

    /// The probabilities for the side on roll on each board (each in its own
    /// side's frame): the bear-off databases' where they hold the position
    /// ([`bear_off`]), the network's for the others, in one batch.
    pub fn on_roll(&mut self, boards: &[V::Board]) -> Vec<Probs> {
        let known: Vec<Option<Probs>> = boards.iter().map(bear_off::<V>).collect();
        if known.iter().all(Option::is_none) {
            return self.network(boards);
        }
        let rest: Vec<V::Board> = boards
            .iter()
            .zip(&known)
            .filter(|(_, k)| k.is_none())
            .map(|(b, _)| *b)
            .collect();
        self.bear_offs += (boards.len() - rest.len()) as u64;
        let mut net = self.network(&rest).into_iter();
        known
            .into_iter()
            .map(|k| {
                k.or_else(|| net.next())
                    .unwrap_or([0.5, 0.0, 0.0, 0.0, 0.0])
            })
            .collect()
    }

    /// The network's probabilities for the side on roll on each board (each
    /// in its own side's frame), in one batch, bear-offs included.
    pub fn network(&mut self, boards: &[V::Board]) -> Vec<Probs> {
        let n = boards.len();
        self.evaluations += n as u64;
        let mut out = vec![[0.0f32; 5]; n];
        let nets = std::iter::once((self.net, self.encoding)).chain(self.second);
        let count = 1 + usize::from(self.second.is_some());
        for (net, encoding) in nets {
            let inputs = encoding.inputs;
            self.xs.clear();
            self.xs.resize(n * inputs, 0.0);
            for (b, x) in boards.iter().zip(self.xs.chunks_exact_mut(inputs)) {
                (encoding.encode)(b, x);
            }
            self.ys.clear();
            self.ys.resize(n * 5, 0.0);
            net.forward_batch(&self.xs, &mut self.scratch, &mut self.ys);
            for (o, y) in out.iter_mut().zip(self.ys.chunks_exact(5)) {
                for (a, v) in o.iter_mut().zip(y) {
                    *a += v / count as f32;
                }
            }
        }
        out.into_iter()
            .map(|y| {
                let (wb, lb) = if V::BACKGAMMONS {
                    (y[2], y[4])
                } else {
                    (0.0, 0.0)
                };
                consistent([y[0], y[1], wb, y[3], lb])
            })
            .collect()
    }

    /// The mover's probabilities after each candidate at 0-ply: exact for a
    /// finished game, else the network's for the opponent, turned round.
    pub fn after_0ply(&mut self, cands: &[Candidate<V::Board>]) -> Vec<Probs> {
        let boards: Vec<V::Board> = cands
            .iter()
            .filter(|c| c.end.is_none())
            .map(|c| {
                let mut b = c.board;
                V::flip(&mut b);
                b
            })
            .collect();
        let mut net = self.on_roll(&boards).into_iter();
        cands
            .iter()
            .map(|c| match c.end {
                Some(end) => ended(end),
                None => flip(net.next().unwrap_or([0.5, 0.0, 0.0, 0.0, 0.0])),
            })
            .collect()
    }

    /// The mover's probabilities after a candidate, searched `plies` deep
    /// (0: the network at once; each ply averages over the opponent's 21
    /// rolls, each side choosing its best play among the `filter` best by
    /// 0-ply, at most 3 below the root).
    pub fn after(&mut self, cand: &Candidate<V::Board>, plies: u32, filter: usize) -> Probs {
        if let Some(end) = cand.end {
            return ended(end);
        }
        let mut b = cand.board;
        V::flip(&mut b);
        flip(self.before_roll(&b, plies, filter))
    }

    /// The probabilities of the side on roll on `board`, searched `plies`
    /// deep (see [`Self::after`]); exact at once in the two-sided bear-off
    /// database, where searching would find the same.
    pub fn before_roll(&mut self, board: &V::Board, plies: u32, filter: usize) -> Probs {
        if let Some(p) = bear_off_exact::<V>(board) {
            self.bear_offs += 1;
            return p;
        }
        if plies == 0 {
            return self.on_roll(std::slice::from_ref(board))[0];
        }
        let mut sum = [0.0f32; 5];
        for &(dice, p) in ROLLS.iter() {
            let cands = self.candidates(board, dice);
            let best = self.best(&cands, plies - 1, filter.min(self.inner));
            for (s, v) in sum.iter_mut().zip(best.1) {
                *s += p as f32 * v;
            }
        }
        sum
    }

    /// The positions a cube decision on `board` looks at, `depth` rolls
    /// deep: after each roll the best play by 0-ply, and the side then on
    /// roll's probabilities at 0-ply at the end (see [`CubeNode`]).
    pub fn cube_tree(&mut self, board: &V::Board, depth: u32) -> CubeNode {
        if depth == 0 {
            return CubeNode::Leaf(self.before_roll(board, 0, 1));
        }
        let mut rolls = Vec::with_capacity(ROLLS.len());
        for &(dice, p) in ROLLS.iter() {
            let cands = self.candidates(board, dice);
            let (i, _) = self.best(&cands, 0, 1);
            let next = match cands.get(i).and_then(|c| c.end) {
                Some(end) => CubeNode::Ended(ended(end)),
                None => {
                    // After the best play, or the same board when none.
                    let mut b = cands.get(i).map_or(*board, |c| c.board);
                    V::flip(&mut b);
                    self.cube_tree(&b, depth - 1)
                }
            };
            rolls.push((p, next));
        }
        CubeNode::Rolls(rolls)
    }

    /// The best candidate (its index and the mover's probabilities after
    /// it) when each is searched `plies` deep after a 0-ply filter.
    pub fn best(
        &mut self,
        cands: &[Candidate<V::Board>],
        plies: u32,
        filter: usize,
    ) -> (usize, Probs) {
        if cands.is_empty() {
            return (0, [0.5, 0.0, 0.0, 0.0, 0.0]);
        }
        let zero = self.after_0ply(cands);
        let ranked = rank(&zero);
        if plies == 0 {
            return (ranked[0], zero[ranked[0]]);
        }
        let mut best = (ranked[0], [0.0; 5], f32::NEG_INFINITY);
        for i in filtered(&zero, &ranked, filter, self.window) {
            let p = self.after(&cands[i], plies, filter);
            let e = equity(&p);
            if e > best.2 {
                best = (i, p, e);
            }
        }
        (best.0, best.1)
    }
}

/// The candidates a search takes deeper: of `ranked` (indices of `zero`,
/// best first), at most `filter` whose 0-ply equity is within `window` of
/// the best ([`FILTER_WINDOW`] by default); never fewer than one.
pub fn filtered(zero: &[Probs], ranked: &[usize], filter: usize, window: f32) -> Vec<usize> {
    let Some(&first) = ranked.first() else {
        return Vec::new();
    };
    let top = equity(&zero[first]);
    ranked
        .iter()
        .copied()
        .take(filter.max(1))
        .take_while(|&i| top - equity(&zero[i]) <= window)
        .collect()
}

/// Indices of `probs` by equity, best first (ties keep the generator's order).
pub fn rank(probs: &[Probs]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..probs.len()).collect();
    idx.sort_by(|&a, &b| equity(&probs[b]).total_cmp(&equity(&probs[a])));
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules};
    use spelbord_engine::tawla::TawlaRules;

    #[test]
    fn flipping_twice_is_the_identity_and_equity_changes_sign() {
        let p = [0.6, 0.2, 0.05, 0.1, 0.01];
        assert_eq!(flip(flip(p)), p);
        assert!((equity(&p) + equity(&flip(p))).abs() < 1e-6);
        assert!(
            (equity(&ended(GameEnd::MoverWins(
                3,
                spelbord_engine::Ending::Backgammon
            ))) - 3.0)
                .abs()
                < 1e-6
        );
    }

    #[test]
    fn a_shifted_cube_search_moves_its_mean_by_the_shift() {
        // Leaves two rolls down are the root side's, one roll down the
        // other side's; an ended game stays exact.
        let p = [0.6, 0.2, 0.01, 0.1, 0.01];
        let ends = [1.0, 0.0, 0.0, 0.0, 0.0];
        let mut tree = CubeNode::Rolls(vec![
            (0.25, CubeNode::Leaf(flip(p))),
            (0.5, CubeNode::Rolls(vec![(1.0, CubeNode::Leaf(p))])),
            (0.25, CubeNode::Ended(ends)),
        ]);
        let before = tree.mean();
        let delta = [0.04, 0.03, 0.0, -0.02, 0.0];
        tree.shift(delta);
        let after = tree.mean();
        for k in 0..5 {
            let expected = before[k] + 0.75 * delta[k];
            assert!(
                (after[k] - expected).abs() < 1e-6,
                "{k}: {after:?} {before:?}"
            );
        }
        let CubeNode::Rolls(rolls) = &tree else {
            unreachable!()
        };
        assert_eq!(rolls[2].1, CubeNode::Ended(ends));
    }

    /// A backgammon board with both sides home (each in its own numbering).
    fn race(mover: [i8; 6], other: [i8; 6]) -> BackgammonBoard {
        let mut pts = [0i8; 24];
        for i in 0..6 {
            pts[i] = mover[i];
            pts[23 - i] = -other[i];
        }
        let off = |h: [i8; 6]| 15 - h.iter().sum::<i8>() as u8;
        BackgammonBoard::from_parts(pts, [0, 0], [off(mover), off(other)])
    }

    #[test]
    fn bear_offs_are_valued_from_the_databases() {
        let net = crate::net::load::<BackgammonRules>(None).unwrap();
        let encoding = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        let mut ev = Evaluator::new(&net.net, encoding, BackgammonRules);
        let db = crate::bearoff::shipped().unwrap();
        // both in the two-sided database, then one side with all 15 on board
        let two = race([1, 1, 0, 2, 0, 1], [0, 2, 0, 0, 1, 2]);
        let one = race([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0]);
        let contact = BackgammonBoard::start();
        let p = ev.on_roll(&[two, contact, one]);
        assert_eq!((ev.evaluations, ev.bear_offs), (1, 2));
        let homes = |b| crate::bearoff::race_homes::<BackgammonRules>(b).unwrap();
        let [a, b] = homes(&two);
        assert_eq!(Some(p[0]), db.exact(&a, &b));
        let [a, b] = homes(&one);
        assert_eq!(Some(p[2]), db.probs(&a, &b));
        // All 15 on the 6 point against one on the 1 point: lost, and a
        // gammon unless a checker comes off now (17 rolls of 36: see
        // `a_gammon_as_worked_out_by_hand`).
        assert_eq!(p[2][0], 0.0);
        assert!((p[2][3] - 19.0 / 36.0).abs() < 1e-4, "{:?}", p[2]);
        assert_eq!(ev.before_roll(&two, 2, 8), p[0]);
    }

    #[test]
    fn one_ply_over_the_database_gives_its_exact_value() {
        // The exact value is the mean over the rolls of the best play's.
        let net = crate::net::load::<BackgammonRules>(None).unwrap();
        let encoding = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        let mut ev = Evaluator::new(&net.net, encoding, BackgammonRules);
        for board in [
            race([0, 2, 1, 0, 1, 2], [1, 0, 1, 1, 0, 3]),
            race([0, 0, 0, 0, 0, 6], [1, 1, 1, 1, 1, 1]),
        ] {
            let exact = ev.before_roll(&board, 0, 1);
            let mut sum = 0.0;
            for &(dice, p) in ROLLS.iter() {
                let cands = ev.candidates(&board, dice);
                sum += p * f64::from(ev.best(&cands, 0, 1).1[0]);
            }
            assert!((sum - f64::from(exact[0])).abs() < 1e-4, "{sum} {exact:?}");
            assert_eq!(ev.evaluations, 0);
        }
    }

    #[test]
    fn a_second_network_is_averaged_with_the_first() {
        let net = crate::net::load::<BackgammonRules>(None).unwrap();
        let encoding = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        let older = crate::net::load::<BackgammonRules>(Some(crate::net::OLDER)).unwrap();
        let older_encoding = crate::net::check::<BackgammonRules>(&older, "older").unwrap();
        assert_ne!(encoding.inputs, older_encoding.inputs, "two encodings");
        let boards = [
            BackgammonBoard::start(),
            race([2, 2, 2, 3, 3, 3], [3, 3, 3, 2, 2, 2]),
        ];
        let new = Evaluator::new(&net.net, encoding, BackgammonRules).network(&boards);
        let old = Evaluator::new(&older.net, older_encoding, BackgammonRules).network(&boards);
        let mut both = Evaluator::new(&net.net, encoding, BackgammonRules)
            .with_second(&older.net, older_encoding);
        let mean = both.network(&boards);
        for ((a, b), m) in new.iter().zip(&old).zip(&mean) {
            assert!(a[0] != b[0], "the two networks differ: {a:?} {b:?}");
            assert!(
                (m[0] - (a[0] + b[0]) / 2.0).abs() < 1e-6,
                "{a:?} {b:?} {m:?}"
            );
        }
        // The same network twice is that network.
        let mut twice =
            Evaluator::new(&net.net, encoding, BackgammonRules).with_second(&net.net, encoding);
        assert_eq!(twice.network(&boards), new);
        // Only backgammon has an older network.
        assert!(crate::net::load::<TawlaRules>(Some(crate::net::OLDER)).is_err());
    }

    #[test]
    fn inconsistent_outputs_are_clamped() {
        assert_eq!(
            consistent([0.3, 0.5, 0.6, 0.9, 0.95]),
            [0.3, 0.3, 0.3, 0.7, 0.7]
        );
    }
}
