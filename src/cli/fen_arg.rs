//! The `--fen` argument as users give it: a FEN, or a `[FEN "..."]` tag pasted from a PDN file.

use rafle::lines::excerpt;
use rafle::notation::fen;
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
