//! The DXP messages and their exact text form: one ASCII type letter followed by fixed-width
//! fields (numbers right-aligned and padded with `0`, names left-aligned and padded with spaces).
//! The NUL byte that ends each message on the wire belongs to [`super::framing`], not to this
//! codec.
//!
//! [`Message::encode`] writes exactly the widths of the DamExchange definition (as Scan 3.1 and
//! the other engines read them); [`Message::decode`] checks every width and digit and says what is
//! wrong in a [`DecodeError`]. Beyond that it tolerates what sloppy peers add around a message:
//! leading and trailing CR, LF and spaces (never inside a chat text, never inside a field).
//!
//! DXP is defined for international draughts only: squares are 1..50 and a position is 50
//! characters. [`position_from_board`] and [`board_of`] convert to and from [`Position`].

use crate::core::{BitBoard, Color, Geometry, Kind, Piece};
use crate::game::GameResult;
use crate::moves::Move;
use crate::position::{Position, PositionError, Setup};
use crate::rules::{BitsOf, International, Rules};
use std::fmt;
use thiserror::Error;

/// The protocol version Rafle speaks (and the only one defined).
pub const VERSION: u8 = 1;
/// Width of the engine names in GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;
/// Squares of the board (international draughts).
pub const SQUARES: usize = 50;
/// Most captured squares a MOVE can list (the field is two digits; a capture in international
/// draughts takes at most 20 pieces).
pub const MAX_CAPTURES: usize = 20;
/// Longest chat text sent: DXP messages are at most 127 characters and the type takes one.
pub const MAX_CHAT_CHARS: usize = 126;
/// Largest value of the 3-digit time and move-count fields of GAMEREQ.
pub const MAX_THREE_DIGITS: u16 = 999;
/// Largest value of the 4-digit time field of MOVE.
pub const MAX_MOVE_SECONDS: u16 = 9999;

/// Length of a GAMEREQ that starts from the initial position (`A`).
const GAMEREQ_INITIAL_LEN: usize = 1 + 2 + NAME_WIDTH + 1 + 3 + 3 + 1;
/// Length of a GAMEREQ that carries a position (`B`): colour to move and 50 squares follow.
const GAMEREQ_SETUP_LEN: usize = GAMEREQ_INITIAL_LEN + 1 + SQUARES;
/// Length of a GAMEACC.
const GAMEACC_LEN: usize = 1 + NAME_WIDTH + 1;
/// Length of a MOVE without captured squares.
const MOVE_BASE_LEN: usize = 1 + 4 + 2 + 2 + 2;
/// Length of a GAMEEND.
const GAMEEND_LEN: usize = 3;
/// Length of a BACKREQ.
const BACKREQ_LEN: usize = 5;
/// Length of a BACKACC.
const BACKACC_LEN: usize = 2;

/// What may surround a message from a sloppy peer and is ignored.
const SLACK: [char; 3] = ['\r', '\n', ' '];

/// A start position carried by a GAMEREQ (`B`): the side to move and one character per square,
/// squares 1..50: `e` empty, `w`/`z` white/black man, `W`/`Z` white/black king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSetup {
    /// Side to move.
    pub side: Color,
    /// The 50 square characters, checked to be one of `ewzWZ`.
    pub squares: String,
}

/// GAMEREQ (`R`): the initiator proposes a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// Protocol version (`01`).
    pub version: u8,
    /// The initiator's name (trailing padding removed).
    pub initiator: String,
    /// The colour the *receiver* of the request (the follower) plays.
    pub follower_color: Color,
    /// Thinking time per period, in minutes.
    pub minutes: u16,
    /// Moves per period (0: the whole game is one period).
    pub moves: u16,
    /// The start position, or `None` for the initial position.
    pub setup: Option<BoardSetup>,
}

/// Acceptance codes of GAMEACC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// `0`: the game is accepted.
    Accepted,
    /// `1`: refused, the protocol version is not supported.
    UnsupportedVersion,
    /// `2`: refused, this game (its position or settings) is not wanted.
    Declined,
    /// `3`: refused, no game at all with this initiator.
    DeclinedAlways,
}

impl Acceptance {
    fn digit(self) -> char {
        match self {
            Acceptance::Accepted => '0',
            Acceptance::UnsupportedVersion => '1',
            Acceptance::Declined => '2',
            Acceptance::DeclinedAlways => '3',
        }
    }
}

/// GAMEACC (`A`): the follower's answer to a GAMEREQ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAccept {
    /// The follower's name (trailing padding removed).
    pub follower: String,
    /// Whether the game is accepted, and if not why.
    pub acceptance: Acceptance,
}

/// MOVE (`M`): a move with the time its player spent on it.
///
/// Like the Hub protocol, DXP identifies a move by its origin, destination and captured set; the
/// intermediate landing squares are not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    /// Seconds spent on the move.
    pub seconds: u16,
    /// Origin square, 1..50.
    pub from: u8,
    /// Destination square, 1..50 (equal to `from` for a king capture that comes back).
    pub to: u8,
    /// Captured squares, 1..50 each, at most [`MAX_CAPTURES`]. Encoded in the order given;
    /// [`MoveMessage::of`] gives them in ascending order.
    pub captured: Vec<u8>,
}

impl MoveMessage {
    /// The message for a move of international draughts, captured squares ascending.
    pub fn of(mv: &Move<BitsOf<International>>, seconds: u16) -> Self {
        let square = |bit: u32| <International as Rules>::Geometry::square_of(bit) as u8;
        let mut captured: Vec<u8> = mv.captured.iter().map(square).collect();
        captured.sort_unstable();
        MoveMessage {
            seconds,
            from: square(u32::from(mv.from)),
            to: square(u32::from(mv.to)),
            captured,
        }
    }

    /// The legal move of `position` this message stands for, if any.
    pub fn resolve(
        &self,
        position: &Position<International>,
    ) -> Option<Move<BitsOf<International>>> {
        let bit = |square: u8| <International as Rules>::Geometry::bit_of(u32::from(square));
        let from = bit(self.from)?;
        let to = bit(self.to)?;
        let mut captured = BitsOf::<International>::EMPTY;
        for &square in &self.captured {
            captured |= BitsOf::<International>::bit(bit(square)?);
        }
        if captured.count() as usize != self.captured.len() {
            // A square listed twice is no move.
            return None;
        }
        position.legal_moves().iter().copied().find(|mv| {
            u32::from(mv.from) == from && u32::from(mv.to) == to && mv.captured == captured
        })
    }

    /// The move in Hub notation (`32-28`, `28x19x23`), for logs and chat.
    pub fn notation(&self) -> String {
        let mut text = format!(
            "{}{}{}",
            self.from,
            if self.captured.is_empty() { '-' } else { 'x' },
            self.to
        );
        for square in &self.captured {
            text.push('x');
            text.push_str(&square.to_string());
        }
        text
    }
}

/// GAMEEND reasons, always from the sender's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no result given (Scan also sends it to acknowledge).
    Unknown,
    /// `1`: the sender loses.
    SenderLoses,
    /// `2`: draw.
    Draw,
    /// `3`: the sender wins.
    SenderWins,
}

impl EndReason {
    /// The reason `sender` gives for `result`.
    pub fn of(result: GameResult, sender: Color) -> Self {
        match result.winner() {
            None => EndReason::Draw,
            Some(winner) if winner == sender => EndReason::SenderWins,
            Some(_) => EndReason::SenderLoses,
        }
    }

    /// The result `sender` claims with this reason (`None`: it gives none).
    pub fn result(self, sender: Color) -> Option<GameResult> {
        match self {
            EndReason::Unknown => None,
            EndReason::SenderLoses => Some(GameResult::win(!sender)),
            EndReason::Draw => Some(GameResult::Draw),
            EndReason::SenderWins => Some(GameResult::win(sender)),
        }
    }

    fn digit(self) -> char {
        match self {
            EndReason::Unknown => '0',
            EndReason::SenderLoses => '1',
            EndReason::Draw => '2',
            EndReason::SenderWins => '3',
        }
    }
}

/// GAMEEND (`E`): the game is over; the other side answers with its own GAMEEND.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The result as the sender sees it.
    pub reason: EndReason,
    /// `true` (`1`): no further game in this connection; `false` (`0`): another may follow.
    pub stop: bool,
}

/// BACKREQ (`B`): take moves back until this move number with this side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackRequest {
    /// Move number (moves are numbered as if the game began with White to move).
    pub move_number: u16,
    /// Side to move after the take-back.
    pub side: Color,
}

/// Answer codes of BACKACC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAnswer {
    /// `0`: the moves are taken back.
    Accepted,
    /// `1`: take-backs are not supported.
    NotSupported,
    /// `2`: refused; the game goes on as it was.
    Declined,
}

impl BackAnswer {
    fn digit(self) -> char {
        match self {
            BackAnswer::Accepted => '0',
            BackAnswer::NotSupported => '1',
            BackAnswer::Declined => '2',
        }
    }
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `C`: free text.
    Chat(String),
    /// `R`: game request.
    GameRequest(GameRequest),
    /// `A`: answer to a game request.
    GameAccept(GameAccept),
    /// `M`: a move.
    Move(MoveMessage),
    /// `E`: end of the game.
    GameEnd(GameEnd),
    /// `B`: take-back request.
    BackRequest(BackRequest),
    /// `K`: answer to a take-back request.
    BackAccept(BackAnswer),
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// Nothing but padding.
    #[error("empty message")]
    Empty,
    /// The first character is no DXP message type.
    #[error("unknown message type '{0}'")]
    UnknownType(String),
    /// Bytes outside printable ASCII in a message other than a chat.
    #[error("'{kind}' message with a byte that is not printable ASCII")]
    NotAscii {
        /// The message type.
        kind: char,
    },
    /// The message does not have the length its fields add up to.
    #[error("'{kind}' message of {found} characters, expected {expected}")]
    Length {
        /// The message type.
        kind: char,
        /// What the definition allows.
        expected: String,
        /// Characters received (type letter included).
        found: usize,
    },
    /// A field holds a value it cannot hold.
    #[error("'{kind}' message: {field} is '{text}', expected {expected}")]
    Field {
        /// The message type.
        kind: char,
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
        /// What it may hold.
        expected: &'static str,
    },
}

impl Message {
    /// The type letter.
    pub fn kind(&self) -> char {
        match self {
            Message::Chat(_) => 'C',
            Message::GameRequest(_) => 'R',
            Message::GameAccept(_) => 'A',
            Message::Move(_) => 'M',
            Message::GameEnd(_) => 'E',
            Message::BackRequest(_) => 'B',
            Message::BackAccept(_) => 'K',
        }
    }

    /// The message text, without the terminating NUL.
    ///
    /// Values too wide for their field are clamped to the largest value it holds; names are cut or
    /// padded to 32 characters; characters outside printable ASCII in names and chats become `?`
    /// (a chat is also cut to [`MAX_CHAT_CHARS`]), so that the result is always a valid message.
    pub fn encode(&self) -> String {
        match self {
            Message::Chat(text) => {
                let mut out = String::with_capacity(1 + text.len().min(MAX_CHAT_CHARS));
                out.push('C');
                out.extend(text.chars().take(MAX_CHAT_CHARS).map(printable));
                out
            }
            Message::GameRequest(request) => {
                let mut out = String::with_capacity(GAMEREQ_SETUP_LEN);
                out.push('R');
                out.push_str(&number(u32::from(request.version), 2));
                out.push_str(&name_field(&request.initiator));
                out.push(color_letter(request.follower_color));
                out.push_str(&number(u32::from(request.minutes), 3));
                out.push_str(&number(u32::from(request.moves), 3));
                match &request.setup {
                    None => out.push('A'),
                    Some(setup) => {
                        out.push('B');
                        out.push(color_letter(setup.side));
                        out.extend(
                            setup
                                .squares
                                .chars()
                                .chain(std::iter::repeat('e'))
                                .take(SQUARES),
                        );
                    }
                }
                out
            }
            Message::GameAccept(accept) => {
                format!(
                    "A{}{}",
                    name_field(&accept.follower),
                    accept.acceptance.digit()
                )
            }
            Message::Move(mv) => {
                let captured = &mv.captured[..mv.captured.len().min(MAX_CAPTURES)];
                let mut out = String::with_capacity(MOVE_BASE_LEN + 2 * captured.len());
                out.push('M');
                out.push_str(&number(u32::from(mv.seconds), 4));
                out.push_str(&number(u32::from(mv.from), 2));
                out.push_str(&number(u32::from(mv.to), 2));
                out.push_str(&number(captured.len() as u32, 2));
                for &square in captured {
                    out.push_str(&number(u32::from(square), 2));
                }
                out
            }
            Message::GameEnd(end) => {
                format!(
                    "E{}{}",
                    end.reason.digit(),
                    if end.stop { '1' } else { '0' }
                )
            }
            Message::BackRequest(back) => format!(
                "B{}{}",
                number(u32::from(back.move_number), 3),
                color_letter(back.side)
            ),
            Message::BackAccept(answer) => format!("K{}", answer.digit()),
        }
    }

    /// Reads one message (the bytes between two NULs).
    ///
    /// # Errors
    /// See [`DecodeError`].
    pub fn decode(bytes: &[u8]) -> Result<Message, DecodeError> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_start_matches(SLACK);
        let Some(kind) = text.chars().next() else {
            return Err(DecodeError::Empty);
        };
        if kind == 'C' {
            // The chat text runs to the NUL; only line ends around it are dropped.
            return Ok(Message::Chat(
                text[1..].trim_end_matches(['\r', '\n']).to_string(),
            ));
        }
        let text = text.trim_end_matches(SLACK);
        if !text.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
            return if "RAMEBK".contains(kind) {
                Err(DecodeError::NotAscii { kind })
            } else {
                Err(DecodeError::UnknownType(kind.escape_default().to_string()))
            };
        }
        let fields = Fields { kind, text };
        match kind {
            'R' => fields.game_request(),
            'A' => fields.game_accept(),
            'M' => fields.move_message(),
            'E' => fields.game_end(),
            'B' => fields.back_request(),
            'K' => fields.back_accept(),
            other => Err(DecodeError::UnknownType(other.escape_default().to_string())),
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

/// A message being read: its type and its (ASCII) text.
struct Fields<'t> {
    kind: char,
    text: &'t str,
}

impl Fields<'_> {
    fn length(&self, expected: &[usize]) -> Result<(), DecodeError> {
        if expected.contains(&self.text.len()) {
            return Ok(());
        }
        let expected = expected
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" or ");
        Err(DecodeError::Length {
            kind: self.kind,
            expected,
            found: self.text.len(),
        })
    }

    fn field(&self, field: &'static str, text: &str, expected: &'static str) -> DecodeError {
        DecodeError::Field {
            kind: self.kind,
            field,
            text: text.to_string(),
            expected,
        }
    }

    /// A right-aligned decimal field; leading spaces are tolerated in place of zeros.
    fn number(&self, at: usize, width: usize, field: &'static str) -> Result<u32, DecodeError> {
        let text = &self.text[at..at + width];
        let digits = text.trim_start_matches(' ');
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.field(field, text, "decimal digits"));
        }
        digits
            .parse()
            .map_err(|_| self.field(field, text, "decimal digits"))
    }

    fn square(&self, at: usize, field: &'static str) -> Result<u8, DecodeError> {
        let value = self.number(at, 2, field)?;
        if (1..=SQUARES as u32).contains(&value) {
            Ok(value as u8)
        } else {
            Err(self.field(field, &self.text[at..at + 2], "a square 01..50"))
        }
    }

    fn color(&self, at: usize, field: &'static str) -> Result<Color, DecodeError> {
        match &self.text[at..=at] {
            "W" => Ok(Color::White),
            "Z" => Ok(Color::Black),
            other => Err(self.field(field, other, "W or Z")),
        }
    }

    fn name(&self, at: usize) -> String {
        self.text[at..at + NAME_WIDTH].trim_end().to_string()
    }

    fn game_request(&self) -> Result<Message, DecodeError> {
        self.length(&[GAMEREQ_INITIAL_LEN, GAMEREQ_SETUP_LEN])?;
        let version = self.number(1, 2, "version")? as u8;
        let initiator = self.name(3);
        let follower_color = self.color(35, "follower colour")?;
        let minutes = self.number(36, 3, "thinking time")? as u16;
        let moves = self.number(39, 3, "number of moves")? as u16;
        let setup = match (&self.text[42..43], self.text.len()) {
            ("A", GAMEREQ_INITIAL_LEN) => None,
            ("B", GAMEREQ_SETUP_LEN) => {
                let side = self.color(43, "colour to move")?;
                let squares = &self.text[44..];
                if !squares.bytes().all(|b| b"ewzWZ".contains(&b)) {
                    return Err(self.field("position", squares, "50 of e, w, z, W, Z"));
                }
                Some(BoardSetup {
                    side,
                    squares: squares.to_string(),
                })
            }
            ("A" | "B", _) => {
                return Err(DecodeError::Length {
                    kind: 'R',
                    expected: format!("{GAMEREQ_INITIAL_LEN} with A, {GAMEREQ_SETUP_LEN} with B"),
                    found: self.text.len(),
                });
            }
            (other, _) => return Err(self.field("starting position", other, "A or B")),
        };
        Ok(Message::GameRequest(GameRequest {
            version,
            initiator,
            follower_color,
            minutes,
            moves,
            setup,
        }))
    }

    fn game_accept(&self) -> Result<Message, DecodeError> {
        self.length(&[GAMEACC_LEN])?;
        let acceptance = match &self.text[33..34] {
            "0" => Acceptance::Accepted,
            "1" => Acceptance::UnsupportedVersion,
            "2" => Acceptance::Declined,
            "3" => Acceptance::DeclinedAlways,
            other => return Err(self.field("acceptance code", other, "0, 1, 2 or 3")),
        };
        Ok(Message::GameAccept(GameAccept {
            follower: self.name(1),
            acceptance,
        }))
    }

    fn move_message(&self) -> Result<Message, DecodeError> {
        if self.text.len() < MOVE_BASE_LEN {
            return Err(DecodeError::Length {
                kind: 'M',
                expected: format!("{MOVE_BASE_LEN} + 2 per captured piece"),
                found: self.text.len(),
            });
        }
        let seconds = self.number(1, 4, "time")? as u16;
        let from = self.square(5, "from")?;
        let to = self.square(7, "to")?;
        let count = self.number(9, 2, "number captured")? as usize;
        if count > MAX_CAPTURES {
            return Err(self.field("number captured", &self.text[9..11], "00..20"));
        }
        self.length(&[MOVE_BASE_LEN + 2 * count])?;
        let captured = (0..count)
            .map(|i| self.square(MOVE_BASE_LEN + 2 * i, "captured square"))
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Message::Move(MoveMessage {
            seconds,
            from,
            to,
            captured,
        }))
    }

    fn game_end(&self) -> Result<Message, DecodeError> {
        self.length(&[GAMEEND_LEN])?;
        let reason = match &self.text[1..2] {
            "0" => EndReason::Unknown,
            "1" => EndReason::SenderLoses,
            "2" => EndReason::Draw,
            "3" => EndReason::SenderWins,
            other => return Err(self.field("reason", other, "0, 1, 2 or 3")),
        };
        let stop = match &self.text[2..3] {
            "0" => false,
            "1" => true,
            other => return Err(self.field("stop code", other, "0 or 1")),
        };
        Ok(Message::GameEnd(GameEnd { reason, stop }))
    }

    fn back_request(&self) -> Result<Message, DecodeError> {
        self.length(&[BACKREQ_LEN])?;
        Ok(Message::BackRequest(BackRequest {
            move_number: self.number(1, 3, "move number")? as u16,
            side: self.color(4, "colour to move")?,
        }))
    }

    fn back_accept(&self) -> Result<Message, DecodeError> {
        self.length(&[BACKACC_LEN])?;
        let answer = match &self.text[1..2] {
            "0" => BackAnswer::Accepted,
            "1" => BackAnswer::NotSupported,
            "2" => BackAnswer::Declined,
            other => return Err(self.field("acceptance code", other, "0, 1 or 2")),
        };
        Ok(Message::BackAccept(answer))
    }
}

/// A number right-aligned in `width` zero-padded digits, clamped to the largest it can hold.
fn number(value: u32, width: usize) -> String {
    let largest = 10u32.pow(width as u32) - 1;
    format!("{:0width$}", value.min(largest))
}

/// A name cut or space-padded to [`NAME_WIDTH`], printable ASCII only.
fn name_field(name: &str) -> String {
    let mut field: String = name.chars().take(NAME_WIDTH).map(printable).collect();
    while field.len() < NAME_WIDTH {
        field.push(' ');
    }
    field
}

fn printable(c: char) -> char {
    if c == ' ' || c.is_ascii_graphic() {
        c
    } else {
        '?'
    }
}

/// DXP's colour letters: `W` white, `Z` black ("zwart").
pub fn color_letter(color: Color) -> char {
    match color {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// The GAMEREQ position of an international draughts position.
pub fn board_of(position: &Position<International>) -> BoardSetup {
    let squares = (1..=SQUARES as u32)
        .map(|square| {
            let bit = <International as Rules>::Geometry::bit_of(square)
                .expect("squares 1..50 are on the board");
            match position.piece_at(bit) {
                None => 'e',
                Some(Piece { color, kind }) => match (color, kind) {
                    (Color::White, Kind::Man) => 'w',
                    (Color::White, Kind::King) => 'W',
                    (Color::Black, Kind::Man) => 'z',
                    (Color::Black, Kind::King) => 'Z',
                },
            }
        })
        .collect();
    BoardSetup {
        side: position.side(),
        squares,
    }
}

/// The international draughts position a GAMEREQ describes.
///
/// # Errors
/// A position that is not legal (a man on its promotion row, more than 20 pieces a side); the
/// characters were checked when the message was decoded.
pub fn position_from_board(setup: &BoardSetup) -> Result<Position<International>, PositionError> {
    let mut pieces = Setup {
        side: Some(setup.side),
        ..Setup::default()
    };
    for (square, letter) in (1..).zip(setup.squares.chars()) {
        match letter {
            'w' => pieces.white_men.push(square),
            'W' => pieces.white_kings.push(square),
            'z' => pieces.black_men.push(square),
            'Z' => pieces.black_kings.push(square),
            _ => {}
        }
    }
    Position::from_setup(&pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages of the Scan 3.1 recording in protocols/dxp.md §8 (first game, both directions).
    const RECORDED: [&str; 12] = [
        "R01Scan 3.1                        Z001020A",
        "AScan 3.1                        0",
        "M0000332900",
        "M000028170122",
        "M000011220117",
        "M00033919022434",
        "M0002071100",
        "M000613220118",
        "M0010343000",
        "E00",
        "Cgame ended (20 moves played, unknown result, last eval = +0.03)",
        "R01Scan 3.1                        W001020A",
    ];

    #[test]
    fn recorded_messages_round_trip() {
        for text in RECORDED {
            let message = Message::decode(text.as_bytes()).expect(text);
            assert_eq!(message.encode(), text);
        }
    }

    #[test]
    fn recorded_fields() {
        let request = Message::decode(RECORDED[0].as_bytes()).expect("valid");
        assert_eq!(
            request,
            Message::GameRequest(GameRequest {
                version: 1,
                initiator: "Scan 3.1".to_string(),
                follower_color: Color::Black,
                minutes: 1,
                moves: 20,
                setup: None,
            })
        );
        assert_eq!(
            Message::decode(RECORDED[1].as_bytes()).expect("valid"),
            Message::GameAccept(GameAccept {
                follower: "Scan 3.1".to_string(),
                acceptance: Acceptance::Accepted,
            })
        );
        assert_eq!(
            Message::decode(b"M00033919022434").expect("valid"),
            Message::Move(MoveMessage {
                seconds: 3,
                from: 39,
                to: 19,
                captured: vec![24, 34],
            })
        );
        assert_eq!(
            Message::decode(b"E00").expect("valid"),
            Message::GameEnd(GameEnd {
                reason: EndReason::Unknown,
                stop: false,
            })
        );
        assert_eq!(
            Message::decode(b"E31").expect("valid"),
            Message::GameEnd(GameEnd {
                reason: EndReason::SenderWins,
                stop: true,
            })
        );
    }

    #[test]
    fn every_type_round_trips() {
        let start = Position::<International>::start();
        let messages = [
            Message::Chat("hello, world".to_string()),
            Message::GameRequest(GameRequest {
                version: 1,
                initiator: "Rafle 0.1.0".to_string(),
                follower_color: Color::White,
                minutes: 90,
                moves: 0,
                setup: Some(board_of(&start.pass())),
            }),
            Message::GameAccept(GameAccept {
                follower: "Kingsrow".to_string(),
                acceptance: Acceptance::Declined,
            }),
            Message::Move(MoveMessage {
                seconds: 12,
                from: 46,
                to: 46,
                captured: vec![10, 19, 28, 37],
            }),
            Message::GameEnd(GameEnd {
                reason: EndReason::Draw,
                stop: true,
            }),
            Message::BackRequest(BackRequest {
                move_number: 12,
                side: Color::Black,
            }),
            Message::BackAccept(BackAnswer::NotSupported),
        ];
        for message in messages {
            let text = message.encode();
            assert_eq!(Message::decode(text.as_bytes()), Ok(message), "{text}");
        }
        assert_eq!(Message::decode(b"B012Z").expect("valid").encode(), "B012Z");
        assert_eq!(Message::decode(b"K2").expect("valid").encode(), "K2");
    }

    #[test]
    fn widths_of_encoded_messages() {
        let request = GameRequest {
            version: 1,
            initiator: "a name that is far longer than thirty-two characters".to_string(),
            follower_color: Color::Black,
            minutes: 5000,
            moves: 75,
            setup: None,
        };
        let text = Message::GameRequest(request.clone()).encode();
        assert_eq!(text.len(), 43);
        assert_eq!(&text[35..], "Z999075A");
        let with_board = Message::GameRequest(GameRequest {
            setup: Some(board_of(&Position::start())),
            ..request
        })
        .encode();
        assert_eq!(with_board.len(), 94);
        assert_eq!(
            &with_board[42..],
            "BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
        let chat = Message::Chat("é\0".repeat(200)).encode();
        assert_eq!(chat.len(), 1 + MAX_CHAT_CHARS);
        assert!(chat.bytes().all(|b| b.is_ascii_graphic()));
    }

    #[test]
    fn sloppy_padding_is_tolerated() {
        assert_eq!(
            Message::decode(b"\r\nM0000332900 \r\n").expect("valid"),
            Message::decode(b"M0000332900").expect("valid")
        );
        assert_eq!(
            Message::decode(b"Chello  \r\n").expect("valid"),
            Message::Chat("hello  ".to_string())
        );
        assert_eq!(
            Message::decode(b"M   0332900").expect("valid"),
            Message::decode(b"M0000332900").expect("valid")
        );
    }

    #[test]
    fn malformed_messages_are_typed_errors() {
        type Check = fn(&DecodeError) -> bool;
        let cases: [(&[u8], Check); 16] = [
            (b"", |e| *e == DecodeError::Empty),
            (b" \r\n", |e| *e == DecodeError::Empty),
            (
                b"X123",
                |e| matches!(e, DecodeError::UnknownType(t) if t == "X"),
            ),
            (b"m0000332900", |e| matches!(e, DecodeError::UnknownType(_))),
            (b"M00003329", |e| {
                matches!(e, DecodeError::Length { kind: 'M', .. })
            }),
            (b"M000033290012", |e| {
                matches!(e, DecodeError::Length { kind: 'M', .. })
            }),
            (b"M00x0332900", |e| {
                matches!(e, DecodeError::Field { field: "time", .. })
            }),
            (b"M0000512900", |e| {
                matches!(e, DecodeError::Field { field: "from", .. })
            }),
            (b"M0000330000", |e| {
                matches!(e, DecodeError::Field { field: "to", .. })
            }),
            (b"M000033292100", |e| {
                matches!(
                    e,
                    DecodeError::Field {
                        field: "number captured",
                        ..
                    }
                )
            }),
            (b"E4", |e| {
                matches!(e, DecodeError::Length { kind: 'E', .. })
            }),
            (b"E40", |e| {
                matches!(
                    e,
                    DecodeError::Field {
                        field: "reason",
                        ..
                    }
                )
            }),
            (b"E02", |e| {
                matches!(
                    e,
                    DecodeError::Field {
                        field: "stop code",
                        ..
                    }
                )
            }),
            (b"R01Scan 3.1                        X001020A", |e| {
                matches!(
                    e,
                    DecodeError::Field {
                        field: "follower colour",
                        ..
                    }
                )
            }),
            (b"R01Scan 3.1                        Z001020B", |e| {
                matches!(e, DecodeError::Length { kind: 'R', .. })
            }),
            (b"M000\xff332900", |e| {
                *e == DecodeError::NotAscii { kind: 'M' }
            }),
        ];
        for (bytes, check) in cases {
            let result = Message::decode(bytes);
            assert!(
                matches!(&result, Err(e) if check(e)),
                "{:?} -> {result:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        let bad_board = format!("R01{:32}W000000BW{}", "x", "q".repeat(SQUARES));
        assert!(matches!(
            Message::decode(bad_board.as_bytes()),
            Err(DecodeError::Field {
                field: "position",
                ..
            })
        ));
    }

    /// A small deterministic generator (xorshift), enough to shake the decoder.
    struct Noise(u64);

    impl Noise {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn decoding_never_panics_and_what_decodes_round_trips() {
        const ALPHABET: &[u8] = b"RAMEBKCXWZewzAB0123456789 \r\n\xff";
        let mut noise = Noise(crate::core::mix::GOLDEN_GAMMA);
        let mut decoded = 0;
        for round in 0..200_000 {
            let mut bytes: Vec<u8> = if round % 2 == 0 {
                // A recorded message, changed in one place, cut or lengthened.
                let mut bytes = RECORDED[noise.below(RECORDED.len())].as_bytes().to_vec();
                match noise.below(3) {
                    0 => {
                        let at = noise.below(bytes.len());
                        bytes[at] = ALPHABET[noise.below(ALPHABET.len())];
                    }
                    1 => bytes.truncate(noise.below(bytes.len() + 1)),
                    _ => bytes.push(ALPHABET[noise.below(ALPHABET.len())]),
                }
                bytes
            } else {
                let length = noise.below(100);
                (0..length)
                    .map(|_| ALPHABET[noise.below(ALPHABET.len())])
                    .collect()
            };
            if round % 7 == 0 {
                bytes.insert(0, b'M');
            }
            if let Ok(message) = Message::decode(&bytes) {
                decoded += 1;
                let again = Message::decode(message.encode().as_bytes());
                if let Message::Chat(_) = message {
                    // Chats are sent printable only: the text may change, the type may not.
                    assert!(matches!(again, Ok(Message::Chat(_))));
                } else {
                    let text = String::from_utf8_lossy(&bytes);
                    assert_eq!(again.as_ref(), Ok(&message), "{text:?}");
                }
            }
        }
        assert!(decoded > 1000, "only {decoded} decoded");
    }

    #[test]
    fn moves_convert_both_ways() {
        let start = Position::<International>::start();
        let first = Message::decode(b"M0000332900").expect("valid");
        let Message::Move(first) = first else {
            panic!("a move")
        };
        let mv = first.resolve(&start).expect("33-29 is legal");
        assert_eq!(MoveMessage::of(&mv, 0), first);
        assert_eq!(first.notation(), "33-29");
        let illegal = MoveMessage {
            seconds: 0,
            from: 33,
            to: 24,
            captured: vec![],
        };
        assert!(illegal.resolve(&start).is_none());
        let twice = MoveMessage {
            seconds: 0,
            from: 33,
            to: 29,
            captured: vec![22, 22],
        };
        assert!(twice.resolve(&start).is_none());
    }

    #[test]
    fn boards_convert_both_ways() {
        let position =
            crate::notation::fen::parse::<International>("B:W33,K46:B1,K18,28").expect("valid FEN");
        let setup = board_of(&position);
        assert_eq!(setup.side, Color::Black);
        assert_eq!(position_from_board(&setup), Ok(position));
        let man_on_crown_row = BoardSetup {
            side: Color::White,
            squares: format!("w{}", "e".repeat(SQUARES - 1)),
        };
        assert!(position_from_board(&man_on_crown_row).is_err());
    }
}
