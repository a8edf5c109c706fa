//! TD(λ) self-play training (as TD-Gammon was trained): the network plays
//! both sides at 0-ply, choosing by cubeless equity; after each game every
//! position's outputs move towards the next position's (seen from the same
//! side), the last towards the game's result. Games are played in batches
//! of `threads` games at once with the weights frozen, then learned from in
//! game order, so a run is deterministic for a seed and thread count.

use super::encode::{Encoding, NetVariant};
use super::eval::{Evaluator, Probs, bear_off, ended, flip};
use super::format::{NetFile, Outputs};
use super::mlp::{Mlp, Scratch};
use super::{NetLoadError, check};
use rand::Rng;
use spelbord_engine::rng::seeded;
use spelbord_engine::tables::{GameEnd, dice};

/// Settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Games to play in this run.
    pub games: u64,
    /// Games played at once (one thread each).
    pub threads: usize,
    /// Seed of the dice (game g of the whole training uses seed + g).
    pub seed: u64,
    /// The trace decay λ (0: TD(0), the fastest).
    pub lambda: f32,
    /// The learning rate.
    pub alpha: f32,
    /// Hidden units of a new network.
    pub hidden: usize,
    /// A game longer than this many turns is abandoned (a guard; games of
    /// the tables family end far sooner).
    pub max_turns: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 10_000,
            threads: 1,
            seed: 1,
            lambda: 0.0,
            alpha: 0.1,
            hidden: 128,
            max_turns: 2_000,
        }
    }
}

/// A new network for `V`'s newest encoding with small random weights
/// from `seed`.
pub fn new_net<V: NetVariant>(hidden: usize, seed: u64) -> NetFile {
    let mut rng = seeded(seed ^ 0x0005_EED0_F4E7);
    NetFile {
        game: V::ID.into(),
        encoding: V::NEWEST.version,
        outputs: Outputs::WinGammonBackgammon,
        games_trained: 0,
        net: Mlp::random(V::NEWEST.inputs, hidden, 5, || {
            rng.random_range(-1.0f32..1.0)
        }),
    }
}

/// `net` widened to the newest encoding of `V` that extends its own: the
/// weights of the new inputs are zero, so it evaluates every position
/// exactly as before and training goes on from there. A network already
/// of the newest encoding comes back unchanged; one no encoding extends
/// is a [`NetLoadError::Mismatch`].
pub fn widen<V: NetVariant>(net: &NetFile, source: &str) -> Result<NetFile, NetLoadError> {
    let from = check::<V>(net, source)?;
    if from.version == V::NEWEST.version {
        return Ok(net.clone());
    }
    let mut to = V::NEWEST;
    while to.extends != Some(from.version) {
        let older = to.extends.and_then(V::encoding);
        to = older.ok_or_else(|| NetLoadError::Mismatch {
            source: source.into(),
            expected: (V::ID.into(), V::NEWEST.version),
            found: (net.game.clone(), net.encoding),
        })?;
    }
    Ok(NetFile {
        encoding: to.version,
        net: net.net.widened(to.inputs),
        ..net.clone()
    })
}

/// One self-play game: the boards each side faced on roll, one after the
/// other (each in its own side's frame), and how the last mover ended it
/// (`None`: abandoned).
struct SelfPlayGame<B> {
    boards: Vec<B>,
    end: Option<GameEnd>,
}

fn play_game<V: NetVariant>(
    net: &Mlp,
    encoding: Encoding<V::Board>,
    variant: V,
    seed: u64,
    max_turns: usize,
) -> SelfPlayGame<V::Board> {
    let mut rng = seeded(seed);
    let mut ev = Evaluator::new(net, encoding, variant);
    let mut board = variant.start_board();
    let mut boards = Vec::with_capacity(64);
    for _ in 0..max_turns {
        boards.push(board);
        let roll = dice::roll(&mut rng);
        let cands = ev.candidates(&board, roll);
        let (i, _) = ev.best(&cands, 0, 1);
        let Some(c) = cands.get(i) else {
            break;
        };
        if let Some(end) = c.end {
            return SelfPlayGame {
                boards,
                end: Some(end),
            };
        }
        board = c.board;
        V::flip(&mut board);
    }
    SelfPlayGame { boards, end: None }
}

/// What each output's trace becomes when the point of view passes to the
/// other side: the win output changes sign (a win of one is a loss of the
/// other), the gammon and backgammon outputs swap sides.
fn flip_traces(traces: &mut [Vec<f32>]) {
    for t in traces[0].iter_mut() {
        *t = -*t;
    }
    traces.swap(1, 3);
    traces.swap(2, 4);
}

/// Learns from one game: TD(λ) over its positions up to the first that
/// the bear-off databases value (whose value is then the last target; the
/// network is not asked there, so it learns nothing of them).
fn learn_game<V: NetVariant>(
    net: &mut Mlp,
    encoding: Encoding<V::Board>,
    game: &SelfPlayGame<V::Board>,
    cfg: &TrainConfig,
) {
    let Some(end) = game.end else {
        return;
    };
    let known = game
        .boards
        .iter()
        .enumerate()
        .find_map(|(t, b)| Some((t, bear_off::<V>(b)?)));
    let n = known.map_or(game.boards.len(), |(t, _)| t);
    let last = known.map_or(ended(end), |(_, p)| flip(p));
    let inputs = encoding.inputs;
    let mut xs = vec![0.0f32; n * inputs];
    for (b, x) in game.boards.iter().zip(xs.chunks_exact_mut(inputs)) {
        (encoding.encode)(b, x);
    }
    let mut scratch = Scratch::default();
    let mut next_scratch = Scratch::default();
    let mut traces = if cfg.lambda > 0.0 {
        vec![vec![0.0f32; net.parameter_count()]; 5]
    } else {
        Vec::new()
    };
    for t in 0..n {
        let x = &xs[t * inputs..(t + 1) * inputs];
        let mut y = [0.0f32; 5];
        net.forward(x, &mut scratch, &mut y);
        let target: Probs = if t + 1 == n {
            last
        } else {
            let mut next = [0.0f32; 5];
            net.forward(
                &xs[(t + 1) * inputs..(t + 2) * inputs],
                &mut next_scratch,
                &mut next,
            );
            flip(next)
        };
        if traces.is_empty() {
            net.learn(x, &scratch, &y, &target, cfg.alpha);
        } else {
            for tr in traces.iter_mut() {
                for v in tr.iter_mut() {
                    *v *= cfg.lambda;
                }
            }
            net.add_output_gradients(x, &scratch, &y, &mut traces);
            let delta: Vec<f32> = target.iter().zip(&y).map(|(z, y)| z - y).collect();
            net.apply_traces(&traces, &delta, cfg.alpha);
            flip_traces(&mut traces);
        }
    }
}

/// Trains `net` (of any of `V`'s encodings) by self-play for `cfg.games`
/// games; `on_batch` is called after each batch with the network so far
/// (for progress and checkpoints).
pub fn train<V: NetVariant>(
    variant: V,
    net: &mut NetFile,
    cfg: &TrainConfig,
    mut on_batch: impl FnMut(&NetFile, u64),
) -> Result<(), NetLoadError> {
    let encoding = check::<V>(net, "the network trained")?;
    let threads = cfg.threads.max(1);
    let first = net.games_trained;
    let last = first + cfg.games;
    let mut g = first;
    while g < last {
        let batch = (last - g).min(threads as u64);
        let frozen = &net.net;
        let games: Vec<SelfPlayGame<V::Board>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..batch)
                .map(|k| {
                    let seed = cfg.seed.wrapping_add(g + k);
                    scope.spawn(move || {
                        play_game::<V>(frozen, encoding, variant, seed, cfg.max_turns)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("self-play does not panic"))
                .collect()
        });
        for game in &games {
            learn_game::<V>(&mut net.net, encoding, game, cfg);
        }
        g += batch;
        net.games_trained = g;
        on_batch(net, g - first);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::Game;
    use spelbord_engine::backgammon::{Backgammon, BackgammonRules};
    use spelbord_engine::tables::TablesState;
    use spelbord_engine::tawla::{Tawla, TawlaRules};

    /// `games` games on 2 threads for a network of 8 hidden units.
    fn small_config(games: u64) -> TrainConfig {
        TrainConfig {
            games,
            threads: 2,
            hidden: 8,
            ..TrainConfig::default()
        }
    }

    #[test]
    fn training_is_deterministic_for_a_seed_and_thread_count() {
        let cfg = small_config(6);
        let run = || {
            let mut net = new_net::<BackgammonRules>(8, 3);
            train(BackgammonRules, &mut net, &cfg, |_, _| {}).unwrap();
            net
        };
        let a = run();
        assert_eq!(a.games_trained, 6);
        assert_eq!(a, run());
        assert_ne!(a, new_net::<BackgammonRules>(8, 3));
    }

    /// Trains a new network of `hidden` units for `games` games of `G`
    /// (whose rules are `variant`) and returns its score against random
    /// play over `matches` games, seats alternating.
    fn trained_score_against_random<G: Game<State = TablesState<V>>, V: NetVariant>(
        variant: V,
        games: u64,
        hidden: usize,
        matches: u64,
    ) -> f64 {
        let cfg = TrainConfig {
            games,
            hidden,
            ..TrainConfig::default()
        };
        let mut net = new_net::<V>(hidden, 1);
        train(variant, &mut net, &cfg, |_, _| {}).unwrap();
        let path = std::env::temp_dir().join(format!(
            "spelbord-smoke-{}-{}.net",
            V::ID,
            std::process::id()
        ));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let spec = format!("net:file={}", path.display());
        let game = G::from_options(&spelbord_engine::Options::defaults(G::option_specs())).unwrap();
        let mut score = 0.0;
        for g in 0..matches {
            let mut agents = vec![
                crate::make_agent::<G>(&spec, g).unwrap(),
                crate::make_agent::<G>("random", g).unwrap(),
            ];
            // The net sits first in even games, second in odd ones.
            if g % 2 == 1 {
                agents.swap(0, 1);
            }
            let r = crate::arena::play_game(&game, &mut agents, g);
            let net_seat = (g % 2) as usize;
            let other = 1 - net_seat;
            score += match r.returns[net_seat].total_cmp(&r.returns[other]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        std::fs::remove_file(&path).ok();
        score / matches as f64
    }

    #[test]
    fn a_few_hundred_training_games_beat_random_play() {
        // Random play wins about half against random play; the trained net
        // must win clearly more (the untrained one measured 80% after 200
        // games with 128 hidden units). Runs this short vary widely: with
        // the bear-off databases, seeds 1 to 8 scored 68% to 85.5% over 200
        // games (mean 77%; without them 62% to 88% over seeds 2 to 7, the
        // same mean), so the bound is 3 standard errors above a coin.
        let score = trained_score_against_random::<Backgammon, _>(BackgammonRules, 300, 32, 200);
        assert!(score >= 0.62, "scored {score}");
    }

    #[test]
    fn a_few_hundred_tawla_training_games_beat_random_play() {
        // TAW-10, TAW-11: the network learns from the games' ends (mother
        // rule on, the default) and must then beat random play nearly
        // always (the untrained network scored 71% here and 80% in another
        // 60 games, one trained for 300 games 100%).
        let score =
            trained_score_against_random::<Tawla, _>(TawlaRules { mother: true }, 300, 32, 60);
        assert!(score >= 0.9, "scored {score}");
    }

    #[test]
    fn tawla_training_is_deterministic_for_a_seed_and_thread_count() {
        let cfg = small_config(4);
        let rules = TawlaRules { mother: true };
        let run = || {
            let mut net = new_net::<TawlaRules>(8, 3);
            train(rules, &mut net, &cfg, |_, _| {}).unwrap();
            net
        };
        let a = run();
        assert_eq!(a.games_trained, 4);
        assert_eq!(a, run());
        assert_ne!(a, new_net::<TawlaRules>(8, 3));
    }

    #[test]
    fn the_network_learns_nothing_where_the_bear_off_databases_value() {
        use spelbord_engine::backgammon::BackgammonBoard;
        let mut pts = [0i8; 24];
        pts[0] = 2;
        pts[23] = -3;
        let bear_off = BackgammonBoard::from_parts(pts, [0, 0], [13, 12]);
        // a recorded end that the database contradicts (a gammon, though
        // the loser has borne off checkers): only the database's value counts
        let end = Some(GameEnd::MoverWins(2, spelbord_engine::Ending::Gammon));
        let cfg = TrainConfig::default();
        let mut net = new_net::<BackgammonRules>(8, 3);
        let game = SelfPlayGame {
            boards: vec![bear_off],
            end,
        };
        learn_game::<BackgammonRules>(&mut net.net, BackgammonRules::NEWEST, &game, &cfg);
        assert_eq!(net, new_net::<BackgammonRules>(8, 3));
        // The position before it learns towards the database's value: the
        // side on roll there has two on its 1 point and wins surely, so the
        // side before it loses (no gammon, the loser has checkers off).
        let before = spelbord_engine::backgammon::BackgammonBoard::start();
        let game = SelfPlayGame {
            boards: vec![before, bear_off],
            end,
        };
        for _ in 0..300 {
            learn_game::<BackgammonRules>(&mut net.net, BackgammonRules::NEWEST, &game, &cfg);
        }
        let mut x = vec![0.0; BackgammonRules::NEWEST.inputs];
        (BackgammonRules::NEWEST.encode)(&before, &mut x);
        let mut y = [0.0f32; 5];
        net.net.forward(&x, &mut Scratch::default(), &mut y);
        assert!(y[0] < 0.1 && y[3] < 0.1, "{y:?}");
    }

    #[test]
    fn traces_learn_too() {
        let cfg = TrainConfig {
            games: 2,
            lambda: 0.7,
            hidden: 8,
            ..TrainConfig::default()
        };
        let mut net = new_net::<BackgammonRules>(8, 3);
        train(BackgammonRules, &mut net, &cfg, |_, _| {}).unwrap();
        assert_ne!(net, new_net::<BackgammonRules>(8, 3));
    }

    /// The boards of a few games of `net` against itself
    /// at 0-ply, each seen by the side on roll.
    fn some_boards(net: &NetFile) -> Vec<spelbord_engine::backgammon::BackgammonBoard> {
        let encoding = check::<BackgammonRules>(net, "net").unwrap();
        (0..4)
            .flat_map(|seed| play_game(&net.net, encoding, BackgammonRules, seed, 2_000).boards)
            .collect()
    }

    #[test]
    fn a_widened_network_evaluates_every_position_as_before() {
        // An encoding-1 network (206 inputs) with random weights: widening
        // must keep the outputs whatever the weights.
        let mut rng = seeded(5);
        let shipped = NetFile {
            encoding: 1,
            net: Mlp::random(206, 16, 5, || rng.random_range(-1.0f32..1.0)),
            games_trained: 7,
            ..new_net::<BackgammonRules>(16, 5)
        };
        let wide = widen::<BackgammonRules>(&shipped, "shipped").unwrap();
        assert_eq!((wide.encoding, wide.net.inputs()), (2, 221));
        assert_eq!(wide.games_trained, shipped.games_trained);
        let boards = some_boards(&shipped);
        assert!(boards.len() > 100, "{} boards", boards.len());
        let old = check::<BackgammonRules>(&shipped, "shipped").unwrap();
        let new = check::<BackgammonRules>(&wide, "wide").unwrap();
        let a = Evaluator::new(&shipped.net, old, BackgammonRules).on_roll(&boards);
        let b = Evaluator::new(&wide.net, new, BackgammonRules).on_roll(&boards);
        assert_eq!(a, b);
        // The new inputs are not all zero on these boards: the same outputs
        // come from their zero weights.
        let mut x = vec![0.0; 221];
        let seen = boards.iter().any(|board| {
            (new.encode)(board, &mut x);
            x[206..].iter().any(|&v| v != 0.0)
        });
        assert!(seen);
        // Widening again changes nothing; it survives the file format.
        assert_eq!(widen::<BackgammonRules>(&wide, "wide").unwrap(), wide);
        assert_eq!(NetFile::from_bytes(&wide.to_bytes()), Ok(wide));
    }

    #[test]
    fn a_widened_network_trains_deterministically_and_learns_from_the_new_inputs() {
        let cfg = small_config(4);
        let mut narrow = new_net::<BackgammonRules>(8, 3);
        narrow.encoding = 1;
        narrow.net = Mlp::random(206, 8, 5, || 0.01);
        let start = widen::<BackgammonRules>(&narrow, "narrow").unwrap();
        let run = || {
            let mut net = start.clone();
            train(BackgammonRules, &mut net, &cfg, |_, _| {}).unwrap();
            net
        };
        let a = run();
        assert_eq!(a, run());
        // Some weight of a new input (rows 206.. of the first layer) moved.
        let [w1, ..] = a.net.parts();
        assert!(w1[206 * 8..].iter().any(|&w| w != 0.0));
        // An encoding no encoding extends is refused (Tawla has no 3).
        let mut tawla = new_net::<TawlaRules>(8, 3);
        tawla.encoding = 3;
        assert!(widen::<TawlaRules>(&tawla, "tawla").is_err());
    }
}
