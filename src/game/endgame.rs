//! Endgame knowledge (placeholder).
