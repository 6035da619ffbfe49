//! `rafle egdb`: build endgame databases, print their statistics, check and probe them.

use clap::{ArgGroup, Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rafle::egdb::build::{self, BuildOptions, Built, Progress};
use rafle::egdb::directory::{load_exact, stats_lines};
use rafle::egdb::index::Material;
use rafle::egdb::{Egdb, file, verify};
use rafle::notation::fen;
use rafle::rules::International;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Default table directory.
pub const DEFAULT_DIR: &str = "egdb";
/// Most pieces the generator accepts (the index handles 7; 6 and more take hours to days).
const MAX_BUILD_PIECES: u32 = 7;

/// Arguments of `rafle egdb`.
#[derive(Debug, Args)]
pub struct EgdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// The `egdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum EgdbCommand {
    /// Build the tables of up to N pieces (international draughts, win/draw/loss).
    Build(BuildArgs),
    /// One line per table: wm wk bm bk legal quiet win draw loss, then totals per piece count.
    Stats(DirArgs),
    /// Check every position of every table against its successors (local consistency).
    Verify(DirArgs),
    /// The database value of a position and of each of its moves.
    Probe(ProbeArgs),
}

/// Arguments of `rafle egdb build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Build every table with at most this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_BUILD_PIECES)))]
    pub pieces: u32,
    /// Directory of the tables.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Build only this material and its twin, e.g. 1201 (its dependencies must be in --out):
    /// one job per material lets several machines share a build, merged by copying files.
    #[arg(long)]
    pub material: Option<String>,
    /// Keep the finished tables found in --out (checkpoints) and build only the others.
    #[arg(long)]
    pub resume: bool,
}

/// A table directory.
#[derive(Debug, Args)]
pub struct DirArgs {
    /// Directory of the tables.
    #[arg(default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// Only tables with at most this many pieces.
    #[arg(long, default_value_t = MAX_BUILD_PIECES)]
    pub pieces: u32,
}

/// Arguments of `rafle egdb probe`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("position").required(true).args(["fen", "positional_fen"])))]
pub struct ProbeArgs {
    /// Position as a PDN FEN, or a `[FEN "..."]` tag as pasted from a PDN file.
    #[arg(short, long)]
    pub fen: Option<String>,
    /// The position without `--fen`, as this command took it before the others' `--fen`
    /// (deprecated: it warns).
    #[arg(value_name = "FEN", hide = true)]
    pub positional_fen: Option<String>,
    /// Directory of the tables.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub egdb: PathBuf,
}

/// Runs `rafle egdb`.
///
/// # Errors
/// A message for bad arguments or unreadable/unwritable tables.
pub fn run(args: &EgdbArgs) -> Result<(), String> {
    match &args.command {
        EgdbCommand::Build(args) => run_build(args),
        EgdbCommand::Stats(args) => stats(&args.dir, args.pieces),
        EgdbCommand::Verify(args) => run_verify(&args.dir, args.pieces),
        EgdbCommand::Probe(args) => probe(args),
    }
}

/// A progress bar per pass of the current unit.
struct Bar {
    bar: Mutex<Option<ProgressBar>>,
}

impl Progress for Bar {
    fn pass(&self, label: &str, pass: u32, total: u64) {
        let mut slot = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = slot.take() {
            old.finish_and_clear();
        }
        let bar = ProgressBar::new(total).with_style(
            ProgressStyle::default_bar()
                .template("{prefix} [{bar:40}] {human_pos}/{human_len} {per_sec} ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(format!("{label} pass {pass}"));
        *slot = Some(bar);
    }

    fn advance(&self, done: u64) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            bar.inc(done);
        }
    }
}

fn run_build(args: &BuildArgs) -> Result<(), String> {
    let material = match &args.material {
        Some(text) => Some(
            Material::parse(text)
                .ok_or_else(|| format!("bad material '{text}' (four digits wm wk bm bk)"))?,
        ),
        None => None,
    };
    if let Some(m) = material
        && m.pieces() > args.pieces
    {
        return Err(format!("material {m} has more than {} pieces", args.pieces));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        pool = pool.num_threads(threads.max(1));
    }
    let pool = pool.build().map_err(|e| e.to_string())?;
    let options = BuildOptions {
        pieces: args.pieces,
        material,
        resume: args.resume,
        out: &args.out,
        release: true,
    };
    let bar = Bar {
        bar: Mutex::new(None),
    };
    let started = Instant::now();
    let out = args.out.clone();
    let mut finished = |built: &Built, new: bool| {
        if let Some(done) = bar.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            done.finish_and_clear();
        }
        let bytes = file::read_header(&file::path_of(&out, built.material))
            .map(|h| h.bytes)
            .unwrap_or(0);
        let c = built.counts;
        log::info!(
            "{} {} in {:.1} s, {} passes: legal {} quiet {} W/D/L {}/{}/{}, {} bytes ({:.3} bits/position)",
            if new { "built" } else { "reused" },
            built.material,
            built.seconds,
            built.passes,
            c.legal,
            c.quiet,
            c.win,
            c.draw,
            c.loss,
            bytes,
            8.0 * bytes as f64 / c.legal.max(1) as f64
        );
    };
    pool.install(|| build::build_all(&options, &bar, &mut finished))
        .map_err(|e| e.to_string())?;
    eprintln!(
        "egdb build: done in {:.1} s, tables in {}",
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

fn stats(dir: &Path, max_pieces: u32) -> Result<(), String> {
    for line in stats_lines(dir, max_pieces)? {
        println!("{line}");
    }
    Ok(())
}

fn run_verify(dir: &Path, max_pieces: u32) -> Result<(), String> {
    let set = load_exact(dir, max_pieces)?;
    let mut errors = 0;
    for material in set.materials() {
        let started = Instant::now();
        let check = verify::check_table(&set, material, true);
        println!(
            "{material}: {} positions checked, {} errors{} ({:.1} s)",
            check.checked,
            check.errors,
            check
                .first_error
                .map_or(String::new(), |i| format!(", first at index {i}")),
            started.elapsed().as_secs_f64()
        );
        errors += check.errors;
    }
    if errors > 0 {
        return Err(format!("{errors} inconsistent positions"));
    }
    Ok(())
}

fn probe(args: &ProbeArgs) -> Result<(), String> {
    let text = match (&args.fen, &args.positional_fen) {
        (Some(text), _) => text,
        (None, Some(text)) => {
            log::warn!(
                "egdb probe: a FEN without --fen is deprecated; give it as `--fen FEN`, as the \
                 other commands take it"
            );
            text
        }
        (None, None) => unreachable!("clap requires one of the two (the group `position`)"),
    };
    let position = super::parse_fen_arg::<International>(text)?;
    let pieces = rafle::core::BitBoard::count(position.occupied());
    let egdb = open_tables(&args.egdb, pieces)?;
    let show = |value: Option<rafle::egdb::Wdl>| {
        value.map_or("unknown".to_string(), |v| format!("{v:?}").to_lowercase())
    };
    println!(
        "{}: {}",
        fen::unwrap_tag(text).trim_matches('"'),
        show(egdb.probe(&position))
    );
    for mv in position.legal_moves().iter() {
        let child = position.play(mv);
        let value = if rafle::core::BitBoard::is_empty(child.pieces(child.side())) {
            Some(rafle::egdb::Wdl::Win)
        } else {
            egdb.probe(&child).map(rafle::egdb::Wdl::flip)
        };
        println!(
            "  {}: {}",
            rafle::notation::text::pdn(&position, mv),
            show(value)
        );
    }
    Ok(())
}

/// The tables of up to `max_pieces` pieces in `dir`, given as `--egdb DIR`.
///
/// # Errors
/// A message naming the directory when it does not exist, cannot be read or holds no table, and
/// saying how to build one.
pub(crate) fn open_tables(dir: &Path, max_pieces: u32) -> Result<Egdb, String> {
    let shown = dir.display();
    let build = format!(
        "build tables with `rafle egdb build --pieces N --out {shown}` (README.md, Endgame \
         databases), or leave out --egdb"
    );
    if !dir.exists() {
        return Err(format!("--egdb {shown}: no such directory; {build}"));
    }
    if !dir.is_dir() {
        return Err(format!("--egdb {shown}: not a directory; {build}"));
    }
    let egdb = Egdb::open(dir, max_pieces).map_err(|e| format!("--egdb {shown}: {e}"))?;
    if egdb.table_count() == 0 {
        return Err(format!(
            "--egdb {shown}: no table of up to {max_pieces} pieces there; {build}"
        ));
    }
    Ok(egdb)
}
