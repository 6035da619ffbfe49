//! `rafle dxp`: play over the DamExchange Protocol (TCP), as follower (`--listen`) or initiator
//! (`--connect`).

use super::engine_args::{EngineArgs, Standard, search_time};
use clap::{ArgGroup, Args, ValueEnum};
use rafle::core::Color;
use rafle::dxp::{self, DxpOptions, Role};
use rafle::notation::fen;
use rafle::player::options::{
    self, BOOK_MARGIN_RANGE, BOOK_PLY_RANGE, DEFAULT_BOOK_MARGIN, DEFAULT_BOOK_PLY, DEPTH_RANGE,
    NODES_RANGE,
};
use rafle::player::skill::{MAX_SKILL, SKILL_RANGE, Skill};
use rafle::rules::{International, Variant};
use rafle::search::Limits;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The address of `--listen` and `--connect` given without a value: loopback, the usual port.
const DEFAULT_ADDRESS: &str = "127.0.0.1:27531";
/// Largest value of the 3-digit DXP time and move fields.
const MAX_FIELD: u16 = 999;

/// Which side proposes the games, when not the default of the transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoleArg {
    /// Send the game requests.
    Initiator,
    /// Answer game requests.
    Follower,
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White (moves first from the initial position).
    White,
    /// Black.
    Black,
}

/// Arguments of `rafle dxp`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("transport").required(true).args(["listen", "connect"])))]
#[command(
    after_help = "DXP is defined for international draughts (10x10) only. \
    By default --listen makes Rafle the follower (it answers game requests) and --connect the \
    initiator (it sends them); --role changes that. Addresses: HOST:PORT, HOST (port 27531) or \
    PORT (host 127.0.0.1). Listening is on the loopback interface unless another address is \
    given."
)]
pub struct DxpArgs {
    /// Wait for connections on this address (default 127.0.0.1:27531); one at a time.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1,
        default_missing_value = DEFAULT_ADDRESS)]
    pub listen: Option<String>,
    /// Connect to an engine listening at this address (default 127.0.0.1:27531).
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1,
        default_missing_value = DEFAULT_ADDRESS)]
    pub connect: Option<String>,
    /// Send or answer game requests (default: follower with --listen, initiator with --connect).
    #[arg(long)]
    pub role: Option<RoleArg>,
    /// Games to play: as initiator (default 2, colours alternating); as follower, stop after
    /// this many (default: serve until stopped).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Minutes per period: sent in game requests as initiator; as follower, our clock when a
    /// request gives no time.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=MAX_FIELD as i64))]
    pub time: u16,
    /// Moves per period, sent with --time (0: the whole game). Scan also ends the game after
    /// this many moves, so keep 0 for complete games against it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_FIELD as i64))]
    pub moves: u16,
    /// Initiator: start every game from this position (PDN FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Initiator: our colour in the first game.
    #[arg(long, value_enum, default_value_t = ColorArg::White)]
    pub color: ColorArg,
    /// Search each move to this depth instead of using the clock.
    #[arg(long, value_parser = clap::value_parser!(u32).range(DEPTH_RANGE))]
    pub depth: Option<u32>,
    /// Search each move this many nodes instead of using the clock.
    #[arg(long, value_parser = clap::value_parser!(u64).range(NODES_RANGE))]
    pub nodes: Option<u64>,
    /// Search each move this many seconds instead of using the clock.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub move_time: Option<f64>,
    /// The engine.
    #[command(flatten)]
    pub engine: EngineArgs<Standard>,
    /// Search on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Play from the opening book while the position is in it (default file: the shipped
    /// book, see `books/README.md`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<Option<PathBuf>>,
    /// Plies from the start during which book moves are drawn at random within the margin.
    #[arg(long, default_value_t = DEFAULT_BOOK_PLY, value_parser = clap::value_parser!(u32).range(BOOK_PLY_RANGE))]
    pub book_ply: u32,
    /// Book randomness margin in centi-men (0: always the best book move).
    #[arg(long, default_value_t = DEFAULT_BOOK_MARGIN, value_parser = clap::value_parser!(i32).range(BOOK_MARGIN_RANGE))]
    pub book_margin: i32,
    /// Strength level: 20 is full strength; lower levels search fewer nodes and choose among
    /// near-best moves (the README has a table of the levels).
    #[arg(long, default_value_t = MAX_SKILL, value_parser = clap::value_parser!(u32).range(SKILL_RANGE))]
    pub skill: u32,
    /// Our name in game requests and answers.
    #[arg(long)]
    pub name: Option<String>,
    /// Seconds past its clock a timed opponent may take for a move before it loses on time.
    #[arg(long, default_value_t = 60)]
    pub grace: u64,
    /// Seconds a silent peer is waited for where no clock applies (between games, or for the
    /// move of a peer whose game request gave no time) before the connection is given up.
    #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// Rules (DXP knows international draughts only).
    #[arg(long, default_value = "international")]
    pub variant: Variant,
}

/// The session options the arguments describe.
///
/// # Errors
/// A variant other than international, a bad FEN or a bad move time.
pub fn options(args: &DxpArgs) -> Result<DxpOptions, String> {
    if args.variant != Variant::International {
        return Err(format!(
            "DXP is defined for international draughts (10x10) only, not {}",
            args.variant
        ));
    }
    let role = match args.role {
        Some(RoleArg::Initiator) => Role::Initiator,
        Some(RoleArg::Follower) => Role::Follower,
        None if args.connect.is_some() => Role::Initiator,
        None => Role::Follower,
    };
    let start = match &args.fen {
        Some(text) => {
            Some(fen::parse::<International>(text).map_err(|e| format!("bad FEN '{text}': {e}"))?)
        }
        None => None,
    };
    let mut limits = Limits::default();
    let mut fixed = false;
    if let Some(depth) = args.depth {
        limits.depth = Some(depth);
        fixed = true;
    }
    if let Some(nodes) = args.nodes {
        limits.nodes = Some(nodes);
        fixed = true;
    }
    if let Some(seconds) = args.move_time {
        limits.move_time = Some(search_time("move time", seconds)?);
        fixed = true;
    }
    let book = match &args.book {
        Some(given) => Some(super::open_book::<International>(given.as_deref())?.1),
        None => None,
    };
    let defaults = DxpOptions::default();
    Ok(DxpOptions {
        name: args.name.clone().unwrap_or(defaults.name),
        role,
        games: match (role, args.games) {
            (_, Some(games)) => Some(games),
            (Role::Initiator, None) => Some(2),
            (Role::Follower, None) => None,
        },
        minutes: args.time,
        moves: args.moves,
        start,
        first_color: match args.color {
            ColorArg::White => Color::White,
            ColorArg::Black => Color::Black,
        },
        limits: fixed.then_some(limits),
        engine: args.engine.setup::<International>()?,
        ponder: args.ponder,
        book,
        book_rule: options::book_rule(args.book_ply, args.book_margin),
        skill: Skill::new(args.skill).unwrap_or_default(),
        grace: Duration::from_secs(args.grace),
        idle_timeout: Duration::from_secs(args.idle_timeout),
        ..defaults
    })
}

/// Runs `rafle dxp`.
///
/// # Errors
/// Bad arguments, an address that cannot be used, a failed connection.
pub fn run(args: &DxpArgs) -> Result<(), String> {
    let options = options(args)?;
    let mut report = |game: &dxp::GameReport| {
        println!("{game}");
        let _ = std::io::stdout().flush();
    };
    let summary = if let Some(address) = &args.listen {
        let listener = dxp::bind(address).map_err(|e| e.to_string())?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("listening socket: {e}"))?;
        println!("listening on {bound}");
        let _ = std::io::stdout().flush();
        dxp::listen(&listener, &options, &mut report)
    } else {
        let address = args.connect.as_deref().unwrap_or_default();
        dxp::connect(address, &options, &mut report).map_err(|e| e.to_string())?
    };
    println!("{summary}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_address_is_loopback_and_the_dxp_port() {
        assert_eq!(
            DEFAULT_ADDRESS,
            format!("{}:{}", dxp::DEFAULT_HOST, dxp::DEFAULT_PORT)
        );
    }
}
