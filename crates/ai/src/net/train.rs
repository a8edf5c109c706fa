//! TD(λ) self-play training (as TD-Gammon was trained): the network plays
//! both sides at 0-ply, choosing by cubeless equity; after each game every
//! position's outputs move towards the next position's (seen from the same
//! side), the last towards the game's result. Games are played in batches
//! of `threads` games at once with the weights frozen, then learned from in
//! game order, so a run is deterministic for a seed and thread count.

use super::encode::NetVariant;
use super::eval::{Evaluator, Probs, bear_off, ended, flip};
use super::format::{NetFile, Outputs};
use super::mlp::{Mlp, Scratch};
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

/// A new network for `V` with small random weights from `seed`.
pub fn new_net<V: NetVariant>(hidden: usize, seed: u64) -> NetFile {
    let mut rng = seeded(seed ^ 0x0005_EED0_F4E7);
    NetFile {
        game: V::ID.into(),
        encoding: V::ENCODING,
        outputs: Outputs::WinGammonBackgammon,
        games_trained: 0,
        net: Mlp::random(V::INPUTS, hidden, 5, || rng.random_range(-1.0f32..1.0)),
    }
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
    variant: V,
    seed: u64,
    max_turns: usize,
) -> SelfPlayGame<V::Board> {
    let mut rng = seeded(seed);
    let mut ev = Evaluator::new(net, variant);
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
fn learn_game<V: NetVariant>(net: &mut Mlp, game: &SelfPlayGame<V::Board>, cfg: &TrainConfig) {
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
    let mut xs = vec![0.0f32; n * V::INPUTS];
    for (b, x) in game.boards.iter().zip(xs.chunks_exact_mut(V::INPUTS)) {
        V::encode(b, x);
    }
    let mut scratch = Scratch::default();
    let mut next_scratch = Scratch::default();
    let mut traces = if cfg.lambda > 0.0 {
        vec![vec![0.0f32; net.parameter_count()]; 5]
    } else {
        Vec::new()
    };
    for t in 0..n {
        let x = &xs[t * V::INPUTS..(t + 1) * V::INPUTS];
        let mut y = [0.0f32; 5];
        net.forward(x, &mut scratch, &mut y);
        let target: Probs = if t + 1 == n {
            last
        } else {
            let mut next = [0.0f32; 5];
            net.forward(
                &xs[(t + 1) * V::INPUTS..(t + 2) * V::INPUTS],
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

/// Trains `net` by self-play for `cfg.games` games; `on_batch` is called
/// after each batch with the network so far (for progress and checkpoints).
pub fn train<V: NetVariant>(
    variant: V,
    net: &mut NetFile,
    cfg: &TrainConfig,
    mut on_batch: impl FnMut(&NetFile, u64),
) {
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
                    scope.spawn(move || play_game::<V>(frozen, variant, seed, cfg.max_turns))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("self-play does not panic"))
                .collect()
        });
        for game in &games {
            learn_game::<V>(&mut net.net, game, cfg);
        }
        g += batch;
        net.games_trained = g;
        on_batch(net, g - first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::Game;
    use spelbord_engine::backgammon::{Backgammon, BackgammonRules};
    use spelbord_engine::tables::TablesState;
    use spelbord_engine::tawla::{Tawla, TawlaRules};

    #[test]
    fn training_is_deterministic_for_a_seed_and_thread_count() {
        let cfg = TrainConfig {
            games: 6,
            threads: 2,
            hidden: 8,
            ..TrainConfig::default()
        };
        let run = || {
            let mut net = new_net::<BackgammonRules>(8, 3);
            train(BackgammonRules, &mut net, &cfg, |_, _| {});
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
        train(variant, &mut net, &cfg, |_, _| {});
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
        let cfg = TrainConfig {
            games: 4,
            threads: 2,
            hidden: 8,
            ..TrainConfig::default()
        };
        let rules = TawlaRules { mother: true };
        let run = || {
            let mut net = new_net::<TawlaRules>(8, 3);
            train(rules, &mut net, &cfg, |_, _| {});
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
        learn_game::<BackgammonRules>(&mut net.net, &game, &cfg);
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
            learn_game::<BackgammonRules>(&mut net.net, &game, &cfg);
        }
        let mut x = vec![0.0; BackgammonRules::INPUTS];
        BackgammonRules::encode(&before, &mut x);
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
        train(BackgammonRules, &mut net, &cfg, |_, _| {});
        assert_ne!(net, new_net::<BackgammonRules>(8, 3));
    }
}
