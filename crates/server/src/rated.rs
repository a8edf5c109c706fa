//! Rated tables: who may create and join one, what a finished one counts
//! as (places from the engine's returns or the table's ending), and the
//! rating of finished ones, exactly once, by the store.

use crate::error::ApiError;
use crate::pools::{Pool, pool_of};
use crate::store::{RatedGame, RatedSeat, RatingStore, Store, StoreError, StoredSeat, StoredTable};
use crate::token::TokenHash;
use spelbord_engine::{DynGame, Options};

/// Checks a new rated table: a signed-in creator, every seat open, a game
/// with a pool. Returns the pool.
pub fn check_create(
    game: &dyn DynGame,
    options: &Options,
    seats: &[Option<String>],
    signed_in: bool,
) -> Result<Pool, ApiError> {
    if !signed_in {
        return Err(ApiError::RatedNeedsAccount);
    }
    if seats.iter().any(Option::is_some) {
        return Err(ApiError::NotRateable(
            "a rated table has no AI seats: every seat is `open`".into(),
        ));
    }
    pool_of(game.id(), options).ok_or_else(|| {
        ApiError::NotRateable(format!(
            "{} with these options is not rated (see GET /api/ratings)",
            game.id()
        ))
    })
}

/// Checks a join of a rated table: a signed-in account (`player` is its
/// player hash) that holds no seat of the table yet.
pub fn check_join(
    seats: &[StoredSeat],
    player: Option<&TokenHash>,
    account: Option<&str>,
) -> Result<(), ApiError> {
    let (Some(player), Some(_)) = (player, account) else {
        return Err(ApiError::RatedNeedsAccount);
    };
    if seats.iter().any(|s| s.player_hash.as_ref() == Some(player)) {
        return Err(ApiError::AlreadySeated);
    }
    Ok(())
}

/// Places from returns: 0 for the highest return; equal returns share a place.
pub fn places(returns: &[f64]) -> Vec<usize> {
    returns
        .iter()
        .map(|r| returns.iter().filter(|other| *other > r).count())
        .collect()
}

/// What a finished (or ended) rated table counts as; `None` if it is not
/// rated or not over. A table that ended unplayed (closed, abandoned)
/// counts as a game without seats: it is marked rated and changes nothing.
pub fn rated_game(table: &StoredTable) -> Option<RatedGame> {
    if !table.rated || (table.result.is_none() && table.ending.is_none()) {
        return None;
    }
    let returns = table
        .result
        .clone()
        .or_else(|| table.ending.as_ref().and_then(|e| e.returns.clone()));
    let pool = pool_of(&table.game, &table.options).map_or_else(|| table.game.clone(), |p| p.id);
    let seats = match returns {
        Some(returns) if returns.len() == table.seats.len() => places(&returns)
            .into_iter()
            .zip(&table.seats)
            .map(|(place, seat)| RatedSeat {
                player: seat.player_hash,
                place,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some(RatedGame {
        table_id: table.id.clone(),
        pool,
        at: table.updated_at,
        seats,
    })
}

/// Rates the finished rated table `id` unless it was rated already;
/// whether this call rated it.
pub async fn rate_table(
    store: &dyn Store,
    ratings: &dyn RatingStore,
    id: &str,
) -> Result<bool, StoreError> {
    let Some(table) = store.load_table(id).await? else {
        return Ok(false);
    };
    match rated_game(&table) {
        Some(game) => ratings.rate_game(&game).await,
        None => Ok(false),
    }
}

/// Rates the finished rated tables changed at or after `since` that are not
/// rated yet (after a crash, or another node's); the number rated.
pub async fn rate_pending(store: &dyn Store, ratings: &dyn RatingStore, since: i64) -> usize {
    let ids = match ratings.unrated_tables(since, 100).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "cannot list the tables to rate");
            return 0;
        }
    };
    let mut rated = 0;
    for id in ids {
        match rate_table(store, ratings, &id).await {
            Ok(true) => {
                tracing::debug!(table = %id, "rated");
                rated += 1;
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(table = %id, error = %e, "cannot rate the table"),
        }
    }
    rated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{EndReason, Ending, Inactivity, SeatKind};

    fn table(returns: Option<Vec<f64>>, ending: Option<Ending>) -> StoredTable {
        let game = spelbord_engine::find_game("high-gammon").unwrap();
        let options = game.parse_options(&["players=3".into()]).unwrap();
        StoredTable {
            id: "t".into(),
            game: "high-gammon".into(),
            options,
            auto_forced: true,
            creator_hash: None,
            version: 9,
            result: returns,
            seats: (0..3)
                .map(|s| {
                    let mut seat = StoredSeat::new(s, SeatKind::Human);
                    seat.player_hash = Some([s as u8; 32]);
                    seat
                })
                .collect(),
            actions: Vec::new(),
            created_at: 1,
            updated_at: 77,
            server_seed: None,
            ending,
            inactivity: Inactivity::default(),
            listed: false,
            rematch_of: None,
            rated: true,
            clock: None,
        }
    }

    #[test]
    fn places_come_from_returns_with_ties_shared() {
        assert_eq!(places(&[1.0, -1.0]), vec![0, 1]);
        assert_eq!(places(&[-4.0, 8.0, -4.0]), vec![1, 0, 1]);
        assert_eq!(places(&[0.0, 0.0]), vec![0, 0]);
        assert_eq!(places(&[2.0, 3.0, 1.0, 0.5]), vec![1, 0, 2, 3]);
    }

    #[test]
    fn a_finished_table_counts_by_its_returns() {
        let game = rated_game(&table(Some(vec![-1.0, 2.0, -1.0]), None)).unwrap();
        assert_eq!(game.pool, "high-gammon-3-points");
        assert_eq!(game.at, 77);
        let places: Vec<_> = game.seats.iter().map(|s| s.place).collect();
        assert_eq!(places, vec![1, 0, 1]);
        assert_eq!(game.seats[1].player, Some([1; 32]));
    }

    #[test]
    fn a_resignation_is_a_loss_of_the_seat_and_an_unplayed_end_changes_nothing() {
        let resigned = Ending {
            reason: EndReason::Resigned,
            seat: Some(2),
            returns: Some(vec![0.5, 0.5, -1.0]),
        };
        let game = rated_game(&table(None, Some(resigned))).unwrap();
        let places: Vec<_> = game.seats.iter().map(|s| s.place).collect();
        assert_eq!(places, vec![0, 0, 2]);
        let closed = Ending {
            reason: EndReason::Closed,
            seat: None,
            returns: None,
        };
        assert!(
            rated_game(&table(None, Some(closed)))
                .unwrap()
                .seats
                .is_empty()
        );
        assert_eq!(rated_game(&table(None, None)), None);
        let mut casual = table(Some(vec![1.0, 0.0, 0.0]), None);
        casual.rated = false;
        assert_eq!(rated_game(&casual), None);
    }

    #[test]
    fn a_rated_table_takes_accounts_once() {
        let seats = table(None, None).seats;
        assert!(matches!(
            check_join(&seats, None, None),
            Err(ApiError::RatedNeedsAccount)
        ));
        assert!(matches!(
            check_join(&seats, Some(&[9; 32]), None),
            Err(ApiError::RatedNeedsAccount)
        ));
        assert!(matches!(
            check_join(&seats, Some(&[1; 32]), Some("bo")),
            Err(ApiError::AlreadySeated)
        ));
        assert!(check_join(&seats, Some(&[9; 32]), Some("bo")).is_ok());
    }

    #[test]
    fn a_rated_table_needs_a_signed_in_creator_open_seats_and_a_pool() {
        let game = spelbord_engine::find_game("tawla").unwrap();
        let options = game.parse_options(&[]).unwrap();
        let pool = check_create(game, &options, &[None, None], true).unwrap();
        assert_eq!(pool.id, "tawla");
        assert!(matches!(
            check_create(game, &options, &[None, None], false),
            Err(ApiError::RatedNeedsAccount)
        ));
        assert!(matches!(
            check_create(game, &options, &[None, Some("ai:easy".into())], true),
            Err(ApiError::NotRateable(_))
        ));
        let lager = spelbord_engine::find_game("lager").unwrap();
        let wide = lager.parse_options(&["columns=6".into()]).unwrap();
        assert!(matches!(
            check_create(lager, &wide, &[None, None], true),
            Err(ApiError::NotRateable(_))
        ));
    }
}
