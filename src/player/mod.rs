//! The player: what every shell (the Hub, DXP, `analyze`) does between its protocol and
//! [`Engine::search`]. It answers from the opening book while the game is in it, otherwise runs
//! the search on a thread of its own that can be stopped, told of a ponder hit and waited for.
//!
//! The shells keep what is theirs: reading and writing their protocol, and their game's state.
//! What the player needs of the game is its search root (position and history) and how many
//! plies were played since the start, for the book's randomness.

pub mod options;
pub mod skill;
pub mod variations;

use crate::book::{Book, BookRule, estimated_ply};
use crate::eval::Evaluator;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Clock, Engine, Info, Limits, Mode, Outcome, Root, SearchControl};
use skill::Skill;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The opening book: played at once, no search.
    Book,
    /// A search.
    Search,
}

/// The plies played since the start position in a game that started at `start` and has
/// `plies` moves: the book's randomness depends on it. A game set up from another position is
/// given the plies its material suggests.
pub fn game_ply<R: Rules>(start: &Position<R>, plies: usize) -> u32 {
    let before = if *start == Position::start() {
        0
    } else {
        estimated_ply(start)
    };
    before.saturating_add(u32::try_from(plies).unwrap_or(u32::MAX))
}

/// The limits of a move played on a clock: `left` on the mover's clock, `increment` added after
/// each move, `moves_to_go` before the next period when the control has periods. The search's
/// time manager spreads the time over the moves it expects and keeps a reserve on the clock.
pub fn clock_limits(left: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
    Limits {
        clock: Some(Clock {
            time: left,
            increment,
            moves_to_go,
        }),
        ..Limits::default()
    }
}

/// What to think about.
pub struct Task<R: Rules> {
    /// The position to move from, with its history.
    pub root: Root<R>,
    /// Plies since the start position (see [`game_ply`]).
    pub ply: u32,
    /// When to stop.
    pub limits: Limits,
    /// Think, ponder or analyse.
    pub mode: Mode,
    /// Whether a book move may answer at once.
    pub book: bool,
    /// Lines of an analysis (multi-PV, see [`Engine::search_lines`]); a move to play is always
    /// searched as one line.
    pub lines: usize,
}

/// A search running on its own thread.
pub struct Thinking {
    control: Arc<SearchControl>,
    thread: JoinHandle<()>,
}

impl Thinking {
    /// Tells a pondering search that the expected move was played: it goes on as a normal one.
    pub fn ponder_hit(&self) {
        self.control.ponder_hit();
    }

    /// Stops the search and waits for its thread, which has handed over its result when this
    /// returns.
    pub fn stop(self) {
        self.control.stop();
        self.wait();
    }

    /// Waits for the thread of a search that has ended.
    pub fn wait(self) {
        if self.thread.join().is_err() {
            log::error!("the search thread panicked");
        }
    }
}

/// The engine of one variant with its opening book.
pub struct Player<R: Rules, E: Evaluator<R>> {
    engine: Arc<Engine<R, E>>,
    book: Option<Arc<Book<R>>>,
    book_rule: Option<BookRule>,
    skill: Skill,
}

impl<R: Rules, E: Evaluator<R> + Clone + Send + Sync + 'static> Player<R, E> {
    /// A player with this engine and no book.
    pub fn new(engine: Engine<R, E>) -> Self {
        Player {
            engine: Arc::new(engine),
            book: None,
            book_rule: None,
            skill: Skill::default(),
        }
    }

    /// Plays at strength level `skill` (see [`skill`]); analysis is always at full strength.
    pub fn set_skill(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// The engine.
    pub fn engine(&self) -> &Engine<R, E> {
        &self.engine
    }

    /// The engine, to change its settings; `None` while a search runs.
    pub fn engine_mut(&mut self) -> Option<&mut Engine<R, E>> {
        Arc::get_mut(&mut self.engine)
    }

    /// Plays from `book` by `rule` while a position is in it (`None`: no book).
    pub fn set_book(&mut self, book: Option<(Arc<Book<R>>, BookRule)>) {
        let (book, rule) = book.unzip();
        self.book = book;
        self.book_rule = rule;
    }

    /// The book's answer in `position` at ply `ply` of the game, when it has the position: the
    /// chosen move, the best book reply to ponder on, and the move's book score.
    pub fn book_move(&self, position: &Position<R>, ply: u32) -> Option<Outcome<R>> {
        let (book, rule) = (self.book.as_ref()?, self.book_rule?);
        let choice = book.choose(position, ply, rule, &mut rand::rng())?;
        let reply = book
            .probe(&position.play(&choice.mv))
            .first()
            .map(|reply| reply.mv);
        Some(Outcome {
            best: Some(choice.mv),
            ponder: reply,
            score: choice.score,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![choice.mv],
        })
    }

    /// Starts thinking on a thread named `name`: a book move when the task allows one and the
    /// book has the position, otherwise a search, which reports its iterations to `on_info`.
    /// `on_done` gets the move, on that thread, once.
    pub fn think(
        &self,
        task: Task<R>,
        name: &str,
        mut on_info: impl FnMut(&Info<R>) + Send + 'static,
        on_done: impl FnOnce(Outcome<R>, Source) + Send + 'static,
    ) -> Thinking {
        let from_book = if task.book {
            self.book_move(&task.root.position, task.ply)
        } else {
            None
        };
        let control = Arc::new(SearchControl::new());
        let signals = Arc::clone(&control);
        let engine = Arc::clone(&self.engine);
        let skill = (task.mode == Mode::Think && !self.skill.is_full()).then_some(self.skill);
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || match (from_book, skill) {
                (Some(outcome), _) => on_done(outcome, Source::Book),
                (None, Some(skill)) => {
                    let outcome = weaker_move(&engine, &task, skill, &signals, &mut on_info);
                    on_done(outcome, Source::Search);
                }
                (None, None) => {
                    let lines = if task.mode == Mode::Analyze {
                        task.lines
                    } else {
                        1
                    };
                    let outcome = engine.search_lines(
                        &task.root,
                        &task.limits,
                        task.mode,
                        &signals,
                        lines,
                        |info| on_info(info),
                    );
                    on_done(outcome, Source::Search);
                }
            })
            .expect("the search thread can be started");
        Thinking { control, thread }
    }

    /// Runs `job` with the engine on a thread named `name`, as a search runs: stopping the
    /// returned [`Thinking`] stops the job's searches (it is handed the control they take) and
    /// waits for its thread. For work of many searches, such as the review of a game.
    pub fn work(
        &self,
        name: &str,
        job: impl FnOnce(&Engine<R, E>, &SearchControl) + Send + 'static,
    ) -> Thinking {
        let control = Arc::new(SearchControl::new());
        let signals = Arc::clone(&control);
        let engine = Arc::clone(&self.engine);
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || job(&engine, &signals))
            .expect("the work thread can be started");
        Thinking { control, thread }
    }
}

/// The move a player of level `skill` chooses: the best [`skill::CANDIDATES`] lines within the
/// level's node limit, one of them drawn by [`Skill::choose`]. Only the first line's progress is
/// reported. The lines are searched as analysis, so that a position with one legal move is
/// searched too (a game search would play it at once, unscored).
fn weaker_move<R: Rules, E: Evaluator<R>>(
    engine: &Engine<R, E>,
    task: &Task<R>,
    skill: Skill,
    control: &SearchControl,
    on_info: &mut (impl FnMut(&Info<R>) + Send),
) -> Outcome<R> {
    let started = Instant::now();
    let limits = skill.limits(&task.limits);
    let mut nodes = 0;
    let lines = variations::best_variations(
        engine,
        &task.root,
        &limits,
        Mode::Analyze,
        control,
        skill::CANDIDATES,
        |info| {
            if info.line == 1 {
                on_info(info);
            }
            nodes = info.nodes;
        },
    );
    match skill.choose(&lines, &mut rand::rng()) {
        Some(chosen) => Outcome {
            best: chosen.pv.first().copied(),
            ponder: chosen.pv.get(1).copied(),
            score: chosen.score,
            depth: chosen.depth,
            nodes,
            elapsed: started.elapsed(),
            pv: chosen.pv.clone(),
        },
        None => engine.search(&task.root, &limits, Mode::Think, control, |_: &Info<R>| {}),
    }
}
