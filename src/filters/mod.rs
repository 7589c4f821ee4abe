//! The built-in filters (byte shuffle, bit shuffle, delta, truncate-precision) and the
//! plugin filters the library registers at init (byte-delta, integer truncation, NDCELL,
//! NDMEAN).
//!
//! Byte and bit shuffle pick the best kernels the CPU offers (AVX-512 with or without VBMI,
//! AVX2, SSE2 or portable scalar code) once, at first use; within a level, each typesize
//! goes to the kernel measured fastest. Every kernel produces the same bytes. The run
//! check of the block streams they leave ([`uniform`]) picks its kernel the same way.

pub mod bitshuffle;
pub mod bytedelta;
mod cpu;
pub mod delta;
pub mod int_trunc;
pub mod ndcell;
pub mod ndmean;
pub mod shuffle;
pub mod trunc_prec;
pub(crate) mod uniform;

#[cfg(test)]
#[cfg(test)]
mod testutil;
#[cfg(test)]
mod timing;
