//! Generating legal plays allocates nothing once the buffers are warm
//! (the hot path of AI search and self-play).

use rand::Rng;
use spelbord_engine::rng::seeded;
use spelbord_engine::tawla::Tawla;
use spelbord_engine::{Game, GameState, Options, Turn};

#[test]
fn tawla_legal_plays_do_not_allocate() {
    let game = Tawla::from_options(&Options::defaults(Tawla::option_specs())).unwrap();
    let mut rng = seeded(3);
    let mut actions = Vec::with_capacity(4096);
    let mut measured = 0;
    let mut allocations = 0;
    for g in 0..100 {
        let mut state = game.initial_state();
        while state.turn() != Turn::Over {
            let action = if state.turn() == Turn::Chance {
                state.sample_chance(&mut rng)
            } else {
                let info = allocation_counter::measure(|| state.legal_actions(&mut actions));
                if g > 0 {
                    measured += 1;
                    allocations += info.count_total;
                }
                actions[rng.random_range(0..actions.len())]
            };
            state.apply(action);
        }
    }
    assert!(measured > 5000);
    assert_eq!(allocations, 0, "allocations in {measured} calls");
}

#[test]
fn tawla_state_is_at_most_64_bytes() {
    let size = std::mem::size_of::<<Tawla as Game>::State>();
    println!("TawlaState: {size} bytes");
    assert!(size <= 64);
}
