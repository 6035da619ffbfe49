//! A directory of tables as a whole: the statistics lines of `rafle egdb stats` and the exact
//! loading the builder and the verifier use.

use super::{TableSet, build, file};
use std::path::Path;

/// The `stats` lines of a directory (from the file headers).
///
/// # Errors
/// The directory cannot be listed or a header is bad.
pub fn stats_lines(dir: &Path, max_pieces: u32) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    let mut total = [0u64; 6];
    let mut current = None;
    let flush = |pieces: Option<u32>, total: &mut [u64; 6], lines: &mut Vec<String>| {
        if let Some(pieces) = pieces {
            lines.push(format!(
                "total {pieces} pieces: legal {} quiet {} win {} draw {} loss {} bytes {} ({:.3} bits/position)",
                total[0],
                total[1],
                total[2],
                total[3],
                total[4],
                total[5],
                8.0 * total[5] as f64 / total[0].max(1) as f64
            ));
        }
        *total = [0; 6];
    };
    for (material, path) in file::list_dir(dir).map_err(|e| e.to_string())? {
        if material.pieces() > max_pieces {
            continue;
        }
        if current != Some(material.pieces()) {
            flush(current, &mut total, &mut lines);
            current = Some(material.pieces());
        }
        let header = file::read_header(&path).map_err(|e| e.to_string())?;
        let c = header.counts;
        lines.push(format!(
            "{} {} {} {} {} {} {} {} {}",
            material.wm,
            material.wk,
            material.bm,
            material.bk,
            c.legal,
            c.quiet,
            c.win,
            c.draw,
            c.loss
        ));
        for (slot, value) in [c.legal, c.quiet, c.win, c.draw, c.loss, header.bytes]
            .into_iter()
            .enumerate()
        {
            total[slot] += value;
        }
    }
    flush(current, &mut total, &mut lines);
    Ok(lines)
}

/// Loads a directory for the builder's use: every table, capture positions repaired.
///
/// # Errors
/// A table cannot be read.
pub fn load_exact(dir: &Path, max_pieces: u32) -> Result<TableSet, String> {
    let mut set = TableSet::default();
    for (material, path) in file::list_dir(dir).map_err(|e| e.to_string())? {
        if material.pieces() > max_pieces {
            continue;
        }
        let (table, _) = file::read_table(&path, Some(material)).map_err(|e| e.to_string())?;
        set.insert(material, table);
        build::repair_captures(&set, material);
    }
    Ok(set)
}
