use super::*;
use crate::conformance::check_random_games;
use crate::game::{GameState, Notation, Turn};
use crate::tables::{Phase, Play, ROLLS, TablesAction};

fn start_with_dice(dice: [u8; 2]) -> TawlaState {
    TawlaState::with_position(
        TawlaRules { mother: true },
        TablesOptions::default(),
        TawlaBoard::start(),
        0,
    )
    .with_dice(dice)
}

fn plays(state: &TawlaState) -> Vec<Play> {
    let mut out = Vec::new();
    state.legal_actions(&mut out);
    out.into_iter()
        .map(|a| match a {
            TablesAction::Play(p) => p,
            other => panic!("not a play: {other:?}"),
        })
        .collect()
}

#[test]
fn random_games_conform() {
    let s = check_random_games::<Tawla>(&[], 300, 7, 5000, |_| {});
    assert_eq!(s.games, 300);
}

#[test]
fn perft_print() {
    for (dice, _) in ROLLS {
        let st = start_with_dice(dice);
        eprintln!("{:?} {}", dice, plays(&st).len());
    }
}
