//! Board diagrams as SVG, drawn as draughts books print them: White at the bottom (unless
//! flipped), the dark playing squares, men as discs, kings as discs with a crown, optional square
//! numbers in the variant's notation, and an arrow for a move that follows its capture route.
//!
//! One renderer for every variant and board: the real board coordinates of a square come from
//! [`numbering::coordinates`], which also mirrors the boards that have a light square in the
//! bottom-left corner (Italian, Spanish, Portuguese). The SVG is self-contained (no fonts, images
//! or scripts from elsewhere), so it can be written to a file or put inline in a page.

use crate::core::{BitBoard, Color, Geometry, Kind};
use crate::moves::Move;
use crate::notation::fen;
use crate::notation::route;
use crate::position::Position;
use crate::rules::{BitsOf, Rules, numbering};
use std::fmt::Write;

/// Side of a square in SVG user units when none is asked for.
pub const DEFAULT_SQUARE_SIZE: u32 = 40;
/// Smallest and largest square sizes accepted (smaller is unreadable, larger is pointless in a
/// vector image that scales anyway).
pub const SQUARE_SIZE_RANGE: std::ops::RangeInclusive<u32> = 8..=400;

/// Frame around the board, as a fraction of a square.
const FRAME: f64 = 0.15;
/// Radius of a piece, as a fraction of a square.
const PIECE_RADIUS: f64 = 0.40;
/// Radius of the ring drawn inside a piece (the rim of a wooden man), as a fraction of a square.
const RIM_RADIUS: f64 = 0.30;
/// Size of the square numbers, as a fraction of a square.
const NUMBER_SIZE: f64 = 0.24;
/// Width of the move arrow, as a fraction of a square.
const ARROW_WIDTH: f64 = 0.12;
/// Half the size of the cross on a captured piece, as a fraction of a square.
const CROSS_HALF: f64 = 0.18;

const LIGHT_SQUARE: &str = "#f0e2c0";
const DARK_SQUARE: &str = "#a4703f";
const FRAME_COLOUR: &str = "#5a3a1e";
const PIECE_EDGE: &str = "#111111";

/// The colours of one side's pieces.
struct PieceColours {
    /// The disc.
    fill: &'static str,
    /// The ring drawn inside the disc.
    rim: &'static str,
    /// A king's crown.
    crown: &'static str,
}

const WHITE_PIECES: PieceColours = PieceColours {
    fill: "#fbfbf6",
    rim: "#b9b9b0",
    crown: "#c28a00",
};
const BLACK_PIECES: PieceColours = PieceColours {
    fill: "#262626",
    rim: "#5c5c5c",
    crown: "#f2c230",
};

const NUMBER_COLOUR: &str = "#f7ead0";
const ARROW_COLOUR: &str = "#1f7a3a";
const ARROW_OPACITY: f64 = 0.8;
const CAPTURE_COLOUR: &str = "#d01c1c";

/// A move drawn on a diagram: the squares (geometry bits) the piece passes through, origin
/// first, and the pieces it takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arrow {
    /// Bits the piece stands on: origin, each landing square, destination last.
    pub path: Vec<u32>,
    /// Bits of the captured pieces.
    pub captured: Vec<u32>,
}

impl Arrow {
    /// The arrow of `mv` played in `position`: along its capture route when it is a capture
    /// (the first route when several realise it; they differ only in the order of taking).
    pub fn of_move<R: Rules>(position: &Position<R>, mv: &Move<BitsOf<R>>) -> Self {
        let mut path = vec![u32::from(mv.from)];
        if mv.is_capture()
            && let Some(route) = route::routes_of(position, mv).into_iter().next()
        {
            path.extend(route.landings);
        } else {
            path.push(u32::from(mv.to));
        }
        Arrow {
            path,
            captured: mv.captured.iter().collect(),
        }
    }
}

/// How a diagram is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramOptions {
    /// Side of a square in SVG user units (the image's natural size; it scales freely).
    pub square_size: u32,
    /// Whether the playing squares carry their numbers (or names, in algebraic variants).
    pub numbers: bool,
    /// Seen from Black: Black's pieces at the bottom.
    pub flipped: bool,
    /// A move to draw.
    pub arrow: Option<Arrow>,
    /// Makes the ids inside the SVG unique when several diagrams share a page.
    pub id: String,
}

impl Default for DiagramOptions {
    fn default() -> Self {
        DiagramOptions {
            square_size: DEFAULT_SQUARE_SIZE,
            numbers: false,
            flipped: false,
            arrow: None,
            id: "rafle".to_string(),
        }
    }
}

/// Escapes text for SVG/HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// Where squares are drawn.
struct Layout {
    size: f64,
    frame: f64,
    columns: u32,
    rows: u32,
    flipped: bool,
}

impl Layout {
    fn of<R: Rules>(options: &DiagramOptions) -> Self {
        let size = f64::from(options.square_size);
        Layout {
            size,
            frame: (size * FRAME).round(),
            columns: R::Geometry::COLUMNS,
            rows: R::Geometry::ROWS,
            flipped: options.flipped,
        }
    }

    fn width(&self) -> f64 {
        2.0 * self.frame + f64::from(self.columns) * self.size
    }

    fn height(&self) -> f64 {
        2.0 * self.frame + f64::from(self.rows) * self.size
    }

    /// Top-left corner of the square at real board coordinates.
    fn corner(&self, file: u32, rank: u32) -> (f64, f64) {
        let (column, row) = if self.flipped {
            (self.columns - 1 - file, rank)
        } else {
            (file, self.rows - 1 - rank)
        };
        (
            self.frame + f64::from(column) * self.size,
            self.frame + f64::from(row) * self.size,
        )
    }

    /// Top-left corner of the square of a geometry bit.
    fn corner_of_bit<R: Rules>(&self, bit: u32) -> (f64, f64) {
        let square = R::Geometry::square_of(bit);
        let (file, rank) = numbering::coordinates::<R::Geometry>(square, R::MIRRORED_BOARD);
        self.corner(file, rank)
    }

    fn centre_of_bit<R: Rules>(&self, bit: u32) -> (f64, f64) {
        let (x, y) = self.corner_of_bit::<R>(bit);
        (x + self.size / 2.0, y + self.size / 2.0)
    }
}

/// The diagram of `position` as a standalone SVG document (an `<svg>` element with its
/// namespace, fit to be written to a `.svg` file or put inline in HTML).
pub fn svg<R: Rules>(position: &Position<R>, options: &DiagramOptions) -> String {
    let layout = Layout::of::<R>(options);
    let mut out = String::new();
    let fen_text = fen::format(position);
    let id = escape(&options.id);
    // `write!` to a String cannot fail.
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="rafle-board" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
        w = layout.width(),
        h = layout.height(),
        label = escape(&format!("{} position {fen_text}", R::NAME)),
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&fen_text));
    if options.arrow.is_some() {
        let _ = writeln!(
            out,
            r#"<defs><marker id="{id}-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{ARROW_COLOUR}"/></marker></defs>"#
        );
    }
    let _ = writeln!(
        out,
        r#"<rect class="frame" x="0" y="0" width="{}" height="{}" fill="{FRAME_COLOUR}"/>"#,
        layout.width(),
        layout.height()
    );
    let _ = writeln!(
        out,
        r#"<rect class="light" x="{f}" y="{f}" width="{}" height="{}" fill="{LIGHT_SQUARE}"/>"#,
        layout.width() - 2.0 * layout.frame,
        layout.height() - 2.0 * layout.frame,
        f = layout.frame,
    );
    squares::<R>(&mut out, &layout, options.numbers);
    pieces::<R>(&mut out, &layout, position);
    if let Some(arrow) = &options.arrow {
        draw_arrow::<R>(&mut out, &layout, arrow, &id);
    }
    out.push_str("</svg>\n");
    out
}

fn squares<R: Rules>(out: &mut String, layout: &Layout, numbers: bool) {
    let size = layout.size;
    for square in 1..=R::Geometry::SQUARES {
        let (file, rank) = numbering::coordinates::<R::Geometry>(square, R::MIRRORED_BOARD);
        let (x, y) = layout.corner(file, rank);
        // The bit lets a page that shows the diagram tell which square was clicked.
        let bit = R::Geometry::bit_of(square).unwrap_or_default();
        let _ = writeln!(
            out,
            r#"<rect class="square" data-bit="{bit}" x="{x}" y="{y}" width="{size}" height="{size}" fill="{DARK_SQUARE}"/>"#
        );
        if numbers {
            let font = (size * NUMBER_SIZE).round();
            let _ = writeln!(
                out,
                r#"<text class="number" x="{}" y="{}" font-family="sans-serif" font-size="{font}" fill="{NUMBER_COLOUR}">{}</text>"#,
                x + size * 0.06,
                y + font,
                escape(&crate::notation::squares::text::<R>(square))
            );
        }
    }
}

fn pieces<R: Rules>(out: &mut String, layout: &Layout, position: &Position<R>) {
    let size = layout.size;
    for color in Color::BOTH {
        let (PieceColours { fill, rim, crown }, name) = match color {
            Color::White => (WHITE_PIECES, "white"),
            Color::Black => (BLACK_PIECES, "black"),
        };
        for bit in position.pieces(color).iter() {
            let (cx, cy) = layout.centre_of_bit::<R>(bit);
            let king = position
                .piece_at(bit)
                .is_some_and(|piece| piece.kind == Kind::King);
            let kind = if king { "king" } else { "man" };
            let _ = writeln!(
                out,
                r#"<g class="piece {name} {kind}" data-bit="{bit}"><circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="{PIECE_EDGE}" stroke-width="{}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{rim}" stroke-width="{}"/>"#,
                size * PIECE_RADIUS,
                size * 0.03,
                size * RIM_RADIUS,
                size * 0.02,
            );
            if king {
                let _ = write!(
                    out,
                    r#"<path class="crown" d="{}" fill="{crown}" stroke="{PIECE_EDGE}" stroke-width="{}"/>"#,
                    crown_path(cx, cy, size),
                    size * 0.015,
                );
            }
            out.push_str("</g>\n");
        }
    }
}

/// A crown of three points centred on a piece.
fn crown_path(cx: f64, cy: f64, size: f64) -> String {
    let s = size / 100.0;
    // Points of the crown on a 100-unit square centred on (0, 0).
    const POINTS: [(f64, f64); 9] = [
        (-20.0, 12.0),
        (-24.0, -12.0),
        (-11.0, 0.0),
        (0.0, -18.0),
        (11.0, 0.0),
        (24.0, -12.0),
        (20.0, 12.0),
        (20.0, 12.0),
        (-20.0, 12.0),
    ];
    let mut d = String::new();
    for (index, (x, y)) in POINTS.iter().enumerate() {
        let command = if index == 0 { 'M' } else { 'L' };
        let _ = write!(d, "{command}{:.2},{:.2} ", cx + x * s, cy + y * s);
    }
    d.push('z');
    d
}

fn draw_arrow<R: Rules>(out: &mut String, layout: &Layout, arrow: &Arrow, id: &str) {
    let size = layout.size;
    for &bit in &arrow.captured {
        let (cx, cy) = layout.centre_of_bit::<R>(bit);
        let h = size * CROSS_HALF;
        let _ = writeln!(
            out,
            r#"<path class="captured" d="M{},{} L{},{} M{},{} L{},{}" stroke="{CAPTURE_COLOUR}" stroke-width="{}" stroke-linecap="round"/>"#,
            cx - h,
            cy - h,
            cx + h,
            cy + h,
            cx - h,
            cy + h,
            cx + h,
            cy - h,
            size * 0.07,
        );
    }
    if arrow.path.len() < 2 {
        return;
    }
    let points: Vec<String> = arrow
        .path
        .iter()
        .map(|&bit| {
            let (x, y) = layout.centre_of_bit::<R>(bit);
            format!("{x},{y}")
        })
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline class="arrow" points="{}" fill="none" stroke="{ARROW_COLOUR}" stroke-opacity="{ARROW_OPACITY}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round" marker-end="url(#{id}-head)"/>"#,
        points.join(" "),
        size * ARROW_WIDTH,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{International, Spanish};

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn start_position_has_every_square_and_piece() {
        let svg = svg(
            &Position::<International>::start(),
            &DiagramOptions::default(),
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(count(&svg, "class=\"square\""), 50);
        assert_eq!(count(&svg, "class=\"piece white man\""), 20);
        assert_eq!(count(&svg, "class=\"piece black man\""), 20);
        assert_eq!(count(&svg, "king"), 0);
        assert_eq!(count(&svg, "class=\"number\""), 0);
    }

    #[test]
    fn kings_numbers_and_a_capture_arrow() {
        let position = fen::parse::<International>("W:WK28,33:B22,K19").expect("valid FEN");
        let capture = position
            .legal_moves()
            .iter()
            .next()
            .copied()
            .expect("a move");
        assert!(capture.is_capture());
        let options = DiagramOptions {
            numbers: true,
            arrow: Some(Arrow::of_move(&position, &capture)),
            ..DiagramOptions::default()
        };
        let svg = svg(&position, &options);
        assert_eq!(count(&svg, "class=\"piece white king\""), 1);
        assert_eq!(count(&svg, "class=\"piece black king\""), 1);
        assert_eq!(count(&svg, "class=\"crown\""), 2);
        assert_eq!(count(&svg, "class=\"number\""), 50);
        assert!(svg.contains(">46</text>"));
        assert_eq!(count(&svg, "class=\"arrow\""), 1);
        assert_eq!(
            count(&svg, "class=\"captured\""),
            capture.captured.count() as usize
        );
    }

    #[test]
    fn square_one_is_where_the_variant_puts_it() {
        // International: square 1 is at the top, second column, seen from White.
        let layout = Layout::of::<International>(&DiagramOptions::default());
        let bit = crate::notation::squares::square_of_number::<International>(1)
            .and_then(<International as Rules>::Geometry::bit_of);
        let (x, y) = layout.corner_of_bit::<International>(bit.expect("square 1"));
        assert_eq!((x, y), (layout.frame + layout.size, layout.frame));
        // Spanish: square 1 is h1, White's bottom-right corner.
        let layout = Layout::of::<Spanish>(&DiagramOptions::default());
        let square = crate::notation::squares::square_of_number::<Spanish>(1).expect("square 1");
        let bit = <Spanish as Rules>::Geometry::bit_of(square).expect("on board");
        let (x, y) = layout.corner_of_bit::<Spanish>(bit);
        assert_eq!(
            (x, y),
            (
                layout.frame + 7.0 * layout.size,
                layout.frame + 7.0 * layout.size
            )
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
    }
}
