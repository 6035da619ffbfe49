//! [`RemoteEngine`]: a DXP engine as one player of games that a referee runs, asked for a move
//! with the whole game so far, as the Hub protocol is (`rafle match` plays DXP engines this way).
//!
//! The referee never speaks DXP: [`RemoteEngine::think`] sends the game request when a game
//! starts (with the position reached, if moves were played before the remote engine's first
//! turn), passes on the opponent's move, and waits for the reply. [`RemoteEngine::end_game`]
//! tells the remote engine the result.

use super::message::{EndReason, GameEnd};
use super::peer::{DxpPeer, PeerError, PeerEvent};
use super::record::DxpMove;
use crate::core::Color;
use crate::position::Position;
use crate::rules::International;
use std::time::Duration;

/// The game the remote engine is playing.
#[derive(Clone, Copy, Debug)]
struct RemoteGame {
    /// Plies of the referee's game the remote engine knows (played or received).
    known: usize,
    /// The remote engine's colour.
    color: Color,
}

/// A DXP engine listening at an address, played as the follower of our game requests.
pub struct RemoteEngine {
    address: String,
    name: String,
    minutes: u16,
    peer: Option<DxpPeer>,
    game: Option<RemoteGame>,
}

impl RemoteEngine {
    /// An engine at `address` (`host:port`); `name` is ours in game requests, `minutes` the time
    /// per game they announce (the whole game is one period). Nothing is connected before the
    /// first [`Self::think`].
    pub fn new(address: &str, name: &str, minutes: u16) -> Self {
        RemoteEngine {
            address: address.to_string(),
            name: name.to_string(),
            minutes,
            peer: None,
            game: None,
        }
    }

    /// The remote engine's name, once it accepted a game.
    pub fn remote_name(&self) -> Option<&str> {
        self.peer
            .as_ref()
            .map(DxpPeer::remote_name)
            .filter(|name| !name.is_empty())
    }

    /// The remote engine's move in the position after `moves` (legal, in order) from `start`,
    /// where it is to move. `last_seconds` is the time the opponent took for the last move.
    ///
    /// A new game is requested when none is running or the game given does not continue the
    /// one the remote engine knows: from the position reached (so moves made before its first
    /// turn, like a ballot opening, become its start position).
    ///
    /// # Errors
    /// See [`DxpPeer::next_move`]; after an error other than a timeout the connection is dropped
    /// and the next game reconnects.
    pub fn think(
        &mut self,
        start: &Position<International>,
        moves: &[DxpMove],
        last_seconds: u16,
        timeout: Duration,
    ) -> Result<PeerEvent, PeerError> {
        let mut position = *start;
        for mv in moves {
            position = position.play(mv);
        }
        let result = self
            .catch_up(&position, moves, last_seconds)
            .and_then(|peer| peer.next_move(&position, timeout));
        match &result {
            Ok(PeerEvent::Move { .. }) => {
                if let Some(game) = &mut self.game {
                    game.known = moves.len() + 1;
                }
            }
            Ok(PeerEvent::GameEnd(_)) => self.game = None,
            Err(PeerError::Timeout(_)) => {}
            Err(error) => {
                log::warn!("{}: {error}; the connection is dropped", self.address);
                self.close();
            }
        }
        result
    }

    /// Brings the remote engine to `position`, reached by `moves`, where it is to move: connects
    /// if need be, and sends the opponent's last move or requests a new game (see
    /// [`Self::think`]). Returns the connection to wait on for the reply.
    fn catch_up(
        &mut self,
        position: &Position<International>,
        moves: &[DxpMove],
        last_seconds: u16,
    ) -> Result<&mut DxpPeer, PeerError> {
        let color = position.side();
        if self.peer.is_none() {
            self.peer = Some(DxpPeer::connect(&self.address, &self.name)?);
            self.game = None;
        }
        let continues = self
            .game
            .is_some_and(|game| game.color == color && game.known + 1 == moves.len());
        let waiting = self
            .game
            .is_some_and(|game| game.color == color && game.known == moves.len());
        let peer = self.peer.as_mut().expect("connected above");
        if continues {
            let last = moves.last().expect("a move follows the known ones");
            peer.send_move(last, last_seconds)?;
        } else if !waiting {
            if self.game.take().is_some() {
                // The referee moved on to another game: end the old one first.
                peer.end_game(EndReason::Unknown, false)?;
            }
            peer.request_game(position, color, self.minutes, 0)?;
            self.game = Some(RemoteGame {
                known: moves.len(),
                color,
            });
        }
        Ok(peer)
    }

    /// Ends the game in progress, if any, after `moves` (the whole game), with `reason` as seen
    /// by us (the remote engine's opponent: [`EndReason::SenderWins`] when the remote engine
    /// lost), and returns the remote engine's own GAMEEND if it answered. `stop` says that no
    /// further game follows.
    ///
    /// A last move of the opponent that the remote engine has not seen is sent first, so that it
    /// sees the final position (and may well end the game itself: the GAMEENDs cross).
    pub fn end_game(
        &mut self,
        moves: &[DxpMove],
        reason: EndReason,
        stop: bool,
    ) -> Option<GameEnd> {
        let game = self.game.take()?;
        let peer = self.peer.as_mut()?;
        if game.known + 1 == moves.len()
            && let Some(last) = moves.last()
            && let Err(error) = peer.send_move(last, 0)
        {
            log::warn!("{}: {error}", self.address);
        }
        match peer.end_game(reason, stop) {
            Ok(answer) => answer,
            Err(error) => {
                log::warn!("{}: {error}", self.address);
                self.close();
                None
            }
        }
    }

    /// Ends the game in progress (stop code 1) and closes the connection.
    pub fn close(&mut self) {
        if self.game.is_some() {
            self.end_game(&[], EndReason::Unknown, true);
        }
        self.game = None;
        if let Some(peer) = self.peer.take() {
            peer.close();
        }
    }
}

impl Drop for RemoteEngine {
    fn drop(&mut self) {
        self.close();
    }
}
