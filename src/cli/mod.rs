//! The command-line interface: argument parsing and the subcommands' output. Each subcommand is a
//! thin shell over the library.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod dxp;
mod perft;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    /// Search fixed positions to a fixed depth; the node count is the search's signature.
    Bench(bench::BenchArgs),
    /// Build an opening book, probe it, describe it.
    Book(book::BookArgs),
    /// Play over DXP (DamExchange, TCP) as follower (--listen) or initiator (--connect).
    Dxp(dxp::DxpArgs),
    /// Speak the Hub protocol on stdin/stdout (for GUIs and lidraughts bots).
    Hub,
    /// Count the leaf nodes of the legal-move tree (move generator check and speed test).
    Perft(perft::PerftArgs),
}

/// Parses the command line, runs the subcommand and returns the process exit status.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Dxp(args) => dxp::run(&args),
        Command::Hub => return crate::hub::run(),
        Command::Perft(args) => perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
