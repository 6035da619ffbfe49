//! The weights of the pattern evaluation as data: a small versioned binary file.
//!
//! Layout, little-endian:
//! * [`MAGIC`] (8 bytes), format version (u32, [`FORMAT_VERSION`]), layout id (u32, a
//!   [`Layout`]'s: which features the weights belong to), parameter count (u32);
//! * the parameters' opening and endgame weights (i16 each, in 1/[`WEIGHT_SCALE`] centi-men),
//!   as runs: a run is the number of parameters whose two weights are both zero, then the
//!   number of parameters that follow stored as they are (both LEB128 varints), then those
//!   parameters' weight pairs; runs follow one another until every parameter is covered;
//! * a checksum of everything before it (u64, FNV-1a).
//!
//! The runs are there because most states of a 3^12 block never occur in play: a trained table
//! of the 4x6m layout is 93 % zero pairs, and its file 1.4 MB in runs against 17 MB dense.
//! Version 1 files ([`DENSE_VERSION`]: every pair stored, no runs) are still read.
//!
//! The default weights are embedded in the binary ([`PatternWeights::embedded`]); a file given
//! at run time replaces them only if it passes every check.

use super::layout::{LAYOUTS, Layout};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use thiserror::Error;

/// First bytes of a weights file.
pub const MAGIC: [u8; 8] = *b"RAFLEVAL";
/// Version of the file layout above.
pub const FORMAT_VERSION: u32 = 2;
/// The earlier version: every parameter's pair stored, with no run counts.
pub const DENSE_VERSION: u32 = 1;
/// Weights are stored in 1/`WEIGHT_SCALE` centi-men.
pub const WEIGHT_SCALE: i32 = 16;
/// Bytes before the weights.
const HEADER_BYTES: usize = 20;
/// Bytes of the checksum.
const CHECKSUM_BYTES: usize = 8;
/// FNV-1a 64-bit parameters.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The name of the shipped weights: a macro, so that the file read and the name logged (and the
/// tests) cannot disagree.
macro_rules! embedded_name {
    () => {
        "patterns-20261207-p"
    };
}

/// The name of the shipped weights (their file in `nets/`), as logs give it.
pub const EMBEDDED_NAME: &str = embedded_name!();

/// The shipped weights.
static EMBEDDED: &[u8] = include_bytes!(concat!("nets/", embedded_name!(), ".bin"));

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// Shorter than its header says.
    #[error("weights file is truncated: {0} bytes")]
    Truncated(usize),
    /// Not a weights file.
    #[error("not a Rafle weights file (bad magic)")]
    BadMagic,
    /// Another format version.
    #[error("weights file format version {0}, expected {DENSE_VERSION} or {FORMAT_VERSION}")]
    Version(u32),
    /// Weights for other features.
    #[error(
        "weights file layout {found} with {count} parameters; {}",
        known_layouts()
    )]
    Layout {
        /// Layout id found.
        found: u32,
        /// Parameter count found.
        count: u32,
    },
    /// Longer than its header says.
    #[error("weights file has {0} bytes after its checksum")]
    TrailingBytes(usize),
    /// Runs that cover more parameters than the header names, or a varint longer than 32 bits.
    #[error("weights file runs are malformed at byte {0}")]
    BadRuns(usize),
    /// The content does not match its checksum.
    #[error("weights file checksum mismatch (corrupt file)")]
    Checksum,
}

/// The layouts a weights file may have, as the error of a bad one lists them.
fn known_layouts() -> String {
    let known: Vec<String> = LAYOUTS
        .iter()
        .map(|l| format!("{} ({}, {} parameters)", l.id, l.name, l.parameters()))
        .collect();
    format!("known layouts: {}", known.join(", "))
}

/// FNV-1a of `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// The weights of the pattern evaluation: per parameter, opening and endgame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    layout: &'static Layout,
    pairs: Box<[[i16; 2]]>,
}

impl PatternWeights {
    /// Weights of `layout` from `(opening, endgame)` pairs, one per parameter.
    ///
    /// # Errors
    /// Not exactly one pair per parameter of the layout.
    pub fn from_pairs(layout: &'static Layout, pairs: Vec<[i16; 2]>) -> Result<Self, WeightsError> {
        if pairs.len() != layout.parameters() {
            return Err(WeightsError::Layout {
                found: layout.id,
                count: pairs.len() as u32,
            });
        }
        Ok(PatternWeights {
            layout,
            pairs: pairs.into_boxed_slice(),
        })
    }

    /// The layout of the features the weights belong to.
    #[inline(always)]
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The `(opening, endgame)` pairs, indexed by parameter.
    #[inline(always)]
    pub fn pairs(&self) -> &[[i16; 2]] {
        &self.pairs
    }

    /// The shipped weights (parsed once).
    pub fn embedded() -> Arc<PatternWeights> {
        static PARSED: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        PARSED
            .get_or_init(|| {
                Arc::new(Self::parse(EMBEDDED).expect("the embedded weights file is valid"))
            })
            .clone()
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// Unreadable, or any check of [`PatternWeights::parse`] fails.
    pub fn load(path: &Path) -> Result<Self, WeightsError> {
        let bytes = std::fs::read(path).map_err(|e| WeightsError::Unreadable {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Self::parse(&bytes)
    }

    /// Parses the bytes of a weights file.
    ///
    /// # Errors
    /// Truncated, bad magic, other version or layout, extra bytes, or bad checksum.
    pub fn parse(bytes: &[u8]) -> Result<Self, WeightsError> {
        if bytes.len() < HEADER_BYTES {
            return Err(WeightsError::Truncated(bytes.len()));
        }
        if bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let version = word(8);
        if version != FORMAT_VERSION && version != DENSE_VERSION {
            return Err(WeightsError::Version(version));
        }
        let (id, count) = (word(12), word(16));
        let layout = Layout::by_id(id)
            .filter(|layout| layout.parameters() == count as usize)
            .ok_or(WeightsError::Layout { found: id, count })?;
        let (pairs, body) = if version == DENSE_VERSION {
            dense_pairs(bytes, layout.parameters())?
        } else {
            run_pairs(bytes, layout.parameters())?
        };
        let total = body + CHECKSUM_BYTES;
        if bytes.len() < total {
            return Err(WeightsError::Truncated(bytes.len()));
        }
        if bytes.len() > total {
            return Err(WeightsError::TrailingBytes(bytes.len() - total));
        }
        let stored = u64::from_le_bytes(bytes[body..total].try_into().expect("8 bytes"));
        if stored != checksum(&bytes[..body]) {
            return Err(WeightsError::Checksum);
        }
        Self::from_pairs(layout, pairs)
    }

    /// The bytes of the weights file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.header(FORMAT_VERSION);
        let mut rest = &self.pairs[..];
        while !rest.is_empty() {
            let zeros = rest.iter().take_while(|pair| **pair == [0, 0]).count();
            rest = &rest[zeros..];
            let stored = rest.iter().take_while(|pair| **pair != [0, 0]).count();
            write_varint(&mut out, zeros as u32);
            write_varint(&mut out, stored as u32);
            rest[..stored].iter().for_each(|p| push_pair(&mut out, p));
            rest = &rest[stored..];
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The header of a file of `version` with these weights.
    fn header(&self, version: u32) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&self.layout.id.to_le_bytes());
        out.extend_from_slice(&(self.pairs.len() as u32).to_le_bytes());
        out
    }
}

/// Appends one weight pair's 4 bytes.
fn push_pair(out: &mut Vec<u8>, [opening, endgame]: &[i16; 2]) {
    out.extend_from_slice(&opening.to_le_bytes());
    out.extend_from_slice(&endgame.to_le_bytes());
}

/// One weight pair from its 4 bytes.
fn pair(bytes: &[u8]) -> [i16; 2] {
    [
        i16::from_le_bytes([bytes[0], bytes[1]]),
        i16::from_le_bytes([bytes[2], bytes[3]]),
    ]
}

/// The `count` pairs of a version 1 file, and where its body ends.
fn dense_pairs(bytes: &[u8], count: usize) -> Result<(Vec<[i16; 2]>, usize), WeightsError> {
    let body = HEADER_BYTES + 4 * count;
    if bytes.len() < body {
        return Err(WeightsError::Truncated(bytes.len()));
    }
    let pairs = bytes[HEADER_BYTES..body]
        .chunks_exact(4)
        .map(pair)
        .collect();
    Ok((pairs, body))
}

/// The `count` pairs of a version 2 file's runs, and where its body ends.
fn run_pairs(bytes: &[u8], count: usize) -> Result<(Vec<[i16; 2]>, usize), WeightsError> {
    let mut pairs = Vec::with_capacity(count);
    let mut at = HEADER_BYTES;
    while pairs.len() < count {
        let zeros = read_varint(bytes, &mut at)? as usize;
        let stored = read_varint(bytes, &mut at)? as usize;
        if zeros + stored > count - pairs.len() {
            return Err(WeightsError::BadRuns(at));
        }
        let end = at + 4 * stored;
        if bytes.len() < end {
            return Err(WeightsError::Truncated(bytes.len()));
        }
        pairs.resize(pairs.len() + zeros, [0, 0]);
        pairs.extend(bytes[at..end].chunks_exact(4).map(pair));
        at = end;
    }
    Ok((pairs, at))
}

/// Bits of a varint byte that carry the value; the high bit says another byte follows.
const VARINT_BITS: u32 = 7;
const VARINT_MORE: u8 = 0x80;

/// Appends `value` as an LEB128 varint.
fn write_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= u32::from(VARINT_MORE) {
        out.push(value as u8 | VARINT_MORE);
        value >>= VARINT_BITS;
    }
    out.push(value as u8);
}

/// Reads an LEB128 varint of at most 32 bits at `*at`, moving `*at` past it.
fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u32, WeightsError> {
    let mut value = 0u32;
    let mut shift = 0;
    loop {
        let &byte = bytes.get(*at).ok_or(WeightsError::Truncated(bytes.len()))?;
        let low = u32::from(byte & !VARINT_MORE);
        if shift >= u32::BITS || (low << shift) >> shift != low {
            return Err(WeightsError::BadRuns(*at));
        }
        value |= low << shift;
        *at += 1;
        if byte & VARINT_MORE == 0 {
            return Ok(value);
        }
        shift += VARINT_BITS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite_checksum(bytes: &mut [u8]) {
        let body = bytes.len() - CHECKSUM_BYTES;
        let sum = checksum(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }

    /// `weights` as a version 1 (dense) file.
    fn dense_bytes(weights: &PatternWeights) -> Vec<u8> {
        let mut out = weights.header(DENSE_VERSION);
        weights.pairs().iter().for_each(|p| push_pair(&mut out, p));
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    #[test]
    fn dense_files_of_version_1_are_still_read() {
        let weights = PatternWeights::embedded();
        let dense = dense_bytes(&weights);
        assert_eq!(PatternWeights::parse(&dense).as_ref(), Ok(&*weights));
        assert!(weights.to_bytes().len() < dense.len() / 4);
        assert_eq!(
            PatternWeights::parse(&dense[..dense.len() - 1]),
            Err(WeightsError::Truncated(dense.len() - 1))
        );
    }

    #[test]
    fn varints_round_trip_and_refuse_overlong_values() {
        for value in [0, 1, 127, 128, 300, 16_383, 16_384, u32::MAX] {
            let mut bytes = Vec::new();
            write_varint(&mut bytes, value);
            let mut at = 0;
            assert_eq!(read_varint(&bytes, &mut at), Ok(value));
            assert_eq!(at, bytes.len());
        }
        let mut at = 0;
        assert_eq!(
            read_varint(&[0xff, 0xff, 0xff, 0xff, 0x7f], &mut at),
            Err(WeightsError::BadRuns(4))
        );
        let mut at = 0;
        assert_eq!(
            read_varint(&[0x80, 0x80], &mut at),
            Err(WeightsError::Truncated(2))
        );
    }

    #[test]
    fn the_embedded_weights_round_trip() {
        let weights = PatternWeights::embedded();
        let bytes = weights.to_bytes();
        assert_eq!(bytes, EMBEDDED);
        assert_eq!(PatternWeights::parse(&bytes).as_ref(), Ok(&*weights));
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = PatternWeights::embedded().to_bytes();
        assert_eq!(
            PatternWeights::parse(&good[..10]),
            Err(WeightsError::Truncated(10))
        );
        assert_eq!(
            PatternWeights::parse(&good[..good.len() - 1]),
            Err(WeightsError::Truncated(good.len() - 1))
        );
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(
            PatternWeights::parse(&longer),
            Err(WeightsError::TrailingBytes(1))
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(PatternWeights::parse(&magic), Err(WeightsError::BadMagic));
        let mut version = good.clone();
        version[8] = 9;
        assert_eq!(
            PatternWeights::parse(&version),
            Err(WeightsError::Version(9))
        );
        // The other known layout, whose tables are of another size than the file holds.
        let other = if good[12] == 1 { 2 } else { 1 };
        let mut layout = good.clone();
        layout[12] = other;
        rewrite_checksum(&mut layout);
        assert!(matches!(
            PatternWeights::parse(&layout),
            Err(WeightsError::Layout { found, .. }) if found == u32::from(other)
        ));
        layout[12] = 9;
        rewrite_checksum(&mut layout);
        assert!(matches!(
            PatternWeights::parse(&layout),
            Err(WeightsError::Layout { found: 9, .. })
        ));
        // More zero pairs than the layout has parameters.
        let mut runs = good[..HEADER_BYTES].to_vec();
        write_varint(&mut runs, u32::MAX >> 1);
        write_varint(&mut runs, 0);
        runs.extend_from_slice(&checksum(&runs).to_le_bytes());
        assert_eq!(
            PatternWeights::parse(&runs),
            Err(WeightsError::BadRuns(HEADER_BYTES + 6))
        );
        // The last weight byte (the last scalar term's, stored as it is).
        let mut corrupt = good.clone();
        corrupt[good.len() - CHECKSUM_BYTES - 1] ^= 1;
        assert_eq!(PatternWeights::parse(&corrupt), Err(WeightsError::Checksum));
        assert!(matches!(
            PatternWeights::load(Path::new("/nonexistent/weights.bin")),
            Err(WeightsError::Unreadable { .. })
        ));
    }
}
