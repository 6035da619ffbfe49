//! `rafle serve`: play and analyse in the browser (see [`rafle::serve`]).

use clap::Args;
use rafle::serve::{self, Config, DEFAULT_PORT};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

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
}

/// Runs `rafle serve` until the process is stopped.
///
/// # Errors
/// When the address cannot be listened on.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    let config = Config {
        address: SocketAddr::new(args.listen, args.port),
        open: args.open,
    };
    serve::run(&config).map_err(|error| error.to_string())
}
