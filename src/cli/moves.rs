//! `rafle moves`: the legal moves of positions, for checking the rules against other programs.

use crate::movegen;
use crate::moves::MoveList;
use crate::notation::{fen, text};
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::with_variant;
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MoveFormat {
    /// Hub protocol: `from-to`, or `fromxto` followed by every captured square.
    Hub,
    /// PDN: short form, long form when two captures share origin and destination.
    Pdn,
    /// PDN long form for every capture: origin, landing squares, destination.
    Long,
}

/// Arguments of `rafle moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
    /// The position as a PDN FEN; without it, FENs are read from standard input, one a line,
    /// and each position's moves are printed on one line.
    #[arg(short, long)]
    pub fen: Option<String>,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "hub")]
    pub format: MoveFormat,
    /// List capture routes that differ only in order separately.
    #[arg(long)]
    pub keep_duplicates: bool,
}

/// Runs `rafle moves`.
///
/// # Errors
/// A message for a bad FEN given with `--fen`, or when standard output is closed. A bad FEN read
/// from standard input gives an `error ...` line and the next line is read.
pub fn run(args: &MovesArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn moves_of<R: Rules>(position: &Position<R>, args: &MovesArgs) -> Vec<String> {
    let mut list = MoveList::new();
    if args.keep_duplicates {
        movegen::generate_keep_duplicates(position, &mut list);
    } else {
        movegen::generate(position, &mut list);
    }
    list.iter()
        .map(|mv| match args.format {
            MoveFormat::Hub => text::hub::<R>(mv),
            MoveFormat::Pdn => text::pdn(position, mv),
            MoveFormat::Long if mv.is_capture() => text::long_form(position, mv),
            MoveFormat::Long => text::pdn(position, mv),
        })
        .collect()
}

fn run_variant<R: Rules>(args: &MovesArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let closed = |e: std::io::Error| format!("cannot write the moves: {e}");
    if let Some(text) = &args.fen {
        let position = fen::parse::<R>(text).map_err(|e| format!("bad FEN '{text}': {e}"))?;
        for mv in moves_of(&position, args) {
            writeln!(out, "{mv}").map_err(closed)?;
        }
        return Ok(());
    }
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        match fen::parse::<R>(&line) {
            Ok(position) => writeln!(out, "{}", moves_of(&position, args).join(" ")),
            Err(e) => writeln!(out, "error bad FEN '{}': {e}", line.trim()),
        }
        .map_err(closed)?;
        out.flush().map_err(closed)?;
    }
    Ok(())
}
