//! `rafle serve`: play and analyse in the browser (see [`rafle::serve`]).

use super::engine_args::{EngineArgs, EngineDefaults};
use clap::Args;
use rafle::rules::International;
use rafle::serve::tab_game::TABLE_MB;
use rafle::serve::{self, Config, DEFAULT_PORT};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The engine of `serve`: one per tab, each with a small table, since a page may hold several.
#[derive(Clone, Copy, Debug)]
pub struct PerTab;

impl EngineDefaults for PerTab {
    const HASH_MB: usize = TABLE_MB;
    const THREADS_HELP: &'static str = "Search threads of each tab's engine";
    const HASH_HELP: &'static str = "Transposition table of each tab's engine in MiB";
}

/// Arguments of `rafle serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on. Other than loopback, anyone who can reach it can use the engine.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// Open the page in the browser.
    #[arg(long)]
    pub open: bool,
    /// The engine of each tab.
    #[command(flatten)]
    pub engine: EngineArgs<PerTab>,
}

/// Runs `rafle serve` until the process is stopped.
///
/// # Errors
/// When an engine option is bad or the address cannot be listened on.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    let config = Config {
        address: SocketAddr::new(args.listen, args.port),
        open: args.open,
        // The tables are for international draughts, the page's first variant; a tab that
        // switches to another variant plays without them.
        engine: args.engine.setup::<International>()?,
    };
    serve::run(&config).map_err(|error| error.to_string())
}
