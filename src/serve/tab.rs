//! One browser tab: its WebSocket, its board, its clocks and its engine. A search or a review
//! runs on a thread of its own (the player's); this task only passes requests to the board and
//! the thread's events to the page, keeps the clocks, and stops the thread whenever the game
//! changes under it or the tab goes away.

use super::ServeError;
use super::clock::{Clocks, FischerControl};
use super::protocol::{ClockSetting, ClockState, Reply, Request, VariantName};
use super::tab_game::{
    Latest, MAX_LINES, SearchEvent, SearchEvents, TabGame, new_tab_game, side_name,
};
use crate::core::Color;
use crate::player::options::Setup;
use crate::player::skill::{MAX_SKILL, MIN_SKILL, Skill};
use crate::player::{Thinking, clock_limits};
use crate::rules::Variant;
use crate::search::{Limits, Mode};
use axum::extract::ws::{Message, WebSocket};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Shortest and longest time per engine move the page may ask for, in seconds.
pub const SECONDS_RANGE: [f64; 2] = [0.1, 60.0];
/// Time per engine move until the page asks for another, in seconds.
const DEFAULT_SECONDS: f64 = 1.0;
/// How long an analysis runs on one position: long enough to read, bounded so that a tab left
/// open does not keep a core busy for ever.
const ANALYSIS_TIME: Duration = Duration::from_secs(60);
/// Shortest and longest starting time on the clock, in minutes: from a bullet game to a long
/// classical one.
pub const CLOCK_MINUTES: [f64; 2] = [0.1, 180.0];
/// Largest increment per move on the clock, in seconds.
pub const MAX_INCREMENT: f64 = 60.0;
/// Nodes searched for each position of a review: a few tenths of a second each, so that a game
/// of fifty moves is reviewed in well under a minute, deep enough to tell a blunder.
const REVIEW_NODES: u64 = 300_000;
/// Seconds in a minute.
const SECONDS_PER_MINUTE: f64 = 60.0;

/// What the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EngineMode {
    /// Plays one colour against the user.
    Play,
    /// Analyses every position; the user moves for both sides.
    Analyse,
}

impl EngineMode {
    fn name(self) -> &'static str {
        match self {
            EngineMode::Play => "play",
            EngineMode::Analyse => "analyse",
        }
    }
}

/// A search that is stopped and waited for when dropped, so that no tab leaves a searching
/// thread behind, however its task ends.
struct Search(Option<Thinking>);

impl Search {
    /// Stops the search off the async threads (joining a thread blocks).
    async fn stop(mut self) {
        if let Some(thinking) = self.0.take()
            && tokio::task::spawn_blocking(move || thinking.stop())
                .await
                .is_err()
        {
            log::error!("stopping a search failed");
        }
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        if let Some(thinking) = self.0.take() {
            thinking.stop();
        }
    }
}

struct Tab {
    game: Box<dyn TabGame>,
    /// The engine of every game of the tab.
    setup: Setup,
    mode: EngineMode,
    engine: Color,
    seconds: f64,
    skill: Skill,
    lines: usize,
    flipped: bool,
    /// The clock's time control in play, when one is chosen instead of a time per move.
    time_control: Option<FischerControl>,
    /// The clocks of a timed game in play.
    clocks: Option<Clocks>,
    /// Whether the search under way is a review.
    reviewing: bool,
    /// The moves of the game last reviewed (Hub texts), to tell whether its review still holds.
    reviewed: Option<Vec<String>>,
    search: Option<Search>,
    /// Moves taken back, the last one first to play again (Hub texts).
    redo: Vec<String>,
    /// Number of the current search: events of older ones are ignored.
    generation: u64,
    events: SearchEvents,
}

/// Runs the tab on `socket`, with engines of `engine`, until the page goes away.
pub async fn run(mut socket: WebSocket, engine: Setup) {
    let latest = Arc::new(Latest::default());
    let (done_sender, mut done) = mpsc::unbounded_channel();
    let game = match new_tab_game(Variant::International, &engine) {
        Ok(game) => game,
        Err(error) => {
            log::error!("{error}");
            let _ = send(&mut socket, &error_reply(&error)).await;
            return;
        }
    };
    let mut tab = Tab {
        game,
        setup: engine,
        mode: EngineMode::Play,
        engine: Color::Black,
        seconds: DEFAULT_SECONDS,
        skill: Skill::default(),
        lines: 1,
        flipped: false,
        time_control: None,
        clocks: None,
        reviewing: false,
        reviewed: None,
        search: None,
        redo: Vec::new(),
        generation: 0,
        events: SearchEvents {
            latest: Arc::clone(&latest),
            done: done_sender,
        },
    };
    let hello = Reply::Hello {
        variants: Variant::ALL
            .iter()
            .map(|variant| VariantName {
                name: variant.name(),
            })
            .collect(),
        seconds: SECONDS_RANGE,
        levels: [MIN_SKILL, MAX_SKILL],
        max_lines: MAX_LINES,
        clock_minutes: CLOCK_MINUTES,
        max_increment: MAX_INCREMENT,
    };
    if send(&mut socket, &hello).await.is_ok() && send(&mut socket, &tab.state()).await.is_ok() {
        loop {
            let deadline = tab.clocks.as_ref().and_then(Clocks::deadline);
            let replies = tokio::select! {
                message = socket.recv() => match message {
                    Some(Ok(message)) => match tab.message(message).await {
                        Some(replies) => replies,
                        None => break,
                    },
                    // Gone, or broke the protocol (an oversized message, say).
                    Some(Err(error)) => {
                        log::info!("tab closed: {error}");
                        break;
                    }
                    None => break,
                },
                () = latest.filled() => tab.events(latest.take()).await,
                () = sleep_until(deadline) => tab.time_up().await,
                Some(event) = done.recv() => {
                    // A search's last iterations come before its move: pass on those still
                    // queued before the move makes them stale.
                    let mut events = latest.take();
                    events.push(event);
                    tab.events(events).await
                }
            };
            let mut sent = true;
            for reply in &replies {
                sent = sent && send(&mut socket, reply).await.is_ok();
            }
            if !sent {
                break;
            }
        }
    }
    tab.stop().await;
    log::info!("tab closed");
}

/// Waits until `deadline`; for ever when there is none.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}

async fn send(socket: &mut WebSocket, reply: &Reply) -> Result<(), axum::Error> {
    let text = serde_json::to_string(reply).unwrap_or_default();
    socket.send(Message::Text(text.into())).await
}

fn error_reply(error: &ServeError) -> Reply {
    Reply::Error {
        message: error.to_string(),
    }
}

impl Tab {
    /// Handles one WebSocket message; `None` when the page closed the socket.
    async fn message(&mut self, message: Message) -> Option<Vec<Reply>> {
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => return None,
            Message::Binary(_) => {
                return Some(vec![error_reply(&ServeError::Request(
                    "binary messages are not understood".to_string(),
                ))]);
            }
            // Pings are answered by the WebSocket layer.
            Message::Ping(_) | Message::Pong(_) => return Some(Vec::new()),
        };
        let request = match serde_json::from_str::<Request>(text.as_str()) {
            Ok(request) => request,
            Err(error) => {
                let message = crate::line_input::excerpt(&error.to_string()).to_string();
                return Some(vec![error_reply(&ServeError::Request(message))]);
            }
        };
        Some(match self.request(request).await {
            Ok(replies) => replies,
            Err(error) => vec![error_reply(&error), self.state()],
        })
    }

    async fn request(&mut self, request: Request) -> Result<Vec<Reply>, ServeError> {
        match request {
            Request::New { variant, fen } => {
                let variant = Variant::from_name(&variant)
                    .ok_or_else(|| ServeError::Request(format!("unknown variant '{variant}'")))?;
                self.stop().await;
                self.redo.clear();
                if variant == self.game.variant() {
                    self.game.new_game(fen.as_deref())?;
                } else {
                    let mut game = new_tab_game(variant, &self.setup)?;
                    game.new_game(fen.as_deref())?;
                    self.game = game;
                }
                self.reset_clocks();
            }
            Request::Move { id } => {
                if !self.user_may_move() {
                    return Err(ServeError::Request("it is not your turn".to_string()));
                }
                self.stop().await;
                self.clocked_move(&id)?;
            }
            Request::Undo => {
                self.stop().await;
                self.take_back();
                // In play the user takes back to a position where it is the user's turn.
                while self.mode == EngineMode::Play
                    && self.game.side_to_move() == self.engine
                    && self.take_back()
                {}
            }
            Request::Redo => {
                let id = self
                    .redo
                    .pop()
                    .ok_or_else(|| ServeError::Request("no move to play again".to_string()))?;
                self.stop().await;
                self.game.play(&id)?;
            }
            Request::Flip => {
                self.flipped = !self.flipped;
                return Ok(vec![self.state()]);
            }
            Request::Settings {
                mode,
                engine,
                seconds,
                level,
                lines,
                clock,
            } => {
                let mode = match mode.as_str() {
                    "play" => EngineMode::Play,
                    "analyse" => EngineMode::Analyse,
                    other => return Err(ServeError::Request(format!("unknown mode '{other}'"))),
                };
                let engine = match engine.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    other => return Err(ServeError::Request(format!("unknown colour '{other}'"))),
                };
                if !(SECONDS_RANGE[0]..=SECONDS_RANGE[1]).contains(&seconds) {
                    return Err(ServeError::Request(format!(
                        "time per move must be {} to {} seconds",
                        SECONDS_RANGE[0], SECONDS_RANGE[1]
                    )));
                }
                let skill = Skill::new(level).ok_or_else(|| {
                    ServeError::Request(format!("level must be {MIN_SKILL} to {MAX_SKILL}"))
                })?;
                if !(1..=MAX_LINES).contains(&lines) {
                    return Err(ServeError::Request(format!(
                        "lines must be 1 to {MAX_LINES}"
                    )));
                }
                let time_control = clock.map(time_control).transpose()?;
                self.stop().await;
                self.mode = mode;
                self.engine = engine;
                self.seconds = seconds;
                self.skill = skill;
                self.lines = lines;
                self.time_control = time_control;
                self.reset_clocks();
            }
            Request::LoadPdn { text } => {
                self.stop().await;
                if let Err(error) = self.game.load_pdn(&text) {
                    // A game of another variant (its GameType tag says which) switches to it.
                    let Some(variant) = super::tab_game::variant_of_pdn(&text) else {
                        return Err(error);
                    };
                    let mut game = new_tab_game(variant, &self.setup)?;
                    game.load_pdn(&text)?;
                    self.game = game;
                }
                self.redo.clear();
                self.reset_clocks();
            }
            Request::Review => {
                // The engine reviews instead of playing: its clock would run meanwhile.
                if self.clocks.is_some() && self.result().is_none() {
                    return Err(ServeError::Request(
                        "a game on the clock is under way: review it once it is over, or in \
                         analysis"
                            .to_string(),
                    ));
                }
                self.stop().await;
                let then: Vec<String> = self.redo.iter().rev().cloned().collect();
                let line = self.full_line();
                if line.is_empty() {
                    return Err(ServeError::Request("no moves to review".to_string()));
                }
                self.generation += 1;
                let limits = Limits {
                    nodes: Some(REVIEW_NODES),
                    ..Limits::default()
                };
                let thinking =
                    self.game
                        .review(&then, limits, self.generation, self.events.clone())?;
                self.search = Some(Search(Some(thinking)));
                self.reviewing = true;
                log::info!("reviewing a game of {} moves", line.len());
                return Ok(vec![self.state()]);
            }
            Request::CancelReview => {
                if !self.reviewing {
                    return Err(ServeError::Request("no review under way".to_string()));
                }
                self.stop().await;
            }
            Request::Goto { ply } => {
                let last = self.game.ply_count() + self.redo.len();
                if ply > last {
                    return Err(ServeError::Request(format!(
                        "the game has {last} moves, not {ply}"
                    )));
                }
                self.stop().await;
                while self.game.ply_count() > ply && self.take_back() {}
                while self.game.ply_count() < ply {
                    let Some(id) = self.redo.pop() else { break };
                    self.game.play(&id)?;
                }
            }
            Request::SavePdn => {
                let (white, black) = match (self.mode, self.engine) {
                    (EngineMode::Play, Color::White) => ("Rafle", "Player"),
                    (EngineMode::Play, Color::Black) => ("Player", "Rafle"),
                    (EngineMode::Analyse, _) => ("?", "?"),
                };
                return Ok(vec![Reply::Pdn {
                    text: self.game.pdn(white, black, self.lost_on_time()),
                }]);
            }
        }
        self.run_clock();
        self.start();
        Ok(vec![self.state()])
    }

    /// Handles events of a search thread, in order.
    async fn events(&mut self, events: Vec<SearchEvent>) -> Vec<Reply> {
        let mut replies = Vec::new();
        for event in events {
            replies.extend(self.event(event).await);
        }
        replies
    }

    /// Handles an event of a search thread.
    async fn event(&mut self, event: SearchEvent) -> Vec<Reply> {
        match event {
            SearchEvent::Info { generation, info } if generation == self.generation => {
                vec![Reply::Info(info)]
            }
            SearchEvent::Progress {
                generation,
                done,
                total,
            } if generation == self.generation => vec![Reply::ReviewProgress { done, total }],
            SearchEvent::Reviewed { generation, review } if generation == self.generation => {
                self.stop().await;
                self.reviewed = Some(self.full_line());
                // The engine takes up what the position calls for again.
                self.start();
                vec![review, self.state()]
            }
            SearchEvent::Done { generation, best } if generation == self.generation => {
                self.stop().await;
                // An analysis that ran its time stays ended until the position changes.
                if self.mode == EngineMode::Play {
                    if let Some(best) = best
                        && let Err(error) = self.clocked_move(&best)
                    {
                        log::error!("the engine's move was refused: {error}");
                    }
                    self.run_clock();
                    self.start();
                }
                vec![self.state()]
            }
            _ => Vec::new(),
        }
    }

    /// The clock's time ran out: the side to move has lost, its search (if the engine's) ends.
    async fn time_up(&mut self) -> Vec<Reply> {
        let now = Instant::now();
        if !self
            .clocks
            .as_mut()
            .is_some_and(|clocks| clocks.out_of_time(now))
        {
            return Vec::new();
        }
        self.stop().await;
        log::info!("{}", self.result().unwrap_or_default());
        vec![self.state()]
    }

    /// Plays a move of the side to move and books its time on the clock. A move that comes
    /// after its side's time ran out is not played: that side has lost.
    fn clocked_move(&mut self, id: &str) -> Result<(), ServeError> {
        let now = Instant::now();
        if self
            .clocks
            .as_mut()
            .is_some_and(|clocks| clocks.out_of_time(now))
        {
            return Ok(());
        }
        self.play(id)?;
        if let Some(clocks) = self.clocks.as_mut()
            && !clocks.moved(now)
        {
            self.game.undo();
        }
        Ok(())
    }

    /// Sets both clocks to the time control's start, in play on the clock; none otherwise.
    fn reset_clocks(&mut self) {
        self.clocks = self
            .time_control
            .filter(|_| self.mode == EngineMode::Play)
            .map(Clocks::new);
    }

    /// Runs the clock of the side to move (charging the other side's running time, without
    /// increment: a move taken back or played again is no move made now), or stops both clocks
    /// once the game is over.
    fn run_clock(&mut self) {
        let now = Instant::now();
        let over = self.game.result().is_some();
        let side = self.game.side_to_move();
        if let Some(clocks) = self.clocks.as_mut() {
            if over {
                clocks.pause(now);
            } else {
                clocks.run(side, now);
            }
        }
    }

    /// The side that ran out of time, if one did.
    fn lost_on_time(&self) -> Option<Color> {
        self.clocks.as_ref().and_then(Clocks::flagged)
    }

    /// Why the game is over, if it is: by the rules or on time.
    fn result(&self) -> Option<String> {
        match self.lost_on_time() {
            Some(loser) => Some(self.game.time_loss(loser)),
            None => self.game.result(),
        }
    }

    /// Plays a move; the moves taken back stay to play again only if it is the next of them.
    fn play(&mut self, id: &str) -> Result<(), ServeError> {
        self.game.play(id)?;
        if self.redo.last().is_some_and(|next| next == id) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(())
    }

    /// Takes back one move, keeping it to play again; false at the start.
    fn take_back(&mut self) -> bool {
        let undone = self.game.undo();
        let any = undone.is_some();
        self.redo.extend(undone);
        any
    }

    fn user_may_move(&self) -> bool {
        self.result().is_none()
            && (self.mode == EngineMode::Analyse || self.game.side_to_move() != self.engine)
    }

    /// Starts the search the position calls for, if any: the engine's move in play, an
    /// analysis in analysis mode.
    fn start(&mut self) {
        if self.result().is_some() {
            return;
        }
        let (limits, mode) = match self.mode {
            EngineMode::Play if self.game.side_to_move() == self.engine => (
                match &self.clocks {
                    // The engine plans its move on its own clock, as in a Hub or DXP game.
                    Some(clocks) => clock_limits(
                        clocks.left(self.engine, Instant::now()),
                        clocks.control().increment,
                        None,
                    ),
                    None => Limits {
                        move_time: Some(Duration::from_secs_f64(self.seconds)),
                        ..Limits::default()
                    },
                },
                Mode::Think,
            ),
            EngineMode::Play => return,
            EngineMode::Analyse => (
                Limits {
                    move_time: Some(ANALYSIS_TIME),
                    ..Limits::default()
                },
                Mode::Analyze,
            ),
        };
        self.generation += 1;
        // Set at each start: a change of variant brings a new game.
        self.game.set_skill(self.skill);
        let thinking = self.game.think(
            limits,
            mode,
            self.lines,
            self.generation,
            self.events.clone(),
        );
        self.search = Some(Search(Some(thinking)));
    }

    /// The game's moves and, after them, those taken back that can be played again: the game
    /// as loaded, wherever it is being looked at.
    fn full_line(&self) -> Vec<String> {
        let mut line = self.game.line();
        line.extend(self.redo.iter().rev().cloned());
        line
    }

    /// Stops the running search or review, if any, and forgets its events.
    async fn stop(&mut self) {
        self.generation += 1;
        self.reviewing = false;
        if let Some(search) = self.search.take() {
            search.stop().await;
        }
    }

    fn state(&self) -> Reply {
        let now = Instant::now();
        let millis = |clocks: &Clocks, side| {
            u64::try_from(clocks.left(side, now).as_millis()).unwrap_or(u64::MAX)
        };
        Reply::State {
            position: self.game.describe(self.flipped, self.user_may_move()),
            result: self.result(),
            mode: self.mode.name(),
            engine: side_name(self.engine),
            seconds: self.seconds,
            level: self.skill.level(),
            lines: self.lines,
            thinking: self.search.is_some() && !self.reviewing,
            forward: !self.redo.is_empty(),
            flipped: self.flipped,
            time_control: self.time_control.map(|control| ClockSetting {
                minutes: control.initial.as_secs_f64() / SECONDS_PER_MINUTE,
                increment: control.increment.as_secs_f64(),
            }),
            clock: self.clocks.as_ref().map(|clocks| ClockState {
                white_ms: millis(clocks, Color::White),
                black_ms: millis(clocks, Color::Black),
                running: clocks.running().map(side_name),
            }),
            reviewing: self.reviewing,
            reviewed: self
                .reviewed
                .as_ref()
                .is_some_and(|line| *line == self.full_line()),
            ply: self.game.ply_count(),
        }
    }
}

/// The time control the page asked for, if it is in range.
fn time_control(setting: ClockSetting) -> Result<FischerControl, ServeError> {
    if !(CLOCK_MINUTES[0]..=CLOCK_MINUTES[1]).contains(&setting.minutes) {
        return Err(ServeError::Request(format!(
            "the clock must start with {} to {} minutes",
            CLOCK_MINUTES[0], CLOCK_MINUTES[1]
        )));
    }
    if !(0.0..=MAX_INCREMENT).contains(&setting.increment) {
        return Err(ServeError::Request(format!(
            "the increment must be 0 to {MAX_INCREMENT} seconds"
        )));
    }
    Ok(FischerControl {
        initial: Duration::from_secs_f64(setting.minutes * SECONDS_PER_MINUTE),
        increment: Duration::from_secs_f64(setting.increment),
    })
}
