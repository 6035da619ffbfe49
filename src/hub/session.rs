//! The variant-specific half of the Hub shell: the engine and the game for one variant, behind a
//! small object-safe trait so that the protocol loop can switch variants at run time. Dynamic
//! dispatch happens once per protocol command, never inside the search.

use super::params::{Effect, Params};
use super::{HubError, Output, protocol};
use crate::book::Book;
use crate::eval::Eval;
use crate::game::Game;
use crate::notation::{fen, hub, text};
use crate::player::options;
use crate::player::skill::Skill;
use crate::player::{Player, Source, Task, Thinking, game_ply};
use crate::position::Position;
use crate::rules::Rules;
use crate::score;
use crate::search::{Engine, Info, Limits, Mode, Root};
use crate::tt::TableError;
use crate::with_variant;
use protocol::HubMessage;
use std::sync::Arc;

/// One variant's engine and game.
pub(crate) trait Session: Send {
    /// Forgets what the engine learnt (a new game).
    fn new_game(&mut self);
    /// Applies what `effect` names of `params` ([`Effect::Session`] needs a new session).
    fn apply(&mut self, effect: Effect, params: &Params);
    /// Sets the game from a `pos` line; on error the previous game is kept.
    fn set_position(&mut self, line: &HubMessage) -> Result<(), HubError>;
    /// Who won and why, when the current position decides the game (no move to search for).
    fn result(&self) -> Option<String>;
    /// Starts a search on its own thread, which writes `info` lines and exactly one `done`.
    fn start(&mut self, limits: Limits, mode: Mode, out: Arc<Output>) -> Thinking;
}

/// A session for the variant and table size of `params`.
///
/// # Errors
/// When the table cannot be allocated.
pub(crate) fn new_session(params: &Params) -> Result<Box<dyn Session>, TableError> {
    with_variant!(params.variant, R => {
        let engine = options::engine::<R>(params.eval.clone(), params.threads, params.hash_mb)?;
        Ok(session_with::<R>(engine, params))
    })
}

/// A session whose table is the largest the system gives up to the size of `params`, for when
/// even the previous size cannot be had again.
pub(crate) fn fallback_session(params: &Params) -> Box<dyn Session> {
    with_variant!(params.variant, R => {
        let engine = options::engine_at_most::<R>(params.eval.clone(), params.threads, params.hash_mb);
        session_with::<R>(engine, params)
    })
}

fn session_with<R: Rules>(mut engine: Engine<R, Eval>, params: &Params) -> Box<dyn Session> {
    engine.set_egdb(crate::egdb::open_for_engine::<R>(
        &params.egdb_path,
        params.egdb_pieces,
    ));
    let mut session = VariantSession::<R> {
        player: Player::new(engine),
        root: Root::new(Position::start()),
        result: None,
        ply: 0,
        book: None,
        book_source: None,
        lines: 1,
    };
    // The engine was built with the evaluation; the rest of the parameters are applied here.
    for effect in [Effect::Search, Effect::Book, Effect::Skill, Effect::Lines] {
        session.apply(effect, params);
    }
    Box::new(session)
}

struct VariantSession<R: Rules> {
    player: Player<R, Eval>,
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
    /// Lines of an analysis (`multi-pv`).
    lines: usize,
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
        let given = (!file.is_empty()).then(|| std::path::Path::new(file));
        let started = std::time::Instant::now();
        let loaded = options::book_path::<R>(given)
            .and_then(|path| options::load_book::<R>(&path).map(|book| (path, book)));
        match loaded {
            Ok((path, book)) => {
                log::info!(
                    "book: {} positions from {} in {:.1} ms",
                    book.len(),
                    path.display(),
                    started.elapsed().as_secs_f64() * 1e3
                );
                self.book = Some(book);
            }
            Err(error) => log::warn!("book: {error}; playing without a book"),
        }
    }
}

impl<R: Rules> Session for VariantSession<R> {
    fn new_game(&mut self) {
        self.player.engine().new_game();
    }

    fn apply(&mut self, effect: Effect, params: &Params) {
        match effect {
            Effect::Search | Effect::Eval => {
                let Some(engine) = self.player.engine_mut() else {
                    log::warn!("parameters cannot change during a search");
                    return;
                };
                if effect == Effect::Eval {
                    engine.set_evaluator(params.eval.clone());
                } else {
                    engine.set_threads(params.threads);
                    engine.set_ponder(params.ponder);
                }
            }
            Effect::Book => {
                if params.book {
                    self.load_book(&params.book_file);
                }
                let rule = options::book_rule(params.book_ply, params.book_margin);
                let book = self.book.clone().filter(|_| params.book);
                self.player.set_book(book.map(|book| (book, rule)));
            }
            Effect::Skill => self
                .player
                .set_skill(Skill::new(params.skill).unwrap_or_default()),
            Effect::Lines => self.lines = params.multi_pv as usize,
            Effect::Session => {}
        }
    }

    fn set_position(&mut self, line: &HubMessage) -> Result<(), HubError> {
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
            .filter(|end| !end.result.is_draw())
            .map(|result| result.to_string());
        self.ply = game_ply(game.start(), game.ply_count());
        Ok(())
    }

    fn result(&self) -> Option<String> {
        self.result.clone()
    }

    fn start(&mut self, limits: Limits, mode: Mode, out: Arc<Output>) -> Thinking {
        let task = Task {
            root: self.root.clone(),
            ply: self.ply,
            limits,
            mode,
            book: mode != Mode::Analyze,
            lines: self.lines,
        };
        let numbered = mode == Mode::Analyze && self.lines > 1;
        let virtual_clock = limits.nodes_per_ms.is_some();
        let info_out = Arc::clone(&out);
        self.player.think(
            task,
            "hub-search",
            move |info: &Info<R>| info_out.line(&info_line(info, numbered)),
            move |outcome, source| {
                if source == Source::Book {
                    // A book move is played at once: `info` with the score and the move, then
                    // `done` with the best book reply as the move to ponder.
                    let pv = outcome
                        .best
                        .map(|mv| text::hub::<R>(&mv))
                        .unwrap_or_default();
                    out.line(&protocol::format(
                        "info",
                        &[("score", score::to_men(outcome.score)), ("pv", pv)],
                    ));
                }
                let mut args = Vec::new();
                if let Some(best) = outcome.best {
                    args.push(("move", text::hub::<R>(&best)));
                    if let Some(ponder) = outcome.ponder {
                        args.push(("ponder", text::hub::<R>(&ponder)));
                    }
                }
                if virtual_clock {
                    args.push(("nodes", outcome.nodes.to_string()));
                }
                out.line(&protocol::format("done", &args));
            },
        )
    }
}

/// An `info` line; `numbered` (multi-PV) adds the line's number as `line=N` (Scan has no such
/// key, so single-line output stays as Scan writes it).
fn info_line<R: Rules>(info: &Info<R>, numbered: bool) -> String {
    let seconds = info.elapsed.as_secs_f64();
    let mut args: Vec<(&str, String)> = Vec::new();
    if numbered {
        args.push(("line", info.line.to_string()));
    }
    args.push(("depth", info.depth.to_string()));
    if info.mean_depth > 0.0 {
        args.push(("mean-depth", format!("{:.1}", info.mean_depth)));
    }
    args.push(("score", score::to_men(info.score)));
    args.push(("nodes", info.nodes.to_string()));
    // Every line carries time and speed, the first iterations too: GUIs show them (Scan leaves
    // them out below 1 and 10 ms, which leaves a GUI's columns empty at the start).
    args.push(("time", format!("{seconds:.3}")));
    if seconds > 0.0 {
        args.push(("nps", format!("{:.1}", info.nodes as f64 / seconds / 1e6)));
    }
    let words: Vec<String> = info.pv.iter().map(text::hub::<R>).collect();
    if !words.is_empty() {
        args.push(("pv", words.join(" ")));
    }
    protocol::format("info", &args)
}
