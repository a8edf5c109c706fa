//! Rule tests: each names the STO rule it checks.

use super::rules::{DealStep, StortokAction};
use super::*;
use crate::conformance::check_random_games;
use crate::game::{GameState, Notation, Turn, Viewer};
use crate::options::Options;

pub(super) fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|e| panic!("{c}: {e}")))
        .collect()
}

pub(super) fn mask(text: &str) -> u64 {
    cards::mask_of(&cards(text))
}

pub(super) fn card(text: &str) -> Card {
    text.parse().unwrap()
}

pub(super) fn new_game(version: &str, players: usize) -> StortokState {
    Stortok {
        version: Version::from_name(version).unwrap(),
        players: players as u8,
        cap: DEFAULT_CAP,
    }
    .initial_state()
}

/// Deals these hands (seat order) and turned card, card by card in the
/// deal's own order (36-card versions).
fn deal(version: &str, hands: &[&str], turned: &str) -> StortokState {
    let mut s = new_game(version, hands.len());
    let mut lists: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    for l in &mut lists {
        l.reverse();
    }
    while s.phase() == Phase::Deal {
        let c = match s.deal_step() {
            DealStep::Hand(p) | DealStep::FaceUp(p) => lists[p as usize].pop().unwrap(),
            DealStep::Turn => card(turned),
        };
        s.try_apply(StortokAction::Chance(c)).unwrap();
    }
    s
}

/// A position in play: these hands, trumps from `turned`, empty stock and
/// table; every other card set aside.
fn position(version: &str, hands: &[&str], turned: &str, to_move: u8) -> StortokState {
    let mut s = new_game(version, hands.len());
    let mut all = 0;
    for (p, h) in hands.iter().enumerate() {
        s.hands[p] = mask(h);
        all |= s.hands[p];
    }
    s.turned = Some(card(turned));
    s.stock = 0;
    s.discards = s.version.deck() & !all;
    s.dealt = 52;
    s.phase = Phase::Play;
    s.to_move = to_move;
    s
}

/// Applies an action written in notation, panicking if it is refused.
fn act(s: &mut StortokState, text: &str) {
    let a = s
        .parse_action(text)
        .unwrap_or_else(|e| panic!("`{text}`: {e}"));
    s.try_apply(a).unwrap_or_else(|e| panic!("`{text}`: {e}"));
}

/// Draws the lowest card chance offers (the test's "top of the stock").
fn draw(s: &mut StortokState) -> Card {
    assert_eq!(s.phase(), Phase::Draw);
    let mut out = Vec::new();
    s.chance_outcomes(&mut out);
    let StortokAction::Chance(c) = out[0].0 else {
        unreachable!()
    };
    s.apply(out[0].0);
    c
}

fn legal(s: &StortokState) -> Vec<String> {
    let mut out = Vec::new();
    s.legal_actions(&mut out);
    out.into_iter().map(|a| s.format_action(a)).collect()
}

fn sizes(s: &StortokState) -> Vec<u32> {
    (0..s.num_players())
        .map(|p| s.hand(p).count_ones())
        .collect()
}

// ---------------------------------------------------------------- STO-1

#[test]
fn sto_1_two_to_five_players_and_the_decks() {
    let specs = Stortok::option_specs();
    for bad in ["players=1", "players=6", "version=1900", "cap=3"] {
        assert!(Options::parse("stortok", specs, &[bad]).is_err(), "{bad}");
    }
    let mut out = Vec::new();
    for n in 2..=5 {
        for (v, size) in [
            ("1847", 36),
            ("1858", 52),
            ("schenkmanis", 36),
            ("helmfrid", 36),
        ] {
            let o = Options::parse(
                "stortok",
                specs,
                &[format!("players={n}"), format!("version={v}")],
            )
            .unwrap();
            let s = Stortok::from_options(&o).unwrap().initial_state();
            assert_eq!(s.num_players(), n);
            s.chance_outcomes(&mut out);
            assert_eq!(out.len(), size, "{v}");
            assert!(out.iter().all(|&(_, p)| p == 1.0 / size as f64));
        }
    }
    // The 36-card deck is 6..A in each suit.
    assert_eq!(DECK_36.count_ones(), 36);
    assert!(Cards(DECK_36).all(|c| c.rank() >= 6));
}

#[test]
fn sto_1_the_typed_api_brings_player_counts_into_range() {
    // STO-1 through the typed API (whose fields are public): no panic.
    for (asked, got) in [(0, 2), (1, 2), (7, 5), (200, 5)] {
        let s = Stortok {
            version: Version::Lindskog1847,
            players: asked,
            cap: DEFAULT_CAP,
        }
        .initial_state();
        assert_eq!(s.num_players(), got);
    }
    let s = new_game("1847", 3);
    assert_eq!((s.hand(9), s.known(9)), (0, 0));
}

#[test]
fn sto_1_ranks_ace_high_down_to_six() {
    let t = Trumps::from_turned(card("8S"));
    let order = cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H");
    for w in order.windows(2) {
        assert!(t.beats(w[0], w[1]), "{} beats {}", w[0], w[1]);
        assert!(!t.beats(w[1], w[0]), "{} does not beat {}", w[1], w[0]);
    }
    assert_eq!(card("TH"), card("10H"));
    assert_eq!(card("q♥"), card("QH"));
}

// ---------------------------------------------------------------- STO-2

#[test]
fn sto_2_turned_eight_of_spades_makes_spades_high_clubs_low() {
    // The worked example: 8♠ turned, spades high, clubs low.
    let s = deal("1847", &["6H 7H 8H 9H 10H", "6D 7D 8D 9D 10D"], "8S");
    let t = s.trumps().unwrap();
    assert_eq!((t.high, t.low()), (Suit::Spades, Suit::Clubs));
    let obs = s.observation(Viewer::Spectator);
    assert_eq!(obs.high_trump, Some(Suit::Spades));
    assert_eq!(obs.low_trump, Some(Suit::Clubs));
    // And the red pair.
    let t = Trumps::from_turned(card("8D"));
    assert_eq!((t.high, t.low()), (Suit::Diamonds, Suit::Hearts));
}

// ---------------------------------------------------------------- STO-3

#[test]
fn sto_3_beating_with_high_and_low_trumps() {
    let t = Trumps::from_turned(card("8S")); // spades high, clubs low
    let yes = [
        ("7H", "6H"), // higher of its own suit
        ("6C", "AH"), // plain by any low trump
        ("6S", "AD"), // plain by any high trump
        ("KC", "QC"), // low trump by a higher low trump
        ("6S", "AC"), // low trump by any high trump
        ("AS", "KS"), // high trump by a higher high trump
    ];
    for (c, top) in yes {
        assert!(t.beats(card(c), card(top)), "{c} beats {top}");
    }
    let no = [
        ("6H", "7H"), // lower of its suit
        ("AD", "6H"), // another plain suit
        ("AH", "6C"), // plain never beats a low trump
        ("AC", "6S"), // low trump never beats a high trump
        ("QS", "KS"), // lower high trump
        ("AC", "AC"), // not itself
    ];
    for (c, top) in no {
        assert!(!t.beats(card(c), card(top)), "{c} does not beat {top}");
    }
}

#[test]
fn sto_3_no_duty_to_follow_suit_and_always_may_decline() {
    // P0 leads 9H; P1 holds a higher heart and trumps and may use any, or take.
    let mut s = position("1847", &["9H 6D", "10H 6S 6C 7D"], "8S", 0);
    act(&mut s, "9H");
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(legal(&s), ["6C", "10H", "6S", "take"]);
    act(&mut s, "6C"); // a low trump, though he holds a heart
    assert_eq!(s.top(), Some(card("6C")));
    // Declining is allowed even when able to beat.
    let mut s = position("1847", &["9H 6D", "10H 6S"], "8S", 0);
    act(&mut s, "9H");
    act(&mut s, "take");
    assert_eq!(s.hand(1), mask("10H 6S 9H"));
    // A card that does not beat is refused, the state unchanged.
    let mut s = position("1847", &["9H 6D", "7D 6S"], "8S", 0);
    act(&mut s, "9H");
    let before = s;
    let err = s.try_apply(StortokAction::Play(card("7D"))).unwrap_err();
    assert!(err.to_string().contains("does not beat"), "{err}");
    assert_eq!(s, before);
}

// ---------------------------------------------------------------- STO-4

#[test]
fn sto_4_the_last_holder_is_the_stortok_at_once() {
    // P1 leads his last card: P0 alone holds cards, and the game ends at
    // once with that card unanswered.
    for v in ["1847", "schenkmanis", "helmfrid", "1858"] {
        let mut s = position(v, &["7H 8H", "6H"], "8S", 1);
        act(&mut s, "6H");
        assert_eq!(s.turn(), Turn::Over, "{v}");
        assert_eq!(s.loser(), Some(0), "{v}");
        assert_eq!(s.returns().as_slice(), [-1.0, 1.0]);
        let outcome = s.outcome().unwrap();
        assert_eq!(outcome.sole_loser(), Some(0));
        assert_eq!(outcome.ending(), crate::outcome::Ending::Stortok);
        assert!(s.events().iter().any(|e| e.contains("P0 is the stortok")));
    }
}

#[test]
fn sto_4_beating_with_the_last_card_leaves_the_other_holder_the_stortok() {
    // Three players: P2 leads, P0 beats with his last card, P1 and P2 still
    // hold cards and play on; then P2 beats with his last card and P1, the
    // only one left holding cards, loses without answering.
    let mut s = position("1858", &["7H", "9C 10C", "6H 8C"], "8S", 2);
    act(&mut s, "6H");
    act(&mut s, "7H");
    assert_eq!(s.turn(), Turn::Player(1), "P0 is out; the game goes on");
    act(&mut s, "take");
    assert_eq!(s.turn(), Turn::Player(2), "left of the picker (1858)");
    act(&mut s, "8C");
    assert_eq!(s.turn(), Turn::Over);
    assert_eq!(s.loser(), Some(1));
}

#[test]
fn sto_4_players_out_are_skipped_clockwise() {
    // P2 is out: after P1 plays, P0 answers; the trick is complete when P1
    // and P0 have played.
    let mut s = position("1847", &["7H 8H 9H", "6H 6D", ""], "8S", 1);
    act(&mut s, "6H");
    assert_eq!(s.turn(), Turn::Player(0));
    act(&mut s, "7H");
    assert_eq!(s.trick_start, 2, "trick complete, cards stay");
    assert_eq!(s.turn(), Turn::Player(0), "the last to play leads");
    assert!(s.leading());
}

#[test]
fn sto_4_lead_passes_clockwise_when_the_last_player_is_out() {
    // The trick is completed by P2's last card: P0, next in, leads.
    let mut s = position("1847", &["6H 9D", "7H 10D", "8H"], "8S", 0);
    act(&mut s, "6H");
    act(&mut s, "7H");
    act(&mut s, "8H");
    assert_eq!(s.hand(2), 0);
    assert!(s.events().iter().any(|e| e.contains("P2 has no cards")));
    assert_eq!(s.turn(), Turn::Player(0));
    assert!(s.leading());
}

// ---------------------------------------------------------------- STO-5

const HANDS_3: [&str; 3] = ["6H 7H 8H 9H AD", "6D 7D 8D 9D 10D", "JH QH KH AH JD"];

#[test]
fn sto_5_a_player_sees_his_hand_and_the_public_facts_only() {
    let s = deal("1847", &HANDS_3, "8S");
    let obs = s.observation(Viewer::Player(1));
    assert_eq!(obs.hand, Some(cards("6D 7D 8D 9D 10D")));
    assert_eq!(obs.hand_sizes, [5, 5, 5]);
    assert_eq!(obs.stock, 20);
    assert!(obs.turned_in_stock);
    assert_eq!(obs.turned, Some(card("8S")));
    assert!(obs.known.iter().all(|k| k.is_empty()));
    let json = serde_json::to_string(&obs).unwrap();
    for c in cards(HANDS_3[0]).into_iter().chain(cards(HANDS_3[2])) {
        assert!(!json.contains(&format!("\"{c}\"")), "{c} leaked: {json}");
    }
    for c in Cards(s.stock()) {
        assert!(!json.contains(&format!("\"{c}\"")), "stock {c} leaked");
    }
    let spectator = s.observation(Viewer::Spectator);
    assert_eq!(spectator.hand, None);
}

#[test]
fn sto_5_cards_picked_up_are_seen_by_all() {
    let mut s = deal("1847", &HANDS_3, "8S");
    act(&mut s, "6D");
    draw(&mut s);
    act(&mut s, "JD");
    draw(&mut s);
    act(&mut s, "take"); // P0 could beat JD with AD but declines (STO-3)
    for v in [Viewer::Player(1), Viewer::Player(2), Viewer::Spectator] {
        assert_eq!(s.observation(v).known[0], cards("6D JD"), "{v:?}");
    }
    // Once he plays one, it is on the table and no longer "known in hand".
    let mut s = position("1858", &["6H 7D", "7H 5H 9D"], "8S", 0);
    act(&mut s, "6H");
    act(&mut s, "7H");
    act(&mut s, "take");
    assert_eq!(s.observation(Viewer::Player(1)).known[0], cards("6H 7H"));
    act(&mut s, "5H");
    act(&mut s, "6H");
    assert_eq!(s.observation(Viewer::Player(1)).known[0], cards("7H"));
}

// ---------------------------------------------------------------- STO-6

#[test]
fn sto_6_deal_1847_three_then_two_from_forehand_trump_under_stock() {
    let mut s = new_game("1847", 3);
    let mut order = Vec::new();
    while let DealStep::Hand(p) = s.deal_step() {
        order.push(p);
        let a = s.sample_chance(&mut crate::rng::seeded(order.len() as u64));
        s.apply(a);
    }
    assert_eq!(order, [1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 2, 2, 0, 0]);
    assert_eq!(s.deal_step(), DealStep::Turn);
    assert_eq!(
        s.format_action(StortokAction::Chance(card("8S"))),
        "turn 8S"
    );
    let s = deal("1847", &HANDS_3, "8S");
    assert_eq!(sizes(&s), [5, 5, 5]);
    assert!(s.turned_in_stock());
    assert_eq!(s.stock().count_ones(), 20);
    assert_eq!(s.stock_len(), 21);
    assert!(s.table().is_empty());
}

#[test]
fn sto_6_the_turned_card_is_drawn_last() {
    let mut s = deal("1847", &["6H 7H 8H 9H 10H", "6D 7D 8D 9D 10D"], "8S");
    let mut out = Vec::new();
    let mut last_draw = None;
    while s.stock_len() > 0 {
        match s.phase() {
            Phase::Draw => {
                s.chance_outcomes(&mut out);
                if s.stock() != 0 {
                    assert!(out.iter().all(|o| o.0 != StortokAction::Chance(card("8S"))));
                } else {
                    assert_eq!(out, [(StortokAction::Chance(card("8S")), 1.0)]);
                }
                last_draw = Some(draw(&mut s));
            }
            _ => {
                let mut acts = Vec::new();
                s.legal_actions(&mut acts);
                s.apply(acts[0]);
            }
        }
    }
    assert_eq!(last_draw, Some(card("8S")));
    assert!(!s.turned_in_stock());
    // Everyone saw who took it.
    let holder = (0..2).find(|&p| s.hand(p) & card("8S").bit() != 0);
    if let Some(p) = holder {
        assert_ne!(s.known(p) & card("8S").bit(), 0);
    }
}

// ---------------------------------------------------------------- STO-7

#[test]
fn sto_7_forehand_leads_and_completed_tricks_stay_on_the_table() {
    let mut s = deal("1847", &HANDS_3, "8S");
    assert_eq!(s.turn(), Turn::Player(1), "forehand leads");
    assert_eq!(legal(&s).len(), 5, "any card, no pick-up");
    act(&mut s, "6D");
    draw(&mut s);
    assert_eq!(s.turn(), Turn::Player(2));
    act(&mut s, "JD");
    draw(&mut s);
    act(&mut s, "AD");
    draw(&mut s);
    assert_eq!(s.table(), cards("6D JD AD"), "the trick stays");
    assert_eq!(s.trick_start, 3);
    assert_eq!(s.turn(), Turn::Player(0), "the last to play leads");
    assert!(s.leading());
    assert!(!legal(&s).contains(&"take".to_string()));
    act(&mut s, "6H"); // any card, on top of the old trick
    draw(&mut s);
    assert_eq!(s.trick(), cards("6H"));
}

// ---------------------------------------------------------------- STO-8

#[test]
fn sto_8_pick_up_the_whole_pile_then_the_last_player_leads() {
    let mut s = deal("1847", &HANDS_3, "8S");
    for a in ["6D", "JD", "AD", "6H"] {
        act(&mut s, a);
        draw(&mut s);
    }
    assert_eq!(s.turn(), Turn::Player(1));
    let stock = s.stock_len();
    let before = s.hand(1);
    act(&mut s, "take");
    assert_eq!(s.hand(1), before | mask("6D JD AD 6H"), "the whole pile");
    assert!(s.table().is_empty());
    assert_eq!(s.stock_len(), stock, "picking up draws nothing");
    assert_eq!(
        s.turn(),
        Turn::Player(0),
        "the player who played last leads"
    );
    assert!(s.leading());
    act(&mut s, "7H");
    draw(&mut s);
    assert_eq!(s.turn(), Turn::Player(1), "the picker plays second");
}

#[test]
fn sto_8_when_the_last_player_is_out_the_lead_goes_to_the_pickers_right() {
    // P2 beats with his last card and P0 picks up; P2, who played the top
    // card, is out, so the nearest player still in to P0's right (P1)
    // leads, and the picker still plays second.
    let mut s = position("1847", &["KH QH", "6D 7D 8D", "7C"], "8S", 1);
    act(&mut s, "6D");
    act(&mut s, "7C");
    assert_eq!(legal(&s), ["take"]);
    act(&mut s, "take");
    assert_eq!(s.turn(), Turn::Player(1), "not the picker himself");
    assert!(s.leading());
    act(&mut s, "7D");
    assert_eq!(s.turn(), Turn::Player(0), "the picker plays second");
    // Four players, two out to the picker's right: the lead skips them
    // counter-clockwise (P3 out, P2 out) to P1.
    let mut s = position("1847", &["KH QH", "6D 7D 8D", "", "7C"], "8S", 1);
    act(&mut s, "6D");
    act(&mut s, "7C");
    act(&mut s, "take");
    assert_eq!(s.turn(), Turn::Player(1));
    act(&mut s, "7D");
    assert_eq!(s.turn(), Turn::Player(0), "the picker plays second");
}

#[test]
fn sto_5_a_drawn_card_is_told_to_its_drawer_alone() {
    let mut s = deal("1847", &HANDS_3, "8S");
    act(&mut s, "6D");
    let c = draw(&mut s);
    assert_eq!(
        s.private_events(Viewer::Player(1)),
        [format!("you drew {c}")]
    );
    for v in [Viewer::Player(0), Viewer::Player(2), Viewer::Spectator] {
        assert!(s.private_events(v).is_empty());
    }
    assert!(s.events().iter().all(|e| !e.contains(&c.to_string())));
}

// ---------------------------------------------------------------- STO-9

#[test]
fn sto_9_draw_after_each_card_while_the_stock_lasts() {
    let mut s = deal("1847", &HANDS_3, "8S");
    act(&mut s, "6D");
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(s.phase(), Phase::Draw);
    assert_eq!(s.hand(1).count_ones(), 4);
    assert_eq!(
        s.format_action(StortokAction::Chance(card("6C"))),
        "draw 6C"
    );
    draw(&mut s);
    assert_eq!(s.hand(1).count_ones(), 5);
    assert_eq!(s.stock_len(), 20);
    // When the stock is gone, play goes on from the hands: they shrink.
    let mut s = position("1847", &["9H 6D", "10H 6S"], "8S", 0);
    act(&mut s, "9H");
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(s.hand(0).count_ones(), 1);
}

// ---------------------------------------------------------------- STO-10

#[test]
fn sto_10_deal_1858_all_52_last_card_face_up() {
    let mut s = new_game("1858", 3);
    let mut rng = crate::rng::seeded(5);
    let mut order = Vec::new();
    let mut written = Vec::new();
    while s.phase() == Phase::Deal {
        order.push(s.deal_step());
        let a = s.sample_chance(&mut rng);
        written.push(s.format_action(a));
        assert_eq!(s.parse_action(&written[written.len() - 1]), Ok(a));
        s.apply(a);
    }
    // The trump card is written `turn`, as the docs write it; the rest `deal`.
    assert!(written[51].starts_with("turn "), "{}", written[51]);
    assert!(written[..51].iter().all(|w| w.starts_with("deal ")));
    let hand = |p| DealStep::Hand(p);
    assert_eq!(
        order[..12],
        [1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 2, 0].map(hand),
        "3 each, then one at a time"
    );
    assert_eq!(order.len(), 52);
    assert_eq!(order[51], DealStep::FaceUp(1));
    assert_eq!(sizes(&s), [17, 18, 17]);
    let turned = s.turned().unwrap();
    assert_ne!(s.hand(1) & turned.bit(), 0, "joins its receiver's hand");
    for v in [Viewer::Player(0), Viewer::Player(2), Viewer::Spectator] {
        assert_eq!(s.observation(v).known[1], [turned], "seen by all");
    }
    assert_eq!(s.stock_len(), 0, "no stock");
}

// ---------------------------------------------------------------- STO-11

#[test]
fn sto_11_1858_dealer_leads_no_tricks_next_after_picker_leads() {
    let mut s = new_game("1858", 3);
    let mut rng = crate::rng::seeded(9);
    while s.phase() == Phase::Deal {
        let a = s.sample_chance(&mut rng);
        s.apply(a);
    }
    assert_eq!(s.turn(), Turn::Player(0), "the dealer starts the pile");
    assert!(s.leading());
    // No tricks: after everyone has played, the first player beats again.
    let mut s = position("1858", &["6H 10H 6D", "7H", "8H 9H"], "8S", 0);
    act(&mut s, "6H");
    act(&mut s, "7H"); // P1 out
    act(&mut s, "8H");
    assert_eq!(s.turn(), Turn::Player(0));
    assert!(!s.leading(), "no trick ends: beat 8H or pick up");
    act(&mut s, "10H");
    act(&mut s, "take");
    assert_eq!(s.hand(2), mask("9H 6H 7H 8H 10H"), "the whole pile");
    assert_eq!(s.turn(), Turn::Player(0), "next clockwise from the picker");
    assert!(s.leading());
}

// ---------------------------------------------------------------- STO-12

#[test]
fn sto_12_schenkmanis_turned_card_opens_the_first_trick() {
    let mut s = deal("schenkmanis", &["6H 7H 8H 9H 10H", "6D 7D 8D 9D 9S"], "8S");
    assert_eq!(s.table(), [card("8S")]);
    assert!(!s.turned_in_stock());
    assert_eq!(s.stock_len(), 36 - 10 - 1);
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(
        legal(&s),
        ["9S", "take"],
        "beat the trump card or pick it up"
    );
    act(&mut s, "take");
    assert_eq!(s.known(1), mask("8S"));
    assert_eq!(
        s.turn(),
        Turn::Player(0),
        "the player left of the picker leads"
    );
    assert!(s.leading());
    // Or beat it: then the dealer beats too, completing the first trick.
    let mut s = deal("schenkmanis", &["6H 7H 8H 9H 10S", "6D 7D 8D 9D 9S"], "8S");
    act(&mut s, "9S");
    draw(&mut s);
    assert_eq!(s.turn(), Turn::Player(0));
    act(&mut s, "10S");
    draw(&mut s);
    assert!(s.table().is_empty());
    assert_eq!(s.discards(), mask("8S 9S 10S"));
    assert_eq!(s.turn(), Turn::Player(0));
}

// ---------------------------------------------------------------- STO-13

#[test]
fn sto_13_completed_tricks_are_set_aside() {
    for v in ["schenkmanis", "helmfrid"] {
        let mut s = position(v, &["6H 9D", "7H 10D"], "8S", 0);
        s.discards = 0;
        act(&mut s, "6H");
        act(&mut s, "7H");
        assert!(s.table().is_empty(), "{v}");
        assert_eq!(s.discards(), mask("6H 7H"));
        assert!(s.events().iter().any(|e| e.contains("set aside")));
        assert_eq!(s.turn(), Turn::Player(1), "the trick's winner leads");
    }
}

// ---------------------------------------------------------------- STO-14

#[test]
fn sto_14_pick_up_only_the_top_card_the_picker_plays_last() {
    for v in ["schenkmanis", "helmfrid"] {
        let mut s = position(v, &["6D 7D", "6H 9D", "7H 10D JD"], "8S", 1);
        s.discards = 0;
        act(&mut s, "6H");
        act(&mut s, "7H");
        act(&mut s, "take");
        assert_eq!(s.hand(0), mask("6D 7D 7H"), "{v}: only the top card");
        assert_eq!(s.discards(), mask("6H"), "the rest is set aside");
        assert!(s.table().is_empty());
        assert_eq!(s.turn(), Turn::Player(1), "left of the picker leads");
        act(&mut s, "9D");
        assert_eq!(s.turn(), Turn::Player(2));
        act(&mut s, "10D");
        assert_eq!(s.turn(), Turn::Player(0), "the picker plays last");
    }
}

// ---------------------------------------------------------------- STO-15

#[test]
fn sto_15_helmfrid_starts_as_1847() {
    let s = deal("helmfrid", &["6H 7H 8H 9H 10H", "6D 7D 8D 9D 9S"], "8S");
    assert!(s.turned_in_stock(), "the turned card lies under the stock");
    assert!(s.table().is_empty());
    assert_eq!(s.stock_len(), 26);
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!(legal(&s).len(), 5, "forehand leads any card");
}

// ---------------------------------------------------------------- STO-16

#[test]
fn sto_16_the_stortok_gets_minus_one_the_others_share_plus_one() {
    // Every player count, the stortok in every seat: seat k holds 7H 8H,
    // the next seat leads its last card 6H and k, alone with cards, is the
    // stortok at once (STO-4).
    for n in 2..=5usize {
        for k in 0..n {
            let next = (k + 1) % n;
            let mut hands = vec![""; n];
            hands[k] = "7H 8H";
            hands[next] = "6H";
            let mut s = position("1858", &hands, "8S", next as u8);
            assert_eq!(s.returns().as_slice(), vec![0.0; n], "not over yet");
            act(&mut s, "6H");
            assert_eq!(s.turn(), Turn::Over);
            assert_eq!(s.loser(), Some(k));
            let r = s.returns();
            for p in 0..n {
                let want = if p == k { -1.0 } else { 1.0 / (n - 1) as f64 };
                assert_eq!(r.get(p), want, "n={n}, stortok {k}, seat {p}");
            }
            assert!(r.as_slice().iter().sum::<f64>().abs() < 1e-12);
        }
    }
}

#[test]
fn sto_16_no_stortok_gives_zero_to_all() {
    for n in 2..=5usize {
        // The safety cap: the next turn reaches it, with cards in every hand.
        let mut hands = vec!["9C 10C"; n];
        hands[0] = "7H 8H 9H";
        hands[1] = "6H 6D";
        let mut s = position("1858", &hands, "8S", 1);
        s.cap = 1;
        act(&mut s, "6H");
        assert_eq!(s.turn(), Turn::Over);
        assert!(s.capped());
        assert_eq!(s.plies(), 1);
        assert_eq!(s.loser(), None);
        assert_eq!(s.returns().as_slice(), vec![0.0; n]);
        assert!(s.events().iter().any(|e| e.contains("safety cap")));
    }
    // And through the options: random 1858 play cannot finish in 50 turns.
    let o = Options::parse(
        "stortok",
        Stortok::option_specs(),
        &["version=1858", "cap=50"],
    )
    .unwrap();
    let mut s = Stortok::from_options(&o).unwrap().initial_state();
    crate::playout::Playout::default()
        .run(&mut s, &mut crate::rng::seeded(3), |_, _| {})
        .expect("the game ends");
    assert!(s.capped());
    assert_eq!(s.plies(), 50);
    assert_eq!(s.loser(), None);
    assert_eq!(s.returns().as_slice(), [0.0; 3]);
}

// ---------------------------------------------------------- conformance

#[test]
fn random_games_conform_every_version_and_player_count() {
    for v in ["1847", "schenkmanis", "helmfrid"] {
        for n in 2..=5 {
            let (pv, pn) = (format!("version={v}"), format!("players={n}"));
            let s = check_random_games::<Stortok>(&[&pv, &pn], 12, n as u64, |_| {});
            assert_eq!(s.games, 12);
        }
    }
    for n in 2..=5 {
        let pn = format!("players={n}");
        check_random_games::<Stortok>(&["version=1858", &pn, "cap=400"], 6, 1, |_| {});
    }
}

#[test]
fn notation_reads_naturally() {
    let s = deal("1847", &HANDS_3, "8S");
    for (text, want) in [
        ("6d", StortokAction::Play(card("6D"))),
        ("play 10D", StortokAction::Play(card("10D"))),
        ("T♦", StortokAction::Play(card("10D"))),
        ("take", StortokAction::PickUp),
        ("Pick up", StortokAction::PickUp),
        ("draw 6C", StortokAction::Chance(card("6C"))),
    ] {
        assert_eq!(s.parse_action(text), Ok(want), "{text}");
    }
    for bad in ["", "11H", "6X", "play", "deal", "zz"] {
        assert!(s.parse_action(bad).is_err(), "{bad}");
    }
    let mut t = s;
    let err = t.try_apply(StortokAction::Play(card("AS"))).unwrap_err();
    assert!(err.to_string().contains("does not hold"), "{err}");
    assert_eq!(t, s);
    assert!(
        t.try_apply(StortokAction::PickUp).is_err(),
        "nothing to pick up"
    );
    assert!(t.try_apply(StortokAction::Chance(card("6C"))).is_err());
}

#[test]
fn render_shows_own_hand_by_suit_with_trumps_marked() {
    let mut s = deal(
        "1847",
        &["6H 7H 8H 9H 10S", "6D 7D 8D 9D 10D", "JH QH KH 7C JD"],
        "8S",
    );
    act(&mut s, "6D");
    let text = s.render(Viewer::Player(2), false);
    assert!(text.contains("Your hand (P2)"), "{text}");
    assert!(text.contains("♣ clubs (low trump)"), "{text}");
    assert!(text.contains("♥ hearts                 K♥ Q♥ J♥"), "{text}");
    assert!(text.contains("high, ♣ low"), "{text}");
    assert!(text.contains("6♦"), "the table: {text}");
    assert!(!text.contains("10♠"), "P0's card is hidden: {text}");
    let spectator = s.render(Viewer::Spectator, true);
    assert!(!spectator.contains("Your hand"));
    // Trumps come first in the hand.
    let p0 = s.render(Viewer::Player(0), false);
    let spade = p0.find("♠ spades (high trump)").unwrap();
    assert!(spade < p0.find("♥ hearts").unwrap(), "{p0}");
}

/// Positions of random games (every version, 2 to 5 players, hidden cards
/// included, games stopped by a low cap too) read back from their text and
/// their JSON as equal states.
#[test]
fn positions_round_trip_through_text_and_json() {
    for (i, version) in Version::NAMES.iter().enumerate() {
        for players in 2..=5 {
            let options = [
                format!("version={version}"),
                format!("players={players}"),
                "cap=300".into(),
            ];
            let options: Vec<&str> = options.iter().map(String::as_str).collect();
            let seed = 100 * i as u64 + players as u64;
            crate::conformance::check_position_round_trips::<Stortok>(&options, 1, seed);
        }
    }
}

fn position_error(text: &str) -> crate::PositionError {
    match text.parse::<StortokState>() {
        Err(crate::Error::BadPosition { reason, .. }) => reason,
        other => panic!("`{text}` gave {other:?}"),
    }
}

#[test]
fn sto_4_a_position_in_play_as_text() {
    // Two hands, nothing else left: seat 1 leads.
    let text = "AS/6H,7H - play 1 turned=8S discarded=6C,7C,8C,9C,10C,JC,QC,KC,AC,\
                6D,7D,8D,9D,10D,JD,QD,KD,AD,8H,9H,10H,JH,QH,KH,AH,6S,7S,8S,9S,10S,JS,QS,KS \
                dealt=11 players=2";
    let s: StortokState = text.parse().unwrap();
    assert_eq!(s.to_string(), text);
    assert_eq!(legal(&s), ["6H", "7H"]);
    // the same card in two hands, a hand too many, a card not in the deck
    use crate::PositionError::*;
    assert!(matches!(
        position_error(&text.replace("AS/6H", "AS/AS,6H")),
        Overlap(_)
    ));
    assert!(matches!(
        position_error(&text.replace("AS/6H,7H", "AS/6H/7H")),
        Size {
            what: "hands",
            expected: 2,
            found: 3
        }
    ));
    assert!(matches!(
        position_error(&text.replace("AS/6H", "AS,2S/6H")),
        Inconsistent(_)
    ));
    assert!(matches!(
        position_error(&text.replace("AS/6H", "AX/6H")),
        Unreadable { field: "hands", .. }
    ));
    // the game is over with two holders
    assert!(matches!(
        position_error(&text.replace(" play ", " over ")),
        Inconsistent(_)
    ));
}
