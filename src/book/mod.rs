//! The opening book: positions keyed by Zobrist hash, each with every legal move and its minimax
//! score, built by Rafle's own search (see [`build`]).
//!
//! A book file (format in `books/README.md`) is a header followed by records sorted by hash.
//! Every record holds the hash, the position packed square by square (so a probe is verified
//! against the position, not trusted to the hash), and the moves with their scores. Loading
//! reads the file, checks it, and indexes it: no parsing of moves until a probe.
//!
//! Use in play: [`Book::probe`] lists the moves of a position, best first; [`Book::choose`]
//! applies the Hub `book-ply`/`book-margin` rule (a random move among those within the margin of
//! the best while the game is young, the best move later).

pub mod build;

use crate::core::zobrist::{self, BLACK_TO_MOVE};
use crate::core::{BitBoard, Color, Geometry, Kind};
use crate::moves::Move;
use crate::position::{Position, Setup};
use crate::rules::{BitsOf, Rules};
use crate::score::{KNOWN_WIN, MAX_DISTANCE, Score};
use rand::{Rng, RngExt};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// First bytes of every book file.
pub const MAGIC: [u8; 8] = *b"RAFLEBK\0";
/// Version of the file layout written by this code.
pub const FORMAT_VERSION: u16 = 1;
/// File name extension of books.
pub const EXTENSION: &str = "book";
/// Longest variant name a header holds.
const MAX_VARIANT_NAME: usize = 64;
/// Bytes of a stored score.
const SCORE_BYTES: usize = 2;
/// Loading recomputes the hash of every this-many-th record: books built with other Zobrist
/// keys fail on the first record already, and probes compare whole positions anyway, so a
/// sample keeps loading fast.
const HASH_CHECK_STRIDE: usize = 32;

/// Why a book cannot be read.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a Rafle book (bad magic bytes)")]
    NotABook,
    /// A layout this code does not read.
    #[error("book format version {0} is not supported (this build reads version {FORMAT_VERSION})")]
    Version(u16),
    /// A book of another variant.
    #[error("the book is for {found}, not {expected}")]
    Variant {
        /// The book's variant.
        found: String,
        /// The variant asked for.
        expected: &'static str,
    },
    /// The file ends in the middle of the header or of a record.
    #[error("the book is truncated")]
    Truncated,
    /// The records do not match the checksum of the header.
    #[error("the book is corrupt (checksum mismatch)")]
    Checksum,
    /// A record is malformed.
    #[error("record {index}: {reason}")]
    Record {
        /// Index of the record in the file.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// The stored hashes are not those of the positions: the book was built with other Zobrist
    /// keys (see `src/core/zobrist.rs`) and must be rebuilt.
    #[error("the book's hashes do not match its positions (built with other Zobrist keys?)")]
    ForeignHashes,
}

/// How a book was built, kept in its header so that a build can be resumed with the same
/// settings and the provenance of a shipped book is in the file itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildInfo {
    /// Depth of the search that scores each new position (0: a node limit is used).
    pub depth: u32,
    /// Node limit of that search (0: a depth limit is used).
    pub nodes: u64,
    /// Cost of one ply in the drop-out expansion, in centi-men.
    pub ply_cost: u32,
    /// Seed that orders leaves of equal priority.
    pub seed: u64,
    /// Leaves expanded per round.
    pub batch: u32,
    /// Transposition table of each scoring search, in MiB (scores depend on it).
    pub hash_mb: u32,
    /// Wall-clock seconds spent building so far, over every resumed run.
    pub build_seconds: u64,
}

/// A book move with its minimax score (centi-men, from the point of view of the side that
/// plays it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<R: Rules> {
    /// The move, legal in the probed position.
    pub mv: Move<BitsOf<R>>,
    /// Its score.
    pub score: Score,
}

/// The Hub book rule: randomness while the game is young, the best move later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookRule {
    /// Plies from the start during which the margin applies (Hub `book-ply`).
    pub ply: u32,
    /// Score margin under the best move in centi-men (Hub `book-margin`).
    pub margin: Score,
}

impl BookRule {
    /// The margin at ply `game_ply` of the game: the margin before `ply`, 0 from then on.
    pub fn margin_at(&self, game_ply: u32) -> Score {
        if game_ply < self.ply { self.margin } else { 0 }
    }
}

/// The moves, out of `moves` sorted best first, that are within `margin` of the best.
pub fn candidates<R: Rules>(moves: &[BookMove<R>], margin: Score) -> &[BookMove<R>] {
    let Some(best) = moves.first() else {
        return moves;
    };
    let floor = best.score.saturating_sub(margin.max(0));
    let count = moves.iter().take_while(|m| m.score >= floor).count();
    &moves[..count]
}

/// A loaded opening book for the variant `R`.
pub struct Book<R: Rules> {
    info: BuildInfo,
    /// The whole file.
    data: Vec<u8>,
    /// Hash of each record, ascending.
    keys: Vec<u64>,
    /// Offset in `data` of each record's packed position.
    offsets: Vec<u32>,
    rules: PhantomData<R>,
}

impl<R: Rules> std::fmt::Debug for Book<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("variant", &R::NAME)
            .field("positions", &self.keys.len())
            .field("info", &self.info)
            .finish()
    }
}

/// Bytes of a packed position: three sets (white, black, kings) of one bit per square, then
/// the side to move.
pub const fn packed_len<G: Geometry>() -> usize {
    3 * (G::SQUARES as usize).div_ceil(8) + 1
}

/// Appends `position` packed square by square (square numbers of the geometry, so the packing
/// does not depend on the bit layout).
fn pack<R: Rules>(position: &Position<R>, out: &mut Vec<u8>) {
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
fn packed_squares(set: &[u8]) -> impl Iterator<Item = u32> + '_ {
    set.iter().enumerate().flat_map(|(byte_index, &byte)| {
        (0..8)
            .filter(move |b| byte & (1 << b) != 0)
            .map(move |b| (byte_index * 8 + b + 1) as u32)
    })
}

/// The Zobrist hash of a packed position, computed without building it; `None` when the packed
/// bytes are not a position of the geometry.
fn packed_hash<R: Rules>(packed: &[u8]) -> Option<u64> {
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
fn unpack<R: Rules>(packed: &[u8]) -> Option<Position<R>> {
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
fn checksum(bytes: &[u8]) -> u64 {
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;
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
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], BookError> {
        let end = self.at.checked_add(count).ok_or(BookError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(BookError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, BookError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, BookError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }

    fn u32(&mut self) -> Result<u32, BookError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, BookError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// One stored move: squares as numbers of the geometry, and the score.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawMove {
    from: u32,
    to: u32,
    captured: Vec<u32>,
    score: Score,
}

/// Reads the moves of a record (the reader stands just after its packed position).
fn read_moves(reader: &mut Reader<'_>) -> Result<Vec<RawMove>, BookError> {
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
fn skip_moves(reader: &mut Reader<'_>) -> Result<(), BookError> {
    let count = reader.u8()?;
    for _ in 0..count {
        reader.take(2)?;
        let captures = reader.u8()?;
        reader.take(usize::from(captures) + SCORE_BYTES)?;
    }
    Ok(())
}

/// The move out of `legal` (the legal moves of the record's position) a stored move names.
fn resolve<R: Rules>(legal: &[Move<BitsOf<R>>], raw: &RawMove) -> Option<Move<BitsOf<R>>> {
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
fn write_move<R: Rules>(out: &mut Vec<u8>, book_move: &BookMove<R>) {
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
fn move_order<R: Rules>(a: &BookMove<R>, b: &BookMove<R>) -> std::cmp::Ordering {
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

impl<R: Rules> Book<R> {
    /// Reads a book file.
    ///
    /// # Errors
    /// An unreadable file, or any [`BookError`] of [`Book::from_bytes`].
    pub fn load(path: &Path) -> Result<Self, BookError> {
        let data = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_bytes(data)
    }

    /// Reads a book from its bytes: checks the header, the checksum, the order and extent of
    /// the records, and that stored hashes are the hashes of their positions (on a sample).
    ///
    /// # Errors
    /// See [`BookError`].
    pub fn from_bytes(data: Vec<u8>) -> Result<Self, BookError> {
        let mut reader = Reader {
            bytes: &data,
            at: 0,
        };
        if reader.take(MAGIC.len()).map_err(|_| BookError::NotABook)? != MAGIC {
            return Err(BookError::NotABook);
        }
        let version = reader.u16()?;
        if version != FORMAT_VERSION {
            return Err(BookError::Version(version));
        }
        let name_length = usize::from(reader.u8()?);
        let name = String::from_utf8_lossy(reader.take(name_length)?).into_owned();
        let squares = reader.u16()?;
        if name != R::NAME || u32::from(squares) != R::Geometry::SQUARES {
            return Err(BookError::Variant {
                found: name,
                expected: R::NAME,
            });
        }
        let info = BuildInfo {
            depth: reader.u32()?,
            nodes: reader.u64()?,
            ply_cost: reader.u32()?,
            seed: reader.u64()?,
            batch: reader.u32()?,
            hash_mb: reader.u32()?,
            build_seconds: reader.u64()?,
        };
        let count = usize::try_from(reader.u64()?).map_err(|_| BookError::Truncated)?;
        let expected_checksum = reader.u64()?;
        let body_start = reader.at;
        if checksum(&data[body_start..]) != expected_checksum {
            return Err(BookError::Checksum);
        }
        if data.len() > u32::MAX as usize {
            return Err(BookError::Record {
                index: 0,
                reason: "file larger than 4 GiB".into(),
            });
        }
        let packed = packed_len::<R::Geometry>();
        // Every record takes at least its hash, position and move count.
        let most_records = (data.len() - body_start) / (8 + packed + 1);
        let mut keys = Vec::with_capacity(count.min(most_records));
        let mut offsets = Vec::with_capacity(count.min(most_records));
        for index in 0..count {
            let hash = reader.u64()?;
            let offset = reader.at;
            let position = reader.take(packed)?;
            if index % HASH_CHECK_STRIDE == 0 && packed_hash::<R>(position) != Some(hash) {
                return Err(BookError::ForeignHashes);
            }
            if keys.last().is_some_and(|&last| last > hash) {
                return Err(BookError::Record {
                    index,
                    reason: "records are not sorted by hash".into(),
                });
            }
            skip_moves(&mut reader)?;
            keys.push(hash);
            offsets.push(offset as u32);
        }
        if reader.at != data.len() {
            return Err(BookError::Record {
                index: count,
                reason: "bytes after the last record".into(),
            });
        }
        Ok(Book {
            info,
            data,
            keys,
            offsets,
            rules: PhantomData,
        })
    }

    /// The book's bytes, as [`Book::save`] writes them.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// Writes the book to `path` atomically.
    ///
    /// # Errors
    /// The system's error, with the path.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomically(path, &self.data)
    }

    /// How the book was built.
    pub fn info(&self) -> &BuildInfo {
        &self.info
    }

    /// Number of positions with moves.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The stored moves of the record whose packed position is `packed`, if there is one.
    fn raw_moves(&self, hash: u64, packed: &[u8]) -> Option<Vec<RawMove>> {
        let first = self.keys.partition_point(|&k| k < hash);
        let size = packed.len();
        (first..self.keys.len())
            .take_while(|&i| self.keys[i] == hash)
            .find_map(|i| {
                let offset = self.offsets[i] as usize;
                if &self.data[offset..offset + size] != packed {
                    return None;
                }
                let mut reader = Reader {
                    bytes: &self.data,
                    at: offset + size,
                };
                read_moves(&mut reader).ok()
            })
    }

    /// The book moves of `position`, best first (empty when the position is not in the book).
    /// The position is found by its hash and checked square by square, so every transposition
    /// into a book position is found. A stored move that is not legal (a corrupt book) is left
    /// out with a warning.
    pub fn probe(&self, position: &Position<R>) -> Vec<BookMove<R>> {
        let mut packed = Vec::with_capacity(packed_len::<R::Geometry>());
        pack(position, &mut packed);
        let Some(raw) = self.raw_moves(position.hash(), &packed) else {
            return Vec::new();
        };
        let legal = position.legal_moves();
        raw.iter()
            .filter_map(|raw| {
                let found = resolve::<R>(&legal, raw);
                if found.is_none() {
                    log::warn!(
                        "book: stored move {}-{} is not legal in {position:?}",
                        raw.from,
                        raw.to
                    );
                }
                found.map(|mv| BookMove {
                    mv,
                    score: raw.score,
                })
            })
            .collect()
    }

    /// A move to play at ply `game_ply` of the game (plies since the start position): a random
    /// move among those within the rule's margin of the best while `game_ply < rule.ply`, else
    /// one of the best (a random one among equals). `None` when the position is not in the book.
    pub fn choose<G: Rng + ?Sized>(
        &self,
        position: &Position<R>,
        game_ply: u32,
        rule: BookRule,
        rng: &mut G,
    ) -> Option<BookMove<R>> {
        let moves = self.probe(position);
        let choices = candidates(&moves, rule.margin_at(game_ply));
        if choices.is_empty() {
            return None;
        }
        Some(choices[rng.random_range(0..choices.len())])
    }

    /// Every record: the position and its moves, best first. Used to resume a build and to
    /// check a book.
    ///
    /// # Errors
    /// A record whose position is not valid or whose stored move is not legal there.
    pub fn entries(
        &self,
    ) -> impl Iterator<Item = Result<(Position<R>, Vec<BookMove<R>>), BookError>> + '_ {
        let packed = packed_len::<R::Geometry>();
        self.offsets
            .iter()
            .enumerate()
            .map(move |(index, &offset)| {
                let offset = offset as usize;
                let bad = |reason: String| BookError::Record { index, reason };
                let position = unpack::<R>(&self.data[offset..offset + packed])
                    .ok_or_else(|| bad("not a valid position".into()))?;
                let mut reader = Reader {
                    bytes: &self.data,
                    at: offset + packed,
                };
                let raw = read_moves(&mut reader)?;
                let legal = position.legal_moves();
                let moves = raw
                    .iter()
                    .map(|raw| {
                        resolve::<R>(&legal, raw)
                            .map(|mv| BookMove {
                                mv,
                                score: raw.score,
                            })
                            .ok_or_else(|| {
                                bad(format!(
                                    "move {}-{} (captures {:?}) is not legal in {position:?}",
                                    raw.from, raw.to, raw.captured
                                ))
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((position, moves))
            })
    }
}

/// The score of a move from the score of the position it leads to (the opponent's view): the
/// negation, one ply further from a game end.
pub fn back_up(child: Score) -> Score {
    let score = -child;
    if score > KNOWN_WIN - MAX_DISTANCE {
        score - 1
    } else if score < -(KNOWN_WIN - MAX_DISTANCE) {
        score + 1
    } else {
        score
    }
}

/// The inverse of [`back_up`]: the score of the position a move leads to.
pub fn undo_back_up(move_score: Score) -> Score {
    let child = -move_score;
    if child < -(KNOWN_WIN - MAX_DISTANCE) + 1 {
        child - 1
    } else if child > KNOWN_WIN - MAX_DISTANCE - 1 {
        child + 1
    } else {
        child
    }
}

/// Where the book of a variant is looked for, in order: `books/<variant>.book` under the working
/// directory, under the directory of the executable and each of its parents (so that
/// `target/release/rafle` finds the repository's `books/`), and under the source tree the
/// program was built from.
pub fn search_paths(variant: &str) -> Vec<PathBuf> {
    let file = Path::new("books").join(format!("{variant}.{EXTENSION}"));
    let mut paths = vec![file.clone()];
    if let Ok(executable) = std::env::current_exe() {
        paths.extend(executable.ancestors().skip(1).map(|dir| dir.join(&file)));
    }
    paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file));
    paths
}

/// The first existing book file of [`search_paths`].
pub fn default_path(variant: &str) -> Option<PathBuf> {
    search_paths(variant).into_iter().find(|p| p.is_file())
}

/// An estimate of the number of plies played to reach `position` from the start position, for
/// positions given without their history: each man's advance beyond the front row of its side's
/// start position counts one move (a lower bound: moves within the start area are not seen).
pub fn estimated_ply<R: Rules>(position: &Position<R>) -> u32 {
    let start = Position::<R>::start();
    let rows = |set: BitsOf<R>| {
        set.iter()
            .map(|bit| u32::from(R::Geometry::ROW_OF_BIT[bit as usize]))
    };
    // White moves towards row 0, Black towards the last row.
    let white_front = rows(start.men(Color::White)).min().unwrap_or(0);
    let black_front = rows(start.men(Color::Black)).max().unwrap_or(0);
    let white: u32 = rows(position.men(Color::White))
        .map(|row| white_front.saturating_sub(row))
        .sum();
    let black: u32 = rows(position.men(Color::Black))
        .map(|row| row.saturating_sub(black_front))
        .sum();
    white + black
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;
    use crate::score::{WIN, loss_in, win_in};

    fn start() -> Position<International> {
        Position::start()
    }

    #[test]
    fn pack_round_trips_and_hashes() {
        let position = crate::notation::fen::parse::<International>("B:W31,K45,33,48:B1,K7,12,19")
            .expect("valid FEN");
        for position in [start(), position] {
            let mut packed = Vec::new();
            pack(&position, &mut packed);
            assert_eq!(
                packed.len(),
                packed_len::<<International as Rules>::Geometry>()
            );
            assert_eq!(packed_hash::<International>(&packed), Some(position.hash()));
            assert_eq!(unpack::<International>(&packed), Some(position));
        }
    }

    #[test]
    fn back_up_round_trips() {
        for score in [
            0,
            5,
            -37,
            800,
            -7999,
            WIN,
            -WIN,
            win_in(7),
            loss_in(12),
            KNOWN_WIN - 3,
        ] {
            assert_eq!(undo_back_up(back_up(score)), score, "{score}");
        }
        assert_eq!(back_up(-WIN), win_in(1));
        assert_eq!(back_up(win_in(4)), loss_in(5));
    }

    #[test]
    fn margin_rule() {
        let moves = start().legal_moves();
        let scored: Vec<BookMove<International>> = [10, 8, 6, 2, -50]
            .iter()
            .zip(moves.iter())
            .map(|(&score, &mv)| BookMove { mv, score })
            .collect();
        assert_eq!(candidates(&scored, 0).len(), 1);
        assert_eq!(candidates(&scored, 4).len(), 3);
        assert_eq!(candidates(&scored, 100).len(), 5);
        assert!(candidates::<International>(&[], 4).is_empty());
        let rule = BookRule { ply: 4, margin: 4 };
        assert_eq!(rule.margin_at(3), 4);
        assert_eq!(rule.margin_at(4), 0);
    }

    #[test]
    fn estimated_ply_counts_advances() {
        assert_eq!(estimated_ply(&start()), 0);
        let after = start().play(&crate::notation::text::parse(&start(), "32-28").expect("legal"));
        assert_eq!(estimated_ply(&after), 1);
    }

    #[test]
    fn bad_bytes_are_errors() {
        assert!(matches!(
            Book::<International>::from_bytes(b"nonsense".to_vec()),
            Err(BookError::NotABook)
        ));
        let bytes = encode::<International>(&BuildInfo::default(), []);
        assert!(Book::<International>::from_bytes(bytes.clone()).is_ok());
        assert!(matches!(
            Book::<crate::rules::Brazilian>::from_bytes(bytes.clone()),
            Err(BookError::Variant { .. })
        ));
        assert!(Book::<International>::from_bytes(bytes[..bytes.len() - 1].to_vec()).is_err());
    }

    #[test]
    fn hashes_from_other_keys_are_refused() {
        let moves = vec![BookMove {
            mv: start().legal_moves()[0],
            score: 0,
        }];
        let mut bytes = encode::<International>(&BuildInfo::default(), [(start(), moves)]);
        // The first record starts right after the header: flip its stored hash and make the
        // checksum right again, as a book built with other Zobrist keys would be.
        // Hash, position, move count, then one quiet move: from, to, no capture, score.
        let record = 8 + packed_len::<<International as Rules>::Geometry>() + 1 + 3 + SCORE_BYTES;
        let body = bytes.len() - record;
        bytes[body] ^= 1;
        let sum = checksum(&bytes[body..]);
        bytes[body - 8..body].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            Book::<International>::from_bytes(bytes),
            Err(BookError::ForeignHashes)
        ));
    }
}
