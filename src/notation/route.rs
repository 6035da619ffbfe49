//! Capture routes: the squares a capturing piece lands on, for the PDN long form.
//!
//! This is a deliberately plain, square-by-square walk of the capture rules, separate from the
//! bitboard generator: it is only used on cold paths (writing and reading long notation), and the
//! tests use it as a second, independent generator to check the fast one.

use crate::core::{BitBoard, Color, Direction, Geometry, Kind, Orthogonal};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{BitsOf, CapturePrecedence, Rules};

/// One capture route of one piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    /// Bit of the capturing piece.
    pub from: u32,
    /// Bits of the captured pieces, in the order they are jumped.
    pub captured: Vec<u32>,
    /// Bits where the piece is after each capture: where it turns, or the square right behind the
    /// piece it jumped when it goes straight on; the last one is the destination.
    pub landings: Vec<u32>,
    /// Whether the piece is crowned at the end.
    pub promotes: bool,
}

impl Route {
    /// Destination bit.
    pub fn to(&self) -> u32 {
        *self.landings.last().unwrap_or(&self.from)
    }

    /// The captured set.
    pub fn captured_set<B: BitBoard>(&self) -> B {
        self.captured
            .iter()
            .fold(B::EMPTY, |set, &bit| set | B::bit(bit))
    }

    /// Whether this route realises the move `mv`.
    pub fn realises<B: BitBoard>(&self, mv: &Move<B>) -> bool {
        u32::from(mv.from) == self.from
            && u32::from(mv.to) == self.to()
            && self.captured_set::<B>() == mv.captured
    }
}

/// A direction a capture can go in: a diagonal, or (where the variant captures along rows and
/// columns) an orthogonal direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Diagonal(Direction),
    Orthogonal(Orthogonal),
}

impl Way {
    /// Rows and files moved by one step: a diagonal step is one row and one file; an orthogonal
    /// one reaches the next same-coloured square, two rows or two files away.
    fn offsets(self) -> (i32, i32) {
        match self {
            Way::Diagonal(Direction::UpLeft) => (-1, -1),
            Way::Diagonal(Direction::UpRight) => (-1, 1),
            Way::Diagonal(Direction::DownLeft) => (1, -1),
            Way::Diagonal(Direction::DownRight) => (1, 1),
            Way::Orthogonal(Orthogonal::Up) => (-2, 0),
            Way::Orthogonal(Orthogonal::Left) => (0, -2),
            Way::Orthogonal(Orthogonal::Right) => (0, 2),
            Way::Orthogonal(Orthogonal::Down) => (2, 0),
        }
    }
}

impl Way {
    /// The way pointing back.
    fn opposite(self) -> Way {
        match self {
            Way::Diagonal(direction) => Way::Diagonal(direction.opposite()),
            Way::Orthogonal(direction) => Way::Orthogonal(Orthogonal::ALL[3 - direction as usize]),
        }
    }
}

/// The square one step from `bit` in `way`, if it is on the board: found by row and file, not by
/// bit arithmetic, so that this walk stays independent of the generator's layout. Where every
/// square is played, the next square along a row or column is the neighbouring one.
fn step<G: Geometry>(bit: u32, way: Way) -> Option<u32> {
    let (rows, files) = match way {
        Way::Orthogonal(_) if G::EVERY_SQUARE => {
            let (rows, files) = way.offsets();
            (rows / 2, files / 2)
        }
        _ => way.offsets(),
    };
    let row = i32::from(G::ROW_OF_BIT[bit as usize]) + rows;
    let file = i32::from(G::FILE_OF_BIT[bit as usize]) + files;
    let square = G::square_at(u32::try_from(row).ok()?, u32::try_from(file).ok()?)?;
    G::bit_of(square)
}

struct Walk<'a, R: Rules> {
    position: &'a Position<R>,
    us: Color,
    from: u32,
    routes: Vec<Route>,
}

impl<R: Rules> Walk<'_, R> {
    /// Whether a square is empty in the middle of a route that has taken `captured`: the
    /// capturing piece has left its origin, and where pieces are lifted as they are jumped their
    /// squares are empty too.
    fn is_empty(&self, bit: u32, captured: &[u32]) -> bool {
        bit == self.from
            || self.position.piece_at(bit).is_none()
            || (R::CAPTURED_REMOVED_AT_ONCE && captured.contains(&bit))
    }

    fn is_target(&self, bit: u32, king: bool, captured: &[u32]) -> bool {
        !captured.contains(&bit)
            && self.position.piece_at(bit).is_some_and(|piece| {
                piece.color != self.us && (king || R::MEN_CAPTURE_KINGS || piece.kind == Kind::Man)
            })
    }

    fn on_promotion_row(&self, bit: u32) -> bool {
        Position::<R>::promotion_row(self.us).has(bit)
    }

    /// Every jump available from `at`, having arrived by `arrived`: (direction, jumped bit,
    /// possible landing bits).
    fn jumps(
        &self,
        at: u32,
        king: bool,
        captured: &[u32],
        arrived: Option<Way>,
    ) -> Vec<(Way, u32, Vec<u32>)> {
        let (forward, backward) = match self.us {
            Color::White => ([Direction::UpLeft, Direction::UpRight], Orthogonal::Down),
            Color::Black => ([Direction::DownLeft, Direction::DownRight], Orthogonal::Up),
        };
        let mut ways: Vec<Way> = Vec::new();
        if R::DIAGONAL_PLAY {
            ways.extend(Direction::ALL.into_iter().map(Way::Diagonal));
        }
        if R::ORTHOGONAL_CAPTURES {
            ways.extend(Orthogonal::ALL.into_iter().map(Way::Orthogonal));
        }
        let mut found = Vec::new();
        for direction in ways {
            let backwards = match direction {
                Way::Diagonal(diagonal) => !forward.contains(&diagonal),
                Way::Orthogonal(orthogonal) => orthogonal == backward,
            };
            if !king && !R::MEN_CAPTURE_BACKWARDS && backwards {
                continue;
            }
            if R::NO_TURNING_BACK && arrived.map(Way::opposite) == Some(direction) {
                continue;
            }
            let flying = king && R::FLYING_KINGS;
            let mut cursor = step::<R::Geometry>(at, direction);
            if flying {
                while let Some(bit) = cursor {
                    if !self.is_empty(bit, captured) {
                        break;
                    }
                    cursor = step::<R::Geometry>(bit, direction);
                }
            }
            let Some(jumped) = cursor else { continue };
            if !self.is_target(jumped, king, captured) {
                continue;
            }
            let mut after = captured.to_vec();
            after.push(jumped);
            let mut landings = Vec::new();
            let mut cursor = step::<R::Geometry>(jumped, direction);
            while let Some(bit) = cursor {
                if !self.is_empty(bit, &after) {
                    break;
                }
                landings.push(bit);
                if !flying || R::KING_LANDS_BEHIND {
                    break;
                }
                cursor = step::<R::Geometry>(bit, direction);
            }
            if !landings.is_empty() {
                found.push((direction, jumped, landings));
            }
        }
        found
    }

    /// Extends the route that reached `at` (having taken `captured`, stopping at `landings`).
    /// `incoming` is the direction of the last jump and the square right behind the piece it took:
    /// if the route goes on in that direction, that square is the one PDN writes.
    fn extend(&mut self, at: u32, state: RouteState, incoming: Option<(Way, u32)>) {
        let RouteState {
            king,
            crowned,
            captured,
            landings,
        } = state;
        let arrived = incoming.map(|(way, _)| way);
        for (direction, jumped, squares) in self.jumps(at, king, &captured, arrived) {
            let mut after = captured.clone();
            after.push(jumped);
            // A piece that can go on capturing must do so, and a king must land where it can.
            let options: Vec<(u32, bool, bool)> = squares
                .iter()
                .map(|&landing| {
                    let king_there =
                        king || (R::CROWN_DURING_CAPTURE && self.on_promotion_row(landing));
                    let continues = !self
                        .jumps(landing, king_there, &after, Some(direction))
                        .is_empty();
                    (landing, king_there, continues)
                })
                .collect();
            let any_continues = options.iter().any(|option| option.2);
            let right_behind = squares[0];
            let halts_behind = R::KING_HALTS_BEHIND_KING
                && king
                && self
                    .position
                    .piece_at(jumped)
                    .is_some_and(|piece| piece.kind == Kind::King);
            for (landing, king_there, continues) in options {
                if any_continues && !continues {
                    continue;
                }
                if !continues && halts_behind && landing != right_behind {
                    continue;
                }
                let mut landings = landings.clone();
                if let (Some((previous, behind)), Some(last)) = (incoming, landings.last_mut())
                    && previous == direction
                {
                    *last = behind;
                }
                landings.push(landing);
                let crowned = crowned || (king_there && !king);
                if continues {
                    let behind = step::<R::Geometry>(jumped, direction).expect("a landing exists");
                    let next = RouteState {
                        king: king_there,
                        crowned,
                        captured: after.clone(),
                        landings,
                    };
                    self.extend(landing, next, Some((direction, behind)));
                } else {
                    self.routes.push(Route {
                        from: self.from,
                        captured: after.clone(),
                        landings,
                        promotes: crowned || (!king && self.on_promotion_row(landing)),
                    });
                }
            }
        }
    }
}

/// A route in progress.
struct RouteState {
    king: bool,
    crowned: bool,
    captured: Vec<u32>,
    landings: Vec<u32>,
}

/// Every complete capture route of the side to move, before the precedence rules are applied,
/// with routes that go straight on through different squares merged.
pub fn all_routes<R: Rules>(position: &Position<R>) -> Vec<Route> {
    let us = position.side();
    let mut routes = Vec::new();
    for from in position.pieces(us).iter() {
        let king = position.kings(us).has(from);
        let mut walk = Walk {
            position,
            us,
            from,
            routes: Vec::new(),
        };
        let state = RouteState {
            king,
            crowned: false,
            captured: Vec::new(),
            landings: Vec::new(),
        };
        walk.extend(from, state, None);
        routes.extend(walk.routes);
    }
    routes.sort_by(|a, b| {
        (a.from, &a.captured, &a.landings).cmp(&(b.from, &b.captured, &b.landings))
    });
    routes.dedup();
    routes
}

/// The legal capture routes: [`all_routes`] with the variant's precedence rule applied.
pub fn legal_routes<R: Rules>(position: &Position<R>) -> Vec<Route> {
    let mut routes = all_routes(position);
    let kings = position.kings(!position.side());
    let kings_taken = |route: &Route| route.captured.iter().filter(|&&b| kings.has(b)).count();
    let by_king = |route: &Route| position.kings(position.side()).has(route.from);
    // Positions (0-based) in the capture order at which kings are taken.
    let king_positions = |route: &Route| -> Vec<usize> {
        (0..route.captured.len())
            .filter(|&i| kings.has(route.captured[i]))
            .collect()
    };
    match R::CAPTURE_PRECEDENCE {
        CapturePrecedence::Free => {}
        CapturePrecedence::KingsFirst => {
            if routes.iter().any(by_king) {
                routes.retain(by_king);
            }
        }
        CapturePrecedence::MostPieces => {
            let most = routes.iter().map(|r| r.captured.len()).max().unwrap_or(0);
            routes.retain(|r| r.captured.len() == most);
        }
        CapturePrecedence::MostPiecesThenKings => {
            let best = routes
                .iter()
                .map(|r| (r.captured.len(), kings_taken(r)))
                .max();
            routes.retain(|r| Some((r.captured.len(), kings_taken(r))) == best);
        }
        CapturePrecedence::Italian => {
            // Pieces, then with a king, then kings, then the earliest kings: an earlier first
            // king (then second, ...) wins, i.e. the lexicographically smaller position list
            // among lists of equal length, which `Reverse` turns into the larger key.
            let key = |r: &Route| {
                (
                    r.captured.len(),
                    by_king(r),
                    kings_taken(r),
                    std::cmp::Reverse(king_positions(r)),
                )
            };
            let best = routes.iter().map(key).max();
            routes.retain(|r| Some(key(r)) == best);
        }
        CapturePrecedence::Frisian => {
            // The value in half-men, with a king worth two less a fraction: compare (men + 2 *
            // kings) first, then the fewer kings (the fraction), then a capture by a king.
            let key = |r: &Route| {
                let kings = kings_taken(r);
                let men = r.captured.len() - kings;
                (men + 2 * kings, std::cmp::Reverse(kings), by_king(r))
            };
            let best = routes.iter().map(key).max();
            routes.retain(|r| Some(key(r)) == best);
        }
    }
    routes
}

/// The routes realising a legal move (empty for a quiet move).
pub fn routes_of<R: Rules>(position: &Position<R>, mv: &Move<BitsOf<R>>) -> Vec<Route> {
    if !mv.is_capture() {
        return Vec::new();
    }
    legal_routes(position)
        .into_iter()
        .filter(|route| route.realises(mv))
        .collect()
}
