//! The review as a self-contained HTML page: for each game the move list with marks and scores,
//! an evaluation graph (SVG) and a board diagram (SVG) at every move marked `?!`, `?` or `??`
//! ([`Mark::has_diagram`]) with the better line.
//! No scripts, fonts or images from elsewhere: the page opens from a file, offline.

use super::{Mark, MoveReview, PositionReview, SCORE_CAP};
use crate::core::Color;
use crate::diagram::{self, Arrow, DiagramOptions, escape};
use crate::game::Game;
use crate::notation::pdn::{PdnResult, Tags};
use crate::notation::text;
use crate::rules::Rules;
use crate::score::Score;
use crate::score_text;
use std::fmt::Write;

/// Size of the evaluation graph in CSS pixels.
const GRAPH_WIDTH: f64 = 720.0;
const GRAPH_HEIGHT: f64 = 180.0;
/// Room for the axis labels.
const GRAPH_MARGIN: f64 = 30.0;
/// Side of a diagram square in the page.
const DIAGRAM_SQUARE: u32 = 32;
const BLUNDER_COLOUR: &str = "#d01c1c";
const MISTAKE_COLOUR: &str = "#e07b00";
const DUBIOUS_COLOUR: &str = "#c9a800";
const GOOD_COLOUR: &str = "#1f7a3a";

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;\
color:#222}h2{border-bottom:1px solid #ccc}.moves{line-height:1.9}.move{white-space:nowrap;\
margin-right:.4em}.eval{color:#777;font-size:.8em;margin-left:.2em}.m-blunder{color:#d01c1c;\
font-weight:bold}.m-mistake{color:#e07b00;font-weight:bold}.m-dubious{color:#a08600}\
.m-good{color:#1f7a3a;font-weight:bold}.mistake{display:flex;gap:1em;align-items:flex-start;\
margin:1em 0}.mistake svg{flex:none}.legend{color:#555;font-size:.9em}";

/// One reviewed game, as the page shows it.
pub struct GameView<'a, R: Rules> {
    /// The game.
    pub game: &'a Game<R>,
    /// Its tags.
    pub tags: &'a Tags,
    /// Its result.
    pub result: PdnResult,
    /// The reviews of its moves.
    pub moves: &'a [MoveReview<R>],
    /// The reviews of its positions.
    pub positions: &'a [PositionReview<R>],
}

fn mark_class(mark: Mark) -> (&'static str, &'static str) {
    match mark {
        Mark::Good => ("m-good", GOOD_COLOUR),
        Mark::Dubious => ("m-dubious", DUBIOUS_COLOUR),
        Mark::Mistake => ("m-mistake", MISTAKE_COLOUR),
        Mark::Blunder => ("m-blunder", BLUNDER_COLOUR),
    }
}

/// A score given for `side`, from White's view, clamped for the graph.
fn white_view(score: Score, side: Color) -> f64 {
    let white = if side == Color::White { score } else { -score };
    f64::from(white.clamp(-SCORE_CAP, SCORE_CAP))
}

/// The graph's points, one a position: the first position's score, then each move's score as
/// its comment gives it.
fn points<R: Rules>(view: &GameView<'_, R>) -> Vec<f64> {
    let start = view
        .positions
        .first()
        .map(|review| white_view(review.score, view.game.start().side()));
    start
        .into_iter()
        .chain(
            view.moves
                .iter()
                .map(|review| white_view(review.after, review.position.side())),
        )
        .collect()
}

/// The evaluation graph: White's advantage up, one point a position, marks as dots.
pub fn graph<R: Rules>(view: &GameView<'_, R>) -> String {
    let mut out = String::new();
    let plot_width = GRAPH_WIDTH - 2.0 * GRAPH_MARGIN;
    let plot_height = GRAPH_HEIGHT - 2.0 * GRAPH_MARGIN;
    let y = |value: f64| GRAPH_MARGIN + plot_height * (0.5 - value / (2.0 * f64::from(SCORE_CAP)));
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph" width="{GRAPH_WIDTH}" height="{GRAPH_HEIGHT}" viewBox="0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}" role="img" aria-label="evaluation graph">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="{GRAPH_MARGIN}" y="{GRAPH_MARGIN}" width="{plot_width}" height="{plot_height}" fill="#f4f4f4" stroke="#bbb"/>"##
    );
    let _ = writeln!(
        out,
        r##"<line class="zero" x1="{GRAPH_MARGIN}" y1="{0}" x2="{1}" y2="{0}" stroke="#999" stroke-dasharray="4 3"/>"##,
        y(0.0),
        GRAPH_MARGIN + plot_width
    );
    for (label, value) in [
        (format!("+{}", SCORE_CAP / 100), f64::from(SCORE_CAP)),
        ("0".to_string(), 0.0),
        (format!("-{}", SCORE_CAP / 100), -f64::from(SCORE_CAP)),
    ] {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#555">{label}</text>"##,
            GRAPH_MARGIN - 4.0,
            y(value) + 4.0
        );
    }
    let values = points(view);
    let count = values.len().max(2) - 1;
    let x = |ply: usize| GRAPH_MARGIN + plot_width * ply as f64 / count as f64;
    let line: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(ply, value)| format!("{:.1},{:.1}", x(ply), y(*value)))
        .collect();
    let _ = writeln!(
        out,
        r##"<polyline class="eval-line" points="{}" fill="none" stroke="#2b5797" stroke-width="2"/>"##,
        line.join(" ")
    );
    for (ply, review) in view.moves.iter().enumerate() {
        let Some(mark) = review.mark else { continue };
        let Some(value) = values.get(ply + 1) else {
            continue;
        };
        let (_, colour) = mark_class(mark);
        let _ = writeln!(
            out,
            r#"<circle class="mark" cx="{:.1}" cy="{:.1}" r="4" fill="{colour}"><title>{}</title></circle>"#,
            x(ply + 1),
            y(*value),
            escape(&format!(
                "{} {}{}",
                view.game.move_number_text(ply),
                text::pdn(&review.position, &review.played),
                mark.symbol()
            ))
        );
    }
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" font-size="11" fill="#555">White ahead up, Black ahead down (men, clamped to ±{})</text>"##,
        GRAPH_MARGIN,
        GRAPH_MARGIN - 8.0,
        SCORE_CAP / 100
    );
    out.push_str("</svg>\n");
    out
}

fn title<R: Rules>(view: &GameView<'_, R>) -> String {
    let name = |tag| view.tags.get(tag).filter(|v| *v != "?").unwrap_or("?");
    format!(
        "{} – {} {}",
        name("White"),
        name("Black"),
        view.result.token::<R>()
    )
}

fn move_list<R: Rules>(out: &mut String, view: &GameView<'_, R>) {
    out.push_str("<p class=\"moves\">\n");
    for (ply, review) in view.moves.iter().enumerate() {
        let (_, first_half) = crate::game::move_number::<R>(view.game.start().side(), ply);
        let number = if first_half || ply == 0 {
            view.game.move_number_text(ply)
        } else {
            String::new()
        };
        let symbol = review.mark.map_or("", Mark::symbol);
        let class = review.mark.map_or("", |mark| mark_class(mark).0);
        let eval = score_text::for_white(review.after, review.position.side());
        let _ = writeln!(
            out,
            r#"<span class="move">{number} <span class="{class}">{}{symbol}</span><span class="eval">{}</span></span>"#,
            escape(&text::pdn(&review.position, &review.played)),
            escape(&eval)
        );
    }
    let _ = writeln!(out, "<b>{}</b></p>", view.result.token::<R>());
}

fn mistakes<R: Rules>(out: &mut String, view: &GameView<'_, R>, game_index: usize) {
    for (ply, review) in view.moves.iter().enumerate() {
        let (Some(mark), Some(line)) = (review.mark, &review.better) else {
            continue;
        };
        if !mark.has_diagram() {
            continue;
        }
        let Some(best) = line.first() else { continue };
        let options = DiagramOptions {
            square_size: DIAGRAM_SQUARE,
            numbers: true,
            arrow: Some(Arrow::of_move(&review.position, best)),
            id: format!("g{game_index}p{ply}"),
            ..DiagramOptions::default()
        };
        let _ = writeln!(
            out,
            "<div class=\"mistake\" id=\"g{game_index}-ply{ply}\">{}<div><p><span class=\"{}\">{} {}{}</span> {} (lost {}): {} {} after it.</p><p>Better <b>{}</b> ({}): {}</p></div></div>",
            diagram::svg(&review.position, &options),
            mark_class(mark).0,
            view.game.move_number_text(ply),
            escape(&text::pdn(&review.position, &review.played)),
            mark.symbol(),
            mark.word(),
            crate::score::to_men(review.loss),
            review.position.side(),
            escape(&review.after_text()),
            escape(&text::pdn(&review.position, best)),
            escape(&score_text::for_side_to_move(review.before)),
            escape(&crate::notation::text::pdn_line(&review.position, line)),
        );
    }
}

/// The whole page.
pub fn page<R: Rules>(title_text: &str, games: &[GameView<'_, R>], legend: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        escape(title_text)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(title_text));
    let _ = writeln!(out, "<p class=\"legend\">{}</p>", escape(legend));
    for (index, view) in games.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section class=\"game\" id=\"game{}\"><h2>{}</h2>",
            index + 1,
            escape(&title(view))
        );
        out.push_str(&graph(view));
        move_list(&mut out, view);
        mistakes(&mut out, view, index + 1);
        out.push_str("</section>\n");
    }
    out.push_str("</body></html>\n");
    out
}
