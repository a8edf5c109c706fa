//! Quick pairing: the pools players queue for, and who is paired with whom
//! (players of close Glicko-2 ratings, the allowed gap widening the longer
//! they wait; guests only with guests, for casual games).

use crate::store::QueueEntry;
use serde_json::{Value, json};

/// A quick-pairing pool: one game with its options and clock.
#[derive(Clone, Debug)]
pub struct PairingPool {
    /// The pool's id.
    pub id: String,
    /// The game's id.
    pub game: &'static str,
    /// The table's options (JSON, as `POST /api/tables` takes them).
    pub options: Value,
    /// The table's clock (JSON, as `POST /api/tables` takes it).
    pub clock: Value,
    /// One line for people.
    pub label: String,
}

/// The clock of the fast and the slow pools of Tawla and backgammon.
fn dice_clock(fast: bool, matched: bool) -> Value {
    let (initial, delay, per_game) = if fast { (60, 12, 60) } else { (180, 15, 120) };
    json!({ "initial_s": initial, "increment_s": 0, "delay_s": delay,
        "per_game_s": if matched { per_game } else { 0 } })
}

/// Every quick-pairing pool (docs/server.md, "Quick pairing").
pub fn pools() -> Vec<PairingPool> {
    let fischer = json!({ "initial_s": 300, "increment_s": 5, "delay_s": 0, "per_game_s": 0 });
    let mut pools = Vec::new();
    for (game, name) in [("tawla", "Tawla"), ("backgammon", "Backgammon")] {
        for (matched, fast, id, label) in [
            (false, true, "1-fast", "one game, 1 min + 12 s delay"),
            (false, false, "1-slow", "one game, 3 min + 15 s delay"),
            (
                true,
                true,
                "5-fast",
                "5-point match, 1 min + 12 s delay + 1 min a game",
            ),
            (
                true,
                false,
                "5-slow",
                "5-point match, 3 min + 15 s delay + 2 min a game",
            ),
        ] {
            let options = if matched {
                json!({ "match": 5 })
            } else {
                json!({})
            };
            pools.push(PairingPool {
                id: format!("{game}-{id}"),
                game,
                options,
                clock: dice_clock(fast, matched),
                label: format!("{name}, {label}"),
            });
        }
    }
    for (id, game, options, label) in [
        (
            "high-gammon-2",
            "high-gammon",
            json!({ "players": 2 }),
            "High-O Gammon, 2 players, 5 min + 5 s",
        ),
        (
            "tric-trac-2",
            "tric-trac",
            json!({ "players": 2 }),
            "Tric-Trac, 2 players, 5 min + 5 s",
        ),
        ("stumphog", "stumphog", json!({}), "Stumphög, 5 min + 5 s"),
        ("lager", "lager", json!({}), "Läger, 5 min + 5 s"),
        (
            "stortok-2",
            "stortok",
            json!({ "players": 2 }),
            "Stortok, 2 players, 5 min + 5 s",
        ),
    ] {
        pools.push(PairingPool {
            id: id.into(),
            game,
            options,
            clock: fischer.clone(),
            label: label.into(),
        });
    }
    pools
}

/// The pool with this id.
pub fn pool(id: &str) -> Option<PairingPool> {
    pools().into_iter().find(|p| p.id == id)
}

/// The rating gap two accounts may have at once, before any wait.
pub const BASE_GAP: f64 = 100.0;
/// How much of a player's rating deviation widens his gap.
pub const DEVIATION_SHARE: f64 = 0.5;
/// How much the gap widens per second of waiting.
pub const WIDEN_PER_S: f64 = 10.0;

/// The rating gap a queued account accepts after waiting `waited_s` seconds.
pub fn allowed_gap(deviation: f64, waited_s: f64) -> f64 {
    BASE_GAP + DEVIATION_SHARE * deviation.clamp(0.0, 350.0) + WIDEN_PER_S * waited_s.max(0.0)
}

/// The pairs to make of `queue` at `now` (Unix ms): indices into it. The
/// longest waiting player is paired first, with the closest rating in his
/// pool that either player's gap allows (accounts), or with the longest
/// waiting other guest (guests).
pub fn pick_pairs(queue: &[QueueEntry], now: i64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..queue.len()).collect();
    order.sort_by_key(|&i| (queue[i].queued_at, i));
    let mut taken = vec![false; queue.len()];
    let mut pairs = Vec::new();
    let waited = |e: &QueueEntry| (now - e.queued_at) as f64 / 1000.0;
    for (n, &a) in order.iter().enumerate() {
        if taken[a] {
            continue;
        }
        let first = &queue[a];
        let mut best: Option<(f64, usize)> = None;
        for &b in &order[n + 1..] {
            let other = &queue[b];
            if taken[b] || other.pool != first.pool || other.hash == first.hash {
                continue;
            }
            let gap = match (first.account.is_some(), other.account.is_some()) {
                (false, false) => 0.0,
                (true, true) => {
                    let gap =
                        (first.rating.unwrap_or(1500.0) - other.rating.unwrap_or(1500.0)).abs();
                    let allowed = allowed_gap(first.deviation.unwrap_or(350.0), waited(first))
                        .max(allowed_gap(other.deviation.unwrap_or(350.0), waited(other)));
                    if gap > allowed {
                        continue;
                    }
                    gap
                }
                _ => continue,
            };
            if best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, b));
            }
        }
        if let Some((_, b)) = best {
            taken[a] = true;
            taken[b] = true;
            pairs.push((a, b));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u8, pool: &str, rating: Option<f64>, deviation: f64, queued_at: i64) -> QueueEntry {
        QueueEntry {
            hash: [n; 32],
            pool: pool.into(),
            name: None,
            account: rating.map(|_| format!("p{n}")),
            rating,
            deviation: rating.map(|_| deviation),
            queued_at,
        }
    }

    #[test]
    fn close_ratings_pair_at_once_far_ones_only_after_waiting() {
        let queue = vec![
            entry(1, "tawla-1-fast", Some(1500.0), 50.0, 0),
            entry(2, "tawla-1-fast", Some(1900.0), 50.0, 0),
        ];
        assert!(pick_pairs(&queue, 0).is_empty());
        // 400 apart: the gap of 125 widens by 10 a second.
        assert!(pick_pairs(&queue, 27_000).is_empty());
        assert_eq!(pick_pairs(&queue, 28_000), vec![(0, 1)]);
        let close = vec![
            entry(1, "tawla-1-fast", Some(1500.0), 50.0, 0),
            entry(2, "tawla-1-fast", Some(1580.0), 50.0, 0),
        ];
        assert_eq!(pick_pairs(&close, 0), vec![(0, 1)]);
    }

    #[test]
    fn the_longest_waiting_takes_the_closest_rating_and_pools_stay_apart() {
        let queue = vec![
            entry(1, "lager", Some(1600.0), 50.0, 5_000),
            entry(2, "lager", Some(1500.0), 50.0, 1_000),
            entry(3, "lager", Some(1520.0), 50.0, 3_000),
            entry(4, "stumphog", Some(1500.0), 50.0, 0),
        ];
        // Player 2 waited longest: 3 (20 away) before 1 (100 away); 1 and 4 differ in pool.
        assert_eq!(pick_pairs(&queue, 5_000), vec![(1, 2)]);
    }

    #[test]
    fn guests_pair_only_with_guests_in_order_of_waiting() {
        let queue = vec![
            entry(1, "tawla-1-fast", None, 0.0, 3_000),
            entry(2, "tawla-1-fast", Some(1500.0), 350.0, 0),
            entry(3, "tawla-1-fast", None, 0.0, 1_000),
            entry(4, "tawla-1-fast", None, 0.0, 2_000),
        ];
        assert_eq!(pick_pairs(&queue, 4_000), vec![(2, 3)]);
    }

    #[test]
    fn a_new_players_deviation_widens_his_gap() {
        assert!(allowed_gap(350.0, 0.0) > allowed_gap(50.0, 0.0));
        assert!(allowed_gap(50.0, 10.0) > allowed_gap(50.0, 0.0));
    }

    #[test]
    fn every_pool_is_a_rated_game_with_options_that_parse() {
        for p in pools() {
            let game = spelbord_engine::find_game(p.game).unwrap();
            let options = crate::hub::options_from_json(game, p.options.as_object()).expect(&p.id);
            assert!(
                crate::pools::pool_of(p.game, &options).is_some(),
                "{} has no rating pool",
                p.id
            );
            assert_eq!(
                game.new_state(&options).unwrap().num_players(),
                2,
                "{}",
                p.id
            );
        }
    }
}
