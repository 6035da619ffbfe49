//! The endgame-database hook of the search, apart from `pvs.rs`: the score of a database
//! position and the root move filter.
//!
//! Draw-rule policy (FMJD art. 6; the tables ignore it, design note section 4): a database draw
//! is a draw whatever the counters say. A database win or loss is only trusted when no counter
//! can run out first: outside the art. 6.3/6.4 endings (or when their count has just started,
//! every such ending being won within a fresh count) and with art. 6.2's count far enough from
//! its limit for the longest conversion of the material. Otherwise the probe answers nothing and
//! the search goes on, counters included.

use crate::core::{BitBoard, Color};
use crate::egdb::{Egdb, Wdl};
use crate::game::DrawCounters;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::{BitsOf, Rules};
use crate::score::{self, DRAW, Score};

/// Longest distance, in plies, from a database win to a capture or man move (art. 6.2 resets),
/// up to five pieces: 23 plies (Kingsrow's moves-to-conversion data, design note 4.4). Six
/// pieces reach 55, more than the rule's 50, so their wins are never trusted from the counter
/// alone.
const LONGEST_CONVERSION_5: u32 = 23;
/// Most pieces whose database wins the art. 6.2 count can be checked for.
const CONVERSION_KNOWN_PIECES: u32 = 5;
/// Database wins score below the wins found by search and by the lone-king rules.
const EGDB_WIN: Score = score::KNOWN_WIN - 100;
/// Each piece the loser still has costs the winner this much: captures are progress.
const LOSER_PIECE: Score = 20;
/// Each man the winner still has costs this much: promotions are progress.
const WINNER_MAN: Score = 5;

/// Whether the counters leave room for any database win of a position with `pieces` pieces.
#[inline]
fn counters_allow_win<R: Rules>(counters: &DrawCounters<R>, pieces: u32) -> bool {
    if counters.ending().is_some() && counters.ending_plies() > 0 {
        return false;
    }
    match R::DRAW_RULES.king_moves {
        Some(moves) => {
            pieces <= CONVERSION_KNOWN_PIECES
                && counters.reversible_plies() + LONGEST_CONVERSION_5 <= 2 * moves
        }
        None => true,
    }
}

/// The score of a database win for the side to move at `ply` (from its view).
#[inline]
fn win_score<R: Rules>(position: &Position<R>, winner: Color, ply: usize) -> Score {
    let loser_pieces = position.pieces(!winner).count() as Score;
    let winner_men = position.men(winner).count() as Score;
    EGDB_WIN - LOSER_PIECE * loser_pieces - WINNER_MAN * winner_men - ply as Score
}

/// The score of a quiet position (side to move has no capture) with at most `max_pieces`
/// pieces, if the database knows it and the counters cannot spoil it.
#[inline]
pub(super) fn quiet_score<R: Rules>(
    egdb: &Egdb,
    max_pieces: u32,
    position: &Position<R>,
    counters: &DrawCounters<R>,
    ply: usize,
) -> Option<Score> {
    let pieces = position.occupied().count();
    if pieces > max_pieces {
        return None;
    }
    let side = position.side();
    match egdb.probe_quiet(position)? {
        Wdl::Draw => Some(DRAW),
        _ if !counters_allow_win(counters, pieces) => None,
        Wdl::Win => Some(win_score(position, side, ply)),
        Wdl::Loss => Some(-win_score(position, !side, ply)),
    }
}

/// The largest piece count the search probes when the root is `position`: one below the root's
/// when the root itself is in the database, so that the search looks for a conversion instead of
/// seeing every move score alike (Scan's method).
pub(super) fn probe_limit<R: Rules>(egdb: &Egdb, position: &Position<R>) -> u32 {
    let pieces = position.occupied().count();
    if egdb.probe(position).is_some() {
        pieces.saturating_sub(1).min(egdb.max_pieces())
    } else {
        egdb.max_pieces()
    }
}

/// Keeps only the root moves that preserve the database value of the root (all of them when
/// the root is not in the database).
pub(super) fn filter_root<R: Rules>(
    egdb: &Egdb,
    position: &Position<R>,
    list: &mut MoveList<BitsOf<R>>,
) {
    let Some(value) = egdb.probe(position) else {
        return;
    };
    let mut keep = MoveList::new();
    for mv in list.iter() {
        let child = position.play(mv);
        let child_value = if child.pieces(child.side()).is_empty() {
            Some(Wdl::Loss)
        } else {
            egdb.probe(&child)
        };
        if child_value.map(Wdl::flip) == Some(value) {
            keep.push(*mv);
        }
    }
    if !keep.is_empty() {
        *list = keep;
    }
}
