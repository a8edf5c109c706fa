//! The rules: the deal, beating, picking up, drawing, going out, the end.

use super::cards::{Card, Cards, Trumps, nth_card};
use super::{DEALER, Events, Phase, StortokObservation, StortokState, Version};
use crate::error::{Error, Result};
use crate::game::{GameState, MAX_PLAYERS, Player, Returns, Turn, Viewer};
use crate::outcome::{Ending, Outcome};
use crate::resign::{Resignation, not_offered};
use rand::Rng;

/// The next card of the deal: where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DealStep {
    /// Face down into this seat's hand.
    Hand(u8),
    /// Turned face up: it fixes the trumps (1847, Schenkmanis, Helmfrid).
    Turn,
    /// The last card of the 1858 deal: face up into this seat's hand.
    FaceUp(u8),
}

/// An action: a chance card (deal, turn or draw), a card played, or a pick-up.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum StortokAction {
    /// Chance: this card is dealt, turned or drawn next.
    Chance(Card),
    /// The player to move plays this card (a lead or a beat).
    Play(Card),
    /// The player to move declines to beat and picks up (STO-8, STO-14).
    PickUp,
}

impl StortokState {
    /// A new game before the deal. A player count outside 2..=5 is brought
    /// into it (the option `players` already is).
    pub fn new(version: Version, players: usize, cap: u32) -> Self {
        let players = players.clamp(2, MAX_PLAYERS);
        StortokState {
            version,
            n: players as u8,
            cap,
            plies: 0,
            phase: Phase::Deal,
            to_move: 0,
            after_draw: 0,
            dealt: 0,
            hands: [0; MAX_PLAYERS],
            known: [0; MAX_PLAYERS],
            stock: version.deck(),
            turned: None,
            turned_in_stock: false,
            pile: [Card::default(); 52],
            pile_len: 0,
            trick_start: 0,
            trick_played: 0,
            last: None,
            discards: 0,
            loser: None,
            capped: false,
            resigned: false,
            events: Events::default(),
        }
    }

    /// The version played.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The phase of play.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A player's hand as a set (empty for a seat not in the game).
    pub fn hand(&self, player: Player) -> u64 {
        self.hands.get(player).copied().unwrap_or(0)
    }

    /// The cards of a hand that every player knows are there (none for a
    /// seat not in the game).
    pub fn known(&self, player: Player) -> u64 {
        self.known.get(player).copied().unwrap_or(0)
    }

    /// The face-down cards: undealt during the deal, then the stock (without
    /// the turned card beneath it).
    pub fn stock(&self) -> u64 {
        self.stock
    }

    /// The turned card, once turned.
    pub fn turned(&self) -> Option<Card> {
        self.turned
    }

    /// Whether the turned card still lies under the stock (drawn last).
    pub fn turned_in_stock(&self) -> bool {
        self.turned_in_stock
    }

    /// Cards left to draw: the face-down stock plus the turned card under it.
    pub fn stock_len(&self) -> usize {
        self.stock.count_ones() as usize + self.turned_in_stock as usize
    }

    /// The trumps, once the trump card is turned.
    pub fn trumps(&self) -> Option<Trumps> {
        self.turned.map(Trumps::from_turned)
    }

    /// The table, bottom card first.
    pub fn table(&self) -> &[Card] {
        &self.pile[..self.pile_len as usize]
    }

    /// The current trick's cards (for 1858, the whole pile).
    pub fn trick(&self) -> &[Card] {
        &self.pile[self.trick_start as usize..self.pile_len as usize]
    }

    /// The card on top of the table.
    pub fn top(&self) -> Option<Card> {
        self.table().last().copied()
    }

    /// Cards set aside, out of play.
    pub fn discards(&self) -> u64 {
        self.discards
    }

    /// Who played the top card of the table.
    pub fn last_player(&self) -> Option<Player> {
        self.last.map(|p| p as Player)
    }

    /// Player actions so far.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The stortok, once the game is over (none: no loser, or the cap).
    pub fn loser(&self) -> Option<Player> {
        self.loser.map(|p| p as Player)
    }

    /// Whether the game stopped at the safety cap.
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Whether the player to move leads (the current trick is empty) rather
    /// than answers the top card.
    pub fn leading(&self) -> bool {
        self.pile_len == self.trick_start
    }

    /// Seats still holding cards, as bits.
    pub fn holders(&self) -> u8 {
        let mut m = 0;
        for p in 0..self.n as usize {
            if self.hands[p] != 0 {
                m |= 1 << p;
            }
        }
        m
    }

    /// Where the next card of the deal goes (STO-6, STO-10).
    pub(crate) fn deal_step(&self) -> DealStep {
        deal_step(self.version, self.n as usize, self.dealt as usize)
    }

    /// The next seat clockwise after `from` that holds cards (`from` itself
    /// last), if any (STO-4).
    pub(crate) fn next_in(&self, from: u8) -> Option<u8> {
        let n = self.n;
        (1..=n)
            .map(|i| (from + i) % n)
            .find(|&q| self.hands[q as usize] != 0)
    }

    /// The nearest seat counter-clockwise from `from` (to his right) that
    /// holds cards, `from` excluded (STO-8).
    pub(crate) fn prev_in(&self, from: u8) -> Option<u8> {
        let n = self.n;
        (1..n)
            .map(|i| (from + n - i) % n)
            .find(|&q| self.hands[q as usize] != 0)
    }

    /// Cards the player to move may play now.
    pub(crate) fn playable(&self) -> u64 {
        let hand = self.hands[self.to_move as usize];
        match self.top() {
            Some(top) if !self.leading() => {
                let trumps = self.trumps().expect("trumps are fixed before play");
                hand & trumps.beaters(top)
            }
            _ => hand,
        }
    }

    pub(super) fn push(&mut self, card: Card) {
        self.pile[self.pile_len as usize] = card;
        self.pile_len += 1;
    }

    fn end(&mut self, loser: Option<u8>) {
        self.phase = Phase::Over;
        self.loser = loser;
    }

    fn start_play(&mut self) {
        self.phase = Phase::Play;
        // STO-11: the 1858 dealer leads; otherwise forehand (STO-7, STO-12).
        self.to_move = if self.version == Version::Oberg1858 {
            DEALER
        } else {
            (DEALER + 1) % self.n
        };
    }

    fn apply_chance(&mut self, card: Card) {
        let bit = card.bit();
        if self.phase == Phase::Draw {
            // STO-9: the player who played draws the top of the stock; the
            // turned card is drawn last, in full view.
            let p = self.to_move as usize;
            self.hands[p] |= bit;
            self.events.drew = Some(card);
            if self.stock & bit != 0 {
                self.stock &= !bit;
            } else {
                self.turned_in_stock = false;
                self.known[p] |= bit;
            }
            self.phase = Phase::Play;
            self.to_move = self.after_draw;
            return;
        }
        self.stock &= !bit;
        let step = self.deal_step();
        self.dealt += 1;
        match step {
            DealStep::Hand(p) => self.hands[p as usize] |= bit,
            DealStep::FaceUp(p) => {
                // STO-10: the last card fixes the trumps and joins the hand.
                self.hands[p as usize] |= bit;
                self.known[p as usize] |= bit;
                self.turned = Some(card);
                self.start_play();
            }
            DealStep::Turn => {
                self.turned = Some(card);
                if self.version == Version::Schenkmanis {
                    // STO-12: the turned card opens the first trick.
                    self.push(card);
                } else {
                    // STO-6, STO-15: it lies under the stock, drawn last.
                    self.turned_in_stock = true;
                }
                self.start_play();
            }
        }
    }

    fn apply_play(&mut self, card: Card) {
        let p = self.to_move;
        let bit = card.bit();
        self.hands[p as usize] &= !bit;
        self.known[p as usize] &= !bit;
        self.push(card);
        self.last = Some(p);
        self.trick_played |= 1 << p;
        if self.hands[p as usize] == 0 {
            self.events.out |= 1 << p;
        }
        let holders = self.holders();
        if holders.count_ones() <= 1 {
            // STO-4: the game ends at once when only one player holds cards,
            // even with the card just played unanswered: he is the stortok.
            return self.end(holders_single(holders));
        }
        // STO-7: a trick is complete when everyone still in has played to it.
        let next = if self.version.has_tricks() && (holders & !self.trick_played) == 0 {
            self.events.trick_done = true;
            if self.version.sets_tricks_aside() {
                // STO-13: completed tricks are set aside.
                let trick = super::cards::mask_of(self.trick());
                self.discards |= trick;
                self.events.set_aside = self.pile_len - self.trick_start;
                self.pile_len = 0;
            }
            self.trick_start = self.pile_len;
            self.trick_played = 0;
            // STO-7: the last to play leads; if he is out, the next one in.
            if self.hands[p as usize] != 0 {
                p
            } else {
                self.next_in(p).expect("two players are in")
            }
        } else {
            self.next_in(p).expect("two players are in")
        };
        if self.version.has_stock() && self.stock_len() > 0 {
            // STO-9: draw at once.
            self.phase = Phase::Draw;
            self.after_draw = next;
        } else {
            self.to_move = next;
        }
    }

    fn apply_pick_up(&mut self) {
        let p = self.to_move;
        let taken = if self.version.picks_whole_pile() {
            // STO-8, STO-11: the whole pile.
            self.pile_len
        } else {
            // STO-14: only the top card; the rest of the trick is set aside.
            1
        };
        let from = (self.pile_len - taken) as usize;
        for &c in &self.pile[from..self.pile_len as usize] {
            self.hands[p as usize] |= c.bit();
            self.known[p as usize] |= c.bit();
        }
        for &c in &self.pile[..from] {
            self.discards |= c.bit();
        }
        self.events.picked = taken;
        self.events.set_aside = from as u8;
        let last = self.last;
        self.pile_len = 0;
        self.trick_start = 0;
        self.trick_played = 0;
        self.last = None;
        if self.holders() == 1 << p {
            return self.end(Some(p));
        }
        let next = match (self.version, last) {
            // STO-8: the player who played the top card leads to the empty
            // table; if he has just gone out, the nearest player still in to
            // the picker's right, so that the picker still plays second.
            (Version::Lindskog1847, Some(l)) if self.hands[l as usize] != 0 => Some(l),
            (Version::Lindskog1847, Some(_)) => self.prev_in(p),
            // STO-11, STO-14: the player to the picker's left leads.
            _ => self.next_in(p),
        }
        .expect("two players are in");
        self.to_move = next;
    }
}

/// Where card `k` (0-based) of the deal goes (STO-6, STO-10): batches of 3
/// then 2 clockwise from forehand and the turned card; in 1858 batches of 3
/// then one at a time, the last face up.
pub(crate) fn deal_step(version: Version, n: usize, k: usize) -> DealStep {
    let order = |i: usize| ((1 + i) % n) as u8;
    if version == Version::Oberg1858 {
        let p = if k < 3 * n {
            order(k / 3)
        } else {
            order((k - 3 * n) % n)
        };
        if k == 51 {
            DealStep::FaceUp(p)
        } else {
            DealStep::Hand(p)
        }
    } else if k < 3 * n {
        DealStep::Hand(order(k / 3))
    } else if k < 5 * n {
        DealStep::Hand(order((k - 3 * n) / 2))
    } else {
        DealStep::Turn
    }
}

/// Cards in the whole deal, the turned card included.
pub(crate) fn deal_len(version: Version, n: usize) -> usize {
    match version {
        Version::Oberg1858 => 52,
        _ => 5 * n + 1,
    }
}

pub(crate) fn holders_single(holders: u8) -> Option<u8> {
    (holders != 0).then(|| holders.trailing_zeros() as u8)
}

impl GameState for StortokState {
    type Action = StortokAction;
    type Observation = StortokObservation;

    fn num_players(&self) -> usize {
        self.n as usize
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Deal | Phase::Draw => Turn::Chance,
            Phase::Play => Turn::Player(self.to_move as Player),
            Phase::Over => Turn::Over,
        }
    }

    fn legal_actions(&self, out: &mut Vec<StortokAction>) {
        out.clear();
        if self.phase != Phase::Play {
            return;
        }
        out.extend(Cards(self.playable()).map(StortokAction::Play));
        if !self.leading() {
            // STO-3: a player may always decline.
            out.push(StortokAction::PickUp);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(StortokAction, f64)>) {
        out.clear();
        let set = self.chance_set();
        let p = 1.0 / set.count_ones() as f64;
        out.extend(Cards(set).map(|c| (StortokAction::Chance(c), p)));
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> StortokAction {
        let set = self.chance_set();
        let k = rng.random_range(0..set.count_ones());
        StortokAction::Chance(nth_card(set, k))
    }

    fn apply(&mut self, action: StortokAction) {
        self.events = Events {
            actor: self.to_move,
            ..Events::default()
        };
        match action {
            StortokAction::Chance(card) => return self.apply_chance(card),
            StortokAction::Play(card) => self.apply_play(card),
            StortokAction::PickUp => self.apply_pick_up(),
        }
        self.plies += 1;
        if self.phase != Phase::Over && self.plies >= self.cap {
            self.capped = true;
            self.end(None);
        }
    }

    fn is_legal(&self, action: StortokAction) -> bool {
        match (self.phase, action) {
            (Phase::Deal | Phase::Draw, StortokAction::Chance(c)) => {
                self.chance_set() & c.bit() != 0
            }
            (Phase::Play, StortokAction::Play(c)) => self.playable() & c.bit() != 0,
            (Phase::Play, StortokAction::PickUp) => !self.leading(),
            _ => false,
        }
    }

    fn max_game_length(&self) -> u64 {
        // Chance deals or draws each card at most once; the cap counts the
        // players' actions.
        self.cap as u64 + 52
    }

    fn returns(&self) -> Returns {
        // STO-16: −1 for the stortok, +1/(n−1) for each other player.
        let n = self.n as usize;
        let mut r = Returns::zeros(n);
        if let (Phase::Over, Some(loser)) = (self.phase, self.loser) {
            for p in 0..n {
                r.set(
                    p,
                    if p == loser as usize {
                        -1.0
                    } else {
                        1.0 / (n - 1) as f64
                    },
                );
            }
        }
        r
    }

    fn outcome(&self) -> Option<Outcome> {
        let n = self.n as usize;
        match (self.phase, self.loser) {
            (Phase::Over, Some(loser)) => {
                let ending = if self.resigned {
                    Ending::Resigned
                } else {
                    Ending::Stortok
                };
                Some(Outcome::loser(n, loser as usize, ending))
            }
            (Phase::Over, None) => Some(Outcome::draw(n, Ending::TurnCap)),
            _ => None,
        }
    }

    fn resign(&mut self, player: Player, kind: Resignation) -> Result<()> {
        // The seat that gives up is the stortok (STO-16 pays as for one);
        // the others share the win. Stortok has no match and no gammons.
        match kind {
            _ if self.phase == Phase::Over => Err(Error::GameOver),
            Resignation::Single | Resignation::Match if player < self.n as usize => {
                self.loser = Some(player as u8);
                self.resigned = true;
                self.phase = Phase::Over;
                Ok(())
            }
            _ => Err(not_offered(
                kind,
                "Stortok is resigned as a whole game, by a seat",
            )),
        }
    }

    fn observation(&self, viewer: Viewer) -> StortokObservation {
        StortokObservation::of(self, viewer)
    }

    fn sample_from_observation<R: Rng + ?Sized>(
        observation: &StortokObservation,
        rng: &mut R,
    ) -> Option<Self> {
        observation.sample_state(rng)
    }
}

impl StortokState {
    /// The cards chance may give next: during the deal every undealt card;
    /// during a draw the stock, or the turned card when it alone is left.
    fn chance_set(&self) -> u64 {
        match self.phase {
            Phase::Deal => self.stock,
            Phase::Draw if self.stock != 0 => self.stock,
            Phase::Draw => self.turned.map_or(0, |c| c.bit()),
            _ => 0,
        }
    }

    /// Rebuilds a state from its parts (for the information-set sampler).
    pub(crate) fn from_parts(
        obs: &StortokObservation,
        hands: [u64; MAX_PLAYERS],
        known: [u64; MAX_PLAYERS],
        stock: u64,
        discards: u64,
    ) -> Self {
        let mut s = StortokState::new(obs.version, obs.players as usize, obs.cap);
        s.plies = obs.plies;
        s.phase = obs.phase;
        s.to_move = obs.to_move;
        s.after_draw = obs.after_draw;
        s.dealt = obs.dealt;
        s.hands = hands;
        s.known = known;
        s.stock = stock;
        s.turned = obs.turned;
        s.turned_in_stock = obs.turned_in_stock;
        for &c in &obs.table {
            s.push(c);
        }
        s.trick_start = obs.trick_start;
        s.trick_played = obs.trick_played.iter().fold(0, |m, &p| m | 1 << p);
        s.last = obs.last;
        s.discards = discards;
        s.loser = obs.loser;
        s.capped = obs.capped;
        s
    }
}
