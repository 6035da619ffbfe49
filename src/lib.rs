//! Rafle: a draughts engine.
//!
//! International draughts (FMJD rules) first; the national variants run on the same rules core.
//! The library holds the rules (bitboards, move generation, notation) and the engine; the `rafle`
//! binary is a thin command-line shell over it.
//!
//! ```
//! use rafle::position::Position;
//! use rafle::rules::International;
//!
//! let start = Position::<International>::start();
//! assert_eq!(start.legal_moves().len(), 9);
//! assert_eq!(rafle::perft::perft(&start, 3, Default::default()), 658);
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
pub mod learn;
pub mod lines;
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
pub mod serve;
pub mod tt;
