//! Italian draughts: the Federazione Italiana Dama rules (Regolamento tecnico, Capo I
//! "Regolamento ufficiale di gioco della dama italiana", fid.it/regolamenti/capo1.htm; article
//! numbers as cited by dctl italian.hpp; the FID "10 regole" summary on federdama.org states the
//! same capture order). PDN GameType 22, `22,W,8,8,N2,1`.

use super::{CapturePrecedence, Corner, DrawRules, Notation, Rules};
use crate::core::{Board8, Color};

/// Italian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl Rules for Italian {
    type Geometry = Board8;
    const NAME: &'static str = "italian";
    const PDN_GAME_TYPE: Option<&'static str> = Some("22");
    /// Art. 3.4: White makes the first move.
    const FIRST_MOVER: Color = Color::White;
    /// Art. 2.6: Black on 1-12, White on 21-32.
    const START_FEN: &'static str = "W:W21-32:B1-12";
    const MAX_PIECES_PER_SIDE: u32 = 12;
    /// Art. 5.3(a): a man captures forwards only.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// Art. 5.3(b): a man may not capture a king.
    const MEN_CAPTURE_KINGS: bool = false;
    /// Art. 4.7: a king moves one square at a time.
    const FLYING_KINGS: bool = false;
    /// Art. 6.6-6.9: the most pieces; then with a king; then the most kings; then the king met
    /// earliest.
    const CAPTURE_PRECEDENCE: CapturePrecedence = CapturePrecedence::Italian;
    /// A man reaching the last row ends its move (it cannot capture backwards).
    const CROWN_DURING_CAPTURE: bool = false;
    /// Regolamento tecnico art. 9.3(b1): the fourth occurrence of a position draws; art. 10.4: 40
    /// moves by each player (80 plies) without a man move or a capture (both as cited by dctl).
    /// The federation's brief rules (fid.it "10 regole") say a threefold repetition; the
    /// Regolamento is the tournament rulebook, so it is followed here.
    const DRAW_RULES: DrawRules = DrawRules {
        repetitions: Some(4),
        king_moves: Some(40),
        three_against_king: None,
        two_against_king: None,
    };
    /// Art. 2.4: numbered 1-32 left to right, row by row, from the top-left square seen from
    /// White (a8); the board has a dark square at each player's right (art. 2.3), so a1 is not a
    /// playing square.
    const NOTATION: Notation = Notation::Numeric(Corner::TopLeft);
    const MIRRORED_BOARD: bool = true;
}
