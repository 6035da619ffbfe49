//! Italian draughts: the Federazione Italiana Dama rules (Regolamento tecnico, Capo I
//! "Regolamento ufficiale di gioco della dama italiana", fid.it/regolamenti/capo1.htm; article
//! numbers as cited by dctl italian.hpp; the FID "10 regole" summary on federdama.org states the
//! same capture order). PDN GameType 22, `22,W,8,8,N2,1`.

use super::eight_by_eight::EIGHT_BY_EIGHT_RULES;
use super::{CapturePrecedence, Corner, DrawRules, NO_DRAW_RULES, Notation, RuleSet, Rules};
use crate::core::{Board8, Color};

/// Italian draughts on the 8x8 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Italian;

impl Rules for Italian {
    type Geometry = Board8;
    const RULES: RuleSet = RuleSet {
        name: "italian",
        pdn_game_type: Some("22"),
        // Art. 3.4: White makes the first move.
        first_mover: Color::White,
        // Art. 5.3(a): a man captures forwards only.
        men_capture_backwards: false,
        // Art. 5.3(b): a man may not capture a king.
        men_capture_kings: false,
        // Art. 4.7: a king moves one square at a time.
        flying_kings: false,
        // Art. 6.6-6.9: the most pieces; then with a king; then the most kings; then the king met
        // earliest.
        capture_precedence: CapturePrecedence::Italian,
        // A man reaching the last row ends its move (it cannot capture backwards).
        crown_during_capture: false,
        // Regolamento tecnico art. 9.3(b1): the fourth occurrence of a position draws; art. 10.4: 40
        // moves by each player (80 plies) without a man move or a capture (both as cited by dctl).
        // The federation's brief rules (fid.it "10 regole") say a threefold repetition; the
        // Regolamento is the tournament rulebook, so it is followed here.
        draw_rules: DrawRules {
            repetitions: Some(4),
            king_moves: Some(40),
            ..NO_DRAW_RULES
        },
        // Art. 2.4: numbered 1-32 left to right, row by row, from the top-left square seen from
        // White (a8); the board has a dark square at each player's right (art. 2.3), so a1 is not a
        // playing square.
        notation: Notation::Numeric(Corner::TopLeft),
        mirrored_board: true,
        ..EIGHT_BY_EIGHT_RULES
    };
}
