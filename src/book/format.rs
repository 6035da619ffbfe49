//! The book file format (see `books/README.md`): the header, the records sorted by hash with
//! each position packed square by square and its moves with their scores, and the checksum.

use super::{BookError, BookMove, BuildInfo};
use crate::core::zobrist::{self, BLACK_TO_MOVE};
use crate::core::{BitBoard, Color, Geometry, Kind};
use crate::moves::Move;
use crate::position::{Position, Setup};
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use std::path::{Path, PathBuf};

/// First bytes of every book file.
pub const MAGIC: [u8; 8] = *b"RAFLEBK\0";
/// Version of the file layout written by this code.
pub const FORMAT_VERSION: u16 = 1;
/// Longest variant name a header holds.
pub(super) const MAX_VARIANT_NAME: usize = 64;
/// Bytes of a stored score.
pub(super) const SCORE_BYTES: usize = 2;

/// Bytes of a packed position: three sets (white, black, kings) of one bit per square, then
/// the side to move.
pub const fn packed_len<G: Geometry>() -> usize {
    3 * (G::SQUARES as usize).div_ceil(8) + 1
}

/// Appends `position` packed square by square (square numbers of the geometry, so the packing
/// does not depend on the bit layout).
pub(super) fn pack<R: Rules>(position: &Position<R>, out: &mut Vec<u8>) {
    let set_bytes = (R::Geometry::SQUARES as usize).div_ceil(8);
    let start = out.len();
    out.resize(start + packed_len::<R::Geometry>(), 0);
    let sets = [
        position.pieces(Color::White),
        position.pieces(Color::Black),
        position.all_kings(),
    ];
    for (index, set) in sets.into_iter().enumerate() {
        for bit in set.iter() {
            let square = (R::Geometry::square_of(bit) - 1) as usize;
            out[start + index * set_bytes + square / 8] |= 1 << (square % 8);
        }
    }
    out[start + 3 * set_bytes] = position.side().index() as u8;
}

/// The squares (1-based) of one packed set.
pub(super) fn packed_squares(set: &[u8]) -> impl Iterator<Item = u32> + '_ {
    set.iter().enumerate().flat_map(|(byte_index, &byte)| {
        (0..8)
            .filter(move |b| byte & (1 << b) != 0)
            .map(move |b| (byte_index * 8 + b + 1) as u32)
    })
}

/// The Zobrist hash of a packed position, computed without building it; `None` when the packed
/// bytes are not a position of the geometry.
pub(super) fn packed_hash<R: Rules>(packed: &[u8]) -> Option<u64> {
    let set_bytes = (R::Geometry::SQUARES as usize).div_ceil(8);
    let (white, rest) = packed.split_at(set_bytes);
    let (black, rest) = rest.split_at(set_bytes);
    let (kings, side) = rest.split_at(set_bytes);
    let mut hash = match side.first() {
        Some(0) => 0,
        Some(1) => BLACK_TO_MOVE,
        _ => return None,
    };
    for (color, set) in [(Color::White, white), (Color::Black, black)] {
        for square in packed_squares(set) {
            let bit = R::Geometry::bit_of(square)?;
            let index = (square - 1) as usize;
            let kind = if kings[index / 8] & (1 << (index % 8)) != 0 {
                Kind::King
            } else {
                Kind::Man
            };
            hash ^= zobrist::piece_key(color, kind, bit);
        }
    }
    Some(hash)
}

/// The position of a packed record.
pub(super) fn unpack<R: Rules>(packed: &[u8]) -> Option<Position<R>> {
    let set_bytes = (R::Geometry::SQUARES as usize).div_ceil(8);
    let sets: Vec<Vec<u32>> = (0..3)
        .map(|i| packed_squares(&packed[i * set_bytes..(i + 1) * set_bytes]).collect())
        .collect();
    let is_king = |square: &u32| sets[2].contains(square);
    let split = |all: &[u32]| -> (Vec<u32>, Vec<u32>) { all.iter().partition(|s| !is_king(s)) };
    let (white_men, white_kings) = split(&sets[0]);
    let (black_men, black_kings) = split(&sets[1]);
    let side = match packed[3 * set_bytes] {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    let setup = Setup {
        side: Some(side),
        white_men,
        white_kings,
        black_men,
        black_kings,
    };
    Position::from_setup(&setup).ok()
}

/// A 64-bit checksum of a byte string (word-wise multiply-rotate; detects truncation and
/// corruption, not tampering).
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    const MULTIPLIER: u64 = crate::core::mix::GOLDEN_GAMMA;
    let mut hash = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        hash = (hash ^ word).wrapping_mul(MULTIPLIER).rotate_left(29);
    }
    for &byte in chunks.remainder() {
        hash = (hash ^ u64::from(byte))
            .wrapping_mul(MULTIPLIER)
            .rotate_left(29);
    }
    hash ^ (hash >> 32)
}

/// A little-endian reader over a byte slice that reports truncation.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, count: usize) -> Result<&'a [u8], BookError> {
        let end = self.at.checked_add(count).ok_or(BookError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(BookError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    pub(super) fn u8(&mut self) -> Result<u8, BookError> {
        Ok(self.take(1)?[0])
    }

    pub(super) fn u16(&mut self) -> Result<u16, BookError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }

    pub(super) fn u32(&mut self) -> Result<u32, BookError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    pub(super) fn u64(&mut self) -> Result<u64, BookError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// One stored move: squares as numbers of the geometry, and the score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RawMove {
    pub(super) from: u32,
    pub(super) to: u32,
    pub(super) captured: Vec<u32>,
    pub(super) score: Score,
}

/// Reads the moves of a record (the reader stands just after its packed position).
pub(super) fn read_moves(reader: &mut Reader<'_>) -> Result<Vec<RawMove>, BookError> {
    let count = reader.u8()?;
    let mut moves = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let from = u32::from(reader.u8()?);
        let to = u32::from(reader.u8()?);
        let captures = reader.u8()?;
        let captured = reader
            .take(usize::from(captures))?
            .iter()
            .map(|&s| u32::from(s))
            .collect();
        let score = Score::from(i16::from_le_bytes(
            reader.take(SCORE_BYTES)?.try_into().expect("2 bytes"),
        ));
        moves.push(RawMove {
            from,
            to,
            captured,
            score,
        });
    }
    Ok(moves)
}

/// Skips the moves of a record, checking that they fit in the file.
pub(super) fn skip_moves(reader: &mut Reader<'_>) -> Result<(), BookError> {
    let count = reader.u8()?;
    for _ in 0..count {
        reader.take(2)?;
        let captures = reader.u8()?;
        reader.take(usize::from(captures) + SCORE_BYTES)?;
    }
    Ok(())
}

/// The move out of `legal` (the legal moves of the record's position) a stored move names.
pub(super) fn resolve<R: Rules>(
    legal: &[Move<BitsOf<R>>],
    raw: &RawMove,
) -> Option<Move<BitsOf<R>>> {
    let bit = |square: u32| R::Geometry::bit_of(square);
    let from = bit(raw.from)?;
    let to = bit(raw.to)?;
    let mut captured = BitsOf::<R>::EMPTY;
    for &square in &raw.captured {
        captured |= BitsOf::<R>::bit(bit(square)?);
    }
    legal
        .iter()
        .copied()
        .find(|m| u32::from(m.from) == from && u32::from(m.to) == to && m.captured == captured)
}

/// Appends one stored move.
pub(super) fn write_move<R: Rules>(out: &mut Vec<u8>, book_move: &BookMove<R>) {
    let square = |bit: u32| R::Geometry::square_of(bit) as u8;
    out.push(square(u32::from(book_move.mv.from)));
    out.push(square(u32::from(book_move.mv.to)));
    let captured: Vec<u8> = book_move.mv.captured.iter().map(square).collect();
    out.push(captured.len() as u8);
    out.extend_from_slice(&captured);
    let score = book_move
        .score
        .clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    out.extend_from_slice(&score.to_le_bytes());
}

/// The order of moves in a record: best score first, then by squares (so files are
/// reproducible).
pub(super) fn move_order<R: Rules>(a: &BookMove<R>, b: &BookMove<R>) -> std::cmp::Ordering {
    let squares = |m: &BookMove<R>| {
        let mut key = vec![
            R::Geometry::square_of(u32::from(m.mv.from)),
            R::Geometry::square_of(u32::from(m.mv.to)),
        ];
        key.extend(m.mv.captured.iter().map(R::Geometry::square_of));
        key
    };
    b.score
        .cmp(&a.score)
        .then_with(|| squares(a).cmp(&squares(b)))
}

/// Encodes a book: `entries` are positions with their moves (in any order).
///
/// # Panics
/// If a position has more than 255 moves or a variant name is too long, which no variant has.
pub fn encode<R: Rules>(
    info: &BuildInfo,
    entries: impl IntoIterator<Item = (Position<R>, Vec<BookMove<R>>)>,
) -> Vec<u8> {
    let mut records: Vec<(u64, Vec<u8>)> = entries
        .into_iter()
        .map(|(position, mut moves)| {
            moves.sort_by(move_order);
            let mut record = Vec::new();
            pack(&position, &mut record);
            record.push(u8::try_from(moves.len()).expect("at most 255 moves in a book position"));
            for book_move in &moves {
                write_move(&mut record, book_move);
            }
            (position.hash(), record)
        })
        .collect();
    records.sort_unstable();
    let mut body = Vec::new();
    for (hash, record) in &records {
        body.extend_from_slice(&hash.to_le_bytes());
        body.extend_from_slice(record);
    }
    let mut out = Vec::with_capacity(body.len() + 128);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    assert!(R::NAME.len() <= MAX_VARIANT_NAME, "variant name too long");
    out.push(R::NAME.len() as u8);
    out.extend_from_slice(R::NAME.as_bytes());
    out.extend_from_slice(&(R::Geometry::SQUARES as u16).to_le_bytes());
    out.extend_from_slice(&info.depth.to_le_bytes());
    out.extend_from_slice(&info.nodes.to_le_bytes());
    out.extend_from_slice(&info.ply_cost.to_le_bytes());
    out.extend_from_slice(&info.seed.to_le_bytes());
    out.extend_from_slice(&info.batch.to_le_bytes());
    out.extend_from_slice(&info.hash_mb.to_le_bytes());
    out.extend_from_slice(&info.build_seconds.to_le_bytes());
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Writes `bytes` to `path` atomically: a temporary file next to it, flushed to disk, then
/// renamed over `path`, so a kill at any moment leaves either the old or the new file.
///
/// # Errors
/// The system's error, with the path.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BookError> {
    use std::io::Write;
    let io = |source| BookError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&temporary, path).map_err(io)
}
