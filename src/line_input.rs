//! Line input with a size limit, for the text interfaces that read from peers or files they do
//! not control (`rafle hub`, `rafle moves`): a line longer than the limit is drained without being
//! kept, so memory stays bounded whatever arrives, and error messages quote only a short excerpt.

use std::io::BufRead;

/// Characters of an input quoted in an error message.
pub const EXCERPT_CHARS: usize = 80;

/// One line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line within the limit, without its line ending (`\n` or `\r\n`); invalid UTF-8 is
    /// replaced by U+FFFD, so that a bad byte makes a bad line, not the end of the input.
    Line(String),
    /// A line of this many bytes (line ending excluded), more than the limit: drained, not kept.
    TooLong(usize),
    /// The end of the input.
    Eof,
}

/// Whether the bytes of a kept line were valid UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf8 {
    /// Valid.
    Valid,
    /// Invalid bytes were replaced by U+FFFD.
    Replaced,
}

/// Reads one line of at most `max_bytes` bytes (line ending excluded) into `buffer` (cleared
/// first) and returns it. A final line without a line ending counts as a line.
///
/// # Errors
/// Read errors of `input`.
pub fn read_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max_bytes: usize,
) -> std::io::Result<(LineRead, Utf8)> {
    buffer.clear();
    let mut total = 0usize;
    let mut seen_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok((LineRead::Eof, Utf8::Valid));
            }
            break;
        }
        seen_any = true;
        let (chunk, found_end) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], true),
            None => (available, false),
        };
        let room = (max_bytes + 1).saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(found_end);
        input.consume(used);
        if found_end {
            break;
        }
    }
    // A `\r` before the `\n` belongs to the line ending.
    if buffer.last() == Some(&b'\r') && total <= max_bytes + 1 {
        buffer.pop();
        total -= 1;
    }
    if total > max_bytes {
        buffer.clear();
        return Ok((LineRead::TooLong(total), Utf8::Valid));
    }
    match std::str::from_utf8(buffer) {
        Ok(text) => Ok((LineRead::Line(text.to_string()), Utf8::Valid)),
        Err(_) => Ok((
            LineRead::Line(String::from_utf8_lossy(buffer).into_owned()),
            Utf8::Replaced,
        )),
    }
}

/// At most [`EXCERPT_CHARS`] characters of `text`, with `…` when it was cut, for quoting an
/// input in an error message.
pub fn excerpt(text: &str) -> String {
    excerpt_of(text, EXCERPT_CHARS)
}

/// At most `max_chars` characters of `text`, with `…` when it was cut.
pub fn excerpt_of(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(LineRead, Utf8)> {
        let mut reader = std::io::BufReader::with_capacity(7, input);
        let mut buffer = Vec::new();
        let mut lines = Vec::new();
        loop {
            let read = read_line(&mut reader, &mut buffer, max).expect("in memory");
            if read.0 == LineRead::Eof {
                return lines;
            }
            assert!(buffer.len() <= max + 1);
            lines.push(read);
        }
    }

    #[test]
    fn lines_endings_and_limits() {
        let line = |s: &str| (LineRead::Line(s.to_string()), Utf8::Valid);
        assert_eq!(
            all(b"ab\r\n\ncdefghijklmnop\nxyz", 8),
            vec![
                line("ab"),
                line(""),
                (LineRead::TooLong(14), Utf8::Valid),
                line("xyz")
            ]
        );
        assert_eq!(all(b"12345678\r\n123456789\n", 8)[0], line("12345678"));
        assert_eq!(all(b"123456789\n", 8)[0].0, LineRead::TooLong(9));
        assert_eq!(
            all(b"a\xffb\n", 8)[0],
            (LineRead::Line("a\u{FFFD}b".into()), Utf8::Replaced)
        );
        assert!(all(b"", 8).is_empty());
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt_of("abcdef", 3), "abc…");
        assert_eq!(excerpt_of("abc", 3), "abc");
        assert_eq!(excerpt_of("ééééé", 2), "éé…");
        assert_eq!(
            excerpt(&"x".repeat(1000)).chars().count(),
            EXCERPT_CHARS + 1
        );
    }
}
