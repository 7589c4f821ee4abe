//! The built-in filters: byte shuffle, bit shuffle, delta and truncate-precision.

pub mod bitshuffle;
pub mod delta;
pub mod shuffle;
pub mod trunc_prec;
