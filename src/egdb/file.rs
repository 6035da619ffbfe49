//! Table files: `<dir>/<wm><wk><bm><bk>.rdb`, a header and a run-length coded value stream.
//!
//! Header, little-endian: magic `RAFLEDB\0`, format version (u16), material (4 bytes), index size
//! (u64), counts legal/quiet/win/draw/loss (5 x u64), passes (u32), build seconds (f64), payload
//! length (u64), FNV-1a 64 checksum of the payload (u64).
//!
//! Payload: the value stream of [`super::codec`].

use super::codec::{decode, encode};
use super::compact::CompactTable;
use super::index::{Layout, Material};
use super::table::WdlTable;
use super::{EgdbError, TableSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Per-material counts (the `stats` line and the file header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions that are not index holes.
    pub legal: u64,
    /// Legal positions whose side to move has no capture.
    pub quiet: u64,
    /// Quiet positions won for the side to move.
    pub win: u64,
    /// Quiet positions drawn.
    pub draw: u64,
    /// Quiet positions lost for the side to move.
    pub loss: u64,
}

/// What building one material produced.
pub struct Built {
    /// The material.
    pub material: Material,
    /// Its counts.
    pub counts: Counts,
    /// Forward passes until the fixed point (pass 0 included).
    pub passes: u32,
    /// Wall time of the unit, seconds.
    pub seconds: f64,
    /// Capture positions (one bit each), the values the file may leave undefined (empty for a
    /// unit a resumed build only checked, see [`super::build::build_all`]).
    pub captures: Vec<u64>,
}

/// File magic.
const MAGIC: &[u8; 8] = b"RAFLEDB\0";
/// Format version; a file of another version is refused.
pub const FORMAT_VERSION: u16 = 1;
/// File name extension.
pub const EXTENSION: &str = "rdb";
/// Header length in bytes.
const HEADER_BYTES: usize = 8 + 2 + 4 + 8 + 5 * 8 + 4 + 8 + 8 + 8;
/// FNV-1a 64 parameters.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// What a file's header says.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    /// The material.
    pub material: Material,
    /// Its counts.
    pub counts: Counts,
    /// Passes of the build.
    pub passes: u32,
    /// Build seconds (of the unit).
    pub seconds: f64,
    /// File size in bytes.
    pub bytes: u64,
}

/// The path of a material's file.
pub fn path_of(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    })
}

/// Writes a built table atomically (`.tmp` then rename).
///
/// # Errors
/// The file cannot be written.
pub fn write_table(dir: &Path, table: &WdlTable, built: &Built) -> Result<u64, EgdbError> {
    let material = table.layout().material();
    let payload = encode(table, &built.captures);
    let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&[material.wm, material.wk, material.bm, material.bk]);
    bytes.extend_from_slice(&table.layout().size().to_le_bytes());
    let c = built.counts;
    for count in [c.legal, c.quiet, c.win, c.draw, c.loss] {
        bytes.extend_from_slice(&count.to_le_bytes());
    }
    bytes.extend_from_slice(&built.passes.to_le_bytes());
    bytes.extend_from_slice(&built.seconds.to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    let path = path_of(dir, material);
    let temporary = path.with_extension("tmp");
    let io = |source| EgdbError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(&bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&temporary, &path).map_err(io)?;
    Ok(bytes.len() as u64)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out: [u8; N] = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("length checked against the header size");
        self.at += N;
        out
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
}

fn parse_header(bytes: &[u8]) -> Result<(Header, u64, usize, u64), String> {
    if bytes.len() < HEADER_BYTES {
        return Err("file shorter than its header".into());
    }
    let mut r = Reader { bytes, at: 0 };
    if &r.take::<8>() != MAGIC {
        return Err("not a Rafle table (bad magic)".into());
    }
    let version = u16::from_le_bytes(r.take());
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}, this build reads {FORMAT_VERSION}"
        ));
    }
    let [wm, wk, bm, bk] = r.take::<4>();
    let material = Material::new(wm, wk, bm, bk);
    if !material.is_valid() {
        return Err(format!("bad material {wm}{wk}{bm}{bk}"));
    }
    let size = r.u64();
    let counts = Counts {
        legal: r.u64(),
        quiet: r.u64(),
        win: r.u64(),
        draw: r.u64(),
        loss: r.u64(),
    };
    let passes = u32::from_le_bytes(r.take());
    let seconds = f64::from_le_bytes(r.take());
    let payload = r.u64() as usize;
    let sum = r.u64();
    Ok((
        Header {
            material,
            counts,
            passes,
            seconds,
            bytes: bytes.len() as u64,
        },
        size,
        payload,
        sum,
    ))
}

fn bad(path: &Path, reason: impl Into<String>) -> EgdbError {
    EgdbError::BadFile {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Reads only a file's header.
///
/// # Errors
/// The file cannot be read or its header is bad.
pub fn read_header(path: &Path) -> Result<Header, EgdbError> {
    let mut bytes = vec![0u8; HEADER_BYTES];
    let mut file = std::fs::File::open(path).map_err(|source| EgdbError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let length = file
        .metadata()
        .map_err(|source| EgdbError::Io {
            path: path.display().to_string(),
            source,
        })?
        .len();
    std::io::Read::read_exact(&mut file, &mut bytes).map_err(|_| bad(path, "truncated header"))?;
    let (mut header, _, payload, _) = parse_header(&bytes).map_err(|r| bad(path, r))?;
    if length != (HEADER_BYTES + payload) as u64 {
        return Err(bad(path, "file length does not match its header"));
    }
    header.bytes = length;
    Ok(header)
}

/// Reads a file and checks its header, length and checksum (`expected`: the material the file
/// name promises); returns the header, the index size and the whole file, whose payload starts
/// at [`HEADER_BYTES`] (`huge_pages`: for tables probed where they lie, see
/// [`crate::core::cache::advise_huge_pages`]).
fn read_checked(
    path: &Path,
    expected: Option<Material>,
    huge_pages: bool,
) -> Result<(Header, u64, Vec<u8>), EgdbError> {
    let io = |source| EgdbError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len() as usize;
    let mut bytes = Vec::with_capacity(length);
    if huge_pages {
        crate::core::cache::advise_huge_pages(&mut bytes);
    }
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
    let (header, size, payload_len, sum) = parse_header(&bytes).map_err(|r| bad(path, r))?;
    if let Some(expected) = expected
        && expected != header.material
    {
        return Err(bad(
            path,
            format!("holds material {}, not {expected}", header.material),
        ));
    }
    if size != Layout::new(header.material).size() {
        return Err(bad(path, "index size does not match this build's index"));
    }
    if bytes.len() != HEADER_BYTES + payload_len {
        return Err(bad(
            path,
            format!(
                "{} bytes, the header announces {}: truncated or padded",
                bytes.len(),
                HEADER_BYTES + payload_len
            ),
        ));
    }
    if checksum(&bytes[HEADER_BYTES..]) != sum {
        return Err(bad(path, "checksum mismatch: file corrupt"));
    }
    Ok((header, size, bytes))
}

/// Reads a table, checking everything (`expected`: the material the file name promises).
///
/// # Errors
/// The file cannot be read, is truncated, corrupt, or not the expected material.
pub fn read_table(
    path: &Path,
    expected: Option<Material>,
) -> Result<(WdlTable, Header), EgdbError> {
    let (header, size, bytes) = read_checked(path, expected, false)?;
    let words = decode(&bytes[HEADER_BYTES..], size).map_err(|r| bad(path, r))?;
    Ok((WdlTable::from_words(header.material, words), header))
}

/// Reads a table to be kept compressed in memory ([`CompactTable`]), checking everything as
/// [`read_table`] does.
///
/// # Errors
/// As [`read_table`].
pub fn read_compact(
    path: &Path,
    expected: Option<Material>,
) -> Result<(CompactTable, Header), EgdbError> {
    let (header, size, mut bytes) = read_checked(path, expected, true)?;
    bytes.drain(..HEADER_BYTES);
    let table = CompactTable::new(header.material, bytes, size).map_err(|r| bad(path, r))?;
    Ok((table, header))
}

/// The table files of a directory with their materials, sorted by build order.
///
/// # Errors
/// The directory cannot be listed.
pub fn list_dir(dir: &Path) -> Result<Vec<(Material, PathBuf)>, EgdbError> {
    let entries = std::fs::read_dir(dir).map_err(|source| EgdbError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
            continue;
        }
        if let Some(material) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(Material::parse)
        {
            out.push((material, path));
        }
    }
    out.sort_by_key(|(m, _)| (m.pieces(), m.men(), *m));
    Ok(out)
}

/// Loads the tables of `dir` with at most `max_pieces` pieces, those of more than
/// `dense_pieces` pieces kept compressed ([`CompactTable`]: a sixth of the memory, slower
/// probes); returns them and one message per file that could not be loaded or material that is
/// missing below the largest piece count found.
///
/// # Errors
/// The directory cannot be listed.
pub fn load_dir(
    dir: &Path,
    max_pieces: u32,
    dense_pieces: u32,
) -> Result<(TableSet, Vec<String>), EgdbError> {
    let mut set = TableSet::default();
    let mut problems = Vec::new();
    let mut largest = 0;
    let mut failed = Vec::new();
    for (material, path) in list_dir(dir)? {
        if material.pieces() > max_pieces {
            continue;
        }
        let loaded = if material.pieces() <= dense_pieces {
            read_table(&path, Some(material)).map(|(table, _)| set.insert(material, table))
        } else {
            read_compact(&path, Some(material))
                .map(|(table, _)| set.insert_compact(material, table))
        };
        match loaded {
            Ok(()) => largest = largest.max(material.pieces()),
            Err(error) => {
                failed.push(material);
                problems.push(error.to_string());
            }
        }
    }
    for pieces in 2..=largest {
        let missing: Vec<String> = Material::all_with(pieces)
            .into_iter()
            .filter(|&m| !set.contains(m) && !failed.contains(&m))
            .map(|m| m.to_string())
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "{}: {} of the {pieces}-piece tables missing ({}.{EXTENSION} ...)",
                dir.display(),
                missing.len(),
                missing.join(", ")
            ));
        }
    }
    Ok((set, problems))
}

/// Bits per legal position a file takes.
pub fn bits_per_position(header: &Header) -> f64 {
    8.0 * header.bytes as f64 / header.counts.legal.max(1) as f64
}
