//! The `--fen` argument as users give it: a FEN, or a `[FEN "..."]` tag pasted from a PDN file.

use crate::lines::excerpt;
use crate::notation::fen;
use crate::position::Position;
use crate::rules::Rules;

/// The FEN inside a pasted `[FEN "..."]` tag (any case, with or without other tags pasted
/// along, such as `[SetUp "1"]`), or the text itself when it is no tag.
fn unwrap_tag(text: &str) -> &str {
    let trimmed = text.trim();
    if !trimmed.starts_with('[') {
        return trimmed;
    }
    let lower = trimmed.to_ascii_lowercase();
    let Some(start) = lower.find("[fen") else {
        return trimmed;
    };
    let inner = &trimmed[start + "[fen".len()..];
    let inner = inner.split(']').next().unwrap_or(inner);
    inner.trim()
}

/// Reads a `--fen` argument for the variant `R`.
///
/// # Errors
/// A message quoting the argument and saying what is wrong with it.
pub(crate) fn parse_fen_arg<R: Rules>(text: &str) -> Result<Position<R>, String> {
    fen::parse::<R>(unwrap_tag(text))
        .map_err(|e| format!("bad FEN '{}': {}", excerpt(text), excerpt(&e.to_string())))
}
