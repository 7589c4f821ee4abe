//! The Blosc chunk format: header, block streams, compression and decompression.

mod bulk;
pub(crate) mod compress;
pub(crate) mod decompress;
mod deferred_delta;
pub(crate) mod dict;
pub(crate) mod getitem;
pub mod header;
pub mod hooks;
pub(crate) mod instr;
mod parallel;
pub(crate) mod pipeline;
pub mod scratch;
pub mod special;
pub(crate) mod streams;
pub mod stune;
pub mod vlblocks;
pub(crate) mod vlcompress;

pub use header::Header;
pub use vlblocks::nblocks as vl_nblocks;

#[cfg(test)]
mod tests;
