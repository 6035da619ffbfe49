//! PDN 3.0 games: reading (one or many games per text) and writing.
//!
//! Reading accepts what real files contain: tag pairs (`[Event "..."]`, with `\"` and `\\`
//! escapes), move numbers (`12.`, `12...`, also glued to the move as in `12.32-28`), moves with
//! `-`, `x` or `:`, short or long captures (resolved against the legal moves by
//! [`text::parse`]), move strengths (`!`, `?!`, ...) glued or apart, NAGs (`$3`), comments
//! (`{...}` and `;` to the end of the line), `%` escape lines, variations (`( ... )`, nested,
//! skipped), and the result tokens of both PDN result types (`2-0 1-1 0-2 1-0 0-1 1/2-1/2 0-0 *`).
//! A `[FEN]` tag sets the start position (with or without `[SetUp "1"]`); a `[GameType]` tag must
//! name the variant being read. Every error says where (game, line, column) and what; one bad game
//! does not stop the others from being read.
//!
//! Writing gives PDN 3.0 as the standard asks and pydraughts reads: the seven-tag roster,
//! `GameType`, `FEN` when the game does not start from the start position, numbered moves in short
//! form (long form only for ambiguous captures), and the result token of the variant's result type.

use super::fen::{self, FenError};
use super::text::{self, MoveError};
use crate::game::{Game, GameResult};
use crate::position::Position;
use crate::rules::{ResultForm, Rules};
use std::fmt;
use thiserror::Error;

/// The result tag of a PDN game. Besides a game's result ([`GameResult`]) PDN can say that both
/// players lost (`0-0`, e.g. both forfeited) and that the result is unknown or the game goes on
/// (`*`); a record read from a file may say either, so the tag is a type of its own around the
/// game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PdnResult {
    /// A result: `2-0`, `1-1`, `0-2`, or `1-0`, `1/2-1/2`, `0-1`.
    Game(GameResult),
    /// Both players lost (`0-0`, e.g. both forfeited).
    BothLost,
    /// Unknown, or the game goes on (`*`).
    Unknown,
}

// The reader builds games and writes their results: the game record itself knows no PDN.
impl<R: Rules> Game<R> {
    /// The first game of a PDN text (see [`read_game`]).
    ///
    /// # Errors
    /// See [`PdnError`].
    pub fn from_pdn(pdn_text: &str) -> Result<Self, PdnError> {
        read_game::<R>(pdn_text).map(|record| record.game)
    }
}

impl GameResult {
    /// The token in the variant's result type: PDN's "International" type (`2-0`, `1-1`, `0-2`)
    /// for international and Canadian draughts and the 10x10 engine variants without a GameType,
    /// the "Default" type (`1-0`, `1/2-1/2`, `0-1`) for the others.
    pub fn pdn_token<R: Rules>(self) -> &'static str {
        let international = uses_international_results::<R>();
        match (self, international) {
            (GameResult::WhiteWins, true) => "2-0",
            (GameResult::WhiteWins, false) => "1-0",
            (GameResult::BlackWins, true) => "0-2",
            (GameResult::BlackWins, false) => "0-1",
            (GameResult::Draw, true) => "1-1",
            (GameResult::Draw, false) => "1/2-1/2",
        }
    }
}

impl From<GameResult> for PdnResult {
    fn from(result: GameResult) -> Self {
        PdnResult::Game(result)
    }
}

impl From<Option<GameResult>> for PdnResult {
    /// A result, or [`PdnResult::Unknown`] for none.
    fn from(result: Option<GameResult>) -> Self {
        result.map_or(PdnResult::Unknown, PdnResult::Game)
    }
}

impl PdnResult {
    /// Reads a result token of either PDN result type.
    pub fn parse(token: &str) -> Option<Self> {
        Some(match token {
            "2-0" | "1-0" => PdnResult::Game(GameResult::WhiteWins),
            "0-2" | "0-1" => PdnResult::Game(GameResult::BlackWins),
            "1-1" | "1/2-1/2" => PdnResult::Game(GameResult::Draw),
            "0-0" => PdnResult::BothLost,
            "*" => PdnResult::Unknown,
            _ => return None,
        })
    }

    /// The token in the variant's result type (see [`GameResult::pdn_token`]).
    pub fn token<R: Rules>(self) -> &'static str {
        match self {
            PdnResult::Game(result) => result.pdn_token::<R>(),
            PdnResult::BothLost => "0-0",
            PdnResult::Unknown => "*",
        }
    }

    /// The game's result, if the tag gives one.
    pub const fn game(self) -> Option<GameResult> {
        match self {
            PdnResult::Game(result) => Some(result),
            PdnResult::BothLost | PdnResult::Unknown => None,
        }
    }
}

fn uses_international_results<R: Rules>() -> bool {
    R::RESULT_FORM == ResultForm::International
}

/// The tag pairs of a game, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    pairs: Vec<(String, String)>,
}

impl Tags {
    /// No tags.
    pub fn new() -> Self {
        Tags::default()
    }

    /// The value of a tag (names compare without regard to case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Sets a tag, replacing an existing one of the same name in place.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .pairs
            .iter_mut()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
        {
            Some(pair) => pair.1 = value,
            None => self.pairs.push((name.to_string(), value)),
        }
    }

    /// Removes a tag, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let index = self
            .pairs
            .iter()
            .position(|(key, _)| key.eq_ignore_ascii_case(name))?;
        Some(self.pairs.remove(index).1)
    }

    /// The pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// One game read from PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame<R: Rules> {
    /// The tag pairs, in file order.
    pub tags: Tags,
    /// The game: start position (the `FEN` tag or the variant's start) and the main line.
    pub game: Game<R>,
    /// The result token that ended the movetext, or else the `Result` tag's, or else `*`.
    pub result: PdnResult,
}

/// What is wrong with a PDN text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PdnErrorKind {
    /// The text holds no game.
    #[error("no game found")]
    Empty,
    /// A `{` comment is not closed.
    #[error("comment not closed with '}}'")]
    UnterminatedComment,
    /// A tag pair is malformed.
    #[error("bad tag pair: {0}")]
    BadTag(String),
    /// A `(` without `)` or the reverse.
    #[error("unbalanced variation parentheses")]
    UnbalancedVariation,
    /// The `GameType` tag names another variant.
    #[error("GameType \"{found}\" is not {variant} (GameType {expected})")]
    GameType {
        /// The tag's value.
        found: String,
        /// The variant being read.
        variant: &'static str,
        /// Its GameType number.
        expected: &'static str,
    },
    /// The `FEN` tag is bad.
    #[error("bad FEN tag: {0}")]
    Fen(FenError),
    /// A move is malformed, illegal or ambiguous.
    #[error("move {number} {source}")]
    Move {
        /// The move number as PDN writes it (`12.` or `12...`).
        number: String,
        /// Why the move was rejected.
        source: MoveError,
    },
    /// A setup (`/FEN "..."/`) inside the movetext, which this reader does not support.
    #[error("setup inside the movetext is not supported")]
    SetupInMovetext,
    /// A token that has no place in movetext.
    #[error("unexpected '{0}'")]
    Unexpected(String),
}

/// A PDN error and where it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("PDN game {game}, line {line}, column {column}: {kind}")]
pub struct PdnError {
    /// 1-based index of the game in the text.
    pub game: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: PdnErrorKind,
}

/// Reads every game of a PDN text. Each game is read on its own: an error in one is reported in
/// its place and reading goes on with the next.
pub fn read_games<R: Rules>(text: &str) -> Vec<Result<PdnGame<R>, PdnError>> {
    let (tokens, lex_error) = lex(text);
    let mut games = Vec::new();
    let mut rest = &tokens[..];
    while !rest.is_empty() {
        let length = game_extent(rest);
        let index = games.len() + 1;
        games.push(read_one::<R>(&rest[..length], index));
        rest = &rest[length..];
    }
    if let Some((line, column, kind)) = lex_error {
        let game = games.len().max(1);
        let error = PdnError {
            game,
            line,
            column,
            kind,
        };
        // The lexing error belongs to the game it cut short.
        match games.last_mut() {
            Some(last) if last.is_ok() => *last = Err(error),
            Some(_) => {}
            None => games.push(Err(error)),
        }
    }
    games
}

/// Reads the first game of a PDN text.
///
/// # Errors
/// The first game's error, or [`PdnErrorKind::Empty`] when there is no game.
pub fn read_game<R: Rules>(text: &str) -> Result<PdnGame<R>, PdnError> {
    read_games::<R>(text)
        .into_iter()
        .next()
        .unwrap_or(Err(PdnError {
            game: 1,
            line: 1,
            column: 1,
            kind: PdnErrorKind::Empty,
        }))
}

/// Longest movetext line written.
const LINE_WIDTH: usize = 80;

/// The seven-tag roster of PDN, in order, with the value written when unknown.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Adds `word` to the movetext `line`, first moving the line to `out` when the word would make
/// it longer than [`LINE_WIDTH`] (the movetext wrapping of every PDN writer).
pub fn emit(out: &mut String, line: &mut String, word: &str) {
    if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
        out.push_str(line);
        out.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(word);
}

/// Writes a game as PDN 3.0.
///
/// Tags: the seven-tag roster first (from `tags`, or `?`), `GameType`, `FEN` when the game does
/// not start from the variant's start position, a `Termination` naming the rule when the game
/// ended by rule and `tags` has none, then the other tags of `tags`. The result is `result`, or
/// else the game's own ([`Game::result`]), or else `*`; it fills the `Result` tag and ends the
/// movetext.
pub fn write_game<R: Rules>(game: &Game<R>, tags: &Tags, result: Option<PdnResult>) -> String {
    let ended = game.result();
    let result = result
        .or(ended.map(|end| end.result.into()))
        .unwrap_or(PdnResult::Unknown);
    let token = result.token::<R>();
    let mut out = String::new();
    let mut written: Vec<&str> = Vec::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    for (name, unknown) in ROSTER {
        let value = if name == "Result" {
            token
        } else {
            tags.get(name).unwrap_or(unknown)
        };
        tag(&mut out, name, value);
        written.push(name);
    }
    if let Some(game_type) = R::PDN_GAME_TYPE {
        tag(&mut out, "GameType", game_type);
    }
    written.push("GameType");
    if *game.start() != Position::<R>::start() {
        tag(&mut out, "FEN", &fen::format(game.start()));
    }
    written.extend(["FEN", "SetUp"]);
    if let (Some(ended), None) = (ended, tags.get("Termination")) {
        tag(&mut out, "Termination", &ended.to_string());
        written.push("Termination");
    }
    for (name, value) in tags.iter() {
        if !written.iter().any(|w| w.eq_ignore_ascii_case(name)) {
            tag(&mut out, name, value);
        }
    }
    out.push('\n');
    let mut line = String::new();
    for (ply, mv) in game.moves().iter().enumerate() {
        let position = &game.positions()[ply];
        let (_, first_half) = crate::game::move_number::<R>(game.start().side(), ply);
        let mut word = String::new();
        if first_half || ply == 0 {
            word.push_str(&game.move_number_text(ply));
            word.push(' ');
        }
        word.push_str(&text::pdn(position, mv));
        emit(&mut out, &mut line, &word);
    }
    emit(&mut out, &mut line, token);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A lexical token of PDN with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    line: usize,
    column: usize,
    kind: TokenKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum TokenKind {
    Tag(String, String),
    Open,
    Close,
    /// A move, a result, or anything else that is not punctuation.
    Word(String),
    /// A setup section `/.../`.
    Setup,
}

type LexError = (usize, usize, PdnErrorKind);

/// Some editors start UTF-8 files with it; it is read as a blank.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// Splits a PDN text into tokens, dropping comments, escape lines, NAGs, move numbers and move
/// strengths. A lexing error ends the token list.
fn lex(text: &str) -> (Vec<Token>, Option<LexError>) {
    let chars: Vec<char> = text.chars().collect();
    let lines = LineIndex::new(&chars);
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let (line, column) = lines.locate(start);
        let token = |kind| Token { line, column, kind };
        if c.is_whitespace() || c == BYTE_ORDER_MARK {
            i += 1;
            continue;
        }
        if (c == '%' && lines.at_line_start(&chars, i)) || c == ';' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        match c {
            '{' => match chars[i..].iter().position(|&c| c == '}') {
                Some(length) => i += length + 1,
                None => {
                    return (
                        tokens,
                        Some((line, column, PdnErrorKind::UnterminatedComment)),
                    );
                }
            },
            '[' => match lex_tag(&chars, &mut i) {
                Ok((name, value)) => tokens.push(token(TokenKind::Tag(name, value))),
                Err(reason) => {
                    return (tokens, Some((line, column, PdnErrorKind::BadTag(reason))));
                }
            },
            '(' => {
                i += 1;
                tokens.push(token(TokenKind::Open));
            }
            ')' => {
                i += 1;
                tokens.push(token(TokenKind::Close));
            }
            '/' => {
                // A setup section, `/FEN "..."/`: read up to the closing slash.
                i += 1;
                while i < chars.len() && chars[i] != '/' {
                    i += 1;
                }
                i = (i + 1).min(chars.len());
                tokens.push(token(TokenKind::Setup));
            }
            _ => {
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], '{' | '}' | '(' | ')' | '[' | ']' | ';')
                {
                    i += 1;
                }
                if i == start {
                    // A stray `}` or `]`.
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                push_word(&mut tokens, &word, line, column);
            }
        }
    }
    (tokens, None)
}

/// Line and column of character offsets.
struct LineIndex {
    /// Offset of the first character of each line.
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(chars: &[char]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c == '\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and column of an offset.
    fn locate(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&start| start <= offset);
        (line, offset - self.starts[line - 1] + 1)
    }

    /// Whether only blanks precede `offset` on its line.
    fn at_line_start(&self, chars: &[char], offset: usize) -> bool {
        let (line, _) = self.locate(offset);
        chars[self.starts[line - 1]..offset]
            .iter()
            .all(|&c| c.is_whitespace() || c == BYTE_ORDER_MARK)
    }
}

/// Classifies a word: move numbers (also glued to a move), NAGs and move strengths are dropped.
fn push_word(tokens: &mut Vec<Token>, word: &str, line: usize, column: usize) {
    let mut rest = word;
    let mut column = column;
    // `12.`, `12...`, `12.32-28`, `...`
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let dots = rest[digits..].bytes().take_while(|&b| b == b'.').count();
    if dots > 0 {
        rest = &rest[digits + dots..];
        column += digits + dots;
        if rest.is_empty() {
            return;
        }
    }
    if rest.starts_with('$') && rest[1..].bytes().all(|b| b.is_ascii_digit()) {
        return;
    }
    if rest.chars().all(|c| matches!(c, '!' | '?')) {
        return;
    }
    tokens.push(Token {
        line,
        column,
        kind: TokenKind::Word(rest.to_string()),
    });
}

/// Reads a tag pair from its `[`: name, quoted value, `]`, leaving `i` after the `]`.
fn lex_tag(chars: &[char], i: &mut usize) -> Result<(String, String), String> {
    let skip_blanks = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() && chars[*i] != '\n' {
            *i += 1;
        }
    };
    *i += 1;
    skip_blanks(i);
    let mut name = String::new();
    while *i < chars.len() && (chars[*i].is_alphanumeric() || chars[*i] == '_') {
        name.push(chars[*i]);
        *i += 1;
    }
    if name.is_empty() {
        return Err("missing tag name".to_string());
    }
    skip_blanks(i);
    if chars.get(*i) != Some(&'"') {
        return Err(format!("tag {name}: value must be a quoted string"));
    }
    *i += 1;
    let mut value = String::new();
    loop {
        match chars.get(*i) {
            None | Some('\n') => return Err(format!("tag {name}: string not closed")),
            Some('\\') if matches!(chars.get(*i + 1), Some('"' | '\\')) => {
                value.push(chars[*i + 1]);
                *i += 2;
            }
            Some('"') => {
                *i += 1;
                break;
            }
            Some(&c) => {
                value.push(c);
                *i += 1;
            }
        }
    }
    skip_blanks(i);
    if chars.get(*i) != Some(&']') {
        return Err(format!("tag {name}: missing ']'"));
    }
    *i += 1;
    Ok((name, value))
}

/// The number of tokens of the game at the start of `tokens`: its tags, then its movetext up to a
/// result token outside variations, or up to the next tag pair.
fn game_extent(tokens: &[Token]) -> usize {
    let mut in_movetext = false;
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate() {
        match &token.kind {
            TokenKind::Tag(..) if in_movetext => return index,
            TokenKind::Tag(..) => {}
            TokenKind::Open => {
                in_movetext = true;
                depth += 1;
            }
            TokenKind::Close => {
                in_movetext = true;
                depth = depth.saturating_sub(1);
            }
            TokenKind::Word(word) => {
                in_movetext = true;
                if depth == 0 && PdnResult::parse(word).is_some() {
                    return index + 1;
                }
            }
            TokenKind::Setup => in_movetext = true,
        }
    }
    tokens.len()
}

/// Reads one game from its tokens.
fn read_one<R: Rules>(tokens: &[Token], index: usize) -> Result<PdnGame<R>, PdnError> {
    let error = |token: &Token, kind: PdnErrorKind| PdnError {
        game: index,
        line: token.line,
        column: token.column,
        kind,
    };
    let mut tags = Tags::new();
    let mut fen_token = None;
    let mut body = tokens;
    while let Some((token, rest)) = body.split_first() {
        let TokenKind::Tag(name, value) = &token.kind else {
            break;
        };
        if name.eq_ignore_ascii_case("FEN") {
            fen_token = Some(token);
        }
        if name.eq_ignore_ascii_case("GameType") {
            check_game_type::<R>(value).map_err(|kind| error(token, kind))?;
        }
        tags.set(name, value.clone());
        body = rest;
    }
    let start = match (fen_token, tags.get("FEN")) {
        (Some(token), Some(text)) if !matches!(text.trim(), "" | "?") => {
            fen::parse::<R>(text).map_err(|e| error(token, PdnErrorKind::Fen(e)))?
        }
        _ => Position::<R>::start(),
    };
    let mut game = Game::new(start);
    let mut depth = 0usize;
    let mut result = None;
    for token in body {
        match &token.kind {
            TokenKind::Tag(..) => {
                return Err(error(
                    token,
                    PdnErrorKind::Unexpected("tag pair inside movetext".to_string()),
                ));
            }
            TokenKind::Open => depth += 1,
            TokenKind::Close => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| error(token, PdnErrorKind::UnbalancedVariation))?;
            }
            // Variations are skipped whole.
            _ if depth > 0 => {}
            TokenKind::Setup => return Err(error(token, PdnErrorKind::SetupInMovetext)),
            TokenKind::Word(word) => {
                if let Some(token_result) = PdnResult::parse(word) {
                    result = Some(token_result);
                    continue;
                }
                let ply = game.ply_count();
                game.play_text(word).map_err(|source| {
                    error(
                        token,
                        PdnErrorKind::Move {
                            number: game.move_number_text(ply),
                            source,
                        },
                    )
                })?;
            }
        }
    }
    if depth > 0 {
        let last = body.last().expect("an open variation has tokens");
        return Err(error(last, PdnErrorKind::UnbalancedVariation));
    }
    let result = result
        .or_else(|| tags.get("Result").and_then(PdnResult::parse))
        .unwrap_or(PdnResult::Unknown);
    Ok(PdnGame { tags, game, result })
}

fn check_game_type<R: Rules>(value: &str) -> Result<(), PdnErrorKind> {
    let Some(expected) = R::PDN_GAME_TYPE else {
        return Ok(());
    };
    let number = value.split(',').next().unwrap_or_default().trim();
    if number == expected {
        Ok(())
    } else {
        Err(PdnErrorKind::GameType {
            found: value.to_string(),
            variant: R::NAME,
            expected,
        })
    }
}

impl fmt::Display for PdnResult {
    /// The token of the "Default" result type; use [`PdnResult::token`] for a variant's own.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PdnResult::Game(GameResult::WhiteWins) => "1-0",
            PdnResult::Game(GameResult::BlackWins) => "0-1",
            PdnResult::Game(GameResult::Draw) => "1/2-1/2",
            PdnResult::BothLost => "0-0",
            PdnResult::Unknown => "*",
        })
    }
}

#[cfg(test)]
mod tests;
