//! `rafle match`: engine-against-engine matches and round-robin tournaments.
//!
//! * [`stats`]: Elo, intervals, LOS, SPRT.

pub mod stats;
