//! The Blosc2 frame format: contiguous frames (one buffer or file) and sparse frames (a
//! directory with an index file and one file per chunk).

pub mod header;
mod msgpack;
mod name;
pub mod offsets;
pub mod trailer;

pub use header::{FrameHeader, Meta};
pub use name::MetaName;

/// Most fixed-length metalayers a super-chunk holds.
pub const MAX_METALAYERS: usize = 16;
/// Most variable-length metalayers a super-chunk holds.
pub const MAX_VLMETALAYERS: usize = 8 * 1024;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;

mod backing;
pub mod cframe;
mod lazy;
pub mod sframe;
pub mod undo;

use std::borrow::Cow;

pub use cframe::{CFrame, Opened};
pub use sframe::SFrame;

use crate::error::Result;

/// A frame of either kind.
pub enum Frame {
    /// A contiguous frame.
    Contiguous(CFrame),
    /// A sparse frame.
    Sparse(SFrame),
}

impl Frame {
    /// Reads the stored chunk an index entry points to.
    pub fn read_chunk(&mut self, at: u64) -> Result<Cow<'_, [u8]>> {
        match self {
            Frame::Contiguous(f) => f.read_chunk(at),
            Frame::Sparse(f) => f.read_chunk(at),
        }
    }

    /// Stores a chunk; returns its index entry.
    pub fn store_chunk(&mut self, chunk: &[u8]) -> Result<u64> {
        match self {
            Frame::Contiguous(f) => f.store_chunk(chunk),
            Frame::Sparse(f) => f.store_chunk(chunk),
        }
    }

    /// Tells the frame a stored chunk is no longer referenced.
    pub fn release(&mut self, at: u64) {
        if let Frame::Sparse(f) = self {
            f.release(at);
        }
    }

    /// Gives up the changes since the last commit (contiguous frame files go back to their
    /// committed bytes).
    pub fn abort(&mut self) {
        if let Frame::Contiguous(f) = self {
            f.abort();
        }
    }

    /// Makes `index` the index chunk the next commit writes if the offsets still match.
    pub fn set_index(&mut self, index: offsets::IndexChunk) {
        match self {
            Frame::Contiguous(f) => f.set_index(index),
            Frame::Sparse(f) => f.set_index(index),
        }
    }

    /// Commits header, index and trailer.
    pub fn commit(&mut self, header: FrameHeader, offsets: &[i64], vlmeta: &[Meta]) -> Result<()> {
        match self {
            Frame::Contiguous(f) => f.commit(header, offsets, vlmeta),
            Frame::Sparse(f) => f.commit(header, offsets, vlmeta),
        }
    }

    /// The committed length (of the index file for sparse frames).
    pub fn len(&self) -> u64 {
        match self {
            Frame::Contiguous(f) => f.len(),
            Frame::Sparse(f) => f.len(),
        }
    }

    /// Whether nothing was committed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this is a contiguous frame.
    pub fn is_contiguous(&self) -> bool {
        matches!(self, Frame::Contiguous(_))
    }

    /// Whether this is a sparse frame.
    pub fn is_sparse(&self) -> bool {
        matches!(self, Frame::Sparse(_))
    }
}
