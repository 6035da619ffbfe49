//! `rafle openings`: generate a set of balanced openings from the rules and our own search.

use clap::Args;
use rafle::matches::openings;
use rafle::player::options::DEPTH_RANGE;
use rafle::rules::{Rules, Variant};
use rafle::score::{self, Score};
use rafle::with_variant;
use std::path::PathBuf;
use std::time::Instant;

/// Default search depth used to score each opening.
const DEFAULT_DEPTH: u32 = 12;
/// Most plies accepted (the number of openings grows about ninefold per ply).
const MAX_PLIES: i64 = 4;

/// Arguments of `rafle openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// Plies from the start position: 2 (White's first move and Black's reply) or 3.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES))]
    pub plies: u32,
    /// Keep only openings whose score is within ±S men (default: keep all).
    #[arg(long, value_name = "S")]
    pub max_score: Option<f64>,
    /// Search depth used to score each opening (one thread, so the result is reproducible).
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(DEPTH_RANGE))]
    pub depth: u32,
    /// Output file (default books/openings-Nply.txt for N plies; `-` for stdout).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the output file if it exists (the default path is the set `rafle match` builds
    /// in, so an accidental run must not rewrite it).
    #[arg(long)]
    pub force: bool,
    /// Rules to use.
    #[arg(long, default_value = "international")]
    pub variant: Variant,
}

/// Runs `rafle openings`.
///
/// # Errors
/// A message for a bad score limit, an existing output file without `--force`, or an unwritable one.
pub fn run(args: &OpeningsArgs) -> Result<(), String> {
    with_variant!(args.variant, R => run_variant::<R>(args))
}

fn run_variant<R: Rules>(args: &OpeningsArgs) -> Result<(), String> {
    let limit: Option<Score> = match args.max_score {
        Some(men) if (0.0..80.0).contains(&men) => Some((men * 100.0).round() as Score),
        Some(men) => return Err(format!("bad --max-score '{men}': give men, e.g. 0.3")),
        None => None,
    };
    let path = args.out.clone().unwrap_or_else(|| {
        let variant_part = if args.variant == Variant::International {
            String::new()
        } else {
            format!("{}-", args.variant.name())
        };
        PathBuf::from(format!(
            "books/openings-{variant_part}{}ply.txt",
            args.plies
        ))
    });
    // Checked before the scoring, which takes minutes, so that nothing is computed in vain.
    if path.as_os_str() != "-" && path.exists() && !args.force {
        return Err(format!(
            "{} exists; pass --force to replace it, --out FILE to write elsewhere, or --out - for stdout",
            path.display()
        ));
    }
    let started = Instant::now();
    let all = openings::enumerate::<R>(args.plies as usize);
    let scores = openings::score_openings(&all, args.depth);
    let total = all.len();
    let kept: Vec<_> = all
        .into_iter()
        .zip(scores)
        .filter(|(_, s)| limit.is_none_or(|limit| s.abs() <= limit))
        .collect();
    let mut command = format!(
        "rafle openings --plies {} --depth {}",
        args.plies, args.depth
    );
    if let Some(men) = args.max_score {
        command.push_str(&format!(" --max-score {men}"));
    }
    if args.variant != Variant::International {
        command.push_str(&format!(" --variant {}", args.variant));
    }
    let filter = match limit {
        Some(limit) => format!("those within +/-{} men", score::to_men(limit)),
        None => "all of them".to_string(),
    };
    let header = vec![
        format!(
            "Rafle opening set ({}): {} of the {total} openings of {} plies from the start position,",
            args.variant,
            kept.len(),
            args.plies
        ),
        format!(
            "scored by Rafle's search at depth {} (one thread); kept {filter}.",
            args.depth
        ),
        format!("Made by: {command}"),
        "Each line: the FEN reached, the moves from the start position, # score in men (White's side)."
            .to_string(),
    ];
    let text = openings::format_set(&kept, &header);
    if path.as_os_str() == "-" {
        print!("{text}");
    } else {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    eprintln!(
        "{} of {total} openings kept, written to {} ({:.1} s)",
        kept.len(),
        path.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
