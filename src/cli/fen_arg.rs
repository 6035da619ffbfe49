//! The `--fen` argument as users give it: a FEN, or a `[FEN "..."]` tag pasted from a PDN file;
//! and the `--moves` played from it.

use rafle::line_input::excerpt;
use rafle::notation::{fen, text};
use rafle::position::Position;
use rafle::rules::Rules;

/// Reads a `--fen` argument for the variant `R`.
///
/// # Errors
/// A message quoting the argument and saying what is wrong with it.
pub(crate) fn parse_fen_arg<R: Rules>(text: &str) -> Result<Position<R>, String> {
    fen::parse::<R>(fen::unwrap_tag(text))
        .map_err(|e| format!("bad FEN '{}': {}", excerpt(text), excerpt(&e.to_string())))
}

/// The position of an optional `--fen` argument: the start position without one.
///
/// # Errors
/// As [`parse_fen_arg`].
pub(crate) fn start_position<R: Rules>(text: Option<&str>) -> Result<Position<R>, String> {
    text.map_or_else(|| Ok(Position::<R>::start()), parse_fen_arg::<R>)
}

/// The moves of an optional `--moves` argument, as pasted from a game: the move numbers left out.
pub(crate) fn move_words(moves: Option<&str>) -> impl Iterator<Item = &str> {
    moves
        .unwrap_or_default()
        .split_whitespace()
        .map(text::without_move_number)
        .filter(|word| !word.is_empty())
}
