//! The checkpoint of `rafle annotate --out FILE`: `FILE.progress`, to which each game's search
//! results are appended (and flushed) as soon as the game is finished, so that `--resume` does
//! not search finished games again.
//!
//! Format, one record a game:
//!
//! ```text
//! game <index> <fingerprint> <positions>
//! <score> <depth> <played move's score, or -> <second best score, or -> <pv in Hub notation, or ->
//!                                                                 (one line a position)
//! end
//! ```
//!
//! The fingerprint (FNV-1a of the variant, start FEN and moves) ties a record to its game: a
//! record whose game changed, or that an interrupt cut short, is searched again.

use super::PositionReview;
use crate::game::Game;
use crate::notation::{fen, text};
use crate::rules::Rules;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
/// First line of a checkpoint file.
const HEADER: &str = "rafle-annotate 3";

/// The checkpoint file of an output file.
pub fn path_for(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// The fingerprint of a game.
pub fn fingerprint<R: Rules>(game: &Game<R>) -> u64 {
    let mut text_to_hash = format!("{} {}", R::NAME, fen::format(game.start()));
    for mv in game.moves() {
        text_to_hash.push(' ');
        text_to_hash.push_str(&text::hub::<R>(mv));
    }
    text_to_hash.bytes().fold(FNV_OFFSET, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    })
}

/// One game's record as written.
pub fn record<R: Rules>(index: usize, game: &Game<R>, positions: &[PositionReview<R>]) -> String {
    let mut out = format!(
        "game {index} {:016x} {}\n",
        fingerprint(game),
        positions.len()
    );
    for review in positions {
        let pv: Vec<String> = review.pv.iter().map(text::hub::<R>).collect();
        let pv = if pv.is_empty() {
            "-".to_string()
        } else {
            pv.join(" ")
        };
        let optional = |score: Option<crate::score::Score>| {
            score.map_or_else(|| "-".to_string(), |s| s.to_string())
        };
        out.push_str(&format!(
            "{} {} {} {} {pv}\n",
            review.score,
            review.depth,
            optional(review.played),
            optional(review.second)
        ));
    }
    out.push_str("end\n");
    out
}

/// Reads the finished games of a checkpoint text: game index → (fingerprint, lines).
fn parse_records(text: &str) -> HashMap<usize, (u64, Vec<String>)> {
    let mut records = HashMap::new();
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return records;
    }
    let mut current: Option<(usize, u64, usize, Vec<String>)> = None;
    for line in lines {
        if let Some(rest) = line.strip_prefix("game ") {
            let fields: Vec<&str> = rest.split(' ').collect();
            current = match fields.as_slice() {
                [index, print, count] => {
                    match (index.parse(), u64::from_str_radix(print, 16), count.parse()) {
                        (Ok(index), Ok(print), Ok(count)) => {
                            Some((index, print, count, Vec::new()))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
        } else if line == "end" {
            if let Some((index, print, count, lines)) = current.take()
                && lines.len() == count
            {
                records.insert(index, (print, lines));
            }
        } else if let Some((_, _, _, lines)) = current.as_mut() {
            lines.push(line.to_string());
        }
    }
    records
}

/// The position reviews of a record's lines, checked against the game (`None` when a line does
/// not fit it).
fn positions_of<R: Rules>(game: &Game<R>, lines: &[String]) -> Option<Vec<PositionReview<R>>> {
    if lines.len() != game.positions().len() {
        return None;
    }
    lines
        .iter()
        .zip(game.positions())
        .map(|(line, position)| {
            let mut words = line.split(' ');
            let score = words.next()?.parse().ok()?;
            let depth = words.next()?.parse().ok()?;
            let mut optional = || match words.next()? {
                "-" => Some(None),
                text => Some(Some(text.parse().ok()?)),
            };
            let played = optional()?;
            let second = optional()?;
            let mut pv = Vec::new();
            let mut current = *position;
            for word in words.filter(|w| *w != "-") {
                let mv = text::parse_hub(&current, word).ok()?;
                current = current.play(&mv);
                pv.push(mv);
            }
            Some(PositionReview {
                score,
                depth,
                pv,
                played,
                second,
            })
        })
        .collect()
}

/// The checkpoint of a run: the games found finished, and the file appended to.
pub struct Checkpoint {
    file: std::fs::File,
    records: HashMap<usize, (u64, Vec<String>)>,
}

/// A checkpoint file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("checkpoint {path}: {source}")]
pub struct CheckpointError {
    /// The file.
    pub path: String,
    /// Why.
    pub source: std::io::Error,
}

impl Checkpoint {
    /// Opens the checkpoint at `path`: kept and read when `resume`, started afresh otherwise.
    ///
    /// # Errors
    /// When the file cannot be read or written.
    pub fn open(path: &Path, resume: bool) -> Result<Self, CheckpointError> {
        let error = |source| CheckpointError {
            path: path.display().to_string(),
            source,
        };
        let old = if resume && path.exists() {
            std::fs::read_to_string(path).map_err(error)?
        } else {
            String::new()
        };
        let records = parse_records(&old);
        let mut file = std::fs::File::create(path).map_err(error)?;
        // Rewrite the records kept, so a record an interrupt cut short does not linger.
        let mut kept: Vec<(&usize, &(u64, Vec<String>))> = records.iter().collect();
        kept.sort_by_key(|(index, _)| **index);
        let mut text = format!("{HEADER}\n");
        for (index, (print, lines)) in kept {
            text.push_str(&format!("game {index} {print:016x} {}\n", lines.len()));
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
            text.push_str("end\n");
        }
        file.write_all(text.as_bytes()).map_err(error)?;
        file.flush().map_err(error)?;
        Ok(Checkpoint { file, records })
    }

    /// The reviews of game `index` when the checkpoint has it finished for this very game.
    pub fn finished<R: Rules>(
        &self,
        index: usize,
        game: &Game<R>,
    ) -> Option<Vec<PositionReview<R>>> {
        let (print, lines) = self.records.get(&index)?;
        if *print != fingerprint(game) {
            return None;
        }
        positions_of(game, lines)
    }

    /// Appends a finished game and flushes it to disk.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save<R: Rules>(
        &mut self,
        index: usize,
        game: &Game<R>,
        positions: &[PositionReview<R>],
    ) -> std::io::Result<()> {
        self.file
            .write_all(record(index, game, positions).as_bytes())?;
        self.file.sync_data()
    }
}
