//! Neural evaluation networks: the weights format, the network, the input
//! encodings, search on the networks (0-ply and n-ply with move filtering),
//! the `net` agent and TD(λ) self-play training.

mod agent;
mod contact;
pub mod cube;
pub mod encode;
pub mod eval;
pub mod format;
mod high_gammon;
pub mod label;
pub mod mlp;
pub mod rollout;
mod seat_agent;
pub mod seat_eval;
pub mod seat_rollout;
pub mod seat_train;
pub mod seats;
mod stumphog;
mod tawla;
pub mod train;

pub use agent::{NetAgent, net_agent};
pub use encode::{Encoding, NetVariant};
pub use eval::{Evaluator, Probs, equity};
pub use format::{NetFile, NetFileError, Outputs};
pub use mlp::Mlp;
pub use seat_agent::SeatNetAgent;
pub use seats::{Layout, SeatNet, SeatValues};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The backgammon network shipped in the binary.
static BACKGAMMON: &[u8] = include_bytes!("../../weights/backgammon.net");
/// The backgammon network shipped before the current one (encoding 1,
/// 840,000 self-play games): the review's second opinion (`with=older`).
static BACKGAMMON_OLDER: &[u8] = include_bytes!("../../weights/backgammon-older.net");
/// The Tawla network shipped in the binary.
static TAWLA: &[u8] = include_bytes!("../../weights/tawla.net");

/// The name (for `file=` and `with=`) of the older shipped network.
pub const OLDER: &str = "older";

/// Games with a network shipped in the binary (High-O Gammon and
/// Tric-Trac: one for each number of players).
pub const SHIPPED: &[&str] = &[
    "backgammon",
    "tawla",
    "high-gammon",
    "tric-trac",
    "stumphog",
];

/// Why no network could be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetLoadError {
    /// No network is shipped for this game.
    NoNet(String),
    /// The file could not be read.
    Io(String, String),
    /// The file is not a valid network file.
    Format(String, NetFileError),
    /// The file holds a network for another game or encoding.
    Mismatch {
        /// Where the network came from.
        source: String,
        /// What was expected (game and encoding).
        expected: (String, u16),
        /// What the file holds.
        found: (String, u16),
    },
}

impl std::fmt::Display for NetLoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetLoadError::NoNet(g) => {
                write!(f, "no network for {g} (networks: {})", SHIPPED.join(", "))
            }
            NetLoadError::Io(p, e) => write!(f, "{p}: {e}"),
            NetLoadError::Format(p, e) => write!(f, "{p}: {e}"),
            NetLoadError::Mismatch {
                source,
                expected,
                found,
            } => write!(
                f,
                "{source} is a network for {} encoding {}, not {} encoding {}",
                found.0, found.1, expected.0, expected.1
            ),
        }
    }
}

impl std::error::Error for NetLoadError {}

type Cache = Mutex<HashMap<String, Arc<NetFile>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The network for `V`: the shipped one (`file` None), the older shipped
/// one ([`OLDER`], backgammon) or the one in a file, checked against the
/// game and its encoding; loaded once.
pub fn load<V: NetVariant>(file: Option<&str>) -> Result<Arc<NetFile>, NetLoadError> {
    if file == Some(OLDER) {
        return load_cached(
            format!("{}|{OLDER}", V::ID),
            None,
            match V::ID {
                "backgammon" => Ok((
                    "the older shipped backgammon network".to_string(),
                    BACKGAMMON_OLDER,
                )),
                _ => Err(NetLoadError::NoNet(format!("{} ({OLDER})", V::ID))),
            },
            |net, source| check::<V>(net, source).map(|_| ()),
        );
    }
    let shipped = match V::ID {
        "backgammon" => Some(("the shipped backgammon network".to_string(), BACKGAMMON)),
        "tawla" => Some(("the shipped Tawla network".to_string(), TAWLA)),
        _ => None,
    };
    load_cached(
        format!("{}|{}", V::ID, file.unwrap_or("")),
        file,
        shipped.ok_or_else(|| NetLoadError::NoNet(V::ID.into())),
        |net, source| check::<V>(net, source).map(|_| ()),
    )
}

/// The network in `file`, or else the `shipped` bytes, read and checked
/// once per `key` and kept in the process-wide cache.
fn load_cached(
    key: String,
    file: Option<&str>,
    shipped: Result<(String, &'static [u8]), NetLoadError>,
    check: impl FnOnce(&NetFile, &str) -> Result<(), NetLoadError>,
) -> Result<Arc<NetFile>, NetLoadError> {
    if let Some(n) = cache()
        .lock()
        .map_err(|_| NetLoadError::NoNet(key.clone()))?
        .get(&key)
    {
        return Ok(n.clone());
    }
    let (source, bytes): (String, Vec<u8>) = match file {
        Some(path) => (
            path.to_string(),
            std::fs::read(path).map_err(|e| NetLoadError::Io(path.into(), e.to_string()))?,
        ),
        None => {
            let (source, bytes) = shipped?;
            (source, bytes.to_vec())
        }
    };
    let net = NetFile::from_bytes(&bytes).map_err(|e| NetLoadError::Format(source.clone(), e))?;
    check(&net, &source)?;
    let net = Arc::new(net);
    if let Ok(mut c) = cache().lock() {
        c.insert(key, net.clone());
    }
    Ok(net)
}

/// Checks that `net` is for `V`'s game and one of its encodings, and
/// returns that encoding.
pub fn check<V: NetVariant>(
    net: &NetFile,
    source: &str,
) -> Result<Encoding<V::Board>, NetLoadError> {
    match V::encoding(net.encoding) {
        Some(e) if net.game == V::ID && net.net.inputs() == e.inputs => Ok(e),
        _ => Err(NetLoadError::Mismatch {
            source: source.into(),
            expected: (V::ID.into(), V::NEWEST.version),
            found: (net.game.clone(), net.encoding),
        }),
    }
}

/// The shipped seat network of `game` for `players` players, if any.
fn shipped_seat_net(game: &str, players: usize) -> Option<&'static [u8]> {
    Some(match (game, players) {
        ("high-gammon", 2) => include_bytes!("../../weights/high-gammon-2.net"),
        ("high-gammon", 3) => include_bytes!("../../weights/high-gammon-3.net"),
        ("high-gammon", 4) => include_bytes!("../../weights/high-gammon-4.net"),
        ("tric-trac", 2) => include_bytes!("../../weights/tric-trac-2.net"),
        ("tric-trac", 3) => include_bytes!("../../weights/tric-trac-3.net"),
        ("tric-trac", 4) => include_bytes!("../../weights/tric-trac-4.net"),
        ("stumphog", 2) => include_bytes!("../../weights/stumphog.net"),
        _ => return None,
    })
}

/// The seat network of `game` for `players` players: the shipped one
/// (`file` None) or the one in a file, checked against the game, its
/// encoding, inputs and outputs; loaded once.
pub fn load_seat_net<S: SeatNet>(
    game: &str,
    players: usize,
    file: Option<&str>,
) -> Result<Arc<NetFile>, NetLoadError> {
    let shipped = shipped_seat_net(game, players)
        .map(|b| (format!("the shipped {game} network"), b))
        .ok_or_else(|| NetLoadError::NoNet(format!("{game} with {players} players")));
    let layout = S::layout(game, players);
    load_cached(
        format!("{game}/{players}|{}", file.unwrap_or("")),
        file,
        shipped,
        |net, source| {
            if net.game != game
                || net.encoding != layout.encoding
                || net.outputs != layout.outputs
                || net.net.inputs() != layout.inputs
            {
                return Err(NetLoadError::Mismatch {
                    source: source.into(),
                    expected: (format!("{game} with {players} players"), layout.encoding),
                    found: (net.game.clone(), net.encoding),
                });
            }
            Ok(())
        },
    )
}

/// Whether game `game` played by `players` has a network (shipped, or in
/// `file` when given).
pub fn available(game: &str, players: usize, file: Option<&str>) -> Result<(), NetLoadError> {
    use spelbord_engine::high_gammon::HgState;
    use spelbord_engine::stumphog::StumphogState;
    match game {
        "backgammon" => load::<spelbord_engine::backgammon::BackgammonRules>(file).map(|_| ()),
        "tawla" => load::<spelbord_engine::tawla::TawlaRules>(file).map(|_| ()),
        "high-gammon" | "tric-trac" => load_seat_net::<HgState>(game, players, file).map(|_| ()),
        "stumphog" => load_seat_net::<StumphogState>(game, 2, file).map(|_| ()),
        other => Err(NetLoadError::NoNet(other.into())),
    }
}

/// What [`bench_backgammon`] measured on one thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetBench {
    /// The network's encoding.
    pub encoding: u16,
    /// Positions encoded and evaluated.
    pub positions: u64,
    /// CPU seconds they took.
    pub cpu_seconds: f64,
    /// CPU nanoseconds per position of encoding alone.
    pub encode_ns: f64,
}

/// Measures the backgammon network's speed on this thread: positions
/// (candidate plays of random games' rolls, encoded and evaluated in one
/// batch per roll) for about `seconds`, then the same positions encoded
/// only, for about `seconds` more.
pub fn bench_backgammon(
    seconds: f64,
    seed: u64,
    file: Option<&str>,
) -> Result<NetBench, NetLoadError> {
    use rand::Rng;
    use spelbord_engine::backgammon::{BackgammonBoard, BackgammonRules};
    use spelbord_engine::tables::{TablesVariant, dice};
    let net = load::<BackgammonRules>(file)?;
    let encoding = check::<BackgammonRules>(&net, file.unwrap_or("the shipped network"))?;
    let mut ev = Evaluator::new(&net.net, encoding, BackgammonRules);
    // The rolls' candidate boards of a few random games, turned to the opponent.
    let mut rng = spelbord_engine::rng::seeded(seed);
    let mut batches: Vec<Vec<BackgammonBoard>> = Vec::new();
    while batches.len() < 2_000 {
        let mut board = BackgammonRules.start_board();
        for _ in 0..400 {
            let cands = ev.candidates(&board, dice::roll(&mut rng));
            let boards: Vec<BackgammonBoard> = cands
                .iter()
                .filter(|c| c.end.is_none())
                .map(|c| {
                    let mut b = c.board;
                    BackgammonRules::flip(&mut b);
                    b
                })
                .collect();
            if boards.is_empty() {
                break;
            }
            board = boards[rng.random_range(0..boards.len())];
            batches.push(boards);
        }
    }
    let cpu = cpu_time::ThreadTime::now();
    let mut positions = 0u64;
    while cpu.elapsed().as_secs_f64() < seconds {
        for b in &batches {
            positions += ev.on_roll(b).len() as u64;
        }
    }
    let cpu_seconds = cpu.elapsed().as_secs_f64();
    let mut x = vec![0.0f32; encoding.inputs];
    let mut encoded = 0u64;
    let cpu = cpu_time::ThreadTime::now();
    while cpu.elapsed().as_secs_f64() < seconds {
        for board in batches.iter().flatten() {
            (encoding.encode)(std::hint::black_box(board), &mut x);
            std::hint::black_box(&x);
        }
        encoded += batches.iter().map(|b| b.len() as u64).sum::<u64>();
    }
    Ok(NetBench {
        encoding: encoding.version,
        positions,
        cpu_seconds,
        encode_ns: 1e9 * cpu.elapsed().as_secs_f64() / encoded.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spelbord_engine::backgammon::BackgammonRules;

    #[test]
    fn the_shipped_tawla_network_loads_and_plays() {
        use spelbord_engine::tawla::{Tawla, TawlaRules};
        let net = load::<TawlaRules>(None).unwrap();
        assert_eq!((net.game.as_str(), net.encoding), ("tawla", 2));
        assert_eq!(net.net.sizes()[0], TawlaRules::NEWEST.inputs);
        assert_eq!(net.games_trained, 3_820_000);
        assert!(available("tawla", 2, None).is_ok());
        // A backgammon network is refused for Tawla.
        let bg = format!("{}/weights/backgammon.net", env!("CARGO_MANIFEST_DIR"));
        assert!(matches!(
            load::<TawlaRules>(Some(&bg)),
            Err(NetLoadError::Mismatch { .. })
        ));
        for spec in ["net", "net:ply=1"] {
            assert!(crate::make_agent::<Tawla>(spec, 1).is_ok(), "{spec}");
        }
    }

    #[test]
    fn the_shipped_seat_networks_load_and_play() {
        use spelbord_engine::high_gammon::{HighGammon, TricTrac};
        use spelbord_engine::stumphog::Stumphog;
        for game in ["high-gammon", "tric-trac"] {
            for players in 2..=4 {
                assert!(available(game, players, None).is_ok(), "{game} {players}");
            }
        }
        assert!(available("stumphog", 2, None).is_ok());
        for spec in ["net", "net:ply=1"] {
            for players in 2..=4 {
                assert!(crate::make_agent_for::<HighGammon>(spec, players, 1).is_ok());
                assert!(crate::make_agent_for::<TricTrac>(spec, players, 1).is_ok());
            }
            assert!(crate::make_agent::<Stumphog>(spec, 1).is_ok());
        }
        // A two-player network is refused for three players, and for the
        // other game.
        let two = format!("{}/weights/high-gammon-2.net", env!("CARGO_MANIFEST_DIR"));
        use spelbord_engine::high_gammon::HgState;
        assert!(load_seat_net::<HgState>("high-gammon", 2, Some(&two)).is_ok());
        for (game, players) in [("high-gammon", 3), ("tric-trac", 2)] {
            assert!(matches!(
                load_seat_net::<HgState>(game, players, Some(&two)),
                Err(NetLoadError::Mismatch { .. })
            ));
        }
    }

    #[test]
    fn the_shipped_backgammon_network_loads() {
        let net = load::<BackgammonRules>(None).unwrap();
        assert_eq!(net.game, "backgammon");
        assert_eq!(net.net.sizes()[0], 221);
        assert_eq!(net.encoding, 2);
        assert!(matches!(
            available("lager", 2, None),
            Err(NetLoadError::NoNet(_))
        ));
        assert!(matches!(
            load::<BackgammonRules>(Some("/nonexistent/x.net")),
            Err(NetLoadError::Io(..))
        ));
    }
}
