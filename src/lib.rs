//! Rafle: a draughts engine.
//!
//! International draughts (FMJD rules) first; the national variants run on the same rules core.
//! The library holds the rules (bitboards, move generation, notation) and the engine; the `rafle`
//! binary is a thin command-line shell over it.
//!
//! A program that embeds the engine (a GUI, a bot) needs only the rules, the engine, the opening
//! book, the endgame databases and the two protocols ([`hub`], [`dxp`]):
//! `rafle = { version = "0.1", default-features = false }` leaves out the rest and what only
//! the rest depends on. The features, all on by default:
//!
//! | feature | adds |
//! |---|---|
//! | `cli` | the `rafle` binary (argument parsing, logging, progress bars) |
//! | `serve` | `serve`, the page to play and analyse in the browser (a web server, tokio) |
//! | `matches` | `matches`, engine-against-engine matches and their opening sets |
//! | `learn` | `learn`, self-play data and the evaluation trainer (for `rafle-tune`) |
//!
//! Playing a move of the rules and searching the position after it:
//!
//! ```
//! use rafle::eval::HandCrafted;
//! use rafle::notation::text;
//! use rafle::position::Position;
//! use rafle::rules::International;
//! use rafle::search::{Engine, Limits, Mode, Root, SearchControl};
//!
//! let start = Position::<International>::start();
//! assert_eq!(start.legal_moves().len(), 9);
//! let after = start.play(&text::parse(&start, "32-28").expect("a legal move"));
//!
//! // A 16 MiB transposition table, one thread.
//! let engine = Engine::<International, HandCrafted>::with_evaluator(HandCrafted, 16, 1);
//! let limits = Limits { depth: Some(6), ..Limits::default() };
//! let outcome = engine.search(&Root::new(after), &limits, Mode::Think, &SearchControl::new(), |_| {});
//! let reply = outcome.best.expect("Black has moves");
//! assert!(after.legal_moves().contains(&reply));
//! println!("{} {}", text::pdn(&after, &reply), outcome.score);
//! ```

#![deny(missing_docs)]

pub mod annotate;
pub mod book;
pub mod core;
pub mod diagram;
pub mod dxp;
pub mod egdb;
pub mod eval;
pub mod game;
pub mod hub;
#[cfg(feature = "learn")]
pub mod learn;
pub mod line_input;
#[cfg(feature = "matches")]
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod player;
pub mod position;
pub mod rules;
pub mod score;
pub mod score_text;
pub mod search;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tt;
