//! Canadian draughts: the international (FMJD) rules on the 12x12 board with 30 men each (PDN
//! GameType 27, `27,W,12,12,N2,0`).

use super::international::{FMJD_DRAW_RULES, INTERNATIONAL_RULES};
use super::{ResultForm, RuleSet, Rules};
use crate::core::Board12;

/// Canadian draughts on the 12x12 board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Canadian;

impl Rules for Canadian {
    type Geometry = Board12;
    const RULES: RuleSet = RuleSet {
        name: "canadian",
        pdn_game_type: Some("27"),
        // 30 men each on the first five rows: Black 1-30, White 43-72.
        start_fen: "W:W43-72:B1-30",
        max_pieces_per_side: 30,
        // The FMJD draw articles 6.1-6.4 (Canadian draughts is played under international rules).
        draw_rules: FMJD_DRAW_RULES,
        // PDN GameType 27 scores two points a game, as international draughts.
        result_form: ResultForm::International,
        ..INTERNATIONAL_RULES
    };
}
