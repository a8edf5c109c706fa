//! The live lobby of one node: its events (seeks added, removed and
//! updated, the table lists, players online, private `paired` notices),
//! each serialised once and fanned out to every lobby socket that may see
//! it; who is in the lobby here (for withdrawing the seeks of owners who
//! left). With several nodes every event goes through PostgreSQL's
//! LISTEN/NOTIFY channel [`LOBBY_CHANNEL`], so every node's sockets get it.

use crate::store::{LobbyStore, StoreError, StoredSeek};
use crate::token::TokenHash;
use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgListener, PgPool};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// The PostgreSQL notification channel of lobby events.
pub const LOBBY_CHANNEL: &str = "spelbord_lobby";

/// Events a slow lobby socket may fall behind before it gets a new snapshot.
const CAPACITY: usize = 1024;

/// Who may see a rated seek: accounts rated in `pool` from `min` to `max`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Range {
    /// The rating pool.
    pub pool: String,
    /// The lowest rating.
    pub min: f64,
    /// The highest rating.
    pub max: f64,
}

impl Range {
    /// The range of a rated seek (`None`: not rated). Without bounds it
    /// spans every finite rating: an infinite bound would be `null` in the
    /// JSON that carries lobby events to the other nodes, which they refuse.
    pub fn of(seek: &StoredSeek) -> Option<Range> {
        Some(Range {
            pool: seek.pool.clone()?,
            min: seek.rating_min.unwrap_or(f64::MIN),
            max: seek.rating_max.unwrap_or(f64::MAX),
        })
    }
}

/// One lobby event: its message, serialised once, and who may see it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LobbyEvent {
    /// The message as sent (JSON text).
    pub message: String,
    /// The game it is about (sockets filter on it); `None`: every socket.
    pub game: Option<String>,
    /// A rated seek's range (its owner sees it too).
    pub range: Option<Range>,
    /// The seek's owner.
    pub owner: Option<TokenHash>,
    /// A private message: only this player's sockets.
    pub to: Option<TokenHash>,
}

/// The event as shared by the sockets of this node.
pub struct Shared {
    /// The event.
    pub event: LobbyEvent,
    /// Its message, made once.
    pub text: Utf8Bytes,
}

/// A lobby socket's viewer: who he is and what he picked.
#[derive(Clone, Debug, Default)]
pub struct LobbyViewer {
    /// The player hash (a signed-in account's, or a guest's key's).
    pub player: Option<TokenHash>,
    /// Whether the player is a signed-in account.
    pub account: bool,
    /// The account's rating per rating pool (the new player's where none).
    pub ratings: HashMap<String, f64>,
    /// The games picked (none: every game).
    pub games: Vec<String>,
}

impl LobbyViewer {
    /// The account's rating in `pool`.
    pub fn rating(&self, pool: &str) -> f64 {
        self.ratings
            .get(pool)
            .copied()
            .unwrap_or(crate::rating::NEW_PLAYER.rating)
    }

    /// Whether this viewer may see a seek of `game`, rated in `range`, of `owner`.
    pub fn sees(
        &self,
        game: Option<&str>,
        range: Option<&Range>,
        owner: Option<&TokenHash>,
    ) -> bool {
        if let Some(game) = game
            && !self.games.is_empty()
            && !self.games.iter().any(|g| g == game)
        {
            return false;
        }
        match range {
            None => true,
            Some(_) if self.player.is_some() && self.player.as_ref() == owner => true,
            Some(r) => self.account && (r.min..=r.max).contains(&self.rating(&r.pool)),
        }
    }

    /// Whether this viewer gets `event`.
    pub fn gets(&self, event: &LobbyEvent) -> bool {
        match &event.to {
            Some(to) => self.player.as_ref() == Some(to),
            None => self.sees(
                event.game.as_deref(),
                event.range.as_ref(),
                event.owner.as_ref(),
            ),
        }
    }
}

/// The lobby of this node.
pub struct Lobby {
    /// The shared seeks and queue.
    pub store: Arc<dyn LobbyStore>,
    events: broadcast::Sender<Arc<Shared>>,
    notify: Option<PgPool>,
    present: Mutex<HashMap<TokenHash, usize>>,
    picked: Mutex<HashMap<String, i64>>,
    unfiltered: Mutex<i64>,
    queue: Mutex<Vec<TokenHash>>,
    /// The latest table lists (the `tables` message's rows) and the online counts.
    pub latest: Mutex<Latest>,
    /// How long a seek's owner may be out of the lobby before it is withdrawn.
    pub grace: Duration,
    /// How long a seek stays at most.
    pub lifetime: Duration,
    /// This node's id (for its row of players online).
    pub node: String,
}

/// What the lobby last sent of the tables and players online.
#[derive(Default)]
pub struct Latest {
    /// The listed tables' rows (open, then live).
    pub tables: serde_json::Value,
    /// Players online per game.
    pub online: serde_json::Value,
}

/// A lobby socket counted while it lives.
pub struct Presence {
    lobby: Arc<Lobby>,
    player: Option<TokenHash>,
    games: Vec<String>,
}

impl Drop for Presence {
    fn drop(&mut self) {
        self.lobby.leave(self.player, &self.games);
    }
}

impl Lobby {
    /// A lobby over `store`; with several nodes, `notify` is the database
    /// that carries events to every node.
    pub fn new(
        store: Arc<dyn LobbyStore>,
        notify: Option<PgPool>,
        grace: Duration,
        lifetime: Duration,
        node: String,
    ) -> Arc<Self> {
        Arc::new(Lobby {
            store,
            events: broadcast::channel(CAPACITY).0,
            notify,
            present: Mutex::new(HashMap::new()),
            picked: Mutex::new(HashMap::new()),
            unfiltered: Mutex::new(0),
            queue: Mutex::new(Vec::new()),
            latest: Mutex::new(Latest::default()),
            grace,
            lifetime,
            node,
        })
    }

    /// The events of this node's lobby.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Shared>> {
        self.events.subscribe()
    }

    /// Sends an event to this node's sockets only.
    pub fn send_here(&self, event: LobbyEvent) {
        let text = Utf8Bytes::from(event.message.clone());
        let _ = self.events.send(Arc::new(Shared { event, text }));
    }

    /// Sends an event to the lobby sockets of every node.
    pub async fn publish(&self, event: LobbyEvent) {
        let Some(pool) = &self.notify else {
            return self.send_here(event);
        };
        let payload = match serde_json::to_string(&event) {
            Ok(p) => p,
            Err(e) => return tracing::warn!(error = %e, "cannot serialise a lobby event"),
        };
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(LOBBY_CHANNEL)
            .bind(payload)
            .execute(pool)
            .await;
        if let Err(e) = sent {
            tracing::warn!(error = %e, "cannot announce a lobby event; sent on this node only");
            self.send_here(event);
        }
    }

    /// Counts a socket of `player` that picked `games`, until the guard drops.
    pub fn enter(self: &Arc<Self>, player: Option<TokenHash>, games: Vec<String>) -> Presence {
        if let Some(p) = player {
            *self.present.lock().expect("lobby").entry(p).or_default() += 1;
        }
        self.pick(&games, 1);
        Presence {
            lobby: self.clone(),
            player,
            games,
        }
    }

    fn leave(&self, player: Option<TokenHash>, games: &[String]) {
        if let Some(p) = player {
            let mut present = self.present.lock().expect("lobby");
            if let Some(n) = present.get_mut(&p) {
                *n -= 1;
                if *n == 0 {
                    present.remove(&p);
                }
            }
        }
        self.pick(games, -1);
    }

    fn pick(&self, games: &[String], by: i64) {
        if games.is_empty() {
            *self.unfiltered.lock().expect("lobby") += by;
            return;
        }
        let mut picked = self.picked.lock().expect("lobby");
        for g in games {
            *picked.entry(g.clone()).or_default() += by;
        }
        picked.retain(|_, n| *n > 0);
    }

    /// Notes the players the last pairing round saw queued.
    pub fn set_queued(&self, queue: Vec<TokenHash>) {
        *self.queue.lock().expect("lobby") = queue;
    }

    /// The queued players (as of the last pairing round) with a lobby socket here.
    pub fn queued_here(&self) -> Vec<TokenHash> {
        let present = self.present.lock().expect("lobby");
        let queue = self.queue.lock().expect("lobby");
        queue
            .iter()
            .filter(|h| present.contains_key(*h))
            .copied()
            .collect()
    }

    /// Whether `player` has a lobby socket on this node.
    pub fn is_present(&self, player: &TokenHash) -> bool {
        self.present.lock().expect("lobby").contains_key(player)
    }

    /// This node's lobby sockets per game of `games`: a socket that picked
    /// no game counts for every game.
    pub fn counts(&self, games: &[&str]) -> HashMap<String, i64> {
        let picked = self.picked.lock().expect("lobby");
        let all = *self.unfiltered.lock().expect("lobby");
        games
            .iter()
            .map(|g| (g.to_string(), all + picked.get(*g).copied().unwrap_or(0)))
            .collect()
    }
}

impl Presence {
    /// The socket picked other games.
    pub fn set_games(&mut self, games: Vec<String>) {
        self.lobby.pick(&self.games, -1);
        self.lobby.pick(&games, 1);
        self.games = games;
    }

    /// The socket's player changed (a hello).
    pub fn set_player(&mut self, player: Option<TokenHash>) {
        let games = std::mem::take(&mut self.games);
        self.lobby.leave(self.player, &[]);
        self.lobby.pick(&[], 1);
        if let Some(p) = player {
            *self
                .lobby
                .present
                .lock()
                .expect("lobby")
                .entry(p)
                .or_default() += 1;
        }
        self.player = player;
        self.games = games;
    }
}

/// Follows the lobby events of every node (several nodes), until the
/// connection is lost.
pub async fn listen(lobby: &Lobby, pool: &PgPool) -> Result<(), StoreError> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(LOBBY_CHANNEL).await?;
    loop {
        let Some(notice) = listener.try_recv().await? else {
            return Err(StoreError::Database(
                "the lobby notification connection was lost".into(),
            ));
        };
        match serde_json::from_str::<LobbyEvent>(notice.payload()) {
            Ok(event) => lobby.send_here(event),
            Err(e) => tracing::warn!(error = %e, "a lobby notification that is not an event"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_rated_range_reaches_other_nodes_and_admits_every_rating() {
        let seek = StoredSeek {
            id: "0123456789abcdef01234567".into(),
            game: "tawla".into(),
            body: "{}".into(),
            request: "{}".into(),
            owner: [1; 32],
            pool: Some("tawla-1-fast".into()),
            rating_min: None,
            rating_max: None,
            players: 2,
            accepted: 0,
            state: "open".into(),
            table_id: None,
            created_at: 0,
            expires_at: 1,
        };
        let event = LobbyEvent {
            message: "{}".into(),
            game: Some(seek.game.clone()),
            range: Range::of(&seek),
            owner: Some(seek.owner),
            to: None,
        };
        let sent = serde_json::to_string(&event).expect("serialised");
        let received: LobbyEvent = serde_json::from_str(&sent).expect("read on another node");
        assert_eq!(received.range, event.range);
        let viewer = LobbyViewer {
            player: Some([2; 32]),
            account: true,
            ratings: HashMap::from([("tawla-1-fast".to_string(), -5000.0)]),
            games: Vec::new(),
        };
        assert!(viewer.gets(&received));
    }
}
