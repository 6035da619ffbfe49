//! DXP framing: every message ends with a NUL byte, with no length prefix. TCP delivers a byte
//! stream, so one read may hold several messages, or a part of one; [`Deframer`] turns reads
//! back into messages.
//!
//! The buffer is bounded: a peer that sends [`MAX_FRAME_BYTES`] without a NUL gets one
//! [`Frame::Oversized`] and the rest of that run, up to the next NUL, is dropped. Garbage can
//! never make the buffer grow without bound.

/// Longest frame kept. DXP messages are at most 127 characters; Scan's receive buffer is 4096
/// bytes, so a peer that reaches this is broken.
pub const MAX_FRAME_BYTES: usize = 4096;

/// A piece of the stream between NULs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The bytes of one message, NUL removed.
    Message(Vec<u8>),
    /// More than [`MAX_FRAME_BYTES`] arrived without a NUL; `prefix` holds the first bytes (for
    /// the log). The bytes up to the next NUL are dropped.
    Oversized {
        /// The start of the run.
        prefix: Vec<u8>,
    },
}

/// How many bytes of an oversized run are kept for the log.
const OVERSIZED_PREFIX: usize = 40;

/// Splits a byte stream into NUL-terminated frames.
#[derive(Debug, Default)]
pub struct Deframer {
    buffer: Vec<u8>,
    /// Inside an oversized run: drop everything until the next NUL.
    discarding: bool,
}

impl Deframer {
    /// An empty deframer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the bytes of one read and appends the frames they complete to `frames`. Empty frames
    /// (two NULs in a row) are skipped.
    pub fn feed(&mut self, bytes: &[u8], frames: &mut Vec<Frame>) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let (part, terminated) = match rest.iter().position(|&b| b == 0) {
                Some(nul) => (&rest[..nul], Some(nul + 1)),
                None => (rest, None),
            };
            if !self.discarding {
                let room = MAX_FRAME_BYTES - self.buffer.len();
                if part.len() > room {
                    self.buffer.extend_from_slice(&part[..room]);
                    self.buffer.truncate(OVERSIZED_PREFIX);
                    frames.push(Frame::Oversized {
                        prefix: std::mem::take(&mut self.buffer),
                    });
                    self.discarding = true;
                } else {
                    self.buffer.extend_from_slice(part);
                }
            }
            match terminated {
                Some(next) => {
                    if self.discarding {
                        self.discarding = false;
                    } else if !self.buffer.is_empty() {
                        frames.push(Frame::Message(std::mem::take(&mut self.buffer)));
                    }
                    rest = &rest[next..];
                }
                None => rest = &[],
            }
        }
    }

    /// Bytes of an unfinished frame held.
    pub fn pending(&self) -> usize {
        self.buffer.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(frames: &[Frame]) -> Vec<&[u8]> {
        frames
            .iter()
            .map(|frame| match frame {
                Frame::Message(bytes) => bytes.as_slice(),
                Frame::Oversized { .. } => b"<oversized>".as_slice(),
            })
            .collect()
    }

    #[test]
    fn glued_messages_in_one_read() {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        deframer.feed(b"M0000332900\0M0000202500\0E00\0", &mut frames);
        assert_eq!(
            messages(&frames),
            [b"M0000332900".as_slice(), b"M0000202500", b"E00"]
        );
        assert_eq!(deframer.pending(), 0);
    }

    #[test]
    fn message_split_across_reads() {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        let stream = b"R01Scan 3.1                        Z001020A\0AScan";
        // Every split point, byte by byte included.
        for chunk in stream.chunks(1) {
            deframer.feed(chunk, &mut frames);
        }
        assert_eq!(
            messages(&frames),
            [b"R01Scan 3.1                        Z001020A".as_slice()]
        );
        assert_eq!(deframer.pending(), 5);
        deframer.feed(b" 3.1                        0\0M00", &mut frames);
        assert_eq!(messages(&frames)[1], b"AScan 3.1                        0");
        assert_eq!(deframer.pending(), 3);
    }

    #[test]
    fn empty_frames_are_skipped() {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        deframer.feed(b"\0\0E00\0\0", &mut frames);
        assert_eq!(messages(&frames), [b"E00".as_slice()]);
    }

    #[test]
    fn garbage_without_nul_is_bounded() {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        let garbage = vec![b'x'; 1000];
        for _ in 0..100 {
            deframer.feed(&garbage, &mut frames);
            assert!(deframer.pending() <= MAX_FRAME_BYTES);
        }
        assert_eq!(frames.len(), 1);
        assert!(
            matches!(&frames[0], Frame::Oversized { prefix } if prefix.len() == OVERSIZED_PREFIX)
        );
        // The run ends at the next NUL; what follows is read normally.
        deframer.feed(b"xxx\0E00\0", &mut frames);
        assert_eq!(messages(&frames)[1..], [b"E00".as_slice()]);
    }

    #[test]
    fn oversized_in_a_single_read_then_a_message() {
        let mut deframer = Deframer::new();
        let mut frames = Vec::new();
        let mut bytes = vec![b'y'; MAX_FRAME_BYTES + 1];
        bytes.extend_from_slice(b"\0K0\0");
        deframer.feed(&bytes, &mut frames);
        assert_eq!(messages(&frames), [b"<oversized>".as_slice(), b"K0"]);
        // Exactly the limit is still a message.
        let mut exact = vec![b'C'; MAX_FRAME_BYTES];
        exact.push(0);
        frames.clear();
        deframer.feed(&exact, &mut frames);
        assert!(matches!(&frames[..], [Frame::Message(m)] if m.len() == MAX_FRAME_BYTES));
    }
}
