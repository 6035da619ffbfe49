//! One tab's board: the game and the engine of one variant, behind a small object-safe trait so
//! that a tab can switch variants at run time (as the Hub's sessions do). Everything that leaves
//! it is already text or numbers: the connection never sees a rules type.

use super::ServeError;
use super::protocol::{BoardView, InfoView, LegalMove, Reply, ReviewedMove};
use crate::annotate::html::{self, GameView};
use crate::annotate::{self, Mark, PositionReview};
use crate::core::Color;
use crate::diagram::{self, Arrow};
use crate::eval::Eval;
use crate::game::{Game, GameResult};
use crate::notation::pdn::{self, PdnResult, Tags};
use crate::notation::{fen, text};
use crate::player::options::Setup;
use crate::player::skill::Skill;
use crate::player::{Player, Task, Thinking, game_ply};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::score::Score;
use crate::score_text::{self, Verdict};
use crate::search::{Info, Limits, Mode, Root, SearchControl};
use crate::with_variant;
use std::sync::{Arc, Mutex};
use tokio::sync::{Notify, mpsc};

/// Transposition table of each tab's engine by default, in MiB: small, since a page may hold
/// several tabs and a move takes seconds, not hours.
pub const TABLE_MB: usize = 32;
/// Score (centi-men, White's view) at which the evaluation bar is about three quarters full: a
/// man and a half ahead, which most players win.
const BAR_SCALE: f64 = 150.0;
/// The PDN `Termination` of a game lost on time.
const TIME_FORFEIT: &str = "time forfeit";
/// Most lines an analysis shows: more would not fit beside the board. The latest iteration of
/// each is kept for the page.
pub const MAX_LINES: usize = 5;
/// Name of the search threads, as `ps` and the logs show them.
const THREAD_NAME: &str = "serve-search";
/// Name of the review threads.
const REVIEW_THREAD_NAME: &str = "serve-review";

/// What a search thread tells its tab.
#[derive(Debug)]
pub enum SearchEvent {
    /// An iteration finished.
    Info {
        /// The search it belongs to.
        generation: u64,
        /// What it found.
        info: InfoView,
    },
    /// The search ended with this move (Hub text), if any.
    Done {
        /// The search it belongs to.
        generation: u64,
        /// The move found.
        best: Option<String>,
    },
    /// A review searched another position.
    Progress {
        /// The review it belongs to.
        generation: u64,
        /// Positions searched.
        done: usize,
        /// Positions to search.
        total: usize,
    },
    /// A review is done: its [`Reply::Review`].
    Reviewed {
        /// The review it belongs to.
        generation: u64,
        /// What the page shows.
        review: Reply,
    },
}

/// Where a search thread sends its events: iterations and a review's progress to a coalescing
/// [`Latest`] (a page slow to read them, or gone, sees fewer of them, never older ones, and
/// costs no memory), the one final move or review on a channel of its own so it is never lost.
/// That channel holds at most one event per search, and a tab runs one search at a time, which
/// it stops (and waits for) before it starts another.
#[derive(Clone)]
pub struct SearchEvents {
    /// Iterations and progress.
    pub latest: Arc<Latest>,
    /// Final moves and reviews.
    pub done: mpsc::UnboundedSender<SearchEvent>,
}

/// The latest iteration of each line of a tab's search and the latest progress of its review,
/// each overwriting the one before: bounded whatever the page's pace.
#[derive(Debug, Default)]
pub struct Latest {
    slots: Mutex<Slots>,
    /// Wakes the tab when a slot was filled.
    filled: Notify,
}

#[derive(Debug, Default)]
struct Slots {
    /// The search the slots hold events of.
    generation: u64,
    /// The latest iteration of each line (index: line − 1).
    lines: Vec<Option<InfoView>>,
    /// Positions reviewed, and to review.
    progress: Option<(usize, usize)>,
}

impl Latest {
    /// Waits until a slot was filled since the last [`Latest::take`] (at once if one was).
    pub async fn filled(&self) {
        self.filled.notified().await;
    }

    /// Empties the slots: their events, line by line, then the progress.
    pub fn take(&self) -> Vec<SearchEvent> {
        let mut slots = self.lock();
        let generation = slots.generation;
        let mut events: Vec<SearchEvent> = slots
            .lines
            .iter_mut()
            .filter_map(Option::take)
            .map(|info| SearchEvent::Info { generation, info })
            .collect();
        events.extend(
            slots
                .progress
                .take()
                .map(|(done, total)| SearchEvent::Progress {
                    generation,
                    done,
                    total,
                }),
        );
        events
    }

    fn put(&self, generation: u64, fill: impl FnOnce(&mut Slots)) {
        let mut slots = self.lock();
        if slots.generation != generation {
            // A newer search's events replace an older one's, never the other way: a stopped
            // search is waited for before the next starts.
            *slots = Slots {
                generation,
                ..Slots::default()
            };
        }
        fill(&mut slots);
        drop(slots);
        self.filled.notify_one();
    }

    fn put_info(&self, generation: u64, info: InfoView) {
        let Some(index) = info.line.checked_sub(1).filter(|&i| i < MAX_LINES) else {
            return;
        };
        self.put(generation, |slots| {
            if slots.lines.len() <= index {
                slots.lines.resize(index + 1, None);
            }
            slots.lines[index] = Some(info);
        });
    }

    fn put_progress(&self, generation: u64, done: usize, total: usize) {
        self.put(generation, |slots| slots.progress = Some((done, total)));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slots> {
        // The slots are plain data, whole after any panic.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One variant's game and engine.
pub trait TabGame: Send {
    /// The variant played.
    fn variant(&self) -> Variant;
    /// Starts a new game from the start position or a FEN (a pasted `[FEN "..."]` tag too); on
    /// error the game is kept.
    fn new_game(&mut self, fen: Option<&str>) -> Result<(), ServeError>;
    /// Replaces the game by the first game of a PDN text; on error the game is kept.
    fn load_pdn(&mut self, text: &str) -> Result<(), ServeError>;
    /// The game as PDN, `white` and `black` naming the players; `lost_on_time` is the side that
    /// ran out of time, if one did.
    fn pdn(&self, white: &str, black: &str, lost_on_time: Option<Color>) -> String;
    /// Plays a move given as Hub text (the ids of [`LegalMove`]), if legal.
    fn play(&mut self, text: &str) -> Result<(), ServeError>;
    /// Takes back the last move, giving its Hub text; `None` at the start of the game.
    fn undo(&mut self) -> Option<String>;
    /// The moves played, as Hub texts.
    fn line(&self) -> Vec<String>;
    /// Moves played.
    fn ply_count(&self) -> usize;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// Why the game is over, if it is.
    fn result(&self) -> Option<String>;
    /// The result when `loser` ran out of time, as [`TabGame::result`] words results.
    fn time_loss(&self, loser: Color) -> String;
    /// The position as the page shows it; `legal` says whether the user may move now.
    fn describe(&self, flipped: bool, legal: bool) -> BoardView;
    /// Plays at this strength level from now on (analysis stays at full strength).
    fn set_skill(&mut self, skill: Skill);
    /// Starts a search from the current position on its own thread; an analysis shows `lines`
    /// lines.
    fn think(
        &mut self,
        limits: Limits,
        mode: Mode,
        lines: usize,
        generation: u64,
        events: SearchEvents,
    ) -> Thinking;
    /// Starts the review of the game followed by the moves `then` (Hub texts, as taken back) on a
    /// thread of its own: every position searched within `limits`, its progress sent as it goes,
    /// its marks and graph at the end.
    ///
    /// # Errors
    /// When a move of `then` is not legal.
    fn review(
        &mut self,
        then: &[String],
        limits: Limits,
        generation: u64,
        events: SearchEvents,
    ) -> Result<Thinking, ServeError>;
}

/// A game of `variant` with an engine of `setup`.
///
/// # Errors
/// When the engine's table cannot be allocated.
pub fn new_tab_game(variant: Variant, setup: &Setup) -> Result<Box<dyn TabGame>, ServeError> {
    with_variant!(variant, R => {
        let engine = setup
            .engine::<R>()
            .map_err(|error| ServeError::Engine(error.to_string()))?;
        Ok(Box::new(VariantGame::<R> {
            variant,
            player: Player::new(engine),
            game: Game::new(Position::start()),
        }) as Box<dyn TabGame>)
    })
}

struct VariantGame<R: Rules> {
    variant: Variant,
    player: Player<R, Eval>,
    game: Game<R>,
}

impl<R: Rules> VariantGame<R> {
    /// The legal moves of the current position, with the squares each passes through.
    fn legal_moves(&self) -> Vec<LegalMove> {
        let position = self.game.position();
        position
            .legal_moves()
            .iter()
            .map(|mv| {
                let arrow = Arrow::of_move(position, mv);
                LegalMove {
                    id: text::hub::<R>(mv),
                    text: text::pdn(position, mv),
                    long: text::long_form(position, mv),
                    from: u32::from(mv.from),
                    to: u32::from(mv.to),
                    path: arrow.path,
                }
            })
            .collect()
    }

    /// The move list as PDN writes it: `1. 32-28 19-23 2. ...`.
    fn movetext(&self) -> String {
        let mut position = *self.game.start();
        let mut words = Vec::new();
        for (ply, mv) in self.game.moves().iter().enumerate() {
            let number = self.game.move_number_text(ply);
            if number.ends_with("...") && ply > 0 {
                words.push(text::pdn(&position, mv));
            } else {
                words.push(format!("{number} {}", text::pdn(&position, mv)));
            }
            position = position.play(mv);
        }
        words.join(" ")
    }
}

impl<R: Rules> TabGame for VariantGame<R> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn new_game(&mut self, fen_text: Option<&str>) -> Result<(), ServeError> {
        let start = match fen_text.map(str::trim).filter(|t| !t.is_empty()) {
            Some(given) => fen::parse::<R>(fen::unwrap_tag(given))
                .map_err(|error| ServeError::Fen(error.to_string()))?,
            None => Position::start(),
        };
        self.game = Game::new(start);
        self.player.engine().new_game();
        Ok(())
    }

    fn load_pdn(&mut self, pdn_text: &str) -> Result<(), ServeError> {
        let record =
            pdn::read_game::<R>(pdn_text).map_err(|error| ServeError::Pdn(error.to_string()))?;
        self.game = record.game;
        self.player.engine().new_game();
        Ok(())
    }

    fn pdn(&self, white: &str, black: &str, lost_on_time: Option<Color>) -> String {
        let mut tags = Tags::new();
        tags.set("Event", "rafle serve");
        tags.set("White", white);
        tags.set("Black", black);
        let result = lost_on_time.map(|loser| {
            tags.set("Termination", TIME_FORFEIT);
            PdnResult::from(GameResult::win(!loser))
        });
        pdn::write_game(&self.game, &tags, result)
    }

    fn play(&mut self, move_text: &str) -> Result<(), ServeError> {
        let mv = text::parse_hub(self.game.position(), move_text).map_err(|error| {
            ServeError::Move(
                crate::line_input::excerpt(move_text).to_string(),
                error.to_string(),
            )
        })?;
        self.game
            .play(&mv)
            .map_err(|error| ServeError::Move(move_text.to_string(), error.to_string()))
    }

    fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|mv| text::hub::<R>(&mv))
    }

    fn line(&self) -> Vec<String> {
        self.game.moves().iter().map(text::hub::<R>).collect()
    }

    fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    fn review(
        &mut self,
        then: &[String],
        limits: Limits,
        generation: u64,
        events: SearchEvents,
    ) -> Result<Thinking, ServeError> {
        let mut game = self.game.clone();
        for id in then {
            let mv = text::parse_hub(game.position(), id).map_err(|error| {
                ServeError::Move(
                    crate::line_input::excerpt(id).to_string(),
                    error.to_string(),
                )
            })?;
            game.play(&mv)
                .map_err(|error| ServeError::Move(id.clone(), error.to_string()))?;
        }
        Ok(self
            .player
            .work(REVIEW_THREAD_NAME, move |engine, control| {
                let total = game.positions().len();
                if let Some(review) = review_game(engine, &game, &limits, control, |done| {
                    events.latest.put_progress(generation, done, total);
                }) {
                    // The tab may be gone: then nobody needs the review.
                    let _ = events
                        .done
                        .send(SearchEvent::Reviewed { generation, review });
                }
            }))
    }

    fn side_to_move(&self) -> Color {
        self.game.position().side()
    }

    fn result(&self) -> Option<String> {
        self.game.result().map(|end| {
            format!("{} {end}", end.result.pdn_token::<R>())
                .trim()
                .to_string()
        })
    }

    fn time_loss(&self, loser: Color) -> String {
        let token = GameResult::win(!loser).pdn_token::<R>();
        format!("{token} {} wins: {loser} ran out of time", !loser)
    }

    fn describe(&self, flipped: bool, legal: bool) -> BoardView {
        let arrow = self.game.moves().last().map(|mv| {
            let before = &self.game.positions()[self.game.ply_count() - 1];
            Arrow::of_move(before, mv)
        });
        let options = diagram::DiagramOptions {
            numbers: true,
            flipped,
            arrow,
            ..diagram::DiagramOptions::default()
        };
        let position = self.game.position();
        BoardView {
            variant: self.variant.name(),
            fen: fen::format(position),
            svg: diagram::svg(position, &options),
            side: side_name(position.side()),
            moves: self.movetext(),
            legal: if legal {
                self.legal_moves()
            } else {
                Vec::new()
            },
        }
    }

    fn set_skill(&mut self, skill: Skill) {
        self.player.set_skill(skill);
    }

    fn think(
        &mut self,
        limits: Limits,
        mode: Mode,
        lines: usize,
        generation: u64,
        events: SearchEvents,
    ) -> Thinking {
        let root = Root::from_game(&self.game);
        let position = root.position;
        let task = Task {
            root,
            ply: game_ply(self.game.start(), self.game.ply_count()),
            limits,
            mode,
            // No book: the server reads no file, and the shipped books are files.
            book: false,
            lines,
        };
        let latest = Arc::clone(&events.latest);
        self.player.think(
            task,
            THREAD_NAME,
            move |info: &Info<R>| {
                let info = InfoView {
                    line: info.line,
                    depth: info.depth,
                    score: score_text::for_side_to_move(info.score),
                    side: side_name(position.side()),
                    bar: bar(info.score, position.side()),
                    nodes: info.nodes,
                    pv: text::pdn_line(&position, &info.pv),
                };
                latest.put_info(generation, info);
            },
            move |outcome, _source| {
                let best = outcome.best.map(|mv| text::hub::<R>(&mv));
                // The tab may be gone: then nobody needs the move.
                let _ = events.done.send(SearchEvent::Done { generation, best });
            },
        )
    }
}

/// Searches every position of `game` (the final one too) and words the review for the page;
/// `None` when stopped first. `progress` hears the positions searched so far.
fn review_game<R: Rules>(
    engine: &crate::search::Engine<R, Eval>,
    game: &Game<R>,
    limits: &Limits,
    control: &SearchControl,
    mut progress: impl FnMut(usize),
) -> Option<Reply> {
    engine.new_game();
    let mut replay = Game::new(*game.start());
    let mut positions: Vec<PositionReview<R>> = Vec::with_capacity(game.positions().len());
    for ply in 0..=game.ply_count() {
        let played = game.moves().get(ply);
        positions.push(annotate::search_position(
            engine, &replay, played, limits, control,
        ));
        if control.is_stopped() {
            return None;
        }
        progress(ply + 1);
        if let Some(mv) = played {
            // The moves were checked as they were played.
            let _ = replay.play(mv);
        }
    }
    let moves = annotate::review(game, &positions);
    let tags = Tags::new();
    let graph = html::graph(&GameView {
        game,
        tags: &tags,
        result: PdnResult::Unknown,
        moves: &moves,
        positions: &positions,
    });
    let listed = moves
        .iter()
        .enumerate()
        .map(|(ply, review)| {
            let (_, first_half) = crate::game::move_number::<R>(game.start().side(), ply);
            ReviewedMove {
                ply: ply + 1,
                number: if first_half || ply == 0 {
                    game.move_number_text(ply)
                } else {
                    String::new()
                },
                text: text::pdn(&review.position, &review.played),
                mark: review.mark.map(Mark::symbol),
                word: review.mark.map(Mark::word),
                eval: score_text::for_white(review.after, review.position.side()),
            }
        })
        .collect();
    Some(Reply::Review {
        moves: listed,
        graph,
    })
}

/// The first variant, in the order they are listed, that reads the first game of a PDN text.
pub fn variant_of_pdn(pdn_text: &str) -> Option<Variant> {
    Variant::ALL
        .iter()
        .copied()
        .find(|&variant| with_variant!(variant, R => pdn::read_game::<R>(pdn_text).is_ok()))
}

/// The colour's name as the page shows it.
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// How much of the evaluation bar is White's (0 to 1) for `score`, given for `side`.
fn bar(score: Score, side: Color) -> f64 {
    let white = if side == Color::White { score } else { -score };
    match score_text::verdict(white) {
        Verdict::Eval(value) => 0.5 + 0.5 * (f64::from(value) / BAR_SCALE / 2.0).tanh(),
        Verdict::End { win, .. } | Verdict::Known { win } => {
            if win {
                1.0
            } else {
                0.0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_leans_to_the_side_ahead() {
        assert!((bar(0, Color::White) - 0.5).abs() < 1e-9);
        assert!(bar(100, Color::White) > 0.5);
        assert!(bar(100, Color::Black) < 0.5);
        assert!((bar(crate::score::win_in(3), Color::Black)).abs() < 1e-9);
    }

    fn info(line: usize, depth: u32) -> InfoView {
        InfoView {
            line,
            depth,
            score: String::new(),
            side: "white",
            bar: 0.5,
            nodes: 0,
            pv: String::new(),
        }
    }

    #[test]
    fn a_slow_page_gets_the_latest_of_each_line_and_costs_no_memory() {
        let latest = Latest::default();
        // Many iterations and progress reports while the page reads nothing.
        for depth in 1..=1_000 {
            for line in 1..=MAX_LINES + 1 {
                latest.put_info(1, info(line, depth));
            }
            latest.put_progress(1, depth as usize, 1_000);
        }
        let events = latest.take();
        assert_eq!(events.len(), MAX_LINES + 1, "{events:?}");
        for (index, event) in events.iter().enumerate() {
            match event {
                SearchEvent::Info { generation, info } => {
                    assert_eq!((*generation, info.line, info.depth), (1, index + 1, 1_000));
                }
                SearchEvent::Progress { done, .. } => assert_eq!(*done, 1_000),
                other => panic!("{other:?}"),
            }
        }
        assert!(latest.take().is_empty());
        // A newer search's events replace what is left of an older one's.
        latest.put_info(1, info(1, 1));
        latest.put_info(2, info(2, 1));
        let events = latest.take();
        assert!(
            matches!(events.as_slice(), [SearchEvent::Info { generation: 2, info }] if info.line == 2),
            "{events:?}"
        );
    }

    #[test]
    fn a_tab_game_plays_and_takes_back() {
        let setup = Setup {
            hash_mb: TABLE_MB,
            ..Setup::default()
        };
        let mut game = new_tab_game(Variant::International, &setup).expect("a game");
        let position = game.describe(false, true);
        assert_eq!(position.legal.len(), 9);
        let first = position.legal[0].id.clone();
        game.play(&first).expect("a legal move");
        assert_eq!(game.ply_count(), 1);
        assert!(game.play("nonsense").is_err());
        assert_eq!(game.undo(), Some(first));
        assert_eq!(game.undo(), None);
        assert!(game.new_game(Some("W:W99:B1")).is_err());
        game.new_game(Some("[FEN \"W:W31:B1\"]"))
            .expect("a FEN tag");
        assert_eq!(game.describe(false, true).fen, "W:W31:B1");
    }
}
