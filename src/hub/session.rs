//! The variant-specific half of the Hub shell: the engine and the game for one variant, behind a
//! small object-safe trait so that the protocol loop can switch variants at run time. Dynamic
//! dispatch happens once per protocol command, never inside the search.

use super::{HubError, Output, Params, protocol};
use crate::book::{Book, BookRule, estimated_ply};
use crate::eval::Eval;
use crate::game::Game;
use crate::notation::{fen, hub, text};
use crate::position::Position;
use crate::rules::Rules;
use crate::score;
use crate::search::{Engine, Info, Limits, Mode, Root, SearchControl};
use crate::tt::TableError;
use crate::with_variant;
use protocol::Line;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Timing fields of `info` are left out below these, as in Scan.
const MIN_TIME_SHOWN: f64 = 0.001;
const MIN_TIME_FOR_NPS: f64 = 0.01;

/// One variant's engine and game.
pub(crate) trait Session: Send {
    /// Forgets what the engine learnt (a new game).
    fn new_game(&mut self);
    /// Applies parameters that do not need a new session (threads, ponder, book).
    fn configure(&mut self, params: &Params);
    /// Sets the game from a `pos` line; on error the previous game is kept.
    fn set_position(&mut self, line: &Line) -> Result<(), HubError>;
    /// Who won and why, when the current position decides the game (no move to search for).
    fn result(&self) -> Option<String>;
    /// Starts a search on its own thread, which writes `info` lines and exactly one `done`.
    fn start(
        &mut self,
        limits: Limits,
        mode: Mode,
        control: Arc<SearchControl>,
        out: Arc<Output>,
    ) -> JoinHandle<()>;
}

/// A session for the variant and table size of `params`.
///
/// # Errors
/// When the table cannot be allocated.
pub(crate) fn new_session(params: &Params) -> Result<Box<dyn Session>, TableError> {
    with_variant!(params.variant, R => {
        // The table is asked for fallibly; the engine's own constructor would settle for less.
        let mut engine = Engine::<R, Eval>::with_evaluator(params.eval.clone(), 0, params.threads);
        engine.set_hash(params.hash_mb)?;
        Ok(session_with::<R>(engine, params))
    })
}

/// A session whose table is the largest the system gives up to the size of `params`, for when
/// even the previous size cannot be had again.
pub(crate) fn fallback_session(params: &Params) -> Box<dyn Session> {
    with_variant!(params.variant, R => {
        let engine =
            Engine::<R, Eval>::with_evaluator(params.eval.clone(), params.hash_mb, params.threads);
        session_with::<R>(engine, params)
    })
}

fn session_with<R: Rules>(mut engine: Engine<R, Eval>, params: &Params) -> Box<dyn Session> {
    engine.set_egdb(crate::egdb::open_for_engine::<R>(
        &params.egdb_path,
        params.egdb_pieces as u32,
    ));
    let mut session = VariantSession::<R> {
        engine: Arc::new(engine),
        root: Root::new(Position::start()),
        result: None,
        ply: 0,
        book: None,
        book_source: None,
        book_rule: None,
    };
    session.configure(params);
    Box::new(session)
}

struct VariantSession<R: Rules> {
    engine: Arc<Engine<R, Eval>>,
    root: Root<R>,
    /// Who won at the root, if the game is decided there (see [`crate::game::Game::result`]).
    result: Option<String>,
    /// Plies from the start position to the root (estimated when `pos` gave a position
    /// without its history), for the book's `book-ply` rule.
    ply: u32,
    /// The loaded book, if any.
    book: Option<Arc<Book<R>>>,
    /// The `book-file` value the book was (or failed to be) loaded for.
    book_source: Option<String>,
    /// How to choose book moves; `None` when `book=false`.
    book_rule: Option<BookRule>,
}

impl<R: Rules> VariantSession<R> {
    /// Loads the book named by `file` (the variant's default when empty) unless it is already
    /// loaded. A missing or bad book is reported on stderr and play goes on without it.
    fn load_book(&mut self, file: &str) {
        if self.book_source.as_deref() == Some(file) {
            return;
        }
        self.book_source = Some(file.to_string());
        self.book = None;
        let path = if file.is_empty() {
            match crate::book::default_path(R::NAME) {
                Some(path) => path,
                None => {
                    log::warn!(
                        "book: no {} book found (books/{}.book); playing without one",
                        R::NAME,
                        R::NAME
                    );
                    return;
                }
            }
        } else {
            std::path::PathBuf::from(file)
        };
        let started = std::time::Instant::now();
        match Book::<R>::load(&path) {
            Ok(book) => {
                log::info!(
                    "book: {} positions from {} in {:.1} ms",
                    book.len(),
                    path.display(),
                    started.elapsed().as_secs_f64() * 1e3
                );
                self.book = Some(Arc::new(book));
            }
            Err(error) => log::warn!(
                "book: cannot load {}: {error}; playing without a book",
                path.display()
            ),
        }
    }
}

impl<R: Rules> Session for VariantSession<R> {
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn configure(&mut self, params: &Params) {
        match Arc::get_mut(&mut self.engine) {
            Some(engine) => {
                engine.set_threads(params.threads);
                engine.set_evaluator(params.eval.clone());
                engine.set_ponder(params.ponder);
            }
            None => log::warn!("parameters cannot change during a search"),
        }
        self.book_rule = params.book.then(|| BookRule {
            ply: params.book_ply.clamp(0, i64::from(u32::MAX)) as u32,
            margin: params.book_margin.clamp(0, i64::from(i32::MAX)) as i32,
        });
        if params.book {
            self.load_book(&params.book_file);
        }
    }

    fn set_position(&mut self, line: &Line) -> Result<(), HubError> {
        let start =
            match (line.value("pos"), line.value("fen")) {
                (Some(_), Some(_)) => {
                    return Err(HubError::new("bad position", "give pos= or fen=, not both"));
                }
                (Some(text), None) => hub::parse::<R>(text)
                    .map_err(|e| HubError::new("bad position", e.to_string()))?,
                (None, Some(text)) => fen::parse::<R>(text)
                    .map_err(|e| HubError::new("bad position", e.to_string()))?,
                (None, None) => Position::start(),
            };
        let base_ply = if start == Position::start() {
            0
        } else {
            estimated_ply(&start)
        };
        // Hub move texts number the squares of algebraic variants from a1 (see notation::hub),
        // so they are read here rather than by Game::from_moves.
        let mut game = Game::new(start);
        for word in line.value("moves").unwrap_or("").split_whitespace() {
            let mv = text::parse_hub(game.position(), word).map_err(|error| {
                let message = match error {
                    text::MoveError::Malformed { .. } => "bad move",
                    _ => "illegal move",
                };
                HubError::new(message, error.to_string())
            })?;
            game.play(&mv)
                .map_err(|error| HubError::new("illegal move", error.to_string()))?;
        }
        self.root = Root::from_game(&game);
        // Only a decided game refuses `go`: a draw by rule is the arbiter's to call (GUIs and
        // lidraughts apply their own draw rules, and a bot refused a move would lose on time).
        self.result = game
            .result()
            .filter(|result| !result.is_draw())
            .map(|result| result.to_string());
        self.ply = base_ply.saturating_add(u32::try_from(game.ply_count()).unwrap_or(u32::MAX));
        Ok(())
    }

    fn result(&self) -> Option<String> {
        self.result.clone()
    }

    fn start(
        &mut self,
        limits: Limits,
        mode: Mode,
        control: Arc<SearchControl>,
        out: Arc<Output>,
    ) -> JoinHandle<()> {
        let engine = Arc::clone(&self.engine);
        let root = self.root.clone();
        if mode != Mode::Analyze
            && let (Some(book), Some(rule)) = (&self.book, self.book_rule)
            && let Some(choice) = book.choose(&root.position, self.ply, rule, &mut rand::rng())
        {
            // A book move is played at once: `info` with the score and the move, then `done`
            // with the best book reply as the move to ponder.
            let after = root.position.play(&choice.mv);
            let reply = book.probe(&after).first().map(|reply| reply.mv);
            return std::thread::Builder::new()
                .name("hub-book".to_string())
                .spawn(move || {
                    out.line(&protocol::format(
                        "info",
                        &[
                            ("score", score::to_men(choice.score)),
                            ("pv", text::hub::<R>(&choice.mv)),
                        ],
                    ));
                    let mut args = vec![("move", text::hub::<R>(&choice.mv))];
                    if let Some(reply) = reply {
                        args.push(("ponder", text::hub::<R>(&reply)));
                    }
                    out.line(&protocol::format("done", &args));
                })
                .expect("the book thread can be started");
        }
        std::thread::Builder::new()
            .name("hub-search".to_string())
            .spawn(move || {
                let position = root.position;
                let outcome = engine.search(&root, &limits, mode, &control, |info: &Info<R>| {
                    out.line(&info_line(&position, info));
                });
                let mut args = Vec::new();
                if let Some(best) = outcome.best {
                    args.push(("move", text::hub::<R>(&best)));
                    if let Some(ponder) = outcome.ponder {
                        args.push(("ponder", text::hub::<R>(&ponder)));
                    }
                }
                out.line(&protocol::format("done", &args));
            })
            .expect("the search thread can be started")
    }
}

fn info_line<R: Rules>(position: &Position<R>, info: &Info<R>) -> String {
    let seconds = info.elapsed.as_secs_f64();
    let mut args: Vec<(&str, String)> = vec![("depth", info.depth.to_string())];
    if info.mean_depth > 0.0 {
        args.push(("mean-depth", format!("{:.1}", info.mean_depth)));
    }
    args.push(("score", score::to_men(info.score)));
    args.push(("nodes", info.nodes.to_string()));
    if seconds >= MIN_TIME_SHOWN {
        args.push(("time", format!("{seconds:.3}")));
    }
    if seconds >= MIN_TIME_FOR_NPS {
        args.push(("nps", format!("{:.1}", info.nodes as f64 / seconds / 1e6)));
    }
    let mut current = *position;
    let mut words = Vec::with_capacity(info.pv.len());
    for mv in &info.pv {
        words.push(text::hub::<R>(mv));
        current = current.play(mv);
    }
    if !words.is_empty() {
        args.push(("pv", words.join(" ")));
    }
    protocol::format("info", &args)
}
