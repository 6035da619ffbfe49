//! The engine side of DXP: plays games on one connection as initiator or follower.
//!
//! One thread runs the game loop below and waits on the connection's event channel; searches run
//! on their own threads and post their result to the same channel, so the loop hears the peer
//! (a game end, a take-back, a disconnect) while it thinks, and can ponder on the peer's time.

use super::clock::SideClock;
use super::connection::{Connection, Event};
use super::message::{
    Acceptance, BackAnswer, BackRequest, EndReason, GameAccept, GameEnd, GameRequest, Message,
    MoveMessage, VERSION, board_of, position_from_board,
};
use super::record::{Dxp, DxpMove, Record, Verdict};
use super::{GameOutcome, GameReport, Options, Role};
use crate::book::{Book, estimated_ply};
use crate::core::Color;
use crate::notation::{fen, text};
use crate::position::Position;
use crate::score;
use crate::search::{Clock, Engine, Limits, Mode, Outcome, SearchControl};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Minutes on our clock in games without a time control (neither in the request nor `--time`).
const UNTIMED_MINUTES: u64 = 5;
/// How long we wait for the peer's GAMEEND after ours before going on without it.
const ACK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long we give the peer, on turn in a game our move has ended, to say so (or to move) before
/// we send GAMEEND ourselves.
const PEER_END_WAIT: Duration = Duration::from_secs(3);

/// What ended a connection's session.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SessionEnd {
    /// The connection is done (closed by the peer, or the match on it is over).
    Connection,
    /// The `--games` limit is reached: no further connection either.
    GamesLimit,
}

/// The engine and settings shared by the games of all connections.
pub(crate) struct Player<'o> {
    engine: Arc<Engine<Dxp>>,
    options: &'o Options,
    /// Games finished so far (all connections).
    pub(crate) games_played: u32,
    report: &'o mut dyn FnMut(&GameReport),
    next_search_id: u64,
}

impl<'o> Player<'o> {
    pub(crate) fn new(options: &'o Options, report: &'o mut dyn FnMut(&GameReport)) -> Self {
        let mut engine = Engine::<Dxp>::new(options.hash_mb, options.threads);
        engine.set_ponder(options.ponder);
        Player {
            engine: Arc::new(engine),
            options,
            games_played: 0,
            report,
            next_search_id: 0,
        }
    }

    fn games_left(&self) -> Option<u32> {
        self.options
            .games
            .map(|limit| limit.saturating_sub(self.games_played))
    }

    /// Plays on one connection in the role of the options until it ends.
    pub(crate) fn serve(&mut self, mut conn: Connection) -> SessionEnd {
        log::info!("{}: connected", conn.peer());
        let end = match self.options.role {
            Role::Follower => self.follow(&mut conn),
            Role::Initiator => self.initiate(&mut conn),
        };
        conn.close();
        end
    }

    fn limit_reached(&self) -> SessionEnd {
        if self.games_left() == Some(0) {
            SessionEnd::GamesLimit
        } else {
            SessionEnd::Connection
        }
    }

    /// The follower: answers game requests and plays the games.
    fn follow(&mut self, conn: &mut Connection) -> SessionEnd {
        let mut pending: Option<GameRequest> = None;
        loop {
            if self.games_left() == Some(0) {
                return SessionEnd::GamesLimit;
            }
            let request = match pending.take() {
                Some(request) => request,
                None => match conn.next(Some(Instant::now() + self.options.idle_timeout)) {
                    None => {
                        log::warn!(
                            "{}: no game request for {:?}; closing",
                            conn.peer(),
                            self.options.idle_timeout
                        );
                        return SessionEnd::Connection;
                    }
                    Some(Event::Closed(_)) => return SessionEnd::Connection,
                    Some(Event::Message(Message::GameRequest(request))) => request,
                    Some(Event::Message(Message::GameEnd(end))) => {
                        // An acknowledgement, or a second GAMEEND (pydraughts sends one on quit):
                        // nothing to answer outside a game.
                        if end.stop {
                            log::info!("{}: the peer ends the match", conn.peer());
                            return SessionEnd::Connection;
                        }
                        continue;
                    }
                    Some(Event::Malformed { text, error, .. }) => {
                        conn.chat(&format!("error: bad message '{text}': {error}"));
                        if text.starts_with('R') {
                            // The initiator waits for an answer to its request.
                            self.refuse(conn, Acceptance::Declined);
                        }
                        continue;
                    }
                    Some(Event::Message(other)) => {
                        outside_game(conn, &other);
                        continue;
                    }
                    Some(Event::SearchDone { .. }) => continue,
                },
            };
            if request.version > VERSION {
                log::warn!(
                    "{}: game request of protocol version {} refused",
                    conn.peer(),
                    request.version
                );
                self.refuse(conn, Acceptance::UnsupportedVersion);
                continue;
            }
            let start = match &request.setup {
                None => Position::start(),
                Some(setup) => match position_from_board(setup) {
                    Ok(position) => position,
                    Err(error) => {
                        conn.chat(&format!("error: illegal position: {error}"));
                        self.refuse(conn, Acceptance::Declined);
                        continue;
                    }
                },
            };
            let ours = request.follower_color;
            let (our_clock, their_clock) = if request.minutes > 0 {
                let clock = SideClock::new(
                    Duration::from_secs(60 * u64::from(request.minutes)),
                    u32::from(request.moves),
                );
                (clock, clock)
            } else {
                // No time in the request (pydraughts sends 0 unless told otherwise): we use our
                // own default and do not time the peer.
                (self.default_clock(), SideClock::untimed())
            };
            let accept = Message::GameAccept(GameAccept {
                follower: self.options.name.clone(),
                acceptance: Acceptance::Accepted,
            });
            if conn.send(&accept).is_err() {
                return SessionEnd::Connection;
            }
            log::info!(
                "{}: game accepted from '{}': we play {ours}, {} min / {} moves",
                conn.peer(),
                request.initiator,
                request.minutes,
                request.moves
            );
            let setup = GameSetup {
                start,
                ours,
                clocks: clocks_for(ours, our_clock, their_clock),
                opponent: request.initiator.clone(),
            };
            let over = self.play(conn, setup);
            if over.closed || over.stop {
                return self.limit_reached();
            }
            pending = over.pending;
        }
    }

    fn refuse(&self, conn: &mut Connection, acceptance: Acceptance) {
        let _ = conn.send(&Message::GameAccept(GameAccept {
            follower: self.options.name.clone(),
            acceptance,
        }));
    }

    /// Our clock from the options (`--time`, `--moves`); with no time there, a clock of
    /// [`UNTIMED_MINUTES`] for the whole game paces our searches.
    fn default_clock(&self) -> SideClock {
        if self.options.minutes == 0 {
            return SideClock::new(Duration::from_secs(60 * UNTIMED_MINUTES), 0);
        }
        SideClock::new(
            Duration::from_secs(60 * u64::from(self.options.minutes)),
            u32::from(self.options.moves),
        )
    }

    /// The initiator: requests games, colours alternating, until `--games` are played.
    fn initiate(&mut self, conn: &mut Connection) -> SessionEnd {
        let start = self.options.start.unwrap_or_else(Position::start);
        let mut number = 0u32;
        while self.games_left() != Some(0) {
            let ours = if number % 2 == 0 {
                self.options.first_color
            } else {
                !self.options.first_color
            };
            number += 1;
            let request = Message::GameRequest(GameRequest {
                version: VERSION,
                initiator: self.options.name.clone(),
                follower_color: !ours,
                minutes: self.options.minutes,
                moves: self.options.moves,
                setup: (start != Position::start()).then(|| board_of(&start)),
            });
            if conn.send(&request).is_err() {
                return SessionEnd::Connection;
            }
            let accept = match self.await_accept(conn) {
                Some(accept) => accept,
                None => return SessionEnd::Connection,
            };
            if accept.acceptance != Acceptance::Accepted {
                log::warn!(
                    "{}: '{}' refused the game: {:?}",
                    conn.peer(),
                    accept.follower,
                    accept.acceptance
                );
                return SessionEnd::Connection;
            }
            log::info!(
                "{}: '{}' accepted; we play {ours}",
                conn.peer(),
                accept.follower
            );
            let our_clock = self.default_clock();
            let their_clock = if self.options.minutes > 0 {
                our_clock
            } else {
                SideClock::untimed()
            };
            let setup = GameSetup {
                start,
                ours,
                clocks: clocks_for(ours, our_clock, their_clock),
                opponent: accept.follower,
            };
            let over = self.play(conn, setup);
            if over.closed || over.stop {
                return self.limit_reached();
            }
            if over.pending.is_some() {
                conn.chat("error: game requests are ours to send (we are the initiator)");
                let _ = conn.send(&Message::GameAccept(GameAccept {
                    follower: self.options.name.clone(),
                    acceptance: Acceptance::Declined,
                }));
            }
        }
        SessionEnd::GamesLimit
    }

    /// Waits for the answer to our game request.
    fn await_accept(&mut self, conn: &mut Connection) -> Option<GameAccept> {
        let deadline = Instant::now() + self.options.accept_timeout;
        loop {
            match conn.next(Some(deadline)) {
                None => {
                    log::warn!(
                        "{}: no answer to the game request within {:?}",
                        conn.peer(),
                        self.options.accept_timeout
                    );
                    return None;
                }
                Some(Event::Closed(_)) => return None,
                Some(Event::Message(Message::GameAccept(accept))) => return Some(accept),
                Some(Event::Message(Message::GameEnd(end))) => {
                    if end.stop {
                        log::info!("{}: the peer ends the match", conn.peer());
                        return None;
                    }
                }
                Some(Event::Malformed { text, error, .. }) => {
                    conn.chat(&format!("error: bad message '{text}': {error}"));
                }
                Some(Event::Message(other)) => outside_game(conn, &other),
                Some(Event::SearchDone { .. }) => {}
            }
        }
    }

    /// Plays one accepted game to its end.
    fn play(&mut self, conn: &mut Connection, setup: GameSetup) -> GameOver {
        self.engine.new_game();
        let last = self.games_left() == Some(1);
        let start = setup.start;
        let ours = setup.ours;
        let opponent = setup.opponent.clone();
        let mut game = Game {
            player: self,
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
        let moves = game.record.moves().to_vec();
        self.games_played += 1;
        let report = GameReport {
            number: self.games_played,
            ours,
            opponent,
            start,
            moves,
            outcome: over.outcome,
            reason: over.reason.clone(),
        };
        (self.report)(&report);
        over
    }
}

/// Answers a message that only makes sense during a game.
fn outside_game(conn: &mut Connection, message: &Message) {
    match message {
        Message::Chat(text) => log::info!("{}: chat: {text}", conn.peer()),
        Message::Move(mv) => {
            conn.chat(&format!(
                "error: no game in progress (move {})",
                mv.notation()
            ));
        }
        Message::BackRequest(_) => {
            conn.chat("error: no game in progress (take-back request)");
            let _ = conn.send(&Message::BackAccept(BackAnswer::Declined));
        }
        Message::GameAccept(_) => conn.chat("error: unexpected game acceptance"),
        Message::GameRequest(_) => conn.chat("error: game requests are ours to send"),
        Message::BackAccept(_) | Message::GameEnd(_) => {
            log::debug!("{}: '{message}' outside a game ignored", conn.peer());
        }
    }
}

fn clocks_for(ours: Color, our_clock: SideClock, their_clock: SideClock) -> [SideClock; 2] {
    let mut clocks = [their_clock; 2];
    clocks[ours.index()] = our_clock;
    clocks
}

/// What a game starts from.
struct GameSetup {
    start: Position<Dxp>,
    ours: Color,
    clocks: [SideClock; 2],
    opponent: String,
}

/// How a game ended, as the session needs to know it.
#[derive(Debug)]
struct GameOver {
    outcome: GameOutcome,
    reason: String,
    /// No further game on this connection (either side said stop).
    stop: bool,
    /// The connection is gone.
    closed: bool,
    /// A game request that arrived during the game and abandoned it.
    pending: Option<GameRequest>,
}

/// A search running on its own thread.
struct Running {
    id: u64,
    control: Arc<SearchControl>,
    handle: JoinHandle<()>,
    /// `Some(expected)` while pondering on the peer's expected reply.
    ponder_on: Option<DxpMove>,
}

/// One game in progress.
struct Game<'g, 'o> {
    player: &'g mut Player<'o>,
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

impl Game<'_, '_> {
    fn run(&mut self) -> GameOver {
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
                Event::SearchDone { id, outcome } => self.search_done(id, *outcome),
                Event::Message(message) => self.message(message),
                Event::Malformed {
                    text,
                    error,
                    unknown_type: true,
                } => {
                    // Perhaps an extension of a newer peer: say so, and play on.
                    self.conn
                        .chat(&format!("error: {error} ('{text}') ignored"));
                    None
                }
                Event::Malformed { text, error, .. } => {
                    Some(self.protocol_error(&format!("bad message '{text}': {error}")))
                }
                Event::Closed(reason) => {
                    self.stop_search();
                    log::warn!(
                        "{}: connection lost during the game: {reason}",
                        self.conn.peer()
                    );
                    Some(GameOver {
                        outcome: GameOutcome::Unknown,
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
        let options = self.player.options;
        Some(if peer.is_timed() {
            self.turn_started + peer.left() + options.grace
        } else {
            self.turn_started + options.idle_timeout
        })
    }

    fn limits(&self) -> Limits {
        if let Some(limits) = self.player.options.limits {
            return limits;
        }
        let clock = &self.clocks[self.ours.index()];
        Limits {
            clock: Some(Clock {
                time: clock.left(),
                increment: Duration::ZERO,
                moves_to_go: clock.moves_to_go(),
            }),
            ..Limits::default()
        }
    }

    /// Starts a search: for our move, or (`Some(expected)`) on the peer's time, in the position
    /// after its expected reply.
    fn start_search(&mut self, ponder_on: Option<DxpMove>) {
        let (root, mode) = match &ponder_on {
            None => (self.record.root(), Mode::Think),
            Some(expected) => (self.record.root_after(expected), Mode::Ponder),
        };
        let limits = self.limits();
        let book_move = match (&ponder_on, &self.player.options.book) {
            (None, Some(book)) => self.book_outcome(book),
            _ => None,
        };
        self.player.next_search_id += 1;
        let id = self.player.next_search_id;
        let control = Arc::new(SearchControl::new());
        let engine = Arc::clone(&self.player.engine);
        let events = self.conn.sender();
        let signals = Arc::clone(&control);
        let handle = std::thread::Builder::new()
            .name("dxp-search".to_string())
            .spawn(move || {
                if let Some(outcome) = book_move {
                    let _ = events.send(Event::SearchDone { id, outcome });
                    return;
                }
                let outcome = engine.search(&root, &limits, mode, &signals, |info| {
                    log::debug!(
                        "depth {} score {} nodes {} time {:.3}",
                        info.depth,
                        score::to_men(info.score),
                        info.nodes,
                        info.elapsed.as_secs_f64()
                    );
                });
                let _ = events.send(Event::SearchDone {
                    id,
                    outcome: Box::new(outcome),
                });
            })
            .expect("the search thread can be started");
        self.search = Some(Running {
            id,
            control,
            handle,
            ponder_on,
        });
    }

    /// Our move from the opening book, when the position is in it: the chosen move, the best
    /// book reply to ponder on, and the move's book score.
    fn book_outcome(&self, book: &Book<Dxp>) -> Option<Box<Outcome<Dxp>>> {
        let position = *self.record.position();
        let start = self.record.start();
        let ply = if *start == Position::start() {
            0
        } else {
            estimated_ply(start)
        };
        let ply = ply.saturating_add(u32::try_from(self.record.ply_count()).unwrap_or(u32::MAX));
        let rule = self.player.options.book_rule;
        let choice = book.choose(&position, ply, rule, &mut rand::rng())?;
        let reply = book
            .probe(&position.play(&choice.mv))
            .first()
            .map(|reply| reply.mv);
        log::info!(
            "book move {} ({})",
            text::hub::<Dxp>(&choice.mv),
            score::to_men(choice.score)
        );
        Some(Box::new(Outcome {
            best: Some(choice.mv),
            ponder: reply,
            score: choice.score,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![choice.mv],
        }))
    }

    /// Stops the running search, if any, and waits for its thread; its result is dropped.
    fn stop_search(&mut self) {
        if let Some(running) = self.search.take() {
            running.control.stop();
            if running.handle.join().is_err() {
                log::error!("the DXP search thread panicked");
            }
        }
        self.pondered = None;
    }

    fn search_done(&mut self, id: u64, outcome: Outcome<Dxp>) -> Option<GameOver> {
        if self.search.as_ref().is_none_or(|running| running.id != id) {
            return None;
        }
        let running = self.search.take().expect("checked above");
        if running.handle.join().is_err() {
            log::error!("the DXP search thread panicked");
        }
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
    fn play_outcome(&mut self, outcome: Outcome<Dxp>) -> Option<GameOver> {
        let Some(best) = outcome.best else {
            // The search found no move: the rules say the game is over.
            let verdict = self.record.result().unwrap_or_else(|| Verdict {
                winner: Some(!self.ours),
                reason: "no move found".to_string(),
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
        if self.player.options.ponder
            && let Some(expected) = outcome.ponder
            && self.record.position().legal_moves().contains(&expected)
        {
            self.start_search(Some(expected));
        }
        None
    }

    fn message(&mut self, message: Message) -> Option<GameOver> {
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
                Some(GameOver {
                    outcome: GameOutcome::Unknown,
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

    fn peer_move(&mut self, mv: &MoveMessage) -> Option<GameOver> {
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
                running.control.ponder_hit();
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
    fn await_peer_end(&mut self, verdict: Verdict) -> GameOver {
        let deadline = Instant::now() + PEER_END_WAIT;
        loop {
            match self.conn.next(Some(deadline)) {
                None => return self.end_by_rules(verdict),
                Some(Event::Message(Message::GameEnd(end))) => return self.peer_end(end),
                Some(Event::Message(Message::Move(mv))) => {
                    log::info!(
                        "{}: move {} after the end of the game ignored",
                        self.conn.peer(),
                        mv.notation()
                    );
                    return self.end_by_rules(verdict);
                }
                Some(Event::Message(Message::Chat(text))) => {
                    log::info!("{}: chat: {text}", self.conn.peer());
                }
                Some(Event::Closed(reason)) => {
                    return GameOver {
                        outcome: self.outcome_of(&verdict),
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

    fn outcome_of(&self, verdict: &Verdict) -> GameOutcome {
        match self.reason_of(verdict) {
            EndReason::SenderWins => GameOutcome::Win,
            EndReason::SenderLoses => GameOutcome::Loss,
            _ => GameOutcome::Draw,
        }
    }

    /// The peer ended the game: acknowledge with our own view.
    fn peer_end(&mut self, end: GameEnd) -> GameOver {
        self.stop_search();
        let ours = self.record.result();
        let reply = GameEnd {
            reason: ours
                .as_ref()
                .map_or(EndReason::Unknown, |verdict| self.reason_of(verdict)),
            stop: end.stop || self.last,
        };
        let _ = self.conn.send(&Message::GameEnd(reply));
        let (claimed, claim) = match end.reason {
            EndReason::Unknown => (GameOutcome::Unknown, "no result"),
            EndReason::SenderLoses => (GameOutcome::Win, "the peer resigns"),
            EndReason::Draw => (GameOutcome::Draw, "the peer claims a draw"),
            EndReason::SenderWins => (GameOutcome::Loss, "the peer claims a win"),
        };
        // A game the rules have ended has their result, whatever the peer claims.
        let (outcome, reason) = match &ours {
            Some(verdict) => {
                let ruled = self.outcome_of(verdict);
                if ruled == claimed || claimed == GameOutcome::Unknown {
                    (ruled, verdict.reason.clone())
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
        GameOver {
            outcome,
            reason,
            stop: reply.stop,
            closed: false,
            pending: None,
        }
    }

    fn reason_of(&self, verdict: &Verdict) -> EndReason {
        match verdict.winner {
            None => EndReason::Draw,
            Some(winner) if winner == self.ours => EndReason::SenderWins,
            Some(_) => EndReason::SenderLoses,
        }
    }

    fn end_by_rules(&mut self, verdict: Verdict) -> GameOver {
        let reason = self.reason_of(&verdict);
        let outcome = self.outcome_of(&verdict);
        self.end(reason, outcome, verdict.reason)
    }

    fn illegal_move(&mut self, mv: &MoveMessage) -> GameOver {
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
            GameOutcome::Win,
            format!("the peer forfeits: illegal move {}", mv.notation()),
        )
    }

    fn protocol_error(&mut self, what: &str) -> GameOver {
        log::warn!("{}: {what}; the game is ended", self.conn.peer());
        self.conn.chat(&format!("error: {what}"));
        self.end(
            EndReason::Unknown,
            GameOutcome::Unknown,
            format!("protocol error: {what}"),
        )
    }

    /// The peer did not move by its deadline: a timed peer loses on time; an untimed one is
    /// given up (no result, and no further game on this connection).
    fn peer_silent(&mut self) -> GameOver {
        if self.clocks[(!self.ours).index()].is_timed() {
            let what = "no move within the time control and the grace period";
            log::warn!("{}: {what}", self.conn.peer());
            self.conn.chat(&format!("error: {what}"));
            return self.end(
                EndReason::SenderWins,
                GameOutcome::Win,
                "the peer lost on time".to_string(),
            );
        }
        let what = format!("no move for {:?}", self.player.options.idle_timeout);
        log::warn!("{}: {what}; giving up", self.conn.peer());
        self.conn
            .chat(&format!("error: {what}; the game is abandoned"));
        self.last = true;
        self.end(
            EndReason::Unknown,
            GameOutcome::Unknown,
            format!("the peer went silent ({what})"),
        )
    }

    /// Sends our GAMEEND and waits (briefly) for the peer's.
    fn end(&mut self, reason: EndReason, outcome: GameOutcome, why: String) -> GameOver {
        self.stop_search();
        let ours = GameEnd {
            reason,
            stop: self.last,
        };
        let mut over = GameOver {
            outcome,
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
                Some(Event::Message(Message::GameEnd(theirs))) => {
                    over.stop |= theirs.stop;
                    return over;
                }
                Some(Event::Message(Message::GameRequest(request))) => {
                    // The peer went on without answering our GAMEEND.
                    over.pending = Some(request);
                    return over;
                }
                Some(Event::Message(Message::Chat(text))) => {
                    log::info!("{}: chat: {text}", self.conn.peer());
                }
                Some(Event::Closed(_)) => {
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
