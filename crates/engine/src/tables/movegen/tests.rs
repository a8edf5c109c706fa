//! The generator against the first one (kept as the reference): the same
//! plays in the same order, for every roll, on positions from random games
//! of every tables game and rule set.

use super::reference::ReferenceGen;
use super::{DiceRule, PlayGen, StepBoard, StepList};
use crate::backgammon::{Backgammon, BackgammonBoard};
use crate::game::{Game, GameState};
use crate::high_gammon::{HgState, HighGammon, TricTrac};
use crate::options::Options;
use crate::playout::Playout;
use crate::rng::seeded;
use crate::tables::{Phase, Play, ROLLS, Step};
use crate::tawla::{Tawla, TawlaBoard};

/// Compares both generators on `board` for every dice list in `rolls`.
fn same_plays<B: StepBoard + std::fmt::Debug>(
    board: &B,
    rolls: &[Vec<u8>],
    rule: DiceRule,
    new: &mut PlayGen,
    old: &mut ReferenceGen,
) -> usize {
    let mut checked = 0;
    for dice in rolls {
        new.generate(board, dice, rule);
        old.generate(board, dice, rule);
        let got: Vec<Play> = new.plays().collect();
        let want: Vec<Play> = old.plays().collect();
        assert_eq!(got, want, "{dice:?} on {board:?}");
        assert_eq!(new.len(), got.len());
        assert!((0..new.len()).all(|i| new.play(i) == got[i]));
        checked += got.len();
    }
    checked
}

/// The 21 rolls as dice lists for the two-player games (doubles four times).
fn two_player_rolls() -> Vec<Vec<u8>> {
    ROLLS
        .iter()
        .map(|&([a, b], _)| if a == b { vec![a; 4] } else { vec![a, b] })
        .collect()
}

/// Boards met in `games` random games, in the mover's frame.
fn boards<G: Game>(game: &G, games: u64, seed: u64, mut keep: impl FnMut(&G::State)) {
    let mut rng = seeded(seed);
    let mut playout = Playout::<G::State>::default();
    for _ in 0..games {
        let mut state = game.initial_state();
        playout
            .run(&mut state, &mut rng, |s, _| keep(s))
            .expect("a random game ends within the game's maximum length");
    }
}

#[test]
fn tawla_plays_match_the_reference_generator() {
    let rolls = two_player_rolls();
    let (mut new, mut old) = (PlayGen::default(), ReferenceGen::default());
    let mut checked = 0;
    for mother in ["on", "off"] {
        let options = Options::parse(
            "tawla",
            Tawla::option_specs(),
            &[format!("mother={mother}")],
        )
        .unwrap();
        let game = Tawla::from_options(&options).unwrap();
        let mut seen: Vec<TawlaBoard> = Vec::new();
        boards(&game, 40, 7, |s| {
            if matches!(s.phase(), Phase::Rolling) {
                seen.push(*s.board());
            }
        });
        for board in &seen {
            checked += same_plays(board, &rolls, DiceRule::Maximize, &mut new, &mut old);
        }
    }
    assert!(checked > 1_000_000, "{checked} plays compared");
}

#[test]
fn backgammon_plays_match_the_reference_generator() {
    let rolls = two_player_rolls();
    let (mut new, mut old) = (PlayGen::default(), ReferenceGen::default());
    let game = Backgammon::from_options(&Options::defaults(Backgammon::option_specs())).unwrap();
    let mut seen: Vec<BackgammonBoard> = Vec::new();
    boards(&game, 60, 11, |s| {
        if matches!(s.phase(), Phase::Rolling) {
            seen.push(*s.board());
        }
    });
    let checked: usize = seen
        .iter()
        .map(|b| same_plays(b, &rolls, DiceRule::Maximize, &mut new, &mut old))
        .sum();
    assert!(checked > 1_000_000, "{checked} plays compared");
}

/// The mover's view and every roll's dice list under the game's rules.
fn hg_check(s: &HgState, new: &mut PlayGen, old: &mut ReferenceGen) -> usize {
    let p = s.mover();
    let view = s.board().view(p, s.seat(p), s.rules().tric);
    let rolls: Vec<Vec<u8>> = ROLLS
        .iter()
        .map(|&(dice, _)| {
            let mut buf = [0; 4];
            let n = s.rules().dice_list(dice, &mut buf);
            buf[..n].to_vec()
        })
        .collect();
    same_plays(&view, &rolls, DiceRule::InOrder, new, old)
}

#[test]
fn high_gammon_and_tric_trac_plays_match_the_reference_generator() {
    let (mut new, mut old) = (PlayGen::default(), ReferenceGen::default());
    let mut checked = 0;
    for players in 2..=4 {
        for doubles in ["reroll", "repeat", "underside"] {
            let pairs = [format!("players={players}"), format!("doubles={doubles}")];
            let hg = HighGammon::from_options(
                &Options::parse("high-gammon", HighGammon::option_specs(), &pairs).unwrap(),
            )
            .unwrap();
            let tt = TricTrac::from_options(
                &Options::parse("tric-trac", TricTrac::option_specs(), &pairs).unwrap(),
            )
            .unwrap();
            let mut states = Vec::new();
            boards(&hg, 6, players as u64, |s| {
                if matches!(s.turn(), crate::game::Turn::Player(_)) {
                    states.push(*s);
                }
            });
            boards(&tt, 4, players as u64, |s| {
                if matches!(s.turn(), crate::game::Turn::Player(_)) {
                    states.push(*s);
                }
            });
            for s in &states {
                checked += hg_check(s, &mut new, &mut old);
            }
        }
    }
    assert!(checked > 1_000_000, "{checked} plays compared");
}

/// A board that hides its key-free paths, so the generator tells every
/// position apart by keys.
#[derive(Clone, Copy, Debug)]
struct KeyedOnly<B>(B);

impl<B: StepBoard> StepBoard for KeyedOnly<B> {
    fn steps(&self, die: u8, out: &mut StepList) {
        self.0.steps(die, out);
    }
    fn apply_step(&mut self, step: Step) {
        self.0.apply_step(step);
    }
    fn key(&self) -> u128 {
        self.0.key()
    }
    fn key_after(&self, key: u128, step: Step) -> u128 {
        self.0.key_after(key, step)
    }
}

/// The plays of two dice without keys (`StepBoard::two_steps_in_order`)
/// against the keyed search, play for play in order, for all 21 rolls as
/// two steps, on positions from random High-O Gammon and Tric-Trac games
/// of 2, 3 and 4 players; both paths must be taken often.
// HG-8 HG-9 HG-10 HG-11 HG-14 TT-1 TT-3
#[test]
fn high_gammon_and_tric_trac_mask_plays_match_the_keyed_search() {
    let (mut fast, mut keyed) = (PlayGen::default(), PlayGen::default());
    let (mut compared, mut without_keys, mut plays) = (0, 0, 0);
    let mut out = Vec::new();
    for players in 2..=4 {
        let pairs = [format!("players={players}")];
        let hg = HighGammon::from_options(
            &Options::parse("high-gammon", HighGammon::option_specs(), &pairs).unwrap(),
        )
        .unwrap();
        let tt = TricTrac::from_options(
            &Options::parse("tric-trac", TricTrac::option_specs(), &pairs).unwrap(),
        )
        .unwrap();
        let mut states = Vec::new();
        let keep = |s: &HgState| {
            if matches!(s.turn(), crate::game::Turn::Player(_)) {
                Some(*s)
            } else {
                None
            }
        };
        boards(&hg, 20, 100 + players as u64, |s| states.extend(keep(s)));
        boards(&tt, 10, 200 + players as u64, |s| states.extend(keep(s)));
        for s in &states {
            let p = s.mover();
            let view = s.board().view(p, s.seat(p), s.rules().tric);
            for &([lo, hi], _) in ROLLS.iter() {
                let dice = [lo.min(hi), lo.max(hi)];
                fast.generate(&view, &dice, DiceRule::InOrder);
                keyed.generate(&KeyedOnly(view), &dice, DiceRule::InOrder);
                let got: Vec<Play> = fast.plays().collect();
                let want: Vec<Play> = keyed.plays().collect();
                assert_eq!(got, want, "{dice:?} on {view:?}");
                out.clear();
                without_keys += view.two_steps_in_order(dice[0], dice[1], &mut out) as usize;
                compared += 1;
                plays += got.len();
            }
        }
    }
    assert!(plays > 1_000_000, "{plays} plays compared");
    assert!(
        without_keys > compared / 2 && without_keys < compared,
        "{without_keys} of {compared} rolls without keys"
    );
}
