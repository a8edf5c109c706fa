//! What claiming a guest's tables and deleting an account change in the
//! tables held in memory.

use super::{Hub, Notice};
use crate::store::DELETED_PLAYER;
use crate::token::TokenHash;

impl Hub {
    /// Shows the seats of the account with `player` as its player hash as
    /// [`DELETED_PLAYER`] and forgets the hash in the tables held in memory
    /// (the store was changed already); their viewers are told.
    pub async fn forget_account(&self, player: &TokenHash) {
        self.pass_seats(player, None, DELETED_PLAYER).await;
    }

    /// Gives the seats and tables of a guest's key hash (`guest`) to the
    /// account of `player` (its player hash) and `name` in the tables held
    /// in memory (the store was changed already); their viewers are told.
    pub async fn claim_guest(&self, guest: &TokenHash, player: &TokenHash, name: &str) {
        self.pass_seats(guest, Some(*player), name).await;
    }

    /// In the tables held in memory, the seats and created tables of the
    /// player hash `from` go to `to`, the seats under `name` (as account
    /// and display name); the viewers of changed seats are told.
    async fn pass_seats(&self, from: &TokenHash, to: Option<TokenHash>, name: &str) {
        let cells: Vec<_> = self
            .tables
            .lock()
            .expect("table map")
            .values()
            .cloned()
            .collect();
        for cell in cells {
            let mut t = cell.table.lock().await;
            let mut changed = false;
            for seat in t.seats.iter_mut().filter(|s| s.player_hash == Some(*from)) {
                seat.player_hash = to;
                seat.name = Some(name.into());
                seat.account = Some(name.into());
                changed = true;
            }
            if t.creator_hash == Some(*from) {
                t.creator_hash = to;
            }
            if changed {
                let _ = cell.notices.send(Notice::Seats);
            }
        }
    }
}
