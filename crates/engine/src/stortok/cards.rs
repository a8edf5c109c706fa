//! Cards, suits, card sets as bitmasks, and the beating relation (STO-1..STO-3).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A suit. Clubs and spades are black, diamonds and hearts are red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// ♣
    #[serde(rename = "C")]
    Clubs = 0,
    /// ♦
    #[serde(rename = "D")]
    Diamonds = 1,
    /// ♥
    #[serde(rename = "H")]
    Hearts = 2,
    /// ♠
    #[serde(rename = "S")]
    Spades = 3,
}

impl Suit {
    /// The four suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's index, 0..4.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit with this index (taken modulo 4).
    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i % 4]
    }

    /// The other suit of the same colour (STO-2): clubs and spades, diamonds
    /// and hearts.
    pub const fn partner(self) -> Suit {
        Suit::from_index(3 - self.index())
    }

    /// Whether the suit is red.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// The letter used in notation: C, D, H or S.
    pub const fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self.index()]
    }

    /// The suit symbol: ♣ ♦ ♥ ♠.
    pub const fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self.index()]
    }

    /// The suit's English name.
    pub const fn name(self) -> &'static str {
        ["clubs", "diamonds", "hearts", "spades"][self.index()]
    }

    /// Reads a suit letter or symbol (either case; outline symbols too).
    pub fn parse(c: char) -> Option<Suit> {
        Some(match c.to_ascii_uppercase() {
            'C' | '♣' | '♧' => Suit::Clubs,
            'D' | '♦' | '♢' => Suit::Diamonds,
            'H' | '♥' | '♡' => Suit::Hearts,
            'S' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }

    /// Every card of this suit in the 52-card deck.
    pub const fn mask(self) -> u64 {
        0x1FFF << (13 * self.index())
    }
}

/// A card: bit `13 * suit + (rank - 2)` of a card set. Ranks run from 2 to
/// 14 (11 jack, 12 queen, 13 king, 14 ace); the ace is high (STO-1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

impl Card {
    /// The card of this suit and rank (2..=14).
    pub const fn new(suit: Suit, rank: u8) -> Card {
        Card(suit as u8 * 13 + rank - 2)
    }

    /// The card with this bit index (0..52).
    pub const fn from_index(index: u8) -> Card {
        Card(index)
    }

    /// The card's bit index, 0..52.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card as a one-card set.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 as usize / 13)
    }

    /// The card's rank, 2..=14 (ace high).
    pub const fn rank(self) -> u8 {
        self.0 % 13 + 2
    }

    /// The rank as written: 2..10, J, Q, K, A.
    pub const fn rank_text(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
        ][(self.0 % 13) as usize]
    }

    /// The card with its suit symbol, e.g. `10♠`.
    pub fn pretty(self) -> String {
        format!("{}{}", self.rank_text(), self.suit().symbol())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank_text(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = String;

    /// Reads `10S`, `TS`, `ts`, `10♠`, `A♥`, `qd`: a rank then a suit.
    fn from_str(text: &str) -> Result<Card, String> {
        let t = text.trim();
        let mut chars: Vec<char> = t.chars().collect();
        let suit_char = chars
            .pop()
            .ok_or_else(|| "a card is a rank and a suit, e.g. 10S or Q♥".to_string())?;
        let suit = Suit::parse(suit_char)
            .ok_or_else(|| format!("`{suit_char}` is not a suit (C, D, H, S or ♣ ♦ ♥ ♠)"))?;
        let rank_text: String = chars.into_iter().collect::<String>().to_ascii_uppercase();
        let rank = match rank_text.as_str() {
            "A" => 14,
            "K" => 13,
            "Q" => 12,
            "J" => 11,
            "T" => 10,
            r => match r.parse::<u8>() {
                Ok(v) if (2..=10).contains(&v) => v,
                _ => return Err(format!("`{rank_text}` is not a rank (2..10, J, Q, K, A)")),
            },
        };
        Ok(Card::new(suit, rank))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The 52-card deck as a set.
pub const DECK_52: u64 = (1 << 52) - 1;

/// The 36-card deck (6 to ace in each suit) as a set.
pub const DECK_36: u64 = {
    let mut mask = 0;
    let mut s = 0;
    while s < 4 {
        mask |= 0x1FF0 << (13 * s);
        s += 1;
    }
    mask
};

/// The cards of a set, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Cards(pub u64);

impl Iterator for Cards {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cards {}

/// A set of cards from a list.
pub fn mask_of(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | c.bit())
}

/// The `k`-th lowest card of a non-empty set (`k < count`).
pub fn nth_card(mut mask: u64, k: u32) -> Card {
    for _ in 0..k {
        mask &= mask - 1;
    }
    Card(mask.trailing_zeros() as u8)
}

/// What a card is in a deal: plain, low trump or high trump (STO-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Not a trump.
    Plain,
    /// Of the low trump suit.
    LowTrump,
    /// Of the high trump suit.
    HighTrump,
}

/// The two trump suits of a deal, fixed by the turned card (STO-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trumps {
    /// The turned card's suit.
    pub high: Suit,
}

impl Trumps {
    /// The trumps a turned card gives: its suit high, the other suit of its
    /// colour low.
    pub const fn from_turned(card: Card) -> Trumps {
        Trumps { high: card.suit() }
    }

    /// The low trump suit.
    pub const fn low(self) -> Suit {
        self.high.partner()
    }

    /// Whether a card is plain, a low trump or a high trump.
    pub const fn kind(self, card: Card) -> Kind {
        let s = card.suit();
        if s as u8 == self.high as u8 {
            Kind::HighTrump
        } else if s as u8 == self.low() as u8 {
            Kind::LowTrump
        } else {
            Kind::Plain
        }
    }

    /// Every card (of the 52) that beats `top` (STO-3): a higher card of its
    /// suit; for a plain card also any trump; for a low trump also any high
    /// trump; a high trump only by a higher high trump.
    pub const fn beaters(self, top: Card) -> u64 {
        let higher = top.suit().mask() & (u64::MAX << (top.0 + 1));
        match self.kind(top) {
            Kind::Plain => higher | self.high.mask() | self.low().mask(),
            Kind::LowTrump => higher | self.high.mask(),
            Kind::HighTrump => higher,
        }
    }

    /// Whether `card` beats `top`.
    pub const fn beats(self, card: Card, top: Card) -> bool {
        self.beaters(top) & card.bit() != 0
    }
}
