//! Random playouts of one game from a seed, as `spelbord bench` plays them
//! (for counting instructions per ply with callgrind on an engine-only
//! build). Usage: `random_plies GAME [KEY=VALUE ...] PLAYOUTS SEED`.

#![forbid(unsafe_code)]

use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameVisitor, Options, Result, visit_game};

/// The playouts to run.
struct RandomPlies {
    options: Vec<String>,
    playouts: u64,
    seed: u64,
}

impl GameVisitor for RandomPlies {
    type Output = Result<u64>;
    fn visit<G: Game>(self) -> Result<u64> {
        let options = Options::parse(G::ID, G::option_specs(), &self.options)?;
        let game = G::from_options(&options)?;
        let mut rng = seeded(self.seed);
        let mut playout = Playout::<G::State>::default();
        let mut plies = 0;
        for _ in 0..self.playouts {
            let mut state = game.initial_state();
            plies += playout.run(&mut state, &mut rng, |_, _| {})?;
        }
        Ok(plies)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: random_plies GAME [KEY=VALUE ...] PLAYOUTS SEED";
    let [game, options @ .., playouts, seed] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (Ok(playouts), Ok(seed)) = (playouts.parse(), seed.parse()) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let run = RandomPlies {
        options: options.to_vec(),
        playouts,
        seed,
    };
    match visit_game(game, run) {
        Ok(Ok(plies)) => println!("{plies} plies"),
        Ok(Err(e)) | Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
