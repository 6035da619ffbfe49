//! [`DxpPeer`]: a remote DXP engine driven by a program of ours, which acts as the initiator and
//! keeps the game record itself (`rafle match` plays DXP engines this way).
//!
//! ```no_run
//! use rafle::core::Color;
//! use rafle::dxp::{DxpPeer, PeerEvent};
//! use rafle::position::Position;
//! use std::time::Duration;
//!
//! # fn main() -> Result<(), rafle::dxp::PeerError> {
//! let mut peer = DxpPeer::connect("127.0.0.1:27531", "Rafle match")?;
//! let mut position = Position::start();
//! // The remote engine plays Black, 5 minutes for the game.
//! peer.request_game(&position, Color::Black, 5, 0)?;
//! let ours = position.legal_moves()[0];
//! peer.send_move(&ours, 1)?;
//! position = position.play(&ours);
//! match peer.next_move(&position, Duration::from_secs(330))? {
//!     PeerEvent::Move { mv, seconds } => position = position.play(&mv),
//!     PeerEvent::GameEnd(end) => println!("the peer ended the game: {end:?}"),
//! }
//! # Ok(()) }
//! ```

use super::connection::{Connection, ConnectionEvent};
use super::message::{
    Acceptance, BackAnswer, EndReason, GameEnd, GameRequest, Message, MoveMessage, VERSION,
    board_of,
};
use crate::core::Color;
use crate::moves::Move;
use crate::notation::fen;
use crate::position::Position;
use crate::rules::{BitsOf, International};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How long [`DxpPeer::request_game`] waits for the answer.
pub const ACCEPT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long [`DxpPeer::end_game`] waits for the peer's GAMEEND.
pub const END_TIMEOUT: Duration = Duration::from_secs(10);

/// What the remote engine did on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerEvent {
    /// It played a (legal) move, taking `seconds` by its own account.
    Move {
        /// The move, resolved against the position given.
        mv: Move<BitsOf<International>>,
        /// Its reported thinking time.
        seconds: u16,
    },
    /// It ended the game (already acknowledged with GAMEEND reason 0, the same stop code).
    GameEnd(GameEnd),
}

/// Why talking to the remote engine failed.
#[derive(Debug, Error)]
pub enum PeerError {
    /// The address or the connection failed.
    #[error(transparent)]
    Connect(#[from] super::DxpError),
    /// The connection was closed or broke.
    #[error("connection closed: {0}")]
    Closed(String),
    /// The peer did not answer in time.
    #[error("no {0} from the peer in time")]
    Timeout(&'static str),
    /// The game request was refused.
    #[error("game refused by '{name}': {acceptance:?}")]
    Refused {
        /// The peer's name.
        name: String,
        /// Its code.
        acceptance: Acceptance,
    },
    /// The peer sent something that does not fit (a malformed or unexpected message).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The peer's move is not legal in the position.
    #[error("illegal move {mv} in {fen}")]
    IllegalMove {
        /// The move as sent (Hub notation).
        mv: String,
        /// The position (FEN).
        fen: String,
    },
}

/// A remote DXP engine, with us as the initiator.
pub struct DxpPeer {
    conn: Connection,
    name: String,
    remote_name: String,
}

impl DxpPeer {
    /// Connects to a DXP engine listening at `address` (`host:port`, see [`super::resolve`]);
    /// `name` is ours in game requests.
    ///
    /// # Errors
    /// [`PeerError::Connect`].
    pub fn connect(address: &str, name: &str) -> Result<Self, PeerError> {
        let stream = super::open(address)?;
        let conn = Connection::new(stream).map_err(|source| super::DxpError::Connect {
            address: address.to_string(),
            source,
        })?;
        Ok(DxpPeer {
            conn,
            name: name.to_string(),
            remote_name: String::new(),
        })
    }

    /// The remote engine's name, once it accepted a game.
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }

    /// Proposes a game from `start` in which the remote engine plays `remote_color`, with
    /// `minutes` per `moves` moves (0: the whole game), and waits for the acceptance.
    ///
    /// Ask `moves = 0` for complete games: Scan also takes `moves` as the game length and
    /// adjudicates by itself when it is reached.
    ///
    /// # Errors
    /// A refusal, a timeout, a closed connection.
    pub fn request_game(
        &mut self,
        start: &Position<International>,
        remote_color: Color,
        minutes: u16,
        moves: u16,
    ) -> Result<(), PeerError> {
        let request = Message::GameRequest(GameRequest {
            version: VERSION,
            initiator: self.name.clone(),
            follower_color: remote_color,
            minutes,
            moves,
            setup: (*start != Position::start()).then(|| board_of(start)),
        });
        self.send(&request)?;
        let deadline = Instant::now() + ACCEPT_TIMEOUT;
        loop {
            match self.next(deadline, "game acceptance")? {
                Message::GameAccept(accept) => {
                    self.remote_name = accept.follower.clone();
                    if accept.acceptance == Acceptance::Accepted {
                        return Ok(());
                    }
                    return Err(PeerError::Refused {
                        name: accept.follower,
                        acceptance: accept.acceptance,
                    });
                }
                other => self.unexpected(&other)?,
            }
        }
    }

    /// Sends our move (legal in the current position), with the seconds we spent on it.
    ///
    /// # Errors
    /// The connection is closed.
    pub fn send_move(
        &mut self,
        mv: &Move<BitsOf<International>>,
        seconds: u16,
    ) -> Result<(), PeerError> {
        self.send(&Message::Move(MoveMessage::of(mv, seconds)))
    }

    /// Waits up to `timeout` for the remote engine's move in `position` (where it is to move).
    /// Chats are logged; take-back requests are answered "not supported"; a GAMEEND is
    /// acknowledged and returned.
    ///
    /// # Errors
    /// A timeout, a closed connection, an illegal move ([`PeerError::IllegalMove`]) or another
    /// protocol error. The caller decides how the game ends (see [`Self::end_game`]).
    pub fn next_move(
        &mut self,
        position: &Position<International>,
        timeout: Duration,
    ) -> Result<PeerEvent, PeerError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.next(deadline, "move")? {
                Message::Move(message) => {
                    return match message.resolve(position) {
                        Some(mv) => Ok(PeerEvent::Move {
                            mv,
                            seconds: message.seconds,
                        }),
                        None => Err(PeerError::IllegalMove {
                            mv: message.notation(),
                            fen: fen::format(position),
                        }),
                    };
                }
                Message::GameEnd(end) => {
                    self.send(&Message::GameEnd(GameEnd {
                        reason: EndReason::Unknown,
                        stop: end.stop,
                    }))?;
                    return Ok(PeerEvent::GameEnd(end));
                }
                other => self.unexpected(&other)?,
            }
        }
    }

    /// Ends the game with `reason` (our view) and `stop` (no further game), and waits for the
    /// peer's GAMEEND, which is returned (`None` if it did not come in time).
    ///
    /// # Errors
    /// The connection is closed before our GAMEEND could be sent.
    pub fn end_game(
        &mut self,
        reason: EndReason,
        stop: bool,
    ) -> Result<Option<GameEnd>, PeerError> {
        self.send(&Message::GameEnd(GameEnd { reason, stop }))?;
        let deadline = Instant::now() + END_TIMEOUT;
        loop {
            match self.next(deadline, "game end") {
                Ok(Message::GameEnd(end)) => return Ok(Some(end)),
                Ok(Message::Chat(text)) => log::info!("{}: chat: {text}", self.conn.peer()),
                // A move the peer sent before it saw our GAMEEND.
                Ok(other) => log::debug!("{}: after GAMEEND, ignored: {other}", self.conn.peer()),
                Err(PeerError::Timeout(_) | PeerError::Closed(_)) => return Ok(None),
                Err(PeerError::Protocol(what)) => log::debug!("after GAMEEND: {what}"),
                Err(error) => return Err(error),
            }
        }
    }

    /// Closes the connection (dropping the peer does the same).
    pub fn close(mut self) {
        self.conn.close();
    }

    /// Sends a chat line.
    ///
    /// # Errors
    /// The connection is closed.
    pub fn chat(&mut self, text: &str) -> Result<(), PeerError> {
        self.send(&Message::Chat(text.to_string()))
    }

    fn send(&mut self, message: &Message) -> Result<(), PeerError> {
        self.conn
            .send(message)
            .map_err(|error| PeerError::Closed(error.to_string()))
    }

    /// The next message before `deadline`.
    fn next(&mut self, deadline: Instant, waiting_for: &'static str) -> Result<Message, PeerError> {
        loop {
            match self.conn.next(Some(deadline)) {
                None => return Err(PeerError::Timeout(waiting_for)),
                Some(ConnectionEvent::Message(message)) => return Ok(message),
                Some(ConnectionEvent::Malformed { text, error, .. }) => {
                    return Err(PeerError::Protocol(format!(
                        "bad message '{text}': {error}"
                    )));
                }
                Some(ConnectionEvent::Closed(reason)) => return Err(PeerError::Closed(reason)),
                Some(ConnectionEvent::SearchDone { .. }) => {}
            }
        }
    }

    /// Handles a message that is not the one awaited: chats and take-backs are answered, the rest
    /// is an error.
    fn unexpected(&mut self, message: &Message) -> Result<(), PeerError> {
        match message {
            Message::Chat(text) => {
                log::info!("{}: chat: {text}", self.conn.peer());
                Ok(())
            }
            Message::BackRequest(_) => self.send(&Message::BackAccept(BackAnswer::NotSupported)),
            Message::GameAccept(_) | Message::BackAccept(_) => {
                log::info!("{}: stray '{message}' ignored", self.conn.peer());
                Ok(())
            }
            other => Err(PeerError::Protocol(format!("unexpected message '{other}'"))),
        }
    }
}
