//! Endgame knowledge of international draughts: verdicts on lone-king endings without search.
//!
//! Two sources, both checked against each other:
//!
//! * [`KingTables`]: exact tables of the king-only lone-king endings (one to three kings against a
//!   king; four on request), built by retrograde analysis over our move generator in about 2 s
//!   (release build, one core; 4 MB). [`KingTables::verdict`] is exact for that material and
//!   weighs the distances against the draw counters.
//! * [`lone_king_verdict`]: rules that need no tables, for international draughts only, each
//!   verified exhaustively against the tables (`tests/endgame_theory.rs`: every position up to
//!   four kings against one, 23 million; a verdict never contradicts the tables).
//!
//! # What the tables say (international draughts, best play, draw rules aside)
//!
//! Counting positions with no capture pending (`cargo test --release --test endgame_theory --
//! --ignored --nocapture`):
//!
//! * **King against king, two or three kings against one are drawn in general.** The wins are
//!   short tactics: at most 3, 8 and 16 plies to the capture of the last piece (13 plies for
//!   three kings to the capture that starts art. 6.4's fresh count in a won position, which is
//!   what the counters must allow). With the lone king to move three kings win 17 210
//!   of 546 200 positions (3%); with the kings to move, 134 804 of 569 560 (mostly shots of 3 to
//!   7 plies). So art. 6.3's 32 plies never cut a real win short, and three kings do not generally
//!   beat a king, wherever it stands. (On 8x8 boards, Brazilian or Russian, three kings holding
//!   the main line do win; that theory is not this one.)
//! * **A lone king on the long diagonal** (46-5) with no piece of the other side on it, to move and
//!   with no capture pending, is never lost: 0 of 83 480 positions against three kings. Against one
//!   or two kings it holds whoever is to move. Against three kings to move, 2 472 of 73 104 such
//!   positions are lost to shots (a king offered on the diagonal so that the compulsory capture
//!   lands where the lone king is taken), so the rules look one move ahead there.
//! * **Four kings against one win** 99.8% of the positions with no capture pending, within 16
//!   plies (art. 6.2's 50 plies leave room). The exceptions are positions where the lone king can
//!   force the capture of kings; the rules claim the win only when the lone king has no capture
//!   threat and cannot make one with its next move, where the tables have no exception.
//!
//! The rules answer for 62% of the four-kings positions, for every lone-king-on-the-diagonal
//! position but the kings-to-move ones against three kings, and for none of the others; there the
//! tables (or the search) must decide. Endings where the strong side still has men (art. 6.3's two
//! kings and a man, a king and two men; art. 6.4's king and man) and endings of five kings or more
//! get no verdict yet.
//!
//! A rule verdict is about a quiet position: when the side to move must capture, there is none.

mod tables;

pub use tables::{DEFAULT_MAX_KINGS, Distances, KingTables};

pub use super::counters::long_diagonal;

use super::counters::DrawCounters;
use crate::core::{BitBoard, Color};
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// What is known about a position without searching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndgameVerdict {
    /// Neither side can force a win, whatever the draw counters say.
    Draw,
    /// This side wins with best play, within the moves the draw rules leave.
    Win(Color),
}

/// The longest win of four kings against one king, in plies (exact tables; see the module
/// documentation).
pub const FOUR_KINGS_LONGEST_WIN: u32 = 16;

/// The verdict on a lone-king ending of international draughts from rules alone (no tables), or
/// `None` when the position is not one we know (other material, other variants, a capture
/// pending, or a position outside the verified patterns). See the module documentation for what
/// is covered; [`KingTables::verdict`] is exact for king-only endings.
///
/// Cost: a few bit operations in most positions; against three kings up to one move generation
/// per strong move (about 50 small plays), to rule out the shots.
pub fn lone_king_verdict<R: Rules>(
    position: &Position<R>,
    counters: &DrawCounters<R>,
) -> Option<EndgameVerdict> {
    if !R::ENDGAME_KNOWLEDGE {
        return None;
    }
    // Material first (a few popcounts), then the capture test (a move-generator call).
    let is_lone =
        |color: Color| position.pieces(color).count() == 1 && position.kings(color).count() == 1;
    let lone = match (is_lone(Color::White), is_lone(Color::Black)) {
        (true, true) => {
            let quiet = !position.has_capture();
            return (quiet && king_against_king(position)).then_some(EndgameVerdict::Draw);
        }
        (true, false) => Color::White,
        (false, true) => Color::Black,
        (false, false) => return None,
    };
    let strong = !lone;
    if position.men(strong).any() || position.has_capture() {
        return None;
    }
    match position.kings(strong).count() {
        2 | 3 => holds_long_diagonal(position, lone).then_some(EndgameVerdict::Draw),
        4 => {
            let enough_moves = counters
                .plies_until_draw()
                .is_none_or(|plies| plies >= FOUR_KINGS_LONGEST_WIN);
            (enough_moves && lone_king_harmless(position, lone))
                .then_some(EndgameVerdict::Win(strong))
        }
        _ => None,
    }
}

/// King against king, no capture pending: drawn unless both kings are on the long diagonal (then
/// the one to move may have to step into the other's capture, e.g. kings on 46 and 5).
fn king_against_king<R: Rules>(position: &Position<R>) -> bool {
    (position.occupied() & !long_diagonal::<R>()).any()
}

/// Whether the lone king is on the long diagonal and no piece of the other side is.
fn owns_long_diagonal<R: Rules>(position: &Position<R>, lone: Color) -> bool {
    let diagonal = long_diagonal::<R>();
    (position.pieces(lone) & diagonal).any() && (position.pieces(!lone) & diagonal).is_empty()
}

/// Two or three kings against the lone king, no capture pending: whether the lone king holds the
/// long diagonal (or, to move, steps onto it) so that it cannot be lost.
fn holds_long_diagonal<R: Rules>(position: &Position<R>, lone: Color) -> bool {
    if position.side() != lone {
        return strong_cannot_break_through(position, lone);
    }
    if owns_long_diagonal(position, lone) {
        return true;
    }
    // Off the diagonal, the lone king reaches it in one move at most at one square (where its
    // other diagonal crosses it); the diagonal must be free of the other side's kings.
    if (position.pieces(!lone) & long_diagonal::<R>()).any() {
        return false;
    }
    position.legal_moves().iter().any(|mv| {
        long_diagonal::<R>().has(u32::from(mv.to))
            && strong_cannot_break_through(&position.play(mv), lone)
    })
}

/// The strong side (kings only) to move against a lone king on its own long diagonal: whether
/// every move leaves the lone king holding it. With one or two kings this is always so; three
/// kings can offer one on the diagonal so that the compulsory capture lands the lone king where
/// it is taken: the lone king holds if, for each such offer, one of its captures lands it back on
/// a diagonal it owns against the kings left.
fn strong_cannot_break_through<R: Rules>(position: &Position<R>, lone: Color) -> bool {
    if position.has_capture() || !owns_long_diagonal(position, lone) {
        return false;
    }
    if position.kings(!lone).count() <= 2 {
        return true;
    }
    position.legal_moves().iter().all(|mv| {
        let after = position.play(mv);
        if !after.has_capture() {
            // Kings cannot step onto the diagonal without being capturable, so it is still owned.
            return owns_long_diagonal(&after, lone);
        }
        after.legal_moves().iter().any(|capture| {
            let landed = after.play(capture);
            landed.kings(!lone).count() <= 2 && strong_cannot_break_through(&landed, lone)
        })
    })
}

/// Four kings against one, no capture pending: whether the lone king has no capture threat and
/// (to move) cannot make one, so that the tables' exceptions (shots by the lone king) are ruled
/// out.
fn lone_king_harmless<R: Rules>(position: &Position<R>, lone: Color) -> bool {
    if position.side() != lone {
        return !position.pass().has_capture();
    }
    position.legal_moves().iter().all(|mv| {
        let after = position.play(mv);
        after.has_capture() || !after.pass().has_capture()
    })
}

/// Whether `strong` can force the capture or blockade of every piece of the other side within
/// `plies` plies (an exact, exhaustive search: for tiny endings and small depths only).
///
/// A side that cannot move has lost; positions are not otherwise scored, so this is "distance to
/// win <= plies" for `strong`, ignoring draw rules.
pub fn strong_wins_within<R: Rules>(position: &Position<R>, strong: Color, plies: u32) -> bool {
    let mut moves = MoveList::new();
    crate::movegen::generate(position, &mut moves);
    if moves.is_empty() {
        return position.side() != strong;
    }
    if plies == 0 {
        return false;
    }
    if position.side() == strong {
        moves
            .iter()
            .any(|mv| strong_wins_within(&position.play(mv), strong, plies - 1))
    } else {
        moves
            .iter()
            .all(|mv| strong_wins_within(&position.play(mv), strong, plies - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Geometry;
    use crate::notation::fen;
    use crate::rules::{BitsOf, Brazilian, International};

    type I = International;

    fn squares<R: Rules>(set: BitsOf<R>) -> Vec<u32> {
        set.iter().map(R::Geometry::square_of).collect()
    }

    fn verdict(text: &str) -> Option<EndgameVerdict> {
        let position = fen::parse::<I>(text).expect("valid FEN");
        lone_king_verdict(&position, &DrawCounters::new(&position))
    }

    #[test]
    fn long_diagonals() {
        assert_eq!(
            squares::<I>(long_diagonal::<I>()),
            [5, 10, 14, 19, 23, 28, 32, 37, 41, 46]
        );
        assert_eq!(
            squares::<Brazilian>(long_diagonal::<Brazilian>()),
            [4, 8, 11, 15, 18, 22, 25, 29]
        );
    }

    #[test]
    fn lone_king_on_the_long_diagonal_draws() {
        // Three kings, the lone king on 28 to move.
        assert_eq!(verdict("B:WK1,K2,K3:BK28"), Some(EndgameVerdict::Draw));
        // King + two kings against the king (the lead's search test shape), colours swapped.
        assert_eq!(verdict("W:WK23:BK44,K45,K50"), Some(EndgameVerdict::Draw));
        // Two kings against one.
        assert_eq!(verdict("W:WK1,K2:BK46"), Some(EndgameVerdict::Draw));
        // Off the diagonal but to move and able to reach it (27-32).
        assert_eq!(verdict("B:WK1,K2:BK27"), Some(EndgameVerdict::Draw));
    }

    #[test]
    fn no_verdict_when_unsure() {
        // A White king on the long diagonal: the lone king does not own it.
        assert_eq!(verdict("B:WK1,K2,K46:BK28"), None);
        // A capture is pending.
        assert_eq!(verdict("W:WK46,K2,K3:BK28"), None);
        // Men on the strong side: not solved.
        assert_eq!(verdict("B:WK1,K2,36:BK28"), None);
        // Not a lone-king ending.
        assert_eq!(verdict("W:W31-50:B1-20"), None);
        // Both kings on the long diagonal: the side to move may be in zugzwang (46 and 5).
        assert_eq!(verdict("B:WK46:BK5"), None);
        // Other variants have other theory.
        let brazilian = fen::parse::<Brazilian>("B:WK1,K2,K3:BK22").expect("valid");
        assert_eq!(
            lone_king_verdict(&brazilian, &DrawCounters::new(&brazilian)),
            None
        );
    }

    #[test]
    fn king_against_king() {
        assert_eq!(verdict("W:WK1:BK50"), Some(EndgameVerdict::Draw));
        assert_eq!(verdict("B:WK1:BK50"), Some(EndgameVerdict::Draw));
    }

    #[test]
    fn four_kings_win() {
        let position = fen::parse::<I>("W:WK36,K47,K48,K49:BK5").expect("valid");
        assert_eq!(
            lone_king_verdict(&position, &DrawCounters::new(&position)),
            Some(EndgameVerdict::Win(Color::White))
        );
        let mirrored = position.mirror();
        assert_eq!(
            lone_king_verdict(&mirrored, &DrawCounters::new(&mirrored)),
            Some(EndgameVerdict::Win(Color::Black))
        );
        // Not when the lone king threatens a capture (41 would be taken).
        assert_eq!(verdict("W:WK31,K36,K41,K47:BK5"), None);
        // Not when the art. 6.2 count leaves too few moves.
        let tired = DrawCounters::with_plies(&position, 40, 0);
        assert_eq!(lone_king_verdict(&position, &tired), None);
    }

    #[test]
    fn exact_tables_decide_three_kings_against_one() {
        let tables = KingTables::<I>::build();
        let exact = |text: &str, counters: Option<(u32, u32)>| {
            let position = fen::parse::<I>(text).expect("valid FEN");
            let counters = counters.map_or(DrawCounters::new(&position), |(r, e)| {
                DrawCounters::with_plies(&position, r, e)
            });
            tables.verdict(&position, &counters)
        };
        // Three kings against the lone king: a draw, whether or not it is on the long diagonal,
        // where the rules alone cannot tell with White to move.
        assert_eq!(exact("W:WK1,K2,K3:BK28", None), Some(EndgameVerdict::Draw));
        assert_eq!(verdict("W:WK1,K2,K3:BK28"), None);
        assert_eq!(exact("B:WK1,K2,K3:BK27", None), Some(EndgameVerdict::Draw));
        // King against king on the corners of the long diagonal, Black to move and lost.
        let won = fen::parse::<I>("B:WK46:BK5").expect("valid");
        assert_eq!(
            tables.probe(&won),
            Some(Distances {
                white: Some(2),
                black: None
            })
        );
        assert_eq!(
            exact("B:WK46:BK5", None),
            Some(EndgameVerdict::Win(Color::White))
        );
        // Art. 6.4 with 9 of its 10 plies played: no time for a 2-ply win.
        assert_eq!(
            exact("B:WK46:BK5", Some((9, 9))),
            Some(EndgameVerdict::Draw)
        );
        // A won three-kings position (a shot needing 5 plies or more): a win while the art. 6.3
        // count leaves the plies it needs, a draw one ply short.
        let shot = (1..=50u32)
            .flat_map(|a| (a + 1..=50).map(move |b| (a, b)))
            .flat_map(|(a, b)| (1..=50).map(move |lone| (a, b, lone)))
            .find_map(|(a, b, lone)| {
                let text = format!("W:WK{a},K{b},K50:BK{lone}");
                let position = fen::parse::<I>(&text).ok()?;
                let plies = tables.probe(&position)?.white?;
                (plies >= 5 && !position.has_capture()).then_some((text, plies))
            })
            .expect("three kings have shots");
        let (text, plies) = shot;
        assert_eq!(
            exact(&text, Some((0, 32 - plies))),
            Some(EndgameVerdict::Win(Color::White)),
            "{text}"
        );
        assert_eq!(
            exact(&text, Some((0, 32 - plies + 1))),
            Some(EndgameVerdict::Draw),
            "{text}"
        );
        // Four kings: beyond these tables, the rules answer.
        assert_eq!(
            exact("W:WK36,K47,K48,K49:BK5", None),
            Some(EndgameVerdict::Win(Color::White))
        );
    }

    #[test]
    fn strong_wins_within_finds_the_corner_zugzwang() {
        // King against king on the two corners of the long diagonal: the king to move must step
        // onto the diagonal and is taken.
        let position = fen::parse::<I>("B:WK46:BK5").expect("valid");
        assert!(strong_wins_within(&position, Color::White, 2));
        assert!(!strong_wins_within(&position, Color::White, 1));
        assert!(!strong_wins_within(&position, Color::Black, 4));
    }
}
