//! A DXP engine as a match player, through [`crate::dxp::RemoteEngine`]: the engine listens at an
//! address (`cmd=dxp://host:port`), and we connect as the initiator and request each game from the
//! position the engine first has to move in.
//!
//! DXP knows international draughts only. Its game request carries the time in whole minutes for
//! the game, with no increment and no per-move clock: [`dxp_minutes`] turns `--tc` into that, and
//! our referee still keeps the real clock. A DXP engine cannot be killed or restarted from here: a
//! timeout loses the game, and the next game is requested on the same (or a new) connection.

use super::clock::TimeControl;
use super::engine::{Contestant, Failure, GameOver, MoveReply, MoveRequest};
use crate::dxp::message::EndReason;
use crate::dxp::{PeerError, PeerEvent, RemoteEngine};
use crate::moves::Move;
use crate::notation::{hub, text};
use crate::position::Position;
use crate::rules::{BitsOf, International};
use std::time::Instant;

/// Our name in DXP game requests.
const OUR_NAME: &str = "rafle match";
/// Moves per game assumed when a fixed time per move is turned into minutes per game.
const MOVES_PER_GAME: f64 = 100.0;
/// Minutes announced for depth or node limits, which have no time.
const UNTIMED_MINUTES: u16 = 60;

/// The minutes per game announced to DXP engines for a time control: the period's time rounded
/// up (a period of `40/…` is announced as the game's time: DXP engines such as Scan take the
/// move count as the length of the game), or a fixed move time for 100 moves.
pub fn dxp_minutes(control: TimeControl) -> u16 {
    let seconds = match control {
        TimeControl::Clock { time, .. } => time.as_secs_f64(),
        TimeControl::MoveTime(time) => time.as_secs_f64() * MOVES_PER_GAME,
        TimeControl::Depth(_) | TimeControl::Nodes { .. } => return UNTIMED_MINUTES,
    };
    (seconds / 60.0).ceil().clamp(1.0, f64::from(u16::MAX)) as u16
}

/// A DXP engine listening at an address.
pub struct DxpEngine {
    name: String,
    remote: RemoteEngine,
    /// The Hub position string the moves below start from.
    start_text: String,
    start: Position<International>,
    /// Hub move texts already converted, and the moves they are.
    texts: Vec<String>,
    moves: Vec<Move<BitsOf<International>>>,
}

impl DxpEngine {
    /// An engine at `address` (`host:port`), announced `minutes` per game. Nothing is connected
    /// before its first move.
    pub fn new(address: &str, name: String, minutes: u16) -> Self {
        DxpEngine {
            name,
            remote: RemoteEngine::new(address, OUR_NAME, minutes),
            start_text: String::new(),
            start: Position::start(),
            texts: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Brings the converted game up to the referee's (converting only the new moves).
    fn follow(&mut self, start: &str, moves: &[String]) -> Result<(), String> {
        if start != self.start_text {
            self.start = hub::parse::<International>(start).map_err(|e| e.to_string())?;
            self.start_text = start.to_string();
            self.texts.clear();
            self.moves.clear();
        }
        let common = self
            .texts
            .iter()
            .zip(moves)
            .take_while(|(known, given)| known == given)
            .count();
        self.texts.truncate(common);
        self.moves.truncate(common);
        let mut position = self.moves.iter().fold(self.start, |p, mv| p.play(mv));
        for word in &moves[common..] {
            let mv = text::parse(&position, word).map_err(|e| e.to_string())?;
            position = position.play(&mv);
            self.texts.push(word.clone());
            self.moves.push(mv);
        }
        Ok(())
    }
}

impl Contestant for DxpEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        // The game is requested with the first move asked for, from the position reached then.
        Ok(())
    }

    fn think(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, Failure> {
        self.follow(request.start, request.moves)
            .map_err(|e| Failure::Crash(format!("the game cannot be sent over DXP: {e}")))?;
        let started = Instant::now();
        let answer = self
            .remote
            .think(&self.start, &self.moves, 0, request.deadline);
        let elapsed = started.elapsed();
        match answer {
            Ok(PeerEvent::Move { mv, .. }) => Ok(MoveReply {
                text: text::hub::<International>(&mv),
                elapsed,
                score: None,
                nodes: None,
            }),
            Ok(PeerEvent::GameEnd(end)) => Err(Failure::Error(format!(
                "it ended the game over DXP (GAMEEND, {:?})",
                end.reason
            ))),
            Err(PeerError::Timeout(_)) => Err(Failure::Timeout { killed: false }),
            Err(PeerError::IllegalMove { mv, .. }) => Err(Failure::IllegalMove(mv)),
            Err(error) => Err(Failure::Crash(error.to_string())),
        }
    }

    fn game_over(&mut self, over: &GameOver<'_>) {
        if let Err(error) = self.follow(over.start, over.moves) {
            log::warn!("{}: {error}", self.name);
            return;
        }
        // The reason is ours, the remote engine's opponent's.
        let reason = EndReason::of(over.result, !over.color);
        self.remote.end_game(&self.moves, reason, false);
    }

    fn shutdown(&mut self) {
        self.remote.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn minutes_announced() {
        let clock = |seconds: u64| TimeControl::Clock {
            moves: None,
            time: Duration::from_secs(seconds),
            increment: Duration::ZERO,
        };
        assert_eq!(dxp_minutes(clock(300)), 5);
        assert_eq!(dxp_minutes(clock(301)), 6);
        assert_eq!(dxp_minutes(clock(5)), 1);
        assert_eq!(
            dxp_minutes(TimeControl::MoveTime(Duration::from_secs(3))),
            5
        );
        assert_eq!(dxp_minutes(TimeControl::Depth(6)), UNTIMED_MINUTES);
    }

    #[test]
    fn games_are_converted_incrementally() {
        let mut engine = DxpEngine::new("127.0.0.1:1", "x".into(), 1);
        let start = hub::format(&Position::<International>::start());
        let moves: Vec<String> = ["32-28", "19-23", "28x19x23"].map(String::from).to_vec();
        engine.follow(&start, &moves[..2]).expect("legal");
        engine.follow(&start, &moves).expect("legal");
        assert_eq!(engine.moves.len(), 3);
        assert!(engine.moves[2].is_capture());
        // Another game from the same start: the common prefix is kept, the rest replaced.
        let other: Vec<String> = ["32-28", "17-21"].map(String::from).to_vec();
        engine.follow(&start, &other).expect("legal");
        assert_eq!(engine.moves.len(), 2);
        assert!(engine.follow(&start, &["32-29".to_string()]).is_err());
    }
}
