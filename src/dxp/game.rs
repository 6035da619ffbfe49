//! One DXP game on a connection: the protocol's state machine from the first move to the game
//! end, with the player layer thinking for us.
//!
//! The loop waits on the connection's event channel; searches run on their own threads and post
//! their result to the same channel, so the loop hears the peer (a game end, a take-back, a
//! disconnect) while it thinks, and can ponder on the peer's time.

use super::DxpOptions;
use super::clock::SideClock;
use super::connection::{Connection, ConnectionEvent};
use super::message::{
    BackAnswer, BackRequest, EndReason, GameEnd, GameRequest, Message, MoveMessage,
};
use super::record::{Dxp, DxpMove, EndCause, Finish, Record};
use crate::core::Color;
use crate::eval::Eval;
use crate::game::GameResult;
use crate::notation::{fen, text};
use crate::player::{Player, Source, Task, Thinking, clock_limits, game_ply};
use crate::position::Position;
use crate::score;
use crate::search::{Limits, Mode, Outcome};
use std::time::{Duration, Instant};

/// How long we wait for the peer's GAMEEND after ours before going on without it.
const ACK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long we give the peer, on turn in a game our move has ended, to say so (or to move) before
/// we send GAMEEND ourselves.
const PEER_END_WAIT: Duration = Duration::from_secs(3);

/// What a game starts from.
pub(super) struct GameSetup {
    pub(super) start: Position<Dxp>,
    pub(super) ours: Color,
    pub(super) clocks: [SideClock; 2],
    pub(super) opponent: String,
}

/// Plays one accepted game to its end: how it ended, and its moves.
pub(super) fn play(
    resources: Resources<'_>,
    conn: &mut Connection,
    setup: GameSetup,
    last: bool,
) -> (Ending, Vec<DxpMove>) {
    let mut game = GameLoop {
        player: resources.player,
        options: resources.options,
        search_ids: resources.search_ids,
        conn,
        record: Record::new(setup.start),
        ours: setup.ours,
        clocks: setup.clocks,
        turn_started: Instant::now(),
        search: None,
        pondered: None,
        last,
    };
    let over = game.run();
    (over, game.record.moves().to_vec())
}

/// How a game ended, as the session needs to know it.
#[derive(Debug)]
pub(super) struct Ending {
    pub(super) result: Option<GameResult>,
    pub(super) reason: String,
    /// No further game on this connection (either side said stop).
    pub(super) stop: bool,
    /// The connection is gone.
    pub(super) closed: bool,
    /// A game request that arrived during the game and abandoned it.
    pub(super) pending: Option<GameRequest>,
}

/// A search running on its own thread.
struct Running {
    id: u64,
    thinking: Thinking,
    /// `Some(expected)` while pondering on the peer's expected reply.
    ponder_on: Option<DxpMove>,
}

/// What of the session a game uses: the engine and the options, and the numbering of searches
/// (a finished search's result is taken only from the search still expected).
pub(super) struct Resources<'g> {
    pub(super) player: &'g Player<Dxp, Eval>,
    pub(super) options: &'g DxpOptions,
    pub(super) search_ids: &'g mut u64,
}

/// One game in progress.
struct GameLoop<'g> {
    player: &'g Player<Dxp, Eval>,
    options: &'g DxpOptions,
    search_ids: &'g mut u64,
    conn: &'g mut Connection,
    record: Record,
    ours: Color,
    clocks: [SideClock; 2],
    /// When the side to move got the move.
    turn_started: Instant,
    search: Option<Running>,
    /// A ponder search that ended before the peer moved: the reply it expected and its result.
    pondered: Option<(DxpMove, Outcome<Dxp>)>,
    /// This is the last game we play: our GAMEEND says stop.
    last: bool,
}

impl GameLoop<'_> {
    fn run(&mut self) -> Ending {
        loop {
            if self.record.side() == self.ours && self.search.is_none() {
                if let Some(verdict) = self.record.result() {
                    return self.end_by_rules(verdict);
                }
                self.start_search(None);
            }
            if self.record.side() != self.ours
                && let Some(verdict) = self.record.result()
            {
                return self.await_peer_end(verdict);
            }
            let Some(event) = self.conn.next(self.peer_deadline()) else {
                return self.peer_silent();
            };
            let over = match event {
                ConnectionEvent::SearchDone { id, outcome } => self.search_done(id, *outcome),
                ConnectionEvent::Message(message) => self.message(message),
                ConnectionEvent::Malformed {
                    text,
                    error,
                    unknown_type: true,
                } => {
                    // Perhaps an extension of a newer peer: say so, and play on.
                    self.conn
                        .chat(&format!("error: {error} ('{text}') ignored"));
                    None
                }
                ConnectionEvent::Malformed { text, error, .. } => {
                    Some(self.protocol_error(&format!("bad message '{text}': {error}")))
                }
                ConnectionEvent::Closed(reason) => {
                    self.stop_search();
                    log::warn!(
                        "{}: connection lost during the game: {reason}",
                        self.conn.peer()
                    );
                    Some(Ending {
                        result: None,
                        reason: format!("connection lost ({reason})"),
                        stop: true,
                        closed: true,
                        pending: None,
                    })
                }
            };
            if let Some(over) = over {
                return over;
            }
        }
    }

    /// When the peer must have moved: its clock plus the grace period, or the idle timeout for
    /// an untimed peer (`None` on our turn).
    fn peer_deadline(&self) -> Option<Instant> {
        if self.record.side() == self.ours {
            return None;
        }
        let peer = &self.clocks[(!self.ours).index()];
        let options = self.options;
        Some(if peer.is_timed() {
            self.turn_started + peer.left() + options.grace
        } else {
            self.turn_started + options.idle_timeout
        })
    }

    fn limits(&self) -> Limits {
        if let Some(limits) = self.options.limits {
            return limits;
        }
        let clock = &self.clocks[self.ours.index()];
        clock_limits(clock.left(), Duration::ZERO, clock.moves_to_go())
    }

    /// Starts a search: for our move, or (`Some(expected)`) on the peer's time, in the position
    /// after its expected reply. Our own move may come from the book.
    fn start_search(&mut self, ponder_on: Option<DxpMove>) {
        let (root, mode) = match &ponder_on {
            None => (self.record.root(), Mode::Think),
            Some(expected) => (self.record.root_after(expected), Mode::Ponder),
        };
        let task = Task {
            root,
            ply: game_ply(self.record.start(), self.record.ply_count()),
            limits: self.limits(),
            mode,
            book: ponder_on.is_none(),
            lines: 1,
        };
        *self.search_ids += 1;
        let id = *self.search_ids;
        let events = self.conn.sender();
        let thinking = self.player.think(
            task,
            "dxp-search",
            |info| {
                log::debug!(
                    "depth {} score {} nodes {} time {:.3}",
                    info.depth,
                    score::to_men(info.score),
                    info.nodes,
                    info.elapsed.as_secs_f64()
                );
            },
            move |outcome, source| {
                if let (Source::Book, Some(best)) = (source, outcome.best) {
                    log::info!(
                        "book move {} ({})",
                        text::hub::<Dxp>(&best),
                        score::to_men(outcome.score)
                    );
                }
                let _ = events.send(ConnectionEvent::SearchDone {
                    id,
                    outcome: Box::new(outcome),
                });
            },
        );
        self.search = Some(Running {
            id,
            thinking,
            ponder_on,
        });
    }

    /// Stops the running search, if any, and waits for its thread; its result is dropped.
    fn stop_search(&mut self) {
        if let Some(running) = self.search.take() {
            running.thinking.stop();
        }
        self.pondered = None;
    }

    fn search_done(&mut self, id: u64, outcome: Outcome<Dxp>) -> Option<Ending> {
        if self.search.as_ref().is_none_or(|running| running.id != id) {
            return None;
        }
        let running = self.search.take().expect("checked above");
        running.thinking.wait();
        match running.ponder_on {
            Some(expected) => {
                // The ponder search ended on its own (a forced line, a depth limit): keep its
                // result for when the peer plays the expected move.
                self.pondered = Some((expected, outcome));
                None
            }
            None => self.play_outcome(outcome),
        }
    }

    /// Sends our move, then ponders if asked to.
    fn play_outcome(&mut self, outcome: Outcome<Dxp>) -> Option<Ending> {
        let Some(best) = outcome.best else {
            // The search found no move: the rules say the game is over.
            let verdict = self.record.result().unwrap_or_else(|| Finish {
                result: GameResult::win(!self.ours),
                reason: EndCause::NoMoveFound,
            });
            return Some(self.end_by_rules(verdict));
        };
        let spent = self.turn_started.elapsed();
        let seconds = spent.as_secs_f64().round().min(f64::from(u16::MAX)) as u16;
        let message = MoveMessage::of(&best, seconds);
        log::info!(
            "{}: we play {} ({} s, depth {}, score {})",
            self.conn.peer(),
            text::hub::<Dxp>(&best),
            seconds,
            outcome.depth,
            score::to_men(outcome.score)
        );
        if self.conn.send(&Message::Move(message)).is_err() {
            return None; // The closed connection is the next event.
        }
        self.clocks[self.ours.index()].spend(spent);
        self.record.play(&best);
        self.turn_started = Instant::now();
        if self.record.result().is_some() {
            // Ended by our move: `run` lets the peer, now on turn, say so first.
            return None;
        }
        if self.options.ponder
            && let Some(expected) = outcome.ponder
            && self.record.position().legal_moves().contains(&expected)
        {
            self.start_search(Some(expected));
        }
        None
    }

    fn message(&mut self, message: Message) -> Option<Ending> {
        match message {
            Message::Move(mv) => self.peer_move(&mv),
            Message::GameEnd(end) => Some(self.peer_end(end)),
            Message::BackRequest(request) => {
                self.take_back(request);
                None
            }
            Message::Chat(text) => {
                log::info!("{}: chat: {text}", self.conn.peer());
                None
            }
            Message::GameRequest(request) => {
                self.stop_search();
                log::warn!(
                    "{}: game request during a game; the game is abandoned",
                    self.conn.peer()
                );
                self.conn
                    .chat("error: game request during a game; the game in progress is abandoned");
                Some(Ending {
                    result: None,
                    reason: "abandoned for a new game request".to_string(),
                    stop: false,
                    closed: false,
                    pending: Some(request),
                })
            }
            Message::GameAccept(_) => {
                self.conn
                    .chat("error: unexpected game acceptance during a game");
                None
            }
            Message::BackAccept(_) => {
                log::info!("{}: unexpected take-back answer ignored", self.conn.peer());
                None
            }
        }
    }

    fn peer_move(&mut self, mv: &MoveMessage) -> Option<Ending> {
        if self.record.side() == self.ours {
            return Some(self.protocol_error(&format!(
                "move {} received while it is our turn",
                mv.notation()
            )));
        }
        let Some(played) = mv.resolve(self.record.position()) else {
            return Some(self.illegal_move(mv));
        };
        log::info!(
            "{}: peer plays {} ({} s)",
            self.conn.peer(),
            text::hub::<Dxp>(&played),
            mv.seconds
        );
        self.clocks[(!self.ours).index()].spend(Duration::from_secs(u64::from(mv.seconds)));
        self.record.play(&played);
        self.turn_started = Instant::now();
        if let Some(verdict) = self.record.result() {
            return Some(self.end_by_rules(verdict));
        }
        if let Some(running) = &mut self.search {
            if running
                .ponder_on
                .is_some_and(|expected| expected.same_as(&played))
            {
                log::debug!("ponder hit");
                running.thinking.ponder_hit();
                running.ponder_on = None;
            } else {
                self.stop_search();
            }
        } else if let Some((expected, outcome)) = self.pondered.take()
            && expected.same_as(&played)
        {
            return self.play_outcome(outcome);
        }
        None
    }

    /// BACKREQ: takes the game back to the requested move, as Scan does (answer first, then play
    /// on from there).
    fn take_back(&mut self, request: BackRequest) {
        let ply = self
            .record
            .ply_of(request.move_number, request.side)
            .filter(|&ply| ply <= self.record.ply_count());
        let Some(ply) = ply else {
            log::warn!(
                "{}: take-back to move {} ({}) refused: no such move in this game",
                self.conn.peer(),
                request.move_number,
                request.side
            );
            self.conn.chat("error: bad move number");
            let _ = self.conn.send(&Message::BackAccept(BackAnswer::Declined));
            return;
        };
        self.stop_search();
        if self
            .conn
            .send(&Message::BackAccept(BackAnswer::Accepted))
            .is_err()
        {
            return;
        }
        log::info!(
            "{}: game taken back to move {} ({} to move)",
            self.conn.peer(),
            request.move_number,
            request.side
        );
        self.record.truncate(ply);
        self.turn_started = Instant::now();
    }

    /// Our move has ended the game. As in Scan, the side on turn sends GAMEEND: we wait a little
    /// for the peer's. This also keeps our move and our GAMEEND from arriving together, which
    /// pydraughts' DXP client (one message per read) cannot take apart.
    fn await_peer_end(&mut self, verdict: Finish) -> Ending {
        let deadline = Instant::now() + PEER_END_WAIT;
        loop {
            match self.conn.next(Some(deadline)) {
                None => return self.end_by_rules(verdict),
                Some(ConnectionEvent::Message(Message::GameEnd(end))) => return self.peer_end(end),
                Some(ConnectionEvent::Message(Message::Move(mv))) => {
                    log::info!(
                        "{}: move {} after the end of the game ignored",
                        self.conn.peer(),
                        mv.notation()
                    );
                    return self.end_by_rules(verdict);
                }
                Some(ConnectionEvent::Message(Message::Chat(text))) => {
                    log::info!("{}: chat: {text}", self.conn.peer());
                }
                Some(ConnectionEvent::Closed(reason)) => {
                    return Ending {
                        result: Some(verdict.result),
                        reason: format!(
                            "{} (then the connection closed: {reason})",
                            verdict.reason
                        ),
                        stop: true,
                        closed: true,
                        pending: None,
                    };
                }
                Some(other) => {
                    log::debug!(
                        "{}: after the end of the game, ignored: {other:?}",
                        self.conn.peer()
                    );
                }
            }
        }
    }

    /// The peer ended the game: acknowledge with our own view.
    fn peer_end(&mut self, end: GameEnd) -> Ending {
        self.stop_search();
        let ours = self.record.result();
        let reply = GameEnd {
            reason: ours.as_ref().map_or(EndReason::Unknown, |verdict| {
                EndReason::of(verdict.result, self.ours)
            }),
            stop: end.stop || self.last,
        };
        let _ = self.conn.send(&Message::GameEnd(reply));
        let claimed = end.reason.result(!self.ours);
        let claim = match end.reason {
            EndReason::Unknown => "no result",
            EndReason::SenderLoses => "the peer resigns",
            EndReason::Draw => "the peer claims a draw",
            EndReason::SenderWins => "the peer claims a win",
        };
        // A game the rules have ended has their result, whatever the peer claims.
        let (result, reason) = match &ours {
            Some(verdict) => {
                let ruled = Some(verdict.result);
                if ruled == claimed || claimed.is_none() {
                    (ruled, verdict.reason.to_string())
                } else {
                    (
                        ruled,
                        format!("{} (the peer disagrees: {claim})", verdict.reason),
                    )
                }
            }
            None => (claimed, format!("ended by the peer ({claim})")),
        };
        log::info!("{}: {reason}", self.conn.peer());
        Ending {
            result,
            reason,
            stop: reply.stop,
            closed: false,
            pending: None,
        }
    }

    fn end_by_rules(&mut self, verdict: Finish) -> Ending {
        let reason = EndReason::of(verdict.result, self.ours);
        self.end(reason, Some(verdict.result), verdict.reason.to_string())
    }

    fn illegal_move(&mut self, mv: &MoveMessage) -> Ending {
        let position = fen::format(self.record.position());
        log::warn!(
            "{}: illegal move {} from the peer in {position}",
            self.conn.peer(),
            mv.notation()
        );
        self.conn.chat(&format!(
            "error: illegal move {} in {position}",
            mv.notation()
        ));
        self.end(
            EndReason::SenderWins,
            Some(GameResult::win(self.ours)),
            format!("the peer forfeits: illegal move {}", mv.notation()),
        )
    }

    fn protocol_error(&mut self, what: &str) -> Ending {
        log::warn!("{}: {what}; the game is ended", self.conn.peer());
        self.conn.chat(&format!("error: {what}"));
        self.end(EndReason::Unknown, None, format!("protocol error: {what}"))
    }

    /// The peer did not move by its deadline: a timed peer loses on time; an untimed one is
    /// given up (no result, and no further game on this connection).
    fn peer_silent(&mut self) -> Ending {
        if self.clocks[(!self.ours).index()].is_timed() {
            let what = "no move within the time control and the grace period";
            log::warn!("{}: {what}", self.conn.peer());
            self.conn.chat(&format!("error: {what}"));
            return self.end(
                EndReason::SenderWins,
                Some(GameResult::win(self.ours)),
                "the peer lost on time".to_string(),
            );
        }
        let what = format!("no move for {:?}", self.options.idle_timeout);
        log::warn!("{}: {what}; giving up", self.conn.peer());
        self.conn
            .chat(&format!("error: {what}; the game is abandoned"));
        self.last = true;
        self.end(
            EndReason::Unknown,
            None,
            format!("the peer went silent ({what})"),
        )
    }

    /// Sends our GAMEEND and waits (briefly) for the peer's.
    fn end(&mut self, reason: EndReason, result: Option<GameResult>, why: String) -> Ending {
        self.stop_search();
        let ours = GameEnd {
            reason,
            stop: self.last,
        };
        let mut over = Ending {
            result,
            reason: why,
            stop: ours.stop,
            closed: false,
            pending: None,
        };
        if self.conn.send(&Message::GameEnd(ours)).is_err() {
            over.closed = true;
            return over;
        }
        let deadline = Instant::now() + ACK_TIMEOUT;
        loop {
            match self.conn.next(Some(deadline)) {
                None => {
                    log::info!(
                        "{}: no GAMEEND in answer within {ACK_TIMEOUT:?}",
                        self.conn.peer()
                    );
                    return over;
                }
                Some(ConnectionEvent::Message(Message::GameEnd(theirs))) => {
                    over.stop |= theirs.stop;
                    return over;
                }
                Some(ConnectionEvent::Message(Message::GameRequest(request))) => {
                    // The peer went on without answering our GAMEEND.
                    over.pending = Some(request);
                    return over;
                }
                Some(ConnectionEvent::Message(Message::Chat(text))) => {
                    log::info!("{}: chat: {text}", self.conn.peer());
                }
                Some(ConnectionEvent::Closed(_)) => {
                    over.closed = true;
                    return over;
                }
                Some(other) => {
                    // A move sent before the peer saw our GAMEEND, and the like.
                    log::debug!(
                        "{}: after our GAMEEND, ignored: {other:?}",
                        self.conn.peer()
                    );
                }
            }
        }
    }
}
