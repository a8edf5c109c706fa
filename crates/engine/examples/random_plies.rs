//! Random playouts of one game from a seed, the loop of `spelbord bench`
//! without the command line: for counting instructions per ply with
//! callgrind on an engine-only build.
//!
//! `cargo run --release -p spelbord-engine --example random_plies -- GAME [KEY=VALUE ...] PLAYOUTS SEED`

use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::{Game, GameVisitor, Options, visit_game};

struct RandomPlies {
    options: Vec<String>,
    playouts: u64,
    seed: u64,
}

impl GameVisitor for RandomPlies {
    type Output = Result<u64, spelbord_engine::Error>;
    fn visit<G: Game>(self) -> Self::Output {
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
    let visitor = RandomPlies {
        options: options.to_vec(),
        playouts,
        seed,
    };
    match visit_game(game, visitor) {
        Ok(Ok(plies)) => println!("{game}: {playouts} playouts from seed {seed}, {plies} plies"),
        Ok(Err(e)) | Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
