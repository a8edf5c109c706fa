//! What each viewer sees (STO-5), the full state for records, and the
//! information-set sampler that deals unseen cards from one observation.

use super::cards::{Card, Cards, Suit, mask_of};
use super::{Phase, StortokState, Version};
use crate::game::{GameState, MAX_PLAYERS, Player, Viewer};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// What one viewer may see (STO-5): his own hand (players only), the table,
/// the turned trump, the stock's size, every hand's size, and the cards each
/// player is publicly known to hold (seen picked up, or the face-up trump
/// taken into the hand). Never another hand or the stock.
///
/// It holds every public fact of the state, so that
/// [`StortokObservation::sample_state`] can rebuild a full state from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StortokObservation {
    /// The game's id, `stortok`.
    pub game: String,
    /// The version played.
    pub version: Version,
    /// Number of players.
    pub players: u8,
    /// The safety cap on player turns.
    pub cap: u32,
    /// Player turns so far.
    pub plies: u32,
    /// Who this observation is for.
    pub viewer: Viewer,
    /// The phase: deal, draw, play or over.
    pub phase: Phase,
    /// The player to act; during a draw, the player who draws.
    pub to_move: u8,
    /// The player to act after the draw.
    pub after_draw: u8,
    /// Cards dealt so far (the turned card included).
    pub dealt: u8,
    /// The turned card, which everyone saw.
    pub turned: Option<Card>,
    /// The high trump suit.
    pub high_trump: Option<Suit>,
    /// The low trump suit.
    pub low_trump: Option<Suit>,
    /// Whether the turned card still lies under the stock, to be drawn last.
    pub turned_in_stock: bool,
    /// Face-down cards in the stock (undealt cards during the deal), not
    /// counting the turned card beneath it.
    pub stock: u8,
    /// Cards in each player's hand.
    pub hand_sizes: Vec<u8>,
    /// The viewer's own hand, sorted (none for a spectator).
    pub hand: Option<Vec<Card>>,
    /// Per player, the cards everyone knows are in that hand: those he was
    /// seen to pick up (and the face-up trump he took), not yet played.
    pub known: Vec<Vec<Card>>,
    /// The table, bottom card first.
    pub table: Vec<Card>,
    /// Where the current trick starts in `table`.
    pub trick_start: u8,
    /// Seats that have played to the current trick.
    pub trick_played: Vec<u8>,
    /// Who played the top card of the table.
    pub last: Option<u8>,
    /// Cards set aside, out of play (Schenkmanis, Helmfrid).
    pub discarded: Vec<Card>,
    /// The stortok, when the game is over with a loser.
    pub loser: Option<u8>,
    /// Whether the game stopped at the safety cap.
    pub capped: bool,
}

fn list(mask: u64) -> Vec<Card> {
    Cards(mask).collect()
}

impl StortokObservation {
    /// The observation of `state` by `viewer`.
    pub fn of(s: &StortokState, viewer: Viewer) -> Self {
        let n = s.n as usize;
        let trumps = s.trumps();
        StortokObservation {
            game: "stortok".into(),
            version: s.version,
            players: s.n,
            cap: s.cap,
            plies: s.plies,
            viewer,
            phase: s.phase,
            to_move: s.to_move,
            after_draw: s.after_draw,
            dealt: s.dealt,
            turned: s.turned,
            high_trump: trumps.map(|t| t.high),
            low_trump: trumps.map(|t| t.low()),
            turned_in_stock: s.turned_in_stock,
            stock: s.stock.count_ones() as u8,
            hand_sizes: (0..n).map(|p| s.hands[p].count_ones() as u8).collect(),
            hand: match viewer {
                Viewer::Player(p) if p < n => Some(list(s.hands[p])),
                _ => None,
            },
            known: (0..n).map(|p| list(s.known[p])).collect(),
            table: s.table().to_vec(),
            trick_start: s.trick_start,
            trick_played: (0..s.n)
                .filter(|p| s.trick_played & (1 << p) != 0)
                .collect(),
            last: s.last,
            discarded: list(s.discards),
            loser: s.loser,
            capped: s.capped,
        }
    }

    /// The viewing seat, if a player.
    pub fn seat(&self) -> Option<Player> {
        match self.viewer {
            Viewer::Player(p) => Some(p),
            Viewer::Spectator => None,
        }
    }

    /// The information-set sampler: a full state consistent with everything
    /// this observation shows, with the unseen cards (other players' unknown
    /// cards and the stock) dealt uniformly at random. It reads nothing but
    /// the observation, so an agent using it provably uses only what its
    /// viewer may see. `None` if the observation is not one the engine could
    /// have produced (e.g. a hand-edited JSON with overlapping cards, or a
    /// draw from an empty stock), so a state it returns can be played on.
    pub fn sample_state<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<StortokState> {
        let n = self.players as usize;
        if !(2..=MAX_PLAYERS).contains(&n)
            || self.hand_sizes.len() != n
            || self.known.len() != n
            || self.table.len() > 52
            || self.to_move as usize >= n
            || self.after_draw as usize >= n
            || self.trick_start as usize > self.table.len()
            || self.trick_played.iter().any(|&p| p as usize >= n)
            || self.last.is_some_and(|p| p as usize >= n)
            || self.loser.is_some_and(|p| p as usize >= n)
            || (self.phase == Phase::Deal) != self.turned.is_none()
        {
            return None;
        }
        let deck = self.version.deck();
        let mut seen = 0u64;
        let add = |m: u64, seen: &mut u64| -> Option<()> {
            if m & *seen != 0 || m & !deck != 0 {
                return None;
            }
            *seen |= m;
            Some(())
        };
        let own = self.hand.as_deref().map(mask_of);
        let seat = self.seat();
        if own.is_some() != seat.is_some_and(|p| p < n) {
            return None;
        }
        let mut known = [0u64; MAX_PLAYERS];
        for (q, cards) in self.known.iter().enumerate() {
            known[q] = mask_of(cards);
            add(known[q], &mut seen)?;
        }
        let table = mask_of(&self.table);
        if table.count_ones() as usize != self.table.len() {
            return None;
        }
        add(table, &mut seen)?;
        add(mask_of(&self.discarded), &mut seen)?;
        if self.turned_in_stock {
            add(self.turned?.bit(), &mut seen)?;
        }
        let mut hands = known;
        let mut need = [0u32; MAX_PLAYERS];
        for q in 0..n {
            let size = self.hand_sizes[q] as u32;
            match (seat, own) {
                (Some(p), Some(h)) if p == q => {
                    if h & known[q] != known[q] || h.count_ones() != size {
                        return None;
                    }
                    add(h & !known[q], &mut seen)?;
                    hands[q] = h;
                }
                _ => need[q] = size.checked_sub(known[q].count_ones())?,
            }
        }
        let unseen = deck & !seen;
        if unseen.count_ones() != need.iter().sum::<u32>() + self.stock as u32 {
            return None;
        }
        // Shuffle the unseen cards and deal them out.
        let mut pool: Vec<Card> = Cards(unseen).collect();
        let mut at = 0;
        for q in 0..n {
            for _ in 0..need[q] {
                let j = rng.random_range(at..pool.len());
                pool.swap(at, j);
                hands[q] |= pool[at].bit();
                at += 1;
            }
        }
        let stock = mask_of(&pool[at..]);
        let discards = mask_of(&self.discarded);
        let state = StortokState::from_parts(self, hands, known, stock, discards);
        // The state must be one the rules could reach, and show exactly
        // this observation (trumps, counts, lists in order, no duplicates).
        (state.is_consistent() && StortokObservation::of(&state, self.viewer) == *self)
            .then_some(state)
    }
}

/// Every fact of a state, hidden ones included: the state's JSON (records
/// and the server use it after the game; never shown to a player).
#[derive(Serialize)]
struct FullState {
    game: &'static str,
    version: Version,
    players: u8,
    cap: u32,
    plies: u32,
    phase: Phase,
    turn: crate::game::Turn,
    to_move: u8,
    after_draw: u8,
    dealt: u8,
    hands: Vec<Vec<Card>>,
    known: Vec<Vec<Card>>,
    stock: Vec<Card>,
    turned: Option<Card>,
    turned_in_stock: bool,
    table: Vec<Card>,
    trick_start: u8,
    trick_played: u8,
    last: Option<u8>,
    discarded: Vec<Card>,
    loser: Option<u8>,
    capped: bool,
    returns: Vec<f64>,
    position: String,
}

impl Serialize for StortokState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.n as usize;
        FullState {
            game: "stortok",
            version: self.version,
            players: self.n,
            cap: self.cap,
            plies: self.plies,
            phase: self.phase,
            turn: self.turn(),
            to_move: self.to_move,
            after_draw: self.after_draw,
            dealt: self.dealt,
            hands: (0..n).map(|p| list(self.hands[p])).collect(),
            known: (0..n).map(|p| list(self.known[p])).collect(),
            stock: list(self.stock),
            turned: self.turned,
            turned_in_stock: self.turned_in_stock,
            table: self.table().to_vec(),
            trick_start: self.trick_start,
            trick_played: self.trick_played,
            last: self.last,
            discarded: list(self.discards),
            loser: self.loser,
            capped: self.capped,
            returns: self.returns().as_slice().to_vec(),
            position: self.to_string(),
        }
        .serialize(s)
    }
}
