//! Random playouts and legal-move generation, per game; the tables play
//! generator per game on positions from random games.

use criterion::{Criterion, criterion_group, criterion_main};
use spelbord_engine::playout::Playout;
use spelbord_engine::rng::seeded;
use spelbord_engine::tables::TablesOptions;
use spelbord_engine::tawla::{TawlaBoard, TawlaRules, TawlaState};
use spelbord_engine::{Game, GameState, GameVisitor, Options, Turn, registry, visit_game};
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

/// Decisions met in random games of a game (with default options but
/// `pairs`): the generator's work mix in playouts, doubles included.
struct Decisions<'a>(&'a mut Criterion, &'a [&'a str]);

impl GameVisitor for Decisions<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let pairs: Vec<String> = self.1.iter().map(|p| p.to_string()).collect();
        let options = Options::parse(G::ID, G::option_specs(), &pairs).expect("options");
        let game = G::from_options(&options).expect("options");
        let mut rng = seeded(3);
        let mut playout = Playout::<G::State>::default();
        let mut states = Vec::new();
        while states.len() < 2000 {
            let mut state = game.initial_state();
            playout
                .run(&mut state, &mut rng, |s, _| {
                    if matches!(s.turn(), Turn::Player(_)) {
                        states.push(s.clone());
                    }
                })
                .expect("the game ends");
        }
        let name = format!(
            "movegen/{}{}",
            G::ID,
            self.1.iter().map(|p| format!("/{p}")).collect::<String>()
        );
        let mut out = Vec::new();
        let mut group = self.0.benchmark_group(name);
        group.throughput(criterion::Throughput::Elements(states.len() as u64));
        group.bench_function("legal_actions", |b| {
            b.iter(|| {
                for s in &states {
                    s.legal_actions(&mut out);
                    black_box(out.len());
                }
            })
        });
        group.bench_function("random_action", |b| {
            b.iter(|| {
                for s in &states {
                    black_box(s.random_action(&mut rng, &mut out));
                }
            })
        });
        group.finish();
    }
}

/// The play generator of each tables game: all plays, and one random play
/// picked by index, over 2000 decisions from random games.
fn tables_movegen(c: &mut Criterion) {
    for (game, pairs) in [
        ("tawla", &[][..]),
        ("backgammon", &[]),
        ("high-gammon", &["players=4"]),
        ("tric-trac", &["players=4"]),
    ] {
        visit_game(game, Decisions(c, pairs)).expect("registered");
    }
}

criterion_group!(benches, playouts, tawla_plays, tables_movegen);
criterion_main!(benches);
