//! Rating pools: one rating per pool, a pool being a game with the options
//! that change what a win means (docs/server.md, "Ratings"). Variants that
//! make a game something else (another board, a lower winning mark, a
//! shorter cap) are not rated.

use spelbord_engine::Options;

/// One rating pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// The pool's id, e.g. `backgammon-match` or `high-gammon-3-points`.
    pub id: String,
    /// The game's id.
    pub game: &'static str,
    /// The number of players of its games.
    pub players: usize,
    /// One line for people.
    pub description: String,
}

fn pool(id: String, game: &'static str, players: usize, description: String) -> Option<Pool> {
    Some(Pool {
        id,
        game,
        players,
        description,
    })
}

/// Whether the whole-number option `key` is at least `least`.
fn at_least(options: &Options, key: &str, least: i64) -> bool {
    options.int(key) >= least
}

/// The pool of a game with these options (complete, as a table stores
/// them), or `None` if such a game is not rated.
pub fn pool_of(game: &str, options: &Options) -> Option<Pool> {
    match game {
        "backgammon" => backgammon_pool(options),
        "tawla" => tawla_pool(options),
        "high-gammon" => high_gammon_pool(options),
        "tric-trac" => tric_trac_pool(options),
        "stumphog" => stumphog_pool(options),
        "lager" => lager_pool(options),
        "stortok" => stortok_pool(options),
        _ => None,
    }
}

/// Backgammon: matches, or single games.
fn backgammon_pool(options: &Options) -> Option<Pool> {
    if options.int("match") > 0 {
        let d = "Backgammon matches (any length)".to_string();
        pool("backgammon-match".into(), "backgammon", 2, d)
    } else {
        let d = "Backgammon single games (money play, with or without the cube)".to_string();
        pool("backgammon".into(), "backgammon", 2, d)
    }
}

/// Tawla: matches or single games, with or without the mother rule.
fn tawla_pool(options: &Options) -> Option<Pool> {
    let mother = options.get("mother") != "off";
    let matched = options.int("match") > 0;
    let id = match (mother, matched) {
        (true, false) => "tawla",
        (true, true) => "tawla-match",
        (false, false) => "tawla-no-mother",
        (false, true) => "tawla-no-mother-match",
    };
    let d = format!(
        "Tawla {}, {}",
        if matched {
            "matches (any length)"
        } else {
            "single games"
        },
        if mother {
            "with the mother rule"
        } else {
            "without the mother rule"
        }
    );
    pool(id.into(), "tawla", 2, d)
}

/// High-O Gammon: per number of players and scoring.
fn high_gammon_pool(options: &Options) -> Option<Pool> {
    let players = options.int("players");
    let scoring = options.get("scoring");
    if !(2..=4).contains(&players) || !["points", "cube", "traditional"].contains(&scoring) {
        return None;
    }
    let d = format!("High-O Gammon, {players} players, {scoring} scoring");
    pool(
        format!("high-gammon-{players}-{scoring}"),
        "high-gammon",
        players as usize,
        d,
    )
}

/// Tric-Trac: per number of players.
fn tric_trac_pool(options: &Options) -> Option<Pool> {
    let players = options.int("players");
    if !(2..=4).contains(&players) {
        return None;
    }
    let d = format!("Tric-Trac, {players} players");
    pool(
        format!("tric-trac-{players}"),
        "tric-trac",
        players as usize,
        d,
    )
}

/// Stumphog: the standard winning mark, a cap of 2000 turns or more.
fn stumphog_pool(options: &Options) -> Option<Pool> {
    (options.int("win") == 41 && at_least(options, "turns", 2000)).then(|| Pool {
        id: "stumphog".into(),
        game: "stumphog",
        players: 2,
        description: "Stumphog (win at 41 stones, a cap of 2000 turns or more)".into(),
    })
}

/// Lager: the standard board, a cap of 200 plies or more.
fn lager_pool(options: &Options) -> Option<Pool> {
    let standard = options.int("columns") == 5
        && options.int("rows") == 7
        && options.get("captured") == "out"
        && options.get("opening") == "stone"
        && at_least(options, "max_plies", 200);
    standard.then(|| Pool {
        id: "lager".into(),
        game: "lager",
        players: 2,
        description: "Lager on the standard 5×7 board (a cap of 200 plies or more)".into(),
    })
}

/// Stortok: per version and number of players, a cap of 5000 or more.
fn stortok_pool(options: &Options) -> Option<Pool> {
    let players = options.int("players");
    let version = options.get("version");
    if !(2..=5).contains(&players)
        || !spelbord_engine::stortok::Version::NAMES.contains(&version)
        || !at_least(options, "cap", 5000)
    {
        return None;
    }
    let d = format!("Stortok ({version}), {players} players");
    pool(
        format!("stortok-{version}-{players}"),
        "stortok",
        players as usize,
        d,
    )
}

/// Every pool, in catalogue order.
pub fn all_pools() -> Vec<Pool> {
    let mut pools = Vec::new();
    let mut add = |game: &str, pairs: &[(&str, String)]| {
        let Ok(g) = spelbord_engine::find_game(game) else {
            return;
        };
        let values = pairs.iter().map(|(k, v)| (k.to_string(), v.clone()));
        if let Ok(options) = Options::from_map(game, g.option_specs(), values)
            && let Some(p) = pool_of(game, &options)
        {
            pools.push(p);
        }
    };
    for mother in ["on", "off"] {
        for length in ["0", "5"] {
            add(
                "tawla",
                &[("mother", mother.into()), ("match", length.into())],
            );
        }
    }
    for length in ["0", "5"] {
        add("backgammon", &[("match", length.into())]);
    }
    for players in 2..=4 {
        for scoring in ["points", "cube", "traditional"] {
            add(
                "high-gammon",
                &[
                    ("players", players.to_string()),
                    ("scoring", scoring.into()),
                ],
            );
        }
    }
    for players in 2..=4 {
        add("tric-trac", &[("players", players.to_string())]);
    }
    add("stumphog", &[]);
    for version in spelbord_engine::stortok::Version::NAMES {
        for players in 2..=5 {
            add(
                "stortok",
                &[
                    ("version", version.into()),
                    ("players", players.to_string()),
                ],
            );
        }
    }
    add("lager", &[]);
    pools
}

/// The pool with this id.
pub fn find_pool(id: &str) -> Option<Pool> {
    all_pools().into_iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(game: &str, pairs: &[&str]) -> Options {
        let g = spelbord_engine::find_game(game).unwrap();
        let pairs: Vec<String> = pairs.iter().map(|p| p.to_string()).collect();
        g.parse_options(&pairs).unwrap()
    }

    fn id(game: &str, pairs: &[&str]) -> Option<String> {
        pool_of(game, &options(game, pairs)).map(|p| p.id)
    }

    #[test]
    fn every_game_at_its_defaults_has_a_pool() {
        for g in spelbord_engine::games() {
            let pool = pool_of(g.id(), &options(g.id(), &[]));
            let pool = pool.unwrap_or_else(|| panic!("{} has no pool", g.id()));
            assert_eq!(pool.game, g.id());
            let players = g.new_state(&options(g.id(), &[])).unwrap().num_players();
            assert_eq!(pool.players, players, "{}", g.id());
        }
    }

    #[test]
    fn tables_games_split_money_and_match_and_the_mother_rule() {
        assert_eq!(id("backgammon", &[]).as_deref(), Some("backgammon"));
        assert_eq!(
            id("backgammon", &["cube=on"]).as_deref(),
            Some("backgammon")
        );
        assert_eq!(
            id("backgammon", &["match=7"]).as_deref(),
            Some("backgammon-match")
        );
        assert_eq!(
            id("backgammon", &["match=1", "cube=on"]).as_deref(),
            Some("backgammon-match")
        );
        assert_eq!(id("tawla", &[]).as_deref(), Some("tawla"));
        assert_eq!(id("tawla", &["cube=on"]).as_deref(), Some("tawla"));
        assert_eq!(id("tawla", &["match=3"]).as_deref(), Some("tawla-match"));
        assert_eq!(
            id("tawla", &["mother=off"]).as_deref(),
            Some("tawla-no-mother")
        );
        assert_eq!(
            id("tawla", &["mother=off", "match=5"]).as_deref(),
            Some("tawla-no-mother-match")
        );
    }

    #[test]
    fn high_gammon_and_tric_trac_split_by_players_and_scoring() {
        assert_eq!(
            id("high-gammon", &[]).as_deref(),
            Some("high-gammon-4-points")
        );
        assert_eq!(
            id("high-gammon", &["players=3", "scoring=cube"]).as_deref(),
            Some("high-gammon-3-cube")
        );
        assert_eq!(
            id(
                "high-gammon",
                &["players=2", "scoring=traditional", "doubles=repeat"]
            )
            .as_deref(),
            Some("high-gammon-2-traditional")
        );
        assert_eq!(
            id("tric-trac", &["players=2"]).as_deref(),
            Some("tric-trac-2")
        );
        assert_eq!(
            id("tric-trac", &["players=3", "doubles=underside"]).as_deref(),
            Some("tric-trac-3")
        );
    }

    #[test]
    fn stortok_splits_by_version_and_players_and_variants_are_unrated() {
        assert_eq!(id("stortok", &[]).as_deref(), Some("stortok-1847-3"));
        assert_eq!(
            id("stortok", &["version=1858", "players=5", "cap=9000"]).as_deref(),
            Some("stortok-1858-5")
        );
        assert_eq!(id("stortok", &["cap=100"]), None);
        assert_eq!(id("stumphog", &[]).as_deref(), Some("stumphog"));
        assert_eq!(id("stumphog", &["turns=5000"]).as_deref(), Some("stumphog"));
        assert_eq!(id("stumphog", &["win=20"]), None);
        assert_eq!(id("stumphog", &["turns=100"]), None);
        assert_eq!(id("lager", &[]).as_deref(), Some("lager"));
        assert_eq!(id("lager", &["max_plies=400"]).as_deref(), Some("lager"));
        assert_eq!(id("lager", &["columns=6"]), None);
        assert_eq!(id("lager", &["captured=return"]), None);
        assert_eq!(id("lager", &["opening=any"]), None);
        assert_eq!(pool_of("chess", &Options::default()), None);
    }

    #[test]
    fn the_list_holds_each_pool_once() {
        let pools = all_pools();
        assert_eq!(pools.len(), 4 + 2 + 9 + 3 + 1 + 16 + 1);
        let mut ids: Vec<_> = pools.iter().map(|p| p.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), pools.len());
        assert_eq!(find_pool("tawla").map(|p| p.players), Some(2));
        assert_eq!(
            find_pool("high-gammon-3-points").map(|p| p.players),
            Some(3)
        );
        assert_eq!(find_pool("nope"), None);
    }
}
