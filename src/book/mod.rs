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
mod format;
mod policy;

pub use format::{FORMAT_VERSION, MAGIC, encode, packed_len, write_atomically};
use format::{
    RawMove, Reader, checksum, pack, packed_hash, read_moves, resolve, skip_moves, unpack,
};
pub use policy::{BookRule, candidates, estimated_ply};

use crate::core::Geometry;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::Score;
use rand::{Rng, RngExt};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// File name extension of books.
pub const EXTENSION: &str = "book";
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

#[cfg(test)]
mod tests {
    use super::build::{back_up, undo_back_up};
    use super::format::SCORE_BYTES;
    use super::*;
    use crate::rules::International;
    use crate::score::{KNOWN_WIN, WIN, loss_in, win_in};

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
