//! Endgame databases for international draughts (FMJD rules): win/draw/loss of every position
//! with few pieces, built by our own generator ([`build`]) and probed by the search.
//!
//! Values are game-theoretic with the side to move, captures compulsory (majority rule) and the
//! draw rules of FMJD art. 6 ignored: the counters are the engine's business (see
//! `crate::search`, which only trusts a database win when the counters cannot spoil it).
//!
//! Layout: one file per material with the side to move normalised to White
//! ([`index::Material`], [`file`]), all tables held in memory once loaded ([`Egdb::open`]:
//! up to [`DENSE_PIECES`] pieces unpacked, larger ones compressed, see [`compact`]); a probe
//! never does I/O. Design and figures: `docs`-level notes in the README and the module
//! documentation of [`index`], [`build`] and [`file`].

pub mod build;
pub mod codec;
pub mod compact;
pub mod directory;
pub mod file;
pub mod index;
pub mod table;
pub mod verify;

use crate::core::BitBoard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use compact::CompactTable;
use index::{MATERIAL_CODES, Material, Squares};
use std::path::Path;
use table::{LOSS, UNKNOWN, WIN, WdlTable};
use thiserror::Error;

/// A database value, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The value from the other side's view.
    pub fn flip(self) -> Self {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// Why a database could not be read or built.
#[derive(Debug, Error)]
pub enum EgdbError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not a valid table (truncated, corrupt, wrong version or material).
    #[error("{path}: {reason}")]
    BadFile {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A table needed to build another is absent.
    #[error("table {needed} is needed to build {material}; build it first (or build --pieces)")]
    MissingDependency {
        /// The table to build.
        material: Material,
        /// The absent table.
        needed: Material,
    },
    /// A bad argument.
    #[error("{0}")]
    BadArgument(String),
}

/// Whether the tables apply to positions of variant `R` (international draughts only).
#[inline(always)]
pub fn is_supported<R: Rules>() -> bool {
    R::ENDGAME_KNOWLEDGE
}

/// Tables by material code: unpacked ([`WdlTable`], what the generator builds and reads) or kept
/// compressed ([`CompactTable`], large tables in an engine).
pub struct TableSet {
    tables: Vec<Option<WdlTable>>,
    compact: Vec<Option<CompactTable>>,
}

impl Default for TableSet {
    fn default() -> Self {
        TableSet {
            tables: (0..MATERIAL_CODES).map(|_| None).collect(),
            compact: (0..MATERIAL_CODES).map(|_| None).collect(),
        }
    }
}

impl TableSet {
    /// The unpacked table of a material, if present.
    #[inline(always)]
    pub fn get(&self, material: Material) -> Option<&WdlTable> {
        self.tables[material.code()].as_ref()
    }

    /// Adds or replaces a table.
    pub fn insert(&mut self, material: Material, table: WdlTable) {
        self.tables[material.code()] = Some(table);
    }

    /// Adds or replaces a compressed table.
    pub fn insert_compact(&mut self, material: Material, table: CompactTable) {
        self.compact[material.code()] = Some(table);
    }

    /// Removes a table.
    pub fn remove(&mut self, material: Material) -> Option<WdlTable> {
        self.tables[material.code()].take()
    }

    /// Whether a material's table is present (unpacked or compressed).
    pub fn contains(&self, material: Material) -> bool {
        self.get(material).is_some() || self.compact[material.code()].is_some()
    }

    /// The materials present.
    pub fn materials(&self) -> Vec<Material> {
        let unpacked = self.tables.iter().flatten().map(|t| t.layout().material());
        let compact = self.compact.iter().flatten().map(|t| t.layout().material());
        unpacked.chain(compact).collect()
    }

    /// Bytes of memory the tables take.
    pub fn bytes(&self) -> usize {
        let unpacked: usize = self.tables.iter().flatten().map(WdlTable::bytes).sum();
        unpacked
            + self
                .compact
                .iter()
                .flatten()
                .map(CompactTable::bytes)
                .sum::<usize>()
    }

    /// The stored code of a position (any side to move), [`LOSS`] when the side to move has no
    /// piece left and [`UNKNOWN`] when its table is absent. Exact only where the table is: on
    /// capture positions of tables read from disk, see [`TableSet::resolve`].
    #[inline]
    pub fn stored<R: Rules>(&self, position: &Position<R>) -> u8 {
        self.stored_squares(&Squares::of(position))
    }

    /// The stored code of normalised sets, as [`TableSet::stored`].
    #[inline(always)]
    pub fn stored_squares(&self, squares: &Squares) -> u8 {
        if squares.wm | squares.wk == 0 {
            return LOSS;
        }
        let material = squares.material();
        if let Some(table) = self.get(material) {
            return table.get(table.layout().index(squares));
        }
        match &self.compact[material.code()] {
            Some(table) => table.get(table.layout().index(squares)),
            None => UNKNOWN,
        }
    }

    /// The code of `mv` for the side that plays it in `position`: a win when it takes the last
    /// piece, else the position it leads to, resolved, from the other side. The checker scores
    /// moves as the probe does, so it cannot disagree with it by computing a move differently.
    pub fn value_of_move<R: Rules>(&self, position: &Position<R>, mv: &Move<BitsOf<R>>) -> u8 {
        let child = position.play(mv);
        if child.pieces(child.side()).is_empty() {
            WIN
        } else {
            table::flip(self.resolve(&child))
        }
    }

    /// The code of a position with the captures resolved by search (files leave capture
    /// positions undefined): [`UNKNOWN`] if a needed table is absent.
    pub fn resolve<R: Rules>(&self, position: &Position<R>) -> u8 {
        if !position.has_capture() {
            return self.stored(position);
        }
        let mut list = MoveList::new();
        crate::movegen::generate_captures(position, &mut list);
        let mut best = LOSS;
        for mv in list.iter() {
            match self.value_of_move(position, mv) {
                WIN => return WIN,
                UNKNOWN => best = UNKNOWN,
                table::DRAW if best == LOSS => best = table::DRAW,
                _ => {}
            }
        }
        best
    }
}

/// Most pieces of the tables an engine holds unpacked; larger ones stay compressed in memory
/// (the 2-5 piece tables unpacked take 394 MB, the 6-piece ones would take 12 GB).
pub const DENSE_PIECES: u32 = 5;

/// A loaded database: the tables of a directory, all in memory.
pub struct Egdb {
    tables: TableSet,
    max_pieces: u32,
    materials: usize,
}

impl Egdb {
    /// Loads every table of `dir` with at most `max_pieces` pieces. A file that cannot be read
    /// (missing piece counts are simply absent; a truncated or corrupt file) is reported through
    /// `log::warn!` once with its name and skipped: the engine plays on without it.
    ///
    /// # Errors
    /// The directory cannot be listed.
    pub fn open(dir: &Path, max_pieces: u32) -> Result<Egdb, EgdbError> {
        let (tables, problems) = file::load_dir(dir, max_pieces, DENSE_PIECES)?;
        for problem in &problems {
            log::warn!("egdb: {problem}; playing on without that table");
        }
        let materials = tables.materials();
        let max_pieces = materials.iter().map(Material::pieces).max().unwrap_or(0);
        Ok(Egdb {
            materials: materials.len(),
            tables,
            max_pieces,
        })
    }

    /// A database of tables already in memory (tests, the builder).
    pub fn from_tables(tables: TableSet) -> Self {
        let materials = tables.materials();
        Egdb {
            max_pieces: materials.iter().map(Material::pieces).max().unwrap_or(0),
            materials: materials.len(),
            tables,
        }
    }

    /// Most pieces of a loaded table (0 when empty).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Number of loaded tables.
    pub fn table_count(&self) -> usize {
        self.materials
    }

    /// Bytes of memory the tables take.
    pub fn bytes(&self) -> usize {
        self.tables.bytes()
    }

    /// The tables.
    pub fn tables(&self) -> &TableSet {
        &self.tables
    }

    /// The value of a position, captures resolved first; `None` for another variant, too many
    /// pieces, or a table that is not loaded.
    pub fn probe<R: Rules>(&self, position: &Position<R>) -> Option<Wdl> {
        if !is_supported::<R>() || position.occupied().count() > self.max_pieces {
            return None;
        }
        table::value(self.tables.resolve(position))
    }

    /// The value of a position whose side to move has no capture (the caller checked), `None` as
    /// for [`Egdb::probe`]. The search's probe: one index computation and one memory read.
    #[inline]
    pub fn probe_quiet<R: Rules>(&self, position: &Position<R>) -> Option<Wdl> {
        if !is_supported::<R>() || position.occupied().count() > self.max_pieces {
            return None;
        }
        debug_assert!(!position.has_capture(), "quiet probe of a capture position");
        table::value(self.tables.stored(position))
    }
}

/// The tables of `dir` for an engine playing variant `R`, or `None` (no directory given, another
/// variant, or nothing loadable; the reason goes to the log once and play goes on without).
pub fn open_for_engine<R: Rules>(dir: &str, max_pieces: u32) -> Option<std::sync::Arc<Egdb>> {
    if dir.is_empty() || max_pieces == 0 {
        return None;
    }
    if !is_supported::<R>() {
        log::warn!(
            "egdb: tables are for international draughts, not {}",
            R::NAME
        );
        return None;
    }
    let started = std::time::Instant::now();
    match Egdb::open(Path::new(dir), max_pieces) {
        Ok(egdb) if egdb.table_count() > 0 => {
            log::info!(
                "egdb: {} tables of up to {} pieces from {dir}, {} MB, in {:.1} s",
                egdb.table_count(),
                egdb.max_pieces(),
                egdb.bytes() >> 20,
                started.elapsed().as_secs_f64()
            );
            Some(std::sync::Arc::new(egdb))
        }
        Ok(_) => {
            log::warn!("egdb: no tables in {dir}");
            None
        }
        Err(error) => {
            log::warn!("egdb: {error}; playing without tables");
            None
        }
    }
}
