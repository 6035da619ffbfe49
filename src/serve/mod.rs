//! `rafle serve`: a board in the browser with the engine behind it. An HTTP server (axum on
//! tokio) gives the page, its script and its style, all compiled into the binary, and one
//! WebSocket per tab; each tab has its own game and engine ([`tab_game`]), driven as the other
//! shells drive theirs, through the player layer.
//!
//! Safety: loopback unless another address is asked for; WebSocket messages are size-limited
//! and every request is validated by the rules core; upgrades from another origin are refused;
//! the number of tabs is bounded (so is memory: one small table each); the server reads and
//! writes no file (PDN goes through the page).

mod clock;
pub mod protocol;
mod tab;
pub mod tab_game;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use thiserror::Error;
use tokio::sync::Semaphore;

/// Port served when none is given.
pub const DEFAULT_PORT: u16 = 8088;
/// Longest WebSocket message accepted, in bytes: a PDN game of several hundred moves fits many
/// times over.
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;
/// Largest HTTP request body accepted, in bytes: the server's routes take none.
const MAX_BODY_BYTES: usize = 1024;
/// Most tabs served at once: each has an engine with its table and a search thread.
pub const MAX_TABS: usize = 8;
/// Threads of the async runtime: it only moves messages, the searches have threads of their own.
const RUNTIME_THREADS: usize = 2;
/// The line that tells where the server listens, before the address (tests and scripts read it).
pub const LISTENING: &str = "rafle serve: listening on";

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// Why the server or a request failed.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The address cannot be listened on.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime or the server failed.
    #[error("server: {0}")]
    Server(#[from] std::io::Error),
    /// An engine could not be made.
    #[error("engine: {0}")]
    Engine(String),
    /// A request the server does not understand.
    #[error("bad request: {0}")]
    Request(String),
    /// A bad FEN.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// A PDN text that cannot be read.
    #[error("bad PDN: {0}")]
    Pdn(String),
    /// A move that is not legal.
    #[error("move '{0}': {1}")]
    Move(String, String),
}

/// Where to serve and what to do once listening.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address and port (port 0: any free port).
    pub address: SocketAddr,
    /// Open the page in the user's browser.
    pub open: bool,
    /// The engine of each tab.
    pub engine: crate::player::options::Setup,
}

/// What every request handler shares.
struct ServerState {
    /// Whether the server listens on loopback only: then the page must also have been loaded
    /// by a loopback name, which defeats DNS rebinding.
    loopback: bool,
    /// One permit per tab.
    tabs: Arc<Semaphore>,
    /// The engine of each tab.
    engine: crate::player::options::Setup,
}

/// Serves until the process is stopped.
///
/// # Errors
/// When the address cannot be listened on or the runtime cannot start.
pub fn run(config: &Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(RUNTIME_THREADS)
        .thread_name("serve")
        .enable_all()
        .build()?;
    runtime.block_on(serve(config))
}

async fn serve(config: &Config) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(config.address)
        .await
        .map_err(|source| ServeError::Listen {
            address: config.address,
            source,
        })?;
    let address = listener.local_addr()?;
    let loopback = address.ip().is_loopback();
    if !loopback {
        log::warn!(
            "listening on {address}, not on loopback: anyone who can reach this address can use the engine"
        );
    }
    let url = format!("http://{address}/");
    println!("{LISTENING} {url}");
    if config.open {
        open_browser(&url);
    }
    axum::serve(listener, router(loopback, config.engine.clone())).await?;
    Ok(())
}

/// The routes: the page, its assets and the WebSocket, whose tabs have engines of `engine`.
fn router(loopback: bool, engine: crate::player::options::Setup) -> Router {
    let server = Arc::new(ServerState {
        loopback,
        tabs: Arc::new(Semaphore::new(MAX_TABS)),
        engine,
    });
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route("/ws", get(upgrade))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(server)
}

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // The page runs only its own script and style, and connects only to its server.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; connect-src 'self'; img-src 'self' data:",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

async fn upgrade(
    State(server): State<Arc<ServerState>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, server.loopback) {
        log::warn!(
            "refused a WebSocket from origin {:?}",
            headers.get(header::ORIGIN)
        );
        return (StatusCode::FORBIDDEN, "foreign origin").into_response();
    }
    let Ok(permit) = Arc::clone(&server.tabs).try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many tabs").into_response();
    };
    let engine = server.engine.clone();
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| async move {
            tab::run(socket, engine).await;
            drop(permit);
        })
}

/// Whether a WebSocket upgrade may go ahead: a browser always says which page opened the socket
/// (`Origin`), and only this server's own page may; a client that is no browser sends none. On
/// loopback the page must have been loaded by a loopback name too.
fn origin_allowed(headers: &HeaderMap, loopback: bool) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(|host| host.to_str()),
    ) else {
        return false;
    };
    let same = origin
        .strip_prefix("http://")
        .is_some_and(|rest| rest.eq_ignore_ascii_case(host));
    same && (!loopback || is_loopback_host(host))
}

/// Whether `host` (a Host header: name or address, with a port) names this machine.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

/// Opens `url` in the user's browser, by the system's own opener.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener).arg(url).spawn() {
        log::warn!("cannot open a browser ({opener}: {error}); open {url}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&'static str>, host: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static(host));
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_static(origin));
        }
        headers
    }

    #[test]
    fn only_the_servers_own_page_may_open_a_socket() {
        assert!(origin_allowed(&headers(None, "127.0.0.1:8088"), true));
        assert!(origin_allowed(
            &headers(Some("http://127.0.0.1:8088"), "127.0.0.1:8088"),
            true
        ));
        assert!(origin_allowed(
            &headers(Some("http://localhost:8088"), "localhost:8088"),
            true
        ));
        assert!(origin_allowed(
            &headers(Some("http://[::1]:8088"), "[::1]:8088"),
            true
        ));
        assert!(!origin_allowed(
            &headers(Some("http://evil.example"), "127.0.0.1:8088"),
            true
        ));
        // DNS rebinding: a foreign name that resolves to loopback.
        assert!(!origin_allowed(
            &headers(Some("http://evil.example:8088"), "evil.example:8088"),
            true
        ));
        assert!(origin_allowed(
            &headers(Some("http://club.lan:8088"), "club.lan:8088"),
            false
        ));
    }
}
