//! Board vocabulary shared by every variant: bit sets, geometries, sides, Zobrist keys; and the
//! bit and cache instructions that the evaluation, the tables and the generator share.

pub mod bitboard;
pub mod bits;
pub mod cache;
pub mod color;
pub mod geometry;
pub mod mix;
pub mod zobrist;

pub use bitboard::{BitBoard, Bits};
pub use color::{Color, Kind, Piece};
pub use geometry::{
    Board8, Board8Full, Board10, Board12, Direction, DirectionFamily, Geometry, Orthogonal,
};
