//! The table as one viewer sees it, as text: trumps, stock, table, players'
//! hand sizes and known cards, and the viewer's own hand by suit.

use super::cards::{Card, Cards, Kind, Suit, Trumps};
use super::rules::DealStep;
use super::{DEALER, Phase, StortokState, Version};
use crate::game::Viewer;
use std::fmt::Write;

fn paint(text: &str, code: &str, color: bool) -> String {
    if color && !code.is_empty() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A card with its suit symbol, red suits in red, trumps in bold.
fn card(c: Card, trumps: Option<Trumps>, color: bool) -> String {
    let code = match (c.suit().is_red(), trumps.map(|t| t.kind(c))) {
        (true, Some(Kind::HighTrump | Kind::LowTrump)) => "1;31",
        (true, _) => "31",
        (false, Some(Kind::HighTrump | Kind::LowTrump)) => "1",
        (false, _) => "",
    };
    paint(&c.pretty(), code, color)
}

fn cards(list: impl Iterator<Item = Card>, trumps: Option<Trumps>, color: bool) -> String {
    list.map(|c| card(c, trumps, color))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Suits in display order: high trump, low trump, then the others.
fn suit_order(trumps: Option<Trumps>) -> [Suit; 4] {
    match trumps {
        Some(t) => {
            let mut order = [t.high, t.low(), Suit::Hearts, Suit::Hearts];
            let mut i = 2;
            for s in [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs] {
                if s != t.high && s != t.low() {
                    order[i] = s;
                    i += 1;
                }
            }
            order
        }
        None => [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs],
    }
}

/// A hand sorted by suit (trumps first) and rank (high first), trumps marked.
pub(crate) fn hand_lines(hand: u64, trumps: Option<Trumps>, color: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for s in suit_order(trumps) {
        let in_suit = hand & s.mask();
        if in_suit == 0 {
            continue;
        }
        let label = match trumps.map(|t| t.kind(Card::new(s, 2))) {
            Some(Kind::HighTrump) => format!("{} {} (high trump)", s.symbol(), s.name()),
            Some(Kind::LowTrump) => format!("{} {} (low trump)", s.symbol(), s.name()),
            _ => format!("{} {}", s.symbol(), s.name()),
        };
        let mut ranks: Vec<Card> = Cards(in_suit).collect();
        ranks.reverse();
        lines.push(format!(
            "{label:<24} {}",
            cards(ranks.into_iter(), trumps, color)
        ));
    }
    lines
}

/// Draws the state for `viewer`: only what that viewer may see (STO-5).
pub(crate) fn render(s: &StortokState, viewer: Viewer, color: bool) -> String {
    let n = s.n as usize;
    let me = match viewer {
        Viewer::Player(p) if p < n => Some(p),
        _ => None,
    };
    let trumps = s.trumps();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — version {} — {} players — turn {} (safety cap {})",
        paint("Stortok", "1", color),
        s.version.name(),
        n,
        s.plies,
        s.cap
    );
    // Trumps and stock.
    match (s.turned, trumps) {
        (Some(t), Some(tr)) => {
            let place = if s.turned_in_stock {
                ", lying under the stock: drawn last"
            } else if s.version == Version::Oberg1858 {
                ", dealt face up"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "Trumps: {} high, {} low   (turned {}{place})",
                tr.high.symbol(),
                tr.low().symbol(),
                card(t, trumps, color)
            );
        }
        _ => {
            let _ = writeln!(out, "Trumps: not yet turned");
        }
    }
    if s.phase == Phase::Deal {
        let _ = writeln!(out, "Dealing: {} cards dealt so far", s.dealt);
    } else if s.version.has_stock() {
        let extra = if s.turned_in_stock {
            format!(
                " + the turned {}",
                card(s.turned.unwrap_or_default(), trumps, color)
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "Stock: {} face-down card(s){extra}",
            s.stock.count_ones()
        );
    }
    // The table.
    let table = s.table();
    if table.is_empty() {
        let _ = writeln!(out, "Table: empty");
    } else {
        let earlier = &table[..s.trick_start as usize];
        let trick = s.trick();
        if !earlier.is_empty() {
            let _ = writeln!(
                out,
                "Table, earlier tricks: {}",
                cards(earlier.iter().copied(), trumps, color)
            );
        }
        let who = s
            .last
            .map_or("turned card".to_string(), |p| format!("P{p}"));
        let label = if s.version.has_tricks() {
            "Trick"
        } else {
            "Pile"
        };
        let _ = writeln!(
            out,
            "{label}: {}   (top card by {who}; {} card(s) on the table)",
            cards(trick.iter().copied(), trumps, color),
            table.len()
        );
    }
    if s.discards != 0 {
        let _ = writeln!(out, "Set aside: {} card(s)", s.discards.count_ones());
    }
    // Players.
    let _ = writeln!(out, "Players:");
    for p in 0..n {
        let mark = if s.phase == Phase::Play && s.to_move as usize == p {
            ">"
        } else {
            " "
        };
        let mut name = format!("P{p}");
        if p == DEALER as usize {
            name.push_str(" dealer");
        }
        if me == Some(p) {
            name.push_str(" (you)");
        }
        let size = s.hands[p].count_ones();
        let status = if size == 0 && s.phase != Phase::Deal && s.stock_len() == 0 {
            "out".to_string()
        } else {
            format!("{size} card(s)")
        };
        let mut line = format!("{mark} {name:<16} {status}");
        if s.known[p] != 0 && me != Some(p) {
            let _ = write!(
                line,
                "   known: {}",
                cards(Cards(s.known[p]), trumps, color)
            );
        }
        let _ = writeln!(out, "{line}");
    }
    if let Some(p) = me {
        let _ = writeln!(out, "Your hand (P{p}):");
        let lines = hand_lines(s.hands[p], trumps, color);
        if lines.is_empty() {
            let _ = writeln!(out, "  (no cards)");
        }
        for l in lines {
            let _ = writeln!(out, "  {l}");
        }
    }
    // What happens next.
    let _ = writeln!(out, "{}", next_line(s, me));
    out
}

fn next_line(s: &StortokState, me: Option<usize>) -> String {
    let p = s.to_move as usize;
    let who = if me == Some(p) {
        "you".to_string()
    } else {
        format!("P{p}")
    };
    match s.phase {
        Phase::Deal => match s.deal_step() {
            DealStep::Turn => "Next: the trump card is turned".into(),
            DealStep::Hand(q) | DealStep::FaceUp(q) => format!("Next: a card is dealt to P{q}"),
        },
        Phase::Draw => format!("Next: P{p} draws from the stock"),
        Phase::Over => match s.loser {
            Some(l) => format!("Game over: P{l} is the stortok"),
            None => "Game over: the safety cap was reached; no loser".into(),
        },
        Phase::Play if s.leading() => {
            format!("To move: {who} — lead any card (type it as rank and suit letter: 10H, QS)")
        }
        Phase::Play => {
            let top = s.top().map(|c| c.pretty()).unwrap_or_default();
            let take = match (s.version.picks_whole_pile(), s.pile_len) {
                (true, 1) => "picks up the 1 card on the table".to_string(),
                (true, k) => format!("picks up the whole pile, {k} cards"),
                (false, _) => "picks up only the top card".into(),
            };
            format!("To move: {who} — beat {top} (type e.g. 10H, QS), or `take`: {take}")
        }
    }
}
