//! How the book plays: the Hub `book-ply`/`book-margin` rule, and the plies a position given
//! without its history is taken to be into the game.

use super::BookMove;
use crate::core::{BitBoard, Color, Geometry};
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;

/// The Hub book rule: randomness while the game is young, the best move later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookRule {
    /// Plies from the start during which the margin applies (Hub `book-ply`).
    pub ply: u32,
    /// Score margin under the best move in centi-men (Hub `book-margin`).
    pub margin: Score,
}

impl BookRule {
    /// The margin at ply `game_ply` of the game: the margin before `ply`, 0 from then on.
    pub fn margin_at(&self, game_ply: u32) -> Score {
        if game_ply < self.ply { self.margin } else { 0 }
    }
}

/// The moves, out of `moves` sorted best first, that are within `margin` of the best.
pub fn candidates<R: Rules>(moves: &[BookMove<R>], margin: Score) -> &[BookMove<R>] {
    let Some(best) = moves.first() else {
        return moves;
    };
    let floor = best.score.saturating_sub(margin.max(0));
    let count = moves.iter().take_while(|m| m.score >= floor).count();
    &moves[..count]
}

/// An estimate of the number of plies played to reach `position` from the start position, for
/// positions given without their history: each man's advance beyond the front row of its side's
/// start position counts one move (a lower bound: moves within the start area are not seen).
pub fn estimated_ply<R: Rules>(position: &Position<R>) -> u32 {
    let start = Position::<R>::start();
    let rows = |set: BitsOf<R>| {
        set.iter()
            .map(|bit| u32::from(R::Geometry::ROW_OF_BIT[bit as usize]))
    };
    // White moves towards row 0, Black towards the last row.
    let white_front = rows(start.men(Color::White)).min().unwrap_or(0);
    let black_front = rows(start.men(Color::Black)).max().unwrap_or(0);
    let white: u32 = rows(position.men(Color::White))
        .map(|row| white_front.saturating_sub(row))
        .sum();
    let black: u32 = rows(position.men(Color::Black))
        .map(|row| row.saturating_sub(black_front))
        .sum();
    white + black
}
