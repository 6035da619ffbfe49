//! One DXP connection: the socket, a reader thread that turns bytes into messages, and one
//! channel of events (messages from the peer, the end of the connection, and the results of our
//! own searches) that the game loop waits on with a deadline. Nothing here spins: every wait is a
//! blocking read or a channel receive with a timeout.

use super::framing::{Deframer, Frame};
use super::message::{DecodeError, Message};
use crate::rules::International;
use crate::search::Outcome;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A write that blocks this long means the peer has stopped reading: the connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Bytes asked for per read.
const READ_CHUNK: usize = 1024;
/// Characters of a bad message quoted in logs and chats.
const QUOTE_CHARS: usize = 60;

/// What the game loop is told.
#[derive(Debug)]
pub(crate) enum ConnectionEvent {
    /// A well-formed message from the peer.
    Message(Message),
    /// A message that could not be read: its text (quoted, shortened) and why.
    Malformed {
        /// The text received, printable and shortened.
        text: String,
        /// What is wrong with it.
        error: String,
        /// The message type is unknown (it may be an extension: the game can go on).
        unknown_type: bool,
    },
    /// The peer closed the connection, or it broke.
    Closed(String),
    /// One of our searches ended (`id` tells stale results apart).
    SearchDone {
        /// The search's number.
        id: u64,
        /// Its result.
        outcome: Box<Outcome<International>>,
    },
}

/// A DXP connection.
pub(crate) struct Connection {
    stream: TcpStream,
    peer: SocketAddr,
    events: Receiver<ConnectionEvent>,
    sender: Sender<ConnectionEvent>,
    reader: Option<JoinHandle<()>>,
    closed: Option<String>,
}

impl Connection {
    /// Wraps a connected socket: no Nagle delay (DXP messages are tiny and each one waits for an
    /// answer), a write timeout, and a reader thread.
    ///
    /// # Errors
    /// The socket options or the clone for the reader fail.
    pub(crate) fn new(stream: TcpStream) -> std::io::Result<Self> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let peer = stream.peer_addr()?;
        let mut reading = stream.try_clone()?;
        let (sender, events) = channel();
        let to_loop = sender.clone();
        let reader = std::thread::Builder::new()
            .name("dxp-reader".to_string())
            .spawn(move || read_loop(&mut reading, &to_loop))?;
        Ok(Connection {
            stream,
            peer,
            events,
            sender,
            reader: Some(reader),
            closed: None,
        })
    }

    /// The peer's address.
    pub(crate) fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// A sender into this connection's event channel (for search threads).
    pub(crate) fn sender(&self) -> Sender<ConnectionEvent> {
        self.sender.clone()
    }

    /// Sends one message with its NUL in a single write.
    ///
    /// # Errors
    /// The connection is closed or broken (the write timed out, the peer reset it).
    pub(crate) fn send(&mut self, message: &Message) -> std::io::Result<()> {
        let text = message.encode();
        log::debug!("{} > {text}", self.peer);
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.stream.write_all(&bytes).inspect_err(|error| {
            log::warn!("{}: sending '{message}' failed: {error}", self.peer);
        })
    }

    /// Sends a chat line, logging it too. A failure shows up later as [`ConnectionEvent::Closed`].
    pub(crate) fn chat(&mut self, text: &str) {
        log::info!("{}: chat sent: {text}", self.peer);
        let _ = self.send(&Message::Chat(text.to_string()));
    }

    /// The next event, or `None` when `deadline` passes first. After the connection closed it
    /// keeps answering [`ConnectionEvent::Closed`], but search results still come through first.
    pub(crate) fn next(&mut self, deadline: Option<Instant>) -> Option<ConnectionEvent> {
        if let Some(reason) = &self.closed {
            return match self.events.try_recv() {
                Ok(event @ ConnectionEvent::SearchDone { .. }) => Some(event),
                _ => Some(ConnectionEvent::Closed(reason.clone())),
            };
        }
        let event = match deadline {
            None => self.events.recv().ok(),
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match self.events.recv_timeout(wait) {
                    Ok(event) => Some(event),
                    Err(RecvTimeoutError::Timeout) => return None,
                    Err(RecvTimeoutError::Disconnected) => None,
                }
            }
        };
        // The channel cannot disconnect while we hold a sender; treat it as closed anyway.
        let event =
            event.unwrap_or_else(|| ConnectionEvent::Closed("event channel closed".to_string()));
        match &event {
            ConnectionEvent::Message(message) => log::debug!("{} < {message}", self.peer),
            ConnectionEvent::Malformed { text, error, .. } => {
                log::warn!("{}: bad message '{text}': {error}", self.peer);
            }
            ConnectionEvent::Closed(reason) => {
                log::info!("{}: connection closed ({reason})", self.peer);
                self.closed = Some(reason.clone());
            }
            ConnectionEvent::SearchDone { .. } => {}
        }
        Some(event)
    }

    /// Closes the socket both ways and waits for the reader thread.
    pub(crate) fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(reader) = self.reader.take()
            && reader.join().is_err()
        {
            log::error!("the DXP reader thread panicked");
        }
        self.closed
            .get_or_insert_with(|| "closed by us".to_string());
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

/// The reader thread: blocking reads until the end of the stream, one event per frame.
fn read_loop(stream: &mut TcpStream, events: &Sender<ConnectionEvent>) {
    let mut deframer = Deframer::new();
    let mut frames = Vec::new();
    let mut chunk = [0u8; READ_CHUNK];
    let reason = loop {
        let count = match stream.read(&mut chunk) {
            Ok(0) => break "end of stream".to_string(),
            Ok(count) => count,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => break error.to_string(),
        };
        deframer.feed(&chunk[..count], &mut frames);
        for frame in frames.drain(..) {
            let event = match frame {
                Frame::Message(bytes) => match Message::decode(&bytes) {
                    Ok(message) => ConnectionEvent::Message(message),
                    // Padding between messages (a CR LF after the NUL) is no message at all.
                    Err(DecodeError::Empty) => continue,
                    Err(error) => ConnectionEvent::Malformed {
                        text: quote(&bytes),
                        unknown_type: matches!(error, DecodeError::UnknownType(_)),
                        error: error.to_string(),
                    },
                },
                Frame::Oversized { prefix } => ConnectionEvent::Malformed {
                    text: format!("{}...", quote(&prefix)),
                    error: format!(
                        "more than {} bytes without a NUL",
                        super::framing::MAX_FRAME_BYTES
                    ),
                    unknown_type: false,
                },
            };
            if events.send(event).is_err() {
                return;
            }
        }
    };
    let _ = events.send(ConnectionEvent::Closed(reason));
}

/// Bytes as printable text for logs and chats, shortened.
pub(crate) fn quote(bytes: &[u8]) -> String {
    let text: String = String::from_utf8_lossy(bytes)
        .chars()
        .flat_map(char::escape_default)
        .collect();
    if text.chars().count() > QUOTE_CHARS {
        let cut: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{cut}...")
    } else {
        text
    }
}
