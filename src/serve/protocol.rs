//! The messages of the page's WebSocket, as JSON: what the page asks (`Request`) and what the
//! server tells it (`Reply`). Every request is answered by the new state or by an error, so the
//! page never waits on a request the server did not understand.

use serde::{Deserialize, Serialize};

/// What the page asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game of `variant` from its start position or from `fen`.
    New {
        /// Variant name (any name [`crate::rules::Variant::from_name`] reads).
        variant: String,
        /// Start position, when not the variant's.
        #[serde(default)]
        fen: Option<String>,
    },
    /// Play a move: the `id` of one of the legal moves the server sent.
    Move {
        /// The move's id.
        id: String,
    },
    /// Take back the last move (in play, back to the user's last turn).
    Undo,
    /// Play again the last move taken back (to step through a loaded game).
    Redo,
    /// Show the board from the other side.
    Flip,
    /// How the engine takes part.
    Settings {
        /// `play` (the engine plays `engine`) or `analyse` (the engine analyses both sides).
        mode: String,
        /// The engine's colour in play: `white` or `black`.
        engine: String,
        /// Seconds per engine move.
        seconds: f64,
        /// Strength level in play, 1 to 20 (see [`crate::player::skill`]); full strength when
        /// left out.
        #[serde(default = "full_strength")]
        level: u32,
        /// Lines shown in analysis (multi-PV); one when left out.
        #[serde(default = "one_line")]
        lines: usize,
        /// A clock for both sides in play, instead of a time per engine move; none when left
        /// out.
        #[serde(default)]
        clock: Option<ClockSetting>,
    },
    /// Replace the game by the first game of this PDN text.
    LoadPdn {
        /// The PDN text, as the page read it from the user's file.
        text: String,
    },
    /// Send the game as PDN.
    SavePdn,
    /// Review the game (every move played, and the moves taken back that can be played again):
    /// marks and an evaluation graph.
    Review,
    /// Stop the review under way.
    CancelReview,
    /// Step to the position after `ply` moves of the game (its moves taken back can be played
    /// again).
    Goto {
        /// Moves from the start.
        ply: usize,
    },
}

/// A time control on the clock, as the page sends it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSetting {
    /// Each side's time at the start, in minutes.
    pub minutes: f64,
    /// Seconds added after each move.
    pub increment: f64,
}

/// Both clocks of a timed game, as they stood when the state was sent: the page counts the
/// running one down itself until the next state.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ClockState {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs: `white`, `black` or none.
    pub running: Option<&'static str>,
}

fn full_strength() -> u32 {
    crate::player::skill::MAX_SKILL
}

fn one_line() -> usize {
    1
}

/// A legal move as the page offers it.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// What the page sends back to play it (Hub text: it names every captured piece).
    pub id: String,
    /// Short PDN text.
    pub text: String,
    /// Long PDN text (every landing square), to tell captures with the same ends apart.
    pub long: String,
    /// Bit of the origin square (the `data-bit` of the diagram's squares).
    pub from: u32,
    /// Bit of the destination square.
    pub to: u32,
    /// Bits the piece stands on, origin first.
    pub path: Vec<u32>,
}

/// The board as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// Variant name.
    pub variant: &'static str,
    /// The position's FEN.
    pub fen: String,
    /// The diagram.
    pub svg: String,
    /// Side to move: `white` or `black`.
    pub side: &'static str,
    /// The moves played, numbered as PDN writes them.
    pub moves: String,
    /// The moves the user may play now (none while the engine is to move).
    pub legal: Vec<LegalMove>,
}

/// One iteration of the engine's search.
#[derive(Clone, Debug, Serialize)]
pub struct InfoView {
    /// Which line of a multi-line analysis (1 is the best).
    pub line: usize,
    /// Depth in plies.
    pub depth: u32,
    /// Score for the side to move, as `rafle analyze` prints it.
    pub score: String,
    /// Side to move in the position searched.
    pub side: &'static str,
    /// White's share of the evaluation bar, 0 to 1.
    pub bar: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// The best line, in PDN.
    pub pv: String,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewedMove {
    /// The position after the move, in moves from the start (what [`Request::Goto`] takes).
    pub ply: usize,
    /// The move number, when the list shows it (`1.`, `1...`), or empty.
    pub number: String,
    /// The move in PDN.
    pub text: String,
    /// Its mark (`!`, `?!`, `?`, `??`), if any.
    pub mark: Option<&'static str>,
    /// The mark in words (`blunder`...), if any.
    pub word: Option<&'static str>,
    /// The score after it, from White's view, signed as `rafle annotate`'s page shows it.
    pub eval: String,
}

/// A variant the page can offer.
#[derive(Clone, Debug, Serialize)]
pub struct VariantName {
    /// The name to send back.
    pub name: &'static str,
}

/// What the server tells the page.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// Sent first: what the page can choose from.
    Hello {
        /// The variants, in the order they are listed to users.
        variants: Vec<VariantName>,
        /// Shortest and longest time per engine move, in seconds.
        seconds: [f64; 2],
        /// Weakest and strongest level.
        levels: [u32; 2],
        /// Most lines an analysis may show.
        max_lines: usize,
        /// Shortest and longest starting time on the clock, in minutes.
        clock_minutes: [f64; 2],
        /// Largest increment, in seconds.
        max_increment: f64,
    },
    /// The game as it now stands.
    State {
        /// The board.
        position: BoardView,
        /// Why the game is over, if it is.
        result: Option<String>,
        /// `play` or `analyse`.
        mode: &'static str,
        /// The engine's colour in play.
        engine: &'static str,
        /// Seconds per engine move.
        seconds: f64,
        /// Strength level in play.
        level: u32,
        /// Lines shown in analysis.
        lines: usize,
        /// Whether the engine is searching.
        thinking: bool,
        /// Whether a move taken back can be played again.
        forward: bool,
        /// Whether the board is seen from Black.
        flipped: bool,
        /// The time control on the clock, when one is chosen (instead of a time per move).
        time_control: Option<ClockSetting>,
        /// The clocks, in a timed game in play.
        clock: Option<ClockState>,
        /// Whether a review is under way.
        reviewing: bool,
        /// Whether the last review is of the game as it stands (its moves, and those that can
        /// be played again).
        reviewed: bool,
        /// Moves from the start to the position shown.
        ply: usize,
    },
    /// One search iteration.
    Info(InfoView),
    /// How far the review has come.
    ReviewProgress {
        /// Positions searched.
        done: usize,
        /// Positions to search.
        total: usize,
    },
    /// The review of the game: its moves with their marks, and the evaluation graph.
    Review {
        /// The moves.
        moves: Vec<ReviewedMove>,
        /// The evaluation graph, SVG (that of `rafle annotate`'s page).
        graph: String,
    },
    /// The game as PDN, for the page to save.
    Pdn {
        /// The PDN text.
        text: String,
    },
    /// A request could not be carried out; the game is as it was.
    Error {
        /// Why.
        message: String,
    },
}
