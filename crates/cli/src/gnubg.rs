//! The `gnubg:HOST:PORT` arena agent: GNU Backgammon as an opponent,
//! through its external-player socket (its `external HOST:PORT` command).
//! Each move is asked with a FIBS `board:` line; GNU Backgammon answers
//! with its play (`13/8 6/5*`, bar 25, off 0), matched to the legal play
//! that leaves the same position. The agent plays cubeless: it never
//! doubles and takes every double (the arena's measurements are cubeless
//! money games).

use anyhow::{Context, Result, bail};
use spelbord_ai::Agent;
use spelbord_engine::backgammon::{BackgammonBoard, BackgammonState};
use spelbord_engine::tables::{BAR, OFF, Phase, Play, StepBoard, TablesAction};
use spelbord_engine::{GameState, Player};
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

type Connection = Arc<Mutex<Option<BufReader<TcpStream>>>>;

/// One connection per address, shared by every agent and thread (GNU
/// Backgammon serves one connection at a time).
fn shared(addr: &str) -> Connection {
    static POOL: OnceLock<Mutex<HashMap<String, Connection>>> = OnceLock::new();
    let mut pool = POOL
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    pool.entry(addr.to_string()).or_default().clone()
}

fn connect(addr: &str) -> Result<BufReader<TcpStream>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpStream::connect(addr) {
            Ok(s) => {
                s.set_read_timeout(Some(Duration::from_secs(120)))?;
                return Ok(BufReader::new(s));
            }
            Err(e) if Instant::now() > deadline => {
                return Err(e).with_context(|| {
                    format!("connecting to GNU Backgammon at {addr} (start it as docs/ai.md says)")
                });
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// The FIBS board line for the player to move in `board` (his frame) with `dice`.
pub fn fibs_board(board: &BackgammonBoard, dice: [u8; 2]) -> String {
    let mut s = String::from("board:spelbord:gnubg:0:0:0:");
    s += &format!("{}:", -(board.bar(1) as i32));
    for n in 1..=24u8 {
        s += &format!("{}:", board.at(n));
    }
    s += &format!("{}:", board.bar(0));
    // Turn, dice (both players' fields), cube 1 in the middle (both may
    // double: GNU Backgammon 1.07 reads a board where neither may as one
    // with a double offered), not doubled, colour, direction, home, bar,
    // borne off, on the bar, can move, forced, Crawford, redoubles.
    s += &format!(
        "1:{}:{}:0:0:1:1:1:0:1:-1:0:25:{}:{}:{}:{}:0:0:0:0",
        dice[0],
        dice[1],
        board.off(0),
        board.off(1),
        board.bar(0),
        board.bar(1)
    );
    s
}

/// The board after GNU Backgammon's reply `text` (`from/to` pairs), or why not.
pub fn apply_reply(board: &BackgammonBoard, text: &str) -> Result<BackgammonBoard> {
    let mut b = *board;
    for pair in text.split_whitespace() {
        let pair = pair.trim_end_matches('*');
        let Some((from, to)) = pair.split_once('/') else {
            bail!("`{text}` is not a play");
        };
        let (from, to): (u8, u8) = (from.parse()?, to.trim_end_matches('*').parse()?);
        let ok_from = if from == BAR {
            b.bar(0) > 0
        } else {
            (1..=24).contains(&from) && b.at(from) > 0
        };
        let ok_to = to == OFF || ((1..=24).contains(&to) && b.at(to) >= -1 && to < from);
        if !ok_from || !ok_to {
            bail!("`{text}` does not fit the board");
        }
        b.apply_step(spelbord_engine::tables::Step {
            from,
            to,
            die: from.saturating_sub(to).clamp(1, 6),
        });
    }
    Ok(b)
}

/// GNU Backgammon at an address.
pub struct GnubgAgent {
    addr: String,
    conn: Connection,
}

impl GnubgAgent {
    /// Connects to GNU Backgammon at `addr` (HOST:PORT).
    pub fn new(addr: &str) -> Result<Self> {
        let agent = GnubgAgent {
            addr: addr.to_string(),
            conn: shared(addr),
        };
        let mut conn = agent.conn.lock().unwrap_or_else(|e| e.into_inner());
        if conn.is_none() {
            *conn = Some(connect(addr)?);
        }
        drop(conn);
        Ok(agent)
    }

    fn ask(&mut self, line: &str) -> Result<String> {
        let mut guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let conn = match &mut *guard {
            Some(c) => c,
            None => guard.insert(connect(&self.addr)?),
        };
        let mut reply = String::new();
        let read = conn
            .get_mut()
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| conn.read_line(&mut reply));
        match read {
            Ok(n) if n > 0 => Ok(reply.trim().to_string()),
            Ok(_) => {
                *guard = None;
                bail!("GNU Backgammon closed the connection")
            }
            Err(e) => {
                *guard = None;
                Err(e.into())
            }
        }
    }

    fn play(&mut self, state: &BackgammonState, dice: [u8; 2]) -> Result<Play> {
        let plays: Vec<Play> = state.with_plays(dice, |p| p.collect());
        if plays.len() == 1 {
            return Ok(plays[0]);
        }
        let board = state.board();
        let reply = self.ask(&fibs_board(board, dice))?;
        let want = apply_reply(board, &reply)?;
        plays
            .iter()
            .copied()
            .find(|p| {
                let mut b = *board;
                for &s in p.steps() {
                    b.apply_step(s);
                }
                b == want
            })
            .with_context(|| format!("GNU Backgammon's play `{reply}` is not legal here"))
    }
}

impl Agent<BackgammonState> for GnubgAgent {
    fn name(&self) -> String {
        format!("gnubg:{}", self.addr)
    }

    fn choose(&mut self, state: &BackgammonState) -> TablesAction {
        match state.phase() {
            Phase::Moving(dice) => match self.play(state, dice) {
                Ok(p) => TablesAction::Play(p),
                Err(e) => {
                    // An arena must go on: report and play the first legal play.
                    eprintln!("gnubg agent: {e:#}; playing the first legal play");
                    let mut actions = Vec::new();
                    state.legal_actions(&mut actions);
                    actions[0]
                }
            },
            Phase::CubeResponse => TablesAction::Take,
            _ => TablesAction::Roll,
        }
    }

    fn estimate(&mut self, _state: &BackgammonState, _player: Player) -> Option<f64> {
        None
    }
}

/// The `gnubg:HOST:PORT` agent for state type `S` (backgammon only).
pub fn gnubg_agent<S: GameState>(addr: &str) -> Result<Box<dyn Agent<S>>> {
    if TypeId::of::<S>() != TypeId::of::<BackgammonState>() {
        bail!("the gnubg agent plays backgammon only");
    }
    let agent: Box<dyn Agent<BackgammonState>> = Box::new(GnubgAgent::new(addr)?);
    let any: Box<dyn Any> = Box::new(agent);
    match any.downcast::<Box<dyn Agent<S>>>() {
        Ok(a) => Ok(*a),
        Err(_) => bail!("the gnubg agent plays backgammon only"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_as_gnu_backgammon_expects() {
        let b = BackgammonBoard::start();
        let line = fibs_board(&b, [3, 1]);
        let fields: Vec<&str> = line.split(':').collect();
        // `board`, names, match length and scores; the 26 board fields;
        // turn, dice, cube fields, and the 12 fields after them.
        assert_eq!(fields.len(), 6 + 26 + 21);
        assert_eq!(fields[6], "0");
        assert_eq!(fields[7], "-2"); // the opponent's back checkers on the mover's 1 point
        assert_eq!(fields[12], "5"); // the mover's 6 point
        assert_eq!(fields[30], "2"); // the mover's 24 point
        let after = apply_reply(&b, "8/5 6/5").unwrap();
        assert_eq!((after.at(5), after.at(6), after.at(8)), (2, 4, 2));
        assert!(apply_reply(&b, "7/4 6/5").is_err());
        assert!(apply_reply(&b, "25/22").is_err());
    }
}
