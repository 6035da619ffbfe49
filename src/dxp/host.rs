//! The engine side of DXP, one connection at a time: game requests answered (follower) or sent
//! (initiator), the games played by [`super::game`], each reported when it ends.

use super::clock::SideClock;
use super::connection::{Connection, ConnectionEvent};
use super::game::{Ending, GameSetup, Resources};
use super::message::{
    Acceptance, BackAnswer, GameAccept, GameRequest, Message, VERSION, board_of,
    position_from_board,
};
use super::record::Dxp;
use super::{DxpOptions, GameReport, Role};
use crate::core::Color;
use crate::eval::Eval;
use crate::player::Player;
use crate::position::Position;
use std::time::{Duration, Instant};

/// Minutes on our clock in games without a time control (neither in the request nor `--time`).
const UNTIMED_MINUTES: u64 = 5;

/// What ended a connection's session.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SessionEnd {
    /// The connection is done (closed by the peer, or the match on it is over).
    Connection,
    /// The `--games` limit is reached: no further connection either.
    GamesLimit,
}

/// The engine and settings shared by the games of all connections.
pub(crate) struct Host<'o> {
    player: Player<Dxp, Eval>,
    options: &'o DxpOptions,
    /// Games finished so far (all connections).
    pub(crate) games_played: u32,
    report: &'o mut dyn FnMut(&GameReport),
    next_search_id: u64,
}

impl<'o> Host<'o> {
    pub(crate) fn new(options: &'o DxpOptions, report: &'o mut dyn FnMut(&GameReport)) -> Self {
        let mut engine = options.engine.engine_at_most::<Dxp>();
        engine.set_ponder(options.ponder);
        let mut player = Player::new(engine);
        player.set_book(options.book.clone().map(|book| (book, options.book_rule)));
        player.set_skill(options.skill);
        Host {
            player,
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
                    Some(ConnectionEvent::Closed(_)) => return SessionEnd::Connection,
                    Some(ConnectionEvent::Message(Message::GameRequest(request))) => request,
                    Some(ConnectionEvent::Message(Message::GameEnd(end))) => {
                        // An acknowledgement, or a second GAMEEND (pydraughts sends one on quit):
                        // nothing to answer outside a game.
                        if end.stop {
                            log::info!("{}: the peer ends the match", conn.peer());
                            return SessionEnd::Connection;
                        }
                        continue;
                    }
                    Some(ConnectionEvent::Malformed { text, error, .. }) => {
                        conn.chat(&format!("error: bad message '{text}': {error}"));
                        if text.starts_with('R') {
                            // The initiator waits for an answer to its request.
                            self.refuse(conn, Acceptance::Declined);
                        }
                        continue;
                    }
                    Some(ConnectionEvent::Message(other)) => {
                        outside_game(conn, &other);
                        continue;
                    }
                    Some(ConnectionEvent::SearchDone { .. }) => continue,
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
            let ours = if number.is_multiple_of(2) {
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
                Some(ConnectionEvent::Closed(_)) => return None,
                Some(ConnectionEvent::Message(Message::GameAccept(accept))) => return Some(accept),
                Some(ConnectionEvent::Message(Message::GameEnd(end))) => {
                    if end.stop {
                        log::info!("{}: the peer ends the match", conn.peer());
                        return None;
                    }
                }
                Some(ConnectionEvent::Malformed { text, error, .. }) => {
                    conn.chat(&format!("error: bad message '{text}': {error}"));
                }
                Some(ConnectionEvent::Message(other)) => outside_game(conn, &other),
                Some(ConnectionEvent::SearchDone { .. }) => {}
            }
        }
    }

    /// Plays one accepted game to its end.
    fn play(&mut self, conn: &mut Connection, setup: GameSetup) -> Ending {
        self.player.engine().new_game();
        let last = self.games_left() == Some(1);
        let start = setup.start;
        let ours = setup.ours;
        let opponent = setup.opponent.clone();
        let resources = Resources {
            player: &self.player,
            options: self.options,
            search_ids: &mut self.next_search_id,
        };
        let (over, moves) = super::game::play(resources, conn, setup, last);
        self.games_played += 1;
        let report = GameReport {
            number: self.games_played,
            ours,
            opponent,
            start,
            moves,
            result: over.result,
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
