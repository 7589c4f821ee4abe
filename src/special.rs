//! Typed front-end for building special-value chunks: header-only chunks standing for a run
//! of zeros, NaNs, uninitialised values or one repeated value.

use crate::chunk::special::build;
use crate::constants::{SPECIAL_NAN, SPECIAL_UNINIT, SPECIAL_VALUE, SPECIAL_ZERO};
use crate::context::CParams;
use crate::error::Result;

/// The kinds of special chunk without a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// Every byte is zero.
    Zeros,
    /// Every item is a NaN (typesize 4 or 8 decode).
    Nans,
    /// The destination is left untouched on decompression.
    Uninit,
}

impl Special {
    /// The special-value code stored in the chunk header.
    pub fn code(self) -> u8 {
        match self {
            Special::Zeros => SPECIAL_ZERO,
            Special::Nans => SPECIAL_NAN,
            Special::Uninit => SPECIAL_UNINIT,
        }
    }
}

/// Writes a zeros, NaNs or uninit chunk standing for `nbytes` bytes into `dst`; returns 32.
pub fn special_chunk(
    cparams: &CParams,
    kind: Special,
    nbytes: i32,
    dst: &mut [u8],
) -> Result<usize> {
    build(cparams, nbytes, kind.code(), &[], dst)
}

/// Writes a chunk repeating the `typesize`-byte `value` for `nbytes` bytes into `dst`;
/// returns 32 + typesize.
pub fn repeatval_chunk(
    cparams: &CParams,
    nbytes: i32,
    value: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    build(cparams, nbytes, SPECIAL_VALUE, value, dst)
}
