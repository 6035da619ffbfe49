//! `rafle board`: a board diagram (SVG) of a position, as draughts books print them.

use clap::Args;
use rafle::diagram::{self, Arrow, DiagramOptions};
use rafle::game::Game;
use rafle::notation::text;
use rafle::rules::{Rules, Variant};
use rafle::with_variant;
use std::path::PathBuf;

/// Arguments of `rafle board`.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Position as a PDN FEN, or a `[FEN "..."]` tag as pasted from a PDN file (default: the
    /// start position).
    #[arg(short, long)]
    pub fen: Option<String>,
    /// Moves played from that position, e.g. "32-28 19-23"; the diagram shows the position
    /// after them, with an arrow for the last one.
    #[arg(short, long)]
    pub moves: Option<String>,
    /// A move to draw as an arrow in the position shown (e.g. a suggestion); replaces the arrow
    /// of the last move.
    #[arg(long, value_name = "MOVE")]
    pub arrow: Option<String>,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// Write the SVG to this file (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the number (or name) of every playing square on it.
    #[arg(long)]
    pub numbers: bool,
    /// Show the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Side of a square in pixels (the SVG's natural size; it scales freely).
    #[arg(long, default_value_t = diagram::DEFAULT_SQUARE_SIZE, value_parser = clap::value_parser!(u32).range(i64::from(*diagram::SQUARE_SIZE_RANGE.start())..=i64::from(*diagram::SQUARE_SIZE_RANGE.end())))]
    pub size: u32,
}

/// Runs `rafle board`.
///
/// # Errors
/// A message for a bad FEN or move, or when the file cannot be written.
pub fn run(args: &BoardArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn run_variant<R: Rules>(args: &BoardArgs) -> Result<(), String> {
    let mut game = Game::new(super::start_position::<R>(args.fen.as_deref())?);
    let mut arrow = None;
    for word in super::move_words(args.moves.as_deref()) {
        let before = *game.position();
        let mv = game.play_text(word).map_err(|e| {
            format!(
                "move {} '{}': {e}",
                game.ply_count() + 1,
                rafle::line_input::excerpt(word)
            )
        })?;
        arrow = Some(Arrow::of_move(&before, &mv));
    }
    let position = *game.position();
    if let Some(word) = &args.arrow {
        let mv = text::parse(&position, word)
            .map_err(|e| format!("--arrow '{}': {e}", rafle::line_input::excerpt(word)))?;
        arrow = Some(Arrow::of_move(&position, &mv));
    }
    let options = DiagramOptions {
        square_size: args.size,
        numbers: args.numbers,
        flipped: args.flip,
        arrow,
        ..DiagramOptions::default()
    };
    let svg = diagram::svg(&position, &options);
    match &args.svg {
        Some(path) => {
            std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{svg}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rafle::notation::fen;
    use rafle::rules::International;

    fn fen_text<R: Rules>(text: &str) -> Result<String, String> {
        crate::cli::parse_fen_arg::<R>(text).map(|p| fen::format(&p))
    }

    #[test]
    fn a_pasted_fen_tag_is_read() {
        let plain = fen_text::<International>("W:W31-50:B1-20").expect("plain FEN");
        for pasted in [
            "[FEN \"W:W31-50:B1-20\"]",
            "  [FEN \"W:W31-50:B1-20\"]  ",
            "\"W:W31-50:B1-20\"",
            "[FEN \"W:W31-50:B1-20.\"]",
        ] {
            assert_eq!(
                fen_text::<International>(pasted),
                Ok(plain.clone()),
                "{pasted}"
            );
        }
        assert!(fen_text::<International>("[FEN \"W:W31-50:B1-99\"]").is_err());
    }
}
