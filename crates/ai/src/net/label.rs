//! Supervised training on rollouts: positions from self-play, each labelled
//! by the mean result of full rollouts played by the network itself (every
//! roll's luck taken out), and a network fitted to those labels. A rollout
//! sees what the network's own 0-ply value misses (e.g. its gammon chances),
//! so the fitted network's probabilities come closer to its own play's.

use super::encode::{Encoding, NetVariant};
use super::eval::{Evaluator, Probs, bear_off};
use super::mlp::{Mlp, Scratch};
use super::rollout::mean_before;
use rand::Rng;
use rand::seq::SliceRandom;
use spelbord_engine::rng::seeded;
use spelbord_engine::tables::dice;

/// A position (the side on roll's frame) and its probabilities by rollout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled<B> {
    /// The board, the side on roll's frame.
    pub board: B,
    /// The side on roll's probabilities (win, gammon, backgammon, lose a
    /// gammon, lose a backgammon).
    pub probs: Probs,
}

/// Position number `index` of a labelling run with `seed`: a self-play game
/// at 0-ply with the dice of `seed + index`, one of its positions before a
/// roll chosen at random among those the bear-off databases do not value,
/// and that position rolled out `trials` times to the end of the game. A
/// game with no such position gives `None`.
pub fn label_position<V: NetVariant>(
    net: &Mlp,
    encoding: Encoding<V::Board>,
    variant: V,
    seed: u64,
    index: u64,
    trials: u32,
) -> Option<Labelled<V::Board>> {
    let mut rng = seeded(seed.wrapping_add(index));
    let mut ev = Evaluator::new(net, encoding, variant);
    let mut board = variant.start_board();
    let mut boards = Vec::with_capacity(64);
    for _ in 0..2_000 {
        if bear_off::<V>(&board).is_some() {
            break;
        }
        boards.push(board);
        let cands = ev.candidates(&board, dice::roll(&mut rng));
        let (i, _) = ev.best(&cands, 0, 1);
        let c = cands.get(i)?;
        if c.end.is_some() {
            break;
        }
        board = c.board;
        V::flip(&mut board);
    }
    if boards.is_empty() {
        return None;
    }
    let board = boards[rng.random_range(0..boards.len())];
    let probs = mean_before(&mut ev, &board, trials, &mut rng);
    Some(Labelled {
        board,
        probs: clamped(probs),
    })
}

/// Probabilities kept within 0..1 (a rollout's luck adjustment can step
/// slightly outside).
fn clamped(p: Probs) -> Probs {
    p.map(|v| v.clamp(0.0, 1.0))
}

/// How far a network's probabilities are from labels: the mean absolute
/// error of the winning chance and of the cubeless equity.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitError {
    /// Mean absolute error of the winning chance.
    pub win: f64,
    /// Mean absolute error of the cubeless equity.
    pub equity: f64,
}

/// The error of `net` (inputs `encoding`) on `data`.
pub fn fit_error<V: NetVariant>(
    net: &Mlp,
    encoding: Encoding<V::Board>,
    data: &[Labelled<V::Board>],
) -> FitError {
    if data.is_empty() {
        return FitError::default();
    }
    let mut x = vec![0.0f32; encoding.inputs];
    let mut y = [0.0f32; 5];
    let mut scratch = Scratch::default();
    let mut sum = FitError::default();
    for d in data {
        (encoding.encode)(&d.board, &mut x);
        net.forward(&x, &mut scratch, &mut y);
        if !V::BACKGAMMONS {
            (y[2], y[4]) = (0.0, 0.0);
        }
        sum.win += f64::from((y[0] - d.probs[0]).abs());
        sum.equity += f64::from((super::equity(&y) - super::equity(&d.probs)).abs());
    }
    let n = data.len() as f64;
    FitError {
        win: sum.win / n,
        equity: sum.equity / n,
    }
}

/// Fits `net` to `data` by `epochs` passes of stochastic gradient descent
/// at learning rate `alpha`, in an order shuffled by `seed` each pass;
/// `on_epoch` gets each finished pass's number and the network.
pub fn fit<V: NetVariant>(
    net: &mut Mlp,
    encoding: Encoding<V::Board>,
    data: &[Labelled<V::Board>],
    epochs: u32,
    alpha: f32,
    seed: u64,
    mut on_epoch: impl FnMut(u32, &Mlp),
) {
    let mut rng = seeded(seed);
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut x = vec![0.0f32; encoding.inputs];
    let mut y = [0.0f32; 5];
    let mut scratch = Scratch::default();
    for epoch in 1..=epochs {
        order.shuffle(&mut rng);
        for &i in &order {
            let d = &data[i];
            (encoding.encode)(&d.board, &mut x);
            net.forward(&x, &mut scratch, &mut y);
            let mut target = d.probs;
            if !V::BACKGAMMONS {
                (target[2], target[4]) = (y[2], y[4]);
            }
            net.learn(&x, &scratch, &y, &target, alpha);
        }
        on_epoch(epoch, net);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::backgammon::BackgammonRules;

    fn shipped() -> std::sync::Arc<crate::net::NetFile> {
        crate::net::load::<BackgammonRules>(None).unwrap()
    }

    #[test]
    fn a_label_repeats_for_its_seed_and_index() {
        let net = shipped();
        let enc = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        let a = label_position(&net.net, enc, BackgammonRules, 4, 7, 4).unwrap();
        let b = label_position(&net.net, enc, BackgammonRules, 4, 7, 4).unwrap();
        assert_eq!(a, b);
        let c = label_position(&net.net, enc, BackgammonRules, 4, 8, 4).unwrap();
        assert_ne!(a.board, c.board);
        assert!(a.probs.iter().all(|p| (0.0..=1.0).contains(p)));
        assert!(a.probs[1] <= a.probs[0] && a.probs[3] <= 1.0 - a.probs[0] + 1e-6);
    }

    #[test]
    fn fitting_moves_the_network_towards_its_labels() {
        // Labels that say the side on roll wins every gammon it can: the
        // fitted network's error on them falls.
        let net = shipped();
        let enc = crate::net::check::<BackgammonRules>(&net, "shipped").unwrap();
        let data: Vec<_> = (0..6)
            .filter_map(|i| label_position(&net.net, enc, BackgammonRules, 9, i, 2))
            .map(|l| Labelled {
                probs: [0.9, 0.6, 0.05, 0.02, 0.0],
                ..l
            })
            .collect();
        let before = fit_error::<BackgammonRules>(&net.net, enc, &data);
        let mut mlp = net.net.clone();
        let mut epochs = 0;
        fit::<BackgammonRules>(&mut mlp, enc, &data, 20, 0.1, 1, |e, _| epochs = e);
        let after = fit_error::<BackgammonRules>(&mlp, enc, &data);
        assert_eq!(epochs, 20);
        assert!(after.equity < before.equity / 2.0, "{before:?} {after:?}");
    }
}
