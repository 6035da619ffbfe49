//! `rafle dxp`: the DamExchange Protocol (DXP) over TCP, as Scan 3.1, Kingsrow, Dam and the
//! other Windows programs speak it. DXP is defined for international draughts (10x10) only.
//!
//! * [`message`]: the messages and their fixed-width text (a pure codec).
//! * [`framing`]: NUL-terminated frames out of a byte stream (glued and split reads, bounded).
//! * [`listen`] and [`connect`]: the engine playing games, as initiator (it sends the game
//!   requests) or follower (it answers them), on either end of the TCP connection.
//! * [`DxpPeer`]: a client for programs that drive a remote DXP engine themselves, message by
//!   message; [`RemoteEngine`] on top of it asks for moves with the whole game so far, as a
//!   referee does (`rafle match` plays DXP engines through it).
//!
//! Beyond Scan, no input ends the program: a malformed or out-of-order message, an unknown type or
//! an illegal move gets a chat `error: ...`, a log line and, during a game, a GAMEEND; a peer that
//! disconnects ends its game, and a listener waits for the next connection.

mod clock;
mod connection;
pub mod framing;
mod game;
mod host;
pub mod message;
mod peer;
mod record;
mod remote;

pub use peer::{DxpPeer, PeerError, PeerEvent};
pub use remote::RemoteEngine;

use crate::core::Color;
use crate::game::GameResult;
use crate::moves::Move;
use crate::notation::pdn::PdnResult;
use crate::position::Position;
use crate::rules::{BitsOf, International};
use crate::search::Limits;
use connection::Connection;
use host::{Host, SessionEnd};
use std::fmt;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::Duration;
use thiserror::Error;

/// The usual DXP port.
pub const DEFAULT_PORT: u16 = 27531;
/// The address used when none is given: loopback only.
pub const DEFAULT_HOST: &str = "127.0.0.1";
/// How long a failed `accept` waits before the next one (a full file table must not spin).
const ACCEPT_RETRY: Duration = Duration::from_millis(200);

/// Which side proposes the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Sends game requests (`R`) and decides the colours, time and start position.
    Initiator,
    /// Answers game requests.
    Follower,
}

/// Settings of a DXP session.
#[derive(Clone, Debug)]
pub struct DxpOptions {
    /// Our name in GAMEREQ / GAMEACC (cut to 32 characters).
    pub name: String,
    /// Initiator or follower.
    pub role: Role,
    /// Games to play before stopping (all connections together); `None`: no limit (a follower
    /// serves until stopped).
    pub games: Option<u32>,
    /// Minutes per period: requested as initiator; as follower, our own clock when a request
    /// gives 0 minutes.
    pub minutes: u16,
    /// Moves per period (0: the whole game), with `minutes`.
    pub moves: u16,
    /// Initiator: start position of every game (`None`: the initial position).
    pub start: Option<Position<International>>,
    /// Initiator: our colour in the first game; colours alternate.
    pub first_color: Color,
    /// Fixed search limits instead of the clock (depth, nodes or time per move).
    pub limits: Option<Limits>,
    /// The engine: evaluation, threads, table and endgame tables.
    pub engine: crate::player::options::Setup,
    /// Search on the opponent's time.
    pub ponder: bool,
    /// Opening book: our moves come from it while the position is in it.
    pub book: Option<std::sync::Arc<crate::book::Book<International>>>,
    /// How book moves are chosen (randomness while the game is young).
    pub book_rule: crate::book::BookRule,
    /// Strength level.
    pub skill: crate::player::skill::Skill,
    /// How long the initiator waits for the answer to a game request.
    pub accept_timeout: Duration,
    /// How long past its clock a timed peer may take for a move before it loses on time.
    pub grace: Duration,
    /// How long a silent peer is waited for where no clock applies (a follower between games,
    /// an untimed peer's move) before the connection is given up.
    pub idle_timeout: Duration,
}

impl Default for DxpOptions {
    fn default() -> Self {
        DxpOptions {
            name: format!("Rafle {}", env!("CARGO_PKG_VERSION")),
            role: Role::Follower,
            games: None,
            minutes: 5,
            moves: 0,
            start: None,
            first_color: Color::White,
            limits: None,
            engine: crate::player::options::Setup::default(),
            ponder: false,
            book: None,
            book_rule: crate::book::BookRule::default(),
            skill: crate::player::skill::Skill::default(),
            accept_timeout: Duration::from_secs(60),
            grace: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(30 * 60),
        }
    }
}

/// A finished game, as reported to the caller of [`listen`] / [`connect`].
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Number of the game in this session, from 1.
    pub number: u32,
    /// Our colour.
    pub ours: Color,
    /// The peer's name.
    pub opponent: String,
    /// Start position.
    pub start: Position<International>,
    /// Moves played.
    pub moves: Vec<Move<BitsOf<International>>>,
    /// The result; `None` when the game has none (a protocol error, a lost connection, a peer
    /// that ended the game with reason 0).
    pub result: Option<GameResult>,
    /// Why the game ended.
    pub reason: String,
}

impl fmt::Display for GameReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = PdnResult::from(self.result).token::<International>();
        write!(
            f,
            "game {}: we play {} against '{}': {result} after {} plies ({})",
            self.number,
            self.ours,
            self.opponent,
            self.moves.len(),
            self.reason
        )
    }
}

/// Results of a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games without a result.
    pub unknown: u32,
}

impl Summary {
    fn add(&mut self, game: &GameReport) {
        match game.result.map(|result| result.half_points(game.ours)) {
            Some(2) => self.wins += 1,
            Some(1) => self.draws += 1,
            Some(_) => self.losses += 1,
            None => self.unknown += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses + self.unknown
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} wins {} draws {} losses {} unknown {}",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            self.unknown
        )
    }
}

/// Why a session could not run.
#[derive(Debug, Error)]
pub enum DxpError {
    /// The address does not resolve.
    #[error("bad address '{address}': {reason}")]
    Address {
        /// The address given.
        address: String,
        /// Why it is not usable.
        reason: String,
    },
    /// Listening failed (address in use, no permission).
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// The system's error.
        source: std::io::Error,
    },
    /// Connecting failed.
    #[error("cannot connect to {address}: {source}")]
    Connect {
        /// The address.
        address: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// Resolves `host:port`, `host` (default port) or `port` (default host); a host may be a name.
///
/// # Errors
/// [`DxpError::Address`] if nothing resolves.
pub fn resolve(address: &str) -> Result<Vec<SocketAddr>, DxpError> {
    let bad = |reason: String| DxpError::Address {
        address: address.to_string(),
        reason,
    };
    let text = address.trim();
    if text.is_empty() {
        return Err(bad("empty address".to_string()));
    }
    let full = if text.bytes().all(|b| b.is_ascii_digit()) {
        format!("{DEFAULT_HOST}:{text}")
    } else if let Ok(ip) = text.parse::<std::net::IpAddr>() {
        SocketAddr::new(ip, DEFAULT_PORT).to_string()
    } else if text.contains(':') {
        text.to_string()
    } else {
        format!("{text}:{DEFAULT_PORT}")
    };
    let addresses: Vec<SocketAddr> = full
        .to_socket_addrs()
        .map_err(|error| bad(error.to_string()))?
        .collect();
    if addresses.is_empty() {
        return Err(bad("no address found".to_string()));
    }
    Ok(addresses)
}

/// Binds a listener on `address` (see [`resolve`]).
///
/// # Errors
/// A bad address or a failed bind.
pub fn bind(address: &str) -> Result<TcpListener, DxpError> {
    let mut last = None;
    for candidate in resolve(address)? {
        match TcpListener::bind(candidate) {
            Ok(listener) => {
                if !candidate.ip().is_loopback() {
                    log::warn!("listening on {candidate}: reachable from other machines");
                }
                return Ok(listener);
            }
            Err(source) => {
                last = Some(DxpError::Listen {
                    address: candidate,
                    source,
                })
            }
        }
    }
    Err(last.expect("resolve returns at least one address"))
}

/// Serves DXP connections on `listener`, one at a time, until `options.games` are played (or
/// forever). `report` hears about every finished game.
pub fn listen(
    listener: &TcpListener,
    options: &DxpOptions,
    report: &mut dyn FnMut(&GameReport),
) -> Summary {
    let mut summary = Summary::default();
    let mut count = |game: &GameReport| {
        summary.add(game);
        report(game);
    };
    let mut host = Host::new(options, &mut count);
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(error) => {
                log::warn!("accept failed: {error}");
                std::thread::sleep(ACCEPT_RETRY);
                continue;
            }
        };
        match Connection::new(stream) {
            Ok(conn) => {
                if host.serve(conn) == SessionEnd::GamesLimit {
                    break;
                }
            }
            Err(error) => log::warn!("connection setup failed: {error}"),
        }
    }
    drop(host);
    summary
}

/// Connects to `address` and plays there until `options.games` are played or the peer stops.
///
/// # Errors
/// A bad address or a failed connection.
pub fn connect(
    address: &str,
    options: &DxpOptions,
    report: &mut dyn FnMut(&GameReport),
) -> Result<Summary, DxpError> {
    let stream = open(address)?;
    let conn = Connection::new(stream).map_err(|source| DxpError::Connect {
        address: address.to_string(),
        source,
    })?;
    let mut summary = Summary::default();
    let mut count = |game: &GameReport| {
        summary.add(game);
        report(game);
    };
    let mut host = Host::new(options, &mut count);
    host.serve(conn);
    drop(host);
    Ok(summary)
}

/// A TCP connection to `address` (see [`resolve`]), trying each resolved address.
fn open(address: &str) -> Result<TcpStream, DxpError> {
    let mut last = None;
    for candidate in resolve(address)? {
        match TcpStream::connect(candidate) {
            Ok(stream) => return Ok(stream),
            Err(source) => {
                last = Some(DxpError::Connect {
                    address: candidate.to_string(),
                    source,
                })
            }
        }
    }
    Err(last.expect("resolve returns at least one address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let one = |text: &str| resolve(text).expect(text)[0];
        assert_eq!(one("27000"), "127.0.0.1:27000".parse().expect("valid"));
        assert_eq!(one("127.0.0.1"), "127.0.0.1:27531".parse().expect("valid"));
        assert_eq!(
            one("127.0.0.1:1234"),
            "127.0.0.1:1234".parse().expect("valid")
        );
        assert_eq!(one("::1"), "[::1]:27531".parse().expect("valid"));
        assert_eq!(one("[::1]:99"), "[::1]:99".parse().expect("valid"));
        assert!(resolve("127.0.0.1:99999").is_err());
        assert!(resolve("").is_err());
    }
}
