//! Hub protocol lines: the tokenizer (GUI to engine) and the writer (engine to GUI).
//!
//! A line is a command followed by `name` or `name=value` pairs; a value is bare or in double
//! quotes, with no escapes (Hub protocol version 2, as Scan implements it). Unlike Scan, a
//! malformed line is an error to report, never a reason to abort.

use thiserror::Error;

/// A malformed protocol line (see [`HubMessage`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HubMessageError {
    /// Nothing but blanks.
    #[error("missing command")]
    MissingCommand,
    /// A quoted value without its closing quote.
    #[error("unterminated quote")]
    UnterminatedQuote,
    /// `=` or `"` where a name was expected.
    #[error("expected a name, found '{0}'")]
    ExpectedName(char),
    /// `name=` with nothing after it.
    #[error("missing value after '{0}='")]
    MissingValue(String),
}

/// One message, a line of the protocol, parsed: the command and its arguments in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubMessage {
    /// The command word.
    pub command: String,
    /// `(name, value)`; a flag (no `=value`) has the value `None`.
    pub args: Vec<(String, Option<String>)>,
}

impl HubMessage {
    /// The value of the first argument called `name` (`Some("")`-like flags give `Some(None)`).
    pub fn get(&self, name: &str) -> Option<Option<&str>> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref())
    }

    /// The value of `name` when it was given with a value.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).flatten()
    }

    /// Whether `name` was given (as a flag or with a value).
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

fn is_name_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

/// Splits a line into its command and arguments.
///
/// # Errors
/// See [`HubMessageError`].
pub fn parse(text: &str) -> Result<HubMessage, HubMessageError> {
    let chars: Vec<char> = text.chars().collect();
    let mut index = 0;
    let skip_blanks = |index: &mut usize| {
        while *index < chars.len() && chars[*index].is_whitespace() {
            *index += 1;
        }
    };
    let read_name = |index: &mut usize| -> Result<String, HubMessageError> {
        let start = *index;
        while *index < chars.len() && is_name_char(chars[*index]) {
            *index += 1;
        }
        if start == *index {
            return Err(HubMessageError::ExpectedName(chars[*index]));
        }
        Ok(chars[start..*index].iter().collect())
    };
    skip_blanks(&mut index);
    if index == chars.len() {
        return Err(HubMessageError::MissingCommand);
    }
    let command = read_name(&mut index)?;
    let mut args = Vec::new();
    loop {
        skip_blanks(&mut index);
        if index == chars.len() {
            break;
        }
        let name = read_name(&mut index)?;
        skip_blanks(&mut index);
        if index < chars.len() && chars[index] == '=' {
            index += 1;
            skip_blanks(&mut index);
            if index == chars.len() {
                return Err(HubMessageError::MissingValue(name));
            }
            let value = if chars[index] == '"' {
                let start = index + 1;
                let end = chars[start..]
                    .iter()
                    .position(|&c| c == '"')
                    .ok_or(HubMessageError::UnterminatedQuote)?;
                index = start + end + 1;
                chars[start..start + end].iter().collect()
            } else {
                read_name(&mut index)?
            };
            args.push((name, Some(value)));
        } else {
            args.push((name, None));
        }
    }
    Ok(HubMessage { command, args })
}

/// Writes a value bare when it is a valid name, quoted otherwise (empty, blanks, `=`, `"` or
/// control characters), as Scan does. A value holding `"` cannot be written faithfully (the
/// protocol has no escape); such quotes are replaced by `'`.
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_name_char) {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

/// Builds an output line from a command and `(name, value)` pairs.
pub fn format(command: &str, args: &[(&str, String)]) -> String {
    let mut line = command.to_string();
    for (name, value) in args {
        line.push(' ');
        line.push_str(name);
        line.push('=');
        line.push_str(&quote(value));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        let line = parse(
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"",
        )
        .expect("valid");
        assert_eq!(line.command, "pos");
        assert_eq!(line.value("moves"), Some("32-28 19-23"));
        let go = parse("  go   think ").expect("valid");
        assert_eq!(go.command, "go");
        assert!(go.has("think"));
        assert_eq!(go.get("think"), Some(None));
        let spaced = parse("set-param name = threads value= 2").expect("valid");
        assert_eq!(spaced.value("name"), Some("threads"));
        assert_eq!(spaced.value("value"), Some("2"));
        let empty_quoted = parse("x a=\"\"").expect("valid");
        assert_eq!(empty_quoted.value("a"), Some(""));
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(parse(""), Err(HubMessageError::MissingCommand));
        assert_eq!(parse(" \t "), Err(HubMessageError::MissingCommand));
        assert_eq!(
            parse("pos moves=\"32-28"),
            Err(HubMessageError::UnterminatedQuote)
        );
        assert_eq!(parse("=x"), Err(HubMessageError::ExpectedName('=')));
        assert_eq!(parse("\"x\""), Err(HubMessageError::ExpectedName('"')));
        assert_eq!(
            parse("level depth="),
            Err(HubMessageError::MissingValue("depth".into()))
        );
        assert_eq!(
            parse("a b=\"c\"\"d"),
            Err(HubMessageError::ExpectedName('"'))
        );
    }

    #[test]
    fn writer_quotes_like_scan() {
        assert_eq!(
            format(
                "id",
                &[
                    ("name", "Rafle".into()),
                    ("author", "The Rafle developers".into())
                ]
            ),
            "id name=Rafle author=\"The Rafle developers\""
        );
        assert_eq!(quote("31-27"), "31-27");
        assert_eq!(quote("31-27 18-22"), "\"31-27 18-22\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
    }
}
