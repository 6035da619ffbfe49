//! Learning the evaluation from self-play: data generation and its file format ([`data`]), and
//! the trainer of the pattern evaluation ([`train`]). The trainer reads features through the
//! evaluation's own code (`eval::patterns`), so training and play cannot drift apart.

pub mod data;
pub mod train;
