//! What every state the rules can reach satisfies. The information-set
//! sampler refuses anything else, so that a state it builds from an
//! observation (perhaps hand-edited JSON) can be played on without panics.

use super::cards::mask_of;
use super::rules::{DealStep, deal_len, deal_step, holders_single};
use super::{Phase, StortokState, Version};
use crate::game::MAX_PLAYERS;

impl StortokState {
    /// Whether the state is one the rules could have produced, as far as
    /// its parts show: every card in one place, the deal so far, and a
    /// phase that fits (a card for chance to give, a holder to play). Every
    /// reachable state passes (a property test checks it).
    pub(crate) fn is_consistent(&self) -> bool {
        let n = self.n as usize;
        if !(2..=MAX_PLAYERS).contains(&n) {
            return false;
        }
        let seat = |p: u8| (p as usize) < n;
        if !seat(self.to_move)
            || !seat(self.after_draw)
            || !self.last.is_none_or(seat)
            || !self.loser.is_none_or(seat)
            || self.trick_played >> n != 0
            || self.trick_start > self.pile_len
            || self.pile_len > 52
        {
            return false;
        }
        // Every card of the deck in exactly one place.
        let deck = self.version.deck();
        let table = mask_of(self.table());
        let turned_under = match (self.turned_in_stock, self.turned) {
            (true, Some(c)) => c.bit(),
            (true, None) => return false,
            (false, _) => 0,
        };
        let mut seen = 0u64;
        let hands = self.hands[..n].iter().copied();
        for part in hands.chain([self.stock, table, self.discards, turned_under]) {
            if part & seen != 0 || part & !deck != 0 {
                return false;
            }
            seen |= part;
        }
        if seen != deck
            || table.count_ones() != self.pile_len as u32
            || self.hands[n..]
                .iter()
                .chain(&self.known[n..])
                .any(|&h| h != 0)
            || (0..n).any(|p| self.known[p] & !self.hands[p] != 0)
        {
            return false;
        }
        // A resignation ends the game wherever it stood, the deal included.
        if self.resigned {
            return self.phase == Phase::Over && self.loser.is_some() && !self.capped;
        }
        if self.phase == Phase::Deal {
            return self.dealing_is_consistent();
        }
        // The deal is over: the trumps are turned.
        let Some(turned) = self.turned else {
            return false;
        };
        if self.dealt as usize != deal_len(self.version, n)
            || (!self.version.has_stock() && (self.stock != 0 || self.turned_in_stock))
            || (self.version == Version::Schenkmanis && self.turned_in_stock)
            || turned.bit() & deck == 0
            || (self.version.sets_tricks_aside() && self.trick_start != 0)
        {
            return false;
        }
        let holders = self.holders();
        // (A cap of 0 ends the game at the first player action.)
        let going = !self.capped && self.loser.is_none() && self.plies < self.cap.max(1);
        match self.phase {
            Phase::Deal => false,
            // A card to draw, for a player who played, and a holder after him.
            Phase::Draw => {
                going
                    && self.version.has_stock()
                    && self.stock_len() > 0
                    && holders & 1 << self.after_draw != 0
            }
            // The player to act holds cards, and so does another (STO-4).
            Phase::Play => going && holders & 1 << self.to_move != 0 && holders.count_ones() >= 2,
            // Over: at the cap with no loser, or the last holder loses (STO-4).
            Phase::Over => {
                if self.capped {
                    self.loser.is_none() && self.plies >= self.cap
                } else {
                    holders.count_ones() == 1 && self.loser == holders_single(holders)
                }
            }
        }
    }

    /// During the deal: nothing played, the hands as dealt so far, and a
    /// card left to deal.
    fn dealing_is_consistent(&self) -> bool {
        let n = self.n as usize;
        if self.turned.is_some()
            || self.turned_in_stock
            || self.pile_len != 0
            || self.discards != 0
            || self.known.iter().any(|&k| k != 0)
            || self.plies != 0
            || self.to_move != 0
            || self.after_draw != 0
            || self.last.is_some()
            || self.trick_played != 0
            || self.loser.is_some()
            || self.capped
            || self.dealt as usize >= deal_len(self.version, n)
        {
            return false;
        }
        let mut sizes = [0u32; MAX_PLAYERS];
        for k in 0..self.dealt as usize {
            match deal_step(self.version, n, k) {
                DealStep::Hand(p) => sizes[p as usize] += 1,
                DealStep::Turn | DealStep::FaceUp(_) => return false,
            }
        }
        (0..n).all(|p| self.hands[p].count_ones() == sizes[p])
    }
}
