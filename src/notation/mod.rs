//! Reading and writing positions and moves: PDN FEN, the Hub position string, move text.

pub mod fen;
pub mod hub;
pub mod pdn;
pub mod route;
pub mod squares;
pub mod text;

pub use fen::FenError;
pub use hub::HubPositionError;
pub use pdn::{PdnError, PdnGame, PdnResult};
pub use text::MoveError;
