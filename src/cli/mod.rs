//! The command-line interface: argument parsing and the subcommands' output. Each subcommand is a
//! thin shell over the library.

pub mod analyze;
pub mod annotate;
pub mod bench;
pub mod board;
pub mod book;
pub mod dxp;
pub mod egdb;
pub mod engine_args;
mod fen_arg;
#[cfg(feature = "matches")]
pub mod matches;
mod moves;
pub mod multipv;
#[cfg(feature = "matches")]
pub mod openings;
mod perft;
#[cfg(feature = "serve")]
pub mod serve;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use rafle::book::Book;
use rafle::player::options;
use rafle::rules::Rules;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

pub(crate) use fen_arg::{move_words, parse_fen_arg, start_position};

/// Exit status for bad input (a bad FEN, move or option value), as clap uses for bad arguments.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Rafle, a draughts engine: international draughts (FMJD rules) and national variants.
#[derive(Debug, Parser)]
#[command(name = "rafle", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Search a position (default: the start position, 3 seconds) and print the best line.
    Analyze(analyze::AnalyzeArgs),
    /// Review the games of a PDN file: scores, better lines and marks, as PDN and an HTML page.
    Annotate(annotate::AnnotateArgs),
    /// Search fixed positions to a fixed depth; the node count is the search's signature.
    Bench(bench::BenchArgs),
    /// Draw a board diagram (SVG) of a position, with square numbers and a move arrow.
    Board(board::BoardArgs),
    /// Build an opening book, probe it, describe it.
    Book(book::BookArgs),
    /// Play over DXP (DamExchange, TCP) as follower (--listen) or initiator (--connect).
    Dxp(dxp::DxpArgs),
    /// Endgame databases: build, statistics, verify, probe.
    Egdb(egdb::EgdbArgs),
    /// Speak the Hub protocol on stdin/stdout (for GUIs and lidraughts bots).
    #[command(after_help = rafle::hub::help::text())]
    Hub,
    /// Play engine-against-engine matches and round robins (Hub and DXP engines), with statistics.
    #[cfg(feature = "matches")]
    Match(Box<matches::MatchArgs>),
    /// Generate a set of balanced openings (all openings of N plies, scored by our search).
    #[cfg(feature = "matches")]
    Openings(openings::OpeningsArgs),
    /// Count the leaf nodes of the legal-move tree (move generator check and speed test).
    Perft(perft::PerftArgs),
    /// List the legal moves of a position (or of FENs read from standard input, one a line).
    Moves(moves::MovesArgs),
    /// Play and analyse in the browser: a page on localhost with the engine behind it.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

impl Command {
    /// Whether the subcommand talks to peers through pipes and sockets (see
    /// [`end_quietly_when_stdout_closes`]).
    fn talks_to_peers(&self) -> bool {
        match self {
            Command::Dxp(_) | Command::Hub => true,
            #[cfg(feature = "matches")]
            Command::Match(_) => true,
            #[cfg(feature = "serve")]
            Command::Serve(_) => true,
            _ => false,
        }
    }
}

/// Parses the command line, runs the subcommand and returns the process exit status.
pub fn run() -> ExitCode {
    let arg_matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&arg_matches).unwrap_or_else(|error| error.exit());
    if !cli.command.talks_to_peers() {
        end_quietly_when_stdout_closes();
    }
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Annotate(args) => annotate::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Board(args) => board::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Dxp(args) => dxp::run(&args),
        Command::Egdb(args) => egdb::run(&args),
        Command::Hub => return rafle::hub::run(),
        #[cfg(feature = "matches")]
        Command::Match(mut args) => {
            args.engine_groups = matches::engine_groups(&arg_matches);
            matches::run(&args)
        }
        #[cfg(feature = "matches")]
        Command::Openings(args) => openings::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Moves(args) => moves::run(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// The report commands end at once, as Unix tools do, when their reader goes away (`rafle perft
/// | head`), instead of panicking on the failed `println!`: Rust ignores SIGPIPE by default, and
/// this gives it back its default action. Not for `hub`, `dxp` and `match`, which talk to peers
/// through pipes and sockets and must see a closed one as an error to handle (a crashed engine
/// is a lost game, not the end of the match), nor for `serve`, whose tabs may close at any time.
fn end_quietly_when_stdout_closes() {
    #[cfg(unix)]
    {
        // SAFETY: `signal` with `SIG_DFL` installs no handler (no code of ours runs on the
        // signal), and it is called at startup, before this process starts any thread.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
}

/// The book of `--book [FILE]` (the variant's shipped book when no file is given) and its file.
pub(crate) fn open_book<R: Rules>(given: Option<&Path>) -> Result<(PathBuf, Arc<Book<R>>), String> {
    let path = options::book_path::<R>(given).map_err(|e| format!("{e}; give --book FILE"))?;
    let book = options::load_book::<R>(&path).map_err(|e| e.to_string())?;
    Ok((path, book))
}
