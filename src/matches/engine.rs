//! The players of a match: what the referee asks of an engine ([`Contestant`]), how an engine is
//! described on the command line ([`EngineSpec`]), and how it can fail ([`Failure`]).
//!
//! The referee talks to every engine through [`Contestant`], in terms of the Hub protocol's position
//! string and move texts; a Hub engine ([`super::hub_engine::HubEngine`]) and a DXP engine
//! ([`super::dxp_engine::DxpEngine`]) implement it.

use crate::core::Color;
use crate::game::GameResult;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// The Hub position string of the game's start position.
    pub start: &'a str,
    /// Every move played since then, in Hub form.
    pub moves: &'a [String],
    /// The arguments of the Hub `level` line (the player's clock).
    pub level: &'a [(&'static str, String)],
    /// How long to wait for the move before the engine has lost on time.
    pub deadline: Duration,
}

/// The end of a game, as each player is told it.
#[derive(Clone, Debug)]
pub struct GameOver<'a> {
    /// The Hub position string of the game's start position.
    pub start: &'a str,
    /// Every move of the game, in Hub form.
    pub moves: &'a [String],
    /// The result.
    pub result: GameResult,
    /// The colour of the player told.
    pub color: Color,
}

/// An engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReply {
    /// The move text as the engine sent it (empty for a `done` without a move).
    pub text: String,
    /// Time from the request to the answer.
    pub elapsed: Duration,
    /// The last score the engine reported, in men, from its own side.
    pub score: Option<f64>,
    /// The nodes the move took, when the engine says (Rafle's `done nodes=` on a virtual clock).
    pub nodes: Option<u64>,
}

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The engine process ended or closed its output.
    Crash(String),
    /// The engine answered `error` instead of a move.
    Error(String),
    /// No answer before the deadline; `killed` when it did not answer `stop` either and was
    /// killed (it is restarted for the next game).
    Timeout {
        /// Whether the engine hung and was killed.
        killed: bool,
    },
    /// The engine could not be started or did not finish its handshake.
    Start(String),
    /// The engine's move (as sent) was found illegal before it reached the referee (DXP).
    IllegalMove(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Crash(detail) => write!(f, "crashed ({detail})"),
            Failure::Error(message) => write!(f, "answered error: {message}"),
            Failure::Timeout { killed: false } => write!(f, "did not move in time"),
            Failure::Timeout { killed: true } => {
                write!(f, "did not move in time and did not answer stop (killed)")
            }
            Failure::Start(detail) => write!(f, "could not be started ({detail})"),
            Failure::IllegalMove(text) => write!(f, "played the illegal move {text}"),
        }
    }
}

/// An engine as the referee sees it.
pub trait Contestant: Send {
    /// The engine's name in the match.
    fn name(&self) -> &str;

    /// Sets the name used in the match.
    fn set_name(&mut self, name: String);

    /// Gets ready for a new game: starts the engine if it is not running (again, after a crash
    /// or a kill) and checks that it answers.
    ///
    /// # Errors
    /// [`Failure::Start`] when the engine cannot be brought up; it forfeits the game.
    fn new_game(&mut self) -> Result<(), Failure>;

    /// Asks for a move.
    ///
    /// # Errors
    /// How the engine failed; the referee scores it as a loss.
    fn think(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, Failure>;

    /// Tells the engine how the game ended (a Hub engine needs nothing; a DXP engine is sent
    /// GAMEEND).
    fn game_over(&mut self, _over: &GameOver<'_>) {}

    /// Ends the engine (politely, then by force).
    fn shutdown(&mut self);
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Hub over stdin/stdout.
    Hub,
    /// DamExchange over TCP.
    Dxp,
}

/// An engine as given on the command line:
/// `cmd="path/to/engine args" name=N dir=D proto=hub option.NAME=VALUE ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments.
    pub command: Vec<String>,
    /// Name in the match (default: the engine's own `id name`, else the program's file name).
    pub name: Option<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub protocol: Protocol,
    /// `set-param` options, in order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads an engine's `key=value` words, after the words given to every engine (`--each`).
    ///
    /// # Errors
    /// A message naming the bad word.
    pub fn parse(words: &[String], each: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            dir: None,
            protocol: Protocol::Hub,
            options: Vec::new(),
        };
        for word in each.iter().chain(words) {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("engine: expected key=value (cmd=, name=, dir=, proto=, option.NAME=), found '{word}'")
            })?;
            match key {
                "cmd" => {
                    spec.command = split_command(value)?;
                    if value.trim_start().starts_with("dxp://") {
                        spec.protocol = Protocol::Dxp;
                    }
                }
                "name" => {
                    if value.trim().is_empty() {
                        return Err("engine: empty name".to_string());
                    }
                    spec.name = Some(value.trim().to_string());
                }
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.protocol = match value {
                        "hub" => Protocol::Hub,
                        "dxp" => Protocol::Dxp,
                        other => return Err(format!("engine: unknown protocol '{other}'")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.retain(|(n, _)| n != name);
                        spec.options.push((name.to_string(), value.to_string()));
                    }
                    _ => return Err(format!("engine: unknown key '{key}' in '{word}'")),
                },
            }
        }
        if spec.command.is_empty() {
            return Err("engine: cmd=... is missing".to_string());
        }
        Ok(spec)
    }

    /// The address of a DXP engine (`cmd=dxp://host:port`, or `proto=dxp cmd=host:port`).
    pub fn dxp_address(&self) -> Option<&str> {
        if self.protocol != Protocol::Dxp {
            return None;
        }
        let command = self.command.first()?;
        Some(command.strip_prefix("dxp://").unwrap_or(command))
    }

    /// The name to use when the engine gives none: the program's file name.
    pub fn program_name(&self) -> String {
        let program = self.command.first().map(String::as_str).unwrap_or("engine");
        std::path::Path::new(program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| program.to_string())
    }
}

/// Splits a command line into words: blanks separate, single or double quotes group, no other
/// shell syntax.
///
/// # Errors
/// An unterminated quote or an empty command.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            None => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("engine: unterminated quote in cmd '{text}'"));
    }
    if in_word {
        words.push(current);
    }
    if words.is_empty() {
        return Err("engine: empty cmd".to_string());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn engine_words() {
        let spec = EngineSpec::parse(
            &words(&[
                "cmd=target/release/rafle hub",
                "name=rafle",
                "dir=/tmp",
                "option.threads=2",
            ]),
            &words(&["option.hash=16", "option.threads=1"]),
        )
        .expect("valid");
        assert_eq!(spec.command, ["target/release/rafle", "hub"]);
        assert_eq!(spec.name.as_deref(), Some("rafle"));
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(spec.protocol, Protocol::Hub);
        // The engine's own option replaces the one given to every engine.
        assert_eq!(
            spec.options,
            [
                ("hash".to_string(), "16".to_string()),
                ("threads".to_string(), "2".to_string())
            ]
        );
        assert_eq!(spec.program_name(), "rafle");
        let dxp = EngineSpec::parse(&words(&["cmd=dxp://localhost:27531"]), &[]).expect("valid");
        assert_eq!(dxp.protocol, Protocol::Dxp);
        assert_eq!(dxp.dxp_address(), Some("localhost:27531"));
        let explicit =
            EngineSpec::parse(&words(&["proto=dxp", "cmd=10.0.0.2:27531"]), &[]).expect("valid");
        assert_eq!(explicit.dxp_address(), Some("10.0.0.2:27531"));
        assert_eq!(spec.dxp_address(), None);
        for bad in [
            &["name=x"][..],
            &["cmd="],
            &["cmd=a", "bogus"],
            &["cmd=a", "colour=red"],
            &["cmd=a", "proto=uci"],
            &["cmd=a", "option.=1"],
            &["cmd='a"],
            &["cmd=a", "name= "],
        ] {
            assert!(EngineSpec::parse(&words(bad), &[]).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn command_splitting() {
        assert_eq!(
            split_command(r#"python3 "my engine.py" --level 'a b' x"#),
            Ok(words(&["python3", "my engine.py", "--level", "a b", "x"]))
        );
        assert_eq!(split_command(r#"run """#), Ok(words(&["run", ""])));
        assert!(split_command("  ").is_err());
        assert!(split_command("a \"b").is_err());
    }
}
