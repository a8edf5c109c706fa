//! The backgammon network's probabilities of positions at 0, 1 and 2 plies
//! beside full rollouts by the network, for measure/ai-cube.md.
//!
//! `cargo run --release -p spelbord-ai --example rollout_probe -- TRIALS <
//! ids.txt` reads lines starting with a GNU Backgammon ID (the side on roll
//! is the one valued) and prints the line, then `0:`, `1:`, `2:` and `ro:`
//! with the five probabilities (win, win a gammon, win a backgammon, lose a
//! gammon, lose a backgammon) and the rollout's seconds. `TRIALS` 0 prints
//! the 0-ply probabilities alone. `NET=FILE` values with another network.
use spelbord_ai::net::eval::{Evaluator, Probs};
use spelbord_ai::net::rollout::mean_before;
use spelbord_engine::backgammon::{BackgammonRules, BackgammonState};
use spelbord_engine::rng::seeded;
use std::io::BufRead;

fn main() {
    let trials: u32 = std::env::args()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .expect("the rollout trials (0: none)");
    let file = std::env::var("NET").ok();
    let net = spelbord_ai::net::load::<BackgammonRules>(file.as_deref()).unwrap();
    let encoding = spelbord_ai::net::check::<BackgammonRules>(&net, "the network").unwrap();
    let mut ev = Evaluator::new(&net.net, encoding, BackgammonRules);
    let show = |p: Probs| p.map(|v| format!("{v:.3}")).join(" ");
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let id = line.split_whitespace().next().unwrap_or_default();
        let state: BackgammonState = id.parse().expect("a GNU Backgammon ID");
        let board = *state.board();
        let zero = ev.before_roll(&board, 0, 8);
        if trials == 0 {
            println!("{} | {}", line.trim(), show(zero));
            continue;
        }
        let one = ev.before_roll(&board, 1, 8);
        let two = ev.before_roll(&board, 2, 8);
        let t = std::time::Instant::now();
        let rolled = mean_before(&mut ev, &board, trials, &mut seeded(5));
        println!(
            "{} | 0: {} | 1: {} | 2: {} | ro: {} ({:.1}s)",
            line.trim(),
            show(zero),
            show(one),
            show(two),
            show(rolled),
            t.elapsed().as_secs_f32()
        );
    }
}
