//! The annotated game as PDN: the original tags, each move with its mark (PDN move strength)
//! and a comment that GUIs show: `[%eval ...]` from White's view after the move, as lidraughts
//! and chess tools read it, then a short text for people.

use super::{Mark, MoveReview};
use crate::game::Game;
use crate::notation::pdn::{PdnResult, Tags, emit};
use crate::notation::{fen, text};
use crate::position::Position;
use crate::rules::Rules;
use crate::score;
use crate::score_text;

fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment text cannot hold `}`: PDN has no escape for it.
fn comment_text(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

/// The comment of a reviewed move: `[%eval]` and the words both give the move's score from the
/// search that scored the better move too, so that their numbers compare.
pub fn move_comment<R: Rules>(review: &MoveReview<R>) -> String {
    let eval = score_text::eval_tag(review.after, review.position.side());
    let mut words = vec![format!("[%eval {eval}]")];
    let mover = match review.position.side() {
        crate::core::Color::White => "White",
        crate::core::Color::Black => "Black",
    };
    let after = review.after_text();
    match &review.better {
        Some(line) => {
            let line_text = crate::notation::text::pdn_line(&review.position, line);
            let best = line_text.split(' ').next().unwrap_or_default().to_string();
            let lost = match review.mark {
                Some(mark) if mark != Mark::Good => {
                    format!(", {} (lost {})", mark.word(), score::to_men(review.loss))
                }
                _ => String::new(),
            };
            words.push(format!(
                "{mover}: {after}{lost}; better {best} ({}): {line_text}",
                score_text::for_side_to_move(review.before),
            ));
        }
        None => {
            let choice = match review.choice {
                // The game is over: what the move was is said.
                _ if review.ends_game => String::new(),
                Some(choice) if choice.same_as(&review.played) => match review.mark {
                    Some(Mark::Good) => ", the engine's choice, the only move".to_string(),
                    _ => ", the engine's choice".to_string(),
                },
                Some(choice) => format!(
                    ", as good as the engine's choice {}",
                    text::pdn(&review.position, &choice)
                ),
                None => String::new(),
            };
            words.push(format!("{mover}: {after}{choice}"));
        }
    }
    comment_text(&words.join(" "))
}

/// Writes a reviewed game as PDN.
pub fn write<R: Rules>(
    game: &Game<R>,
    tags: &Tags,
    result: PdnResult,
    moves: &[MoveReview<R>],
    annotator: &str,
) -> String {
    let token = result.token::<R>();
    let mut out = String::new();
    let mut tags = tags.clone();
    tags.set("Result", token);
    if let Some(game_type) = R::PDN_GAME_TYPE {
        tags.set("GameType", game_type);
    }
    if *game.start() != Position::<R>::start() {
        tags.set("FEN", fen::format(game.start()));
    }
    tags.set("Annotator", annotator);
    for (name, value) in tags.iter() {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    out.push('\n');
    let mut line = String::new();
    for (ply, mv) in game.moves().iter().enumerate() {
        let position = &game.positions()[ply];
        let (_, first_half) = crate::game::move_number::<R>(game.start().side(), ply);
        let review = moves.get(ply);
        // No `12...` after a comment: PDN allows leaving it out, and pydraughts' reader
        // mistakes a repeated number for a duplicate.
        if first_half || ply == 0 {
            emit(&mut out, &mut line, &game.move_number_text(ply));
        }
        let mut word = text::pdn(position, mv);
        if let Some(mark) = review.and_then(|r| r.mark) {
            word.push_str(mark.symbol());
        }
        emit(&mut out, &mut line, &word);
        if let Some(review) = review {
            let comment = format!("{{{}}}", move_comment(review));
            let mut pieces = comment.split(' ');
            while let Some(piece) = pieces.next() {
                match pieces.clone().next() {
                    // GUIs read the `[%eval ...]` command only whole: it never breaks over
                    // lines.
                    Some(value) if piece.ends_with("[%eval") => {
                        pieces.next();
                        emit(&mut out, &mut line, &format!("{piece} {value}"));
                    }
                    _ => emit(&mut out, &mut line, piece),
                }
            }
        }
    }
    emit(&mut out, &mut line, token);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
