//! Random playouts and legal-move generation, per game.

use criterion::{Criterion, criterion_group, criterion_main};
use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::tables::TablesOptions;
use spelbord_engine::tawla::{TawlaBoard, TawlaRules, TawlaState};
use spelbord_engine::{Game, GameState, GameVisitor, Options, registry, visit_game};
use std::hint::black_box;

struct PlayoutBench<'a>(&'a mut Criterion);

impl GameVisitor for PlayoutBench<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let game = G::from_options(&Options::defaults(G::option_specs())).expect("defaults");
        let mut rng = seeded(1);
        let mut playout = Playout::<G::State>::default();
        self.0.bench_function(&format!("playout/{}", G::ID), |b| {
            b.iter(|| {
                let mut state = game.initial_state();
                black_box(
                    playout
                        .run(&mut state, &mut rng, |_, _| {})
                        .expect("the game ends"),
                )
            })
        });
    }
}

fn playouts(c: &mut Criterion) {
    for game in registry::games() {
        visit_game(game.id(), PlayoutBench(c)).expect("registered");
    }
}

fn tawla_plays(c: &mut Criterion) {
    let rules = TawlaRules { mother: true };
    let start = TawlaState::with_position(rules, TablesOptions::default(), TawlaBoard::start(), 0);
    let mut out = Vec::new();
    for dice in [[6, 5], [3, 3]] {
        let state = start.with_dice(dice);
        c.bench_function(
            &format!("tawla/plays-from-start/{}-{}", dice[0], dice[1]),
            |b| {
                b.iter(|| {
                    black_box(&state).legal_actions(&mut out);
                    black_box(out.len())
                })
            },
        );
    }
}

criterion_group!(benches, playouts, tawla_plays);
criterion_main!(benches);
