//! `rafle moves`: the legal moves of positions, for checking the rules against other programs.

use clap::{Args, ValueEnum};
use rafle::line_input::{LineRead, Utf8, excerpt, read_line};
use rafle::movegen;
use rafle::moves::MoveList;
use rafle::notation::{fen, text};
use rafle::position::Position;
use rafle::rules::{Rules, Variant};
use rafle::with_variant;
use std::io::Write;

/// Longest input line read, in bytes (a FEN of a full 12x12 board is well under 1 KiB).
const MAX_LINE_BYTES: usize = 1 << 20;

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
    /// and each input line gets exactly one output line: the position's moves, or an empty line
    /// for a blank line or a bad one (whose error goes to stderr; the exit status is then 2).
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
/// A message for a bad FEN given with `--fen`, or when standard output is closed. A bad line read
/// from standard input (a bad FEN, invalid UTF-8, longer than [`MAX_LINE_BYTES`]) gives an empty
/// output line, its error on stderr, and the next line is read; the run then ends with an error
/// counting the bad lines.
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
        let position = fen::parse::<R>(text)
            .map_err(|e| format!("bad FEN '{}': {}", excerpt(text), excerpt(&e.to_string())))?;
        for mv in moves_of(&position, args) {
            writeln!(out, "{mv}").map_err(closed)?;
        }
        return Ok(());
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    let mut failed = 0usize;
    for number in 1usize.. {
        let read = read_line(&mut input, &mut buffer, MAX_LINE_BYTES)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        let outcome = match read {
            (LineRead::Eof, _) => break,
            (LineRead::TooLong(bytes), _) => {
                Err(format!("{bytes} bytes, longer than {MAX_LINE_BYTES}"))
            }
            (LineRead::Line(_), Utf8::Replaced) => Err("not valid UTF-8".to_string()),
            (LineRead::Line(line), Utf8::Valid) if line.trim().is_empty() => Ok(String::new()),
            (LineRead::Line(line), Utf8::Valid) => fen::parse::<R>(line.trim())
                .map(|position| moves_of(&position, args).join(" "))
                .map_err(|e| {
                    format!(
                        "bad FEN '{}': {}",
                        excerpt(line.trim()),
                        excerpt(&e.to_string())
                    )
                }),
        };
        let text = outcome.unwrap_or_else(|error| {
            failed += 1;
            eprintln!("line {number}: {error}");
            String::new()
        });
        writeln!(out, "{text}").map_err(closed)?;
        out.flush().map_err(closed)?;
    }
    match failed {
        0 => Ok(()),
        1 => Err("1 bad line".to_string()),
        n => Err(format!("{n} bad lines")),
    }
}
