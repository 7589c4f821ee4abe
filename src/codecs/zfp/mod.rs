//! The ZFP codecs (plugin codecs 33 to 35): lossy compression of 1- to 4-dimensional blocks
//! of `f32` or `f64` items in zfp 1.0.1's format, in fixed-accuracy (meta: the tolerance's
//! power of ten, as a signed byte), fixed-precision (meta plus 5, 7, 9 or 11 bit planes for
//! 1 to 4 dimensions, at most 64) or fixed-rate mode (meta: percent of the input size). A
//! block is one zfp stream over the block's shape (from the array's `b2nd` metalayer), as
//! the reference writes it. zfp's C encoder writes the streams; they are read by a decoder
//! in Rust (`decode.rs`) that gives zfp's decoder's bytes for any stream.

mod bits;
mod decode;
#[cfg(test)]
mod decode_tests;
mod ffi;
mod planes;
#[cfg(test)]
mod tests;

use ffi::{Codec, ScalarType, Setting};

/// The reference's generic failure code.
const FAILURE: i32 = -1;
/// Most bit planes zfp keeps.
const MAX_PREC: u32 = 64;

thread_local! {
    /// This thread's buffer for streams that may not fit the caller's output.
    static AUX: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Which ZFP codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Fixed accuracy (codec 33).
    Accuracy,
    /// Fixed precision (codec 34).
    Precision,
    /// Fixed rate (codec 35).
    Rate,
}

impl Mode {
    /// The mode of a plugin codec code (33, 34, anything else: rate).
    pub fn from_code(code: u8) -> Mode {
        match code {
            33 => Mode::Accuracy,
            34 => Mode::Precision,
            _ => Mode::Rate,
        }
    }
}

/// The zfp stream set-up for a block: `None` for a typesize other than 4 or 8, or a number
/// of dimensions other than 1 to 4, or an empty dimension.
fn codec(mode: Mode, meta: u8, blockshape: &[i32], typesize: i32) -> Option<Codec> {
    let kind = match typesize {
        4 => ScalarType::Float,
        8 => ScalarType::Double,
        _ => return None,
    };
    let ndim = blockshape.len();
    if !(1..=4).contains(&ndim) {
        return None;
    }
    let setting = match mode {
        Mode::Accuracy => Setting::Accuracy(tolerance(meta)),
        Mode::Precision => Setting::Precision(precision(meta, ndim)),
        Mode::Rate => Setting::Rate(rate(meta, typesize), ndim as u32),
    };
    Codec::new(setting, kind, &field_dims(blockshape)?)
}

/// The fixed-accuracy tolerance of `meta`: 10 to the power of its signed value.
fn tolerance(meta: u8) -> f64 {
    10f64.powf(f64::from(meta as i8))
}

/// The fixed-precision bit planes of `meta` on `ndim` dimensions.
fn precision(meta: u8, ndim: usize) -> u32 {
    (u32::from(meta) + 3 + 2 * ndim as u32).min(MAX_PREC)
}

/// The fixed rate (bits per value) of `meta` (percent of the input) for items of
/// `typesize` bytes.
fn rate(meta: u8, typesize: i32) -> f64 {
    let ratio = f64::from(meta) / 100.0;
    ratio * f64::from(typesize) * 8.0
}

/// A block shape as zfp's field dimensions (fastest first); `None` if one is negative.
fn field_dims(blockshape: &[i32]) -> Option<Vec<usize>> {
    blockshape
        .iter()
        .rev()
        .map(|&d| usize::try_from(d).ok())
        .collect()
}

/// Compresses `input`, one block of an array with block shape `blockshape` and items of
/// `typesize` bytes, into `output`. Returns the compressed size, 0 when zfp fails or the
/// result does not shrink or fit or the input is shorter than the block (checked before
/// the typesize), or the generic failure (-1) for blocks narrower than 4 items in a
/// dimension, unsupported typesizes or dimensions.
pub fn compress(
    mode: Mode,
    meta: u8,
    blockshape: &[i32],
    typesize: i32,
    input: &[u8],
    output: &mut [u8],
) -> i32 {
    if blockshape.iter().any(|&b| b < 4) {
        return FAILURE;
    }
    // A stream shorter than the block (one of the streams of a split block) is stored as
    // is, whatever the typesize, as the reference stores it.
    let block_bytes = blockshape
        .iter()
        .try_fold(i64::from(typesize.max(1)), |n, &d| {
            n.checked_mul(i64::from(d))
        });
    if block_bytes.is_none_or(|n| n > input.len() as i64) {
        return 0;
    }
    let Some(mut c) = codec(mode, meta, blockshape, typesize) else {
        return FAILURE;
    };
    let max = c.maximum_size();
    if output.len() >= max {
        let n = c.compress(input, output);
        return if n >= input.len() { 0 } else { n as i32 };
    }
    AUX.with_borrow_mut(|buf| {
        if buf.len() < max {
            buf.resize(max, 0);
        }
        let n = c.compress(input, &mut buf[..max]);
        if n == 0 || n >= input.len() || n > output.len() {
            return 0;
        }
        output[..n].copy_from_slice(&buf[..n]);
        n as i32
    })
}

/// Decompresses a block compressed by [`compress`] into `output` (zfp's decoder, in
/// Rust); returns `output.len()`, or the generic failure (-1) for unsupported typesizes or
/// dimensions or an output shorter than the block.
pub fn decompress(
    mode: Mode,
    meta: u8,
    blockshape: &[i32],
    typesize: i32,
    input: &[u8],
    output: &mut [u8],
) -> i32 {
    let Some(dims) = field_dims(blockshape) else {
        return FAILURE;
    };
    if !(1..=4).contains(&dims.len()) || dims.contains(&0) || !matches!(typesize, 4 | 8) {
        return FAILURE;
    }
    let bytes = dims
        .iter()
        .try_fold(typesize as usize, |n, &d| n.checked_mul(d));
    if bytes.is_none_or(|n| n > output.len()) {
        return FAILURE;
    }
    let params = decode::Params::new(mode, meta, dims.len(), typesize);
    if typesize == 4 {
        decode::decode::<f32>(input, &params, &dims, output);
    } else {
        decode::decode::<f64>(input, &params, &dims, output);
    }
    output.len() as i32
}

/// [`decompress`] by zfp's own (C) decoder, which writes and reads the same bits: the
/// reference the Rust decoder is tested against; returns `output.len()`, 0 when zfp fails,
/// or the generic failure (-1) for unsupported typesizes or dimensions or an output
/// shorter than the block.
pub fn decompress_by_zfp(
    mode: Mode,
    meta: u8,
    blockshape: &[i32],
    typesize: i32,
    input: &[u8],
    output: &mut [u8],
) -> i32 {
    let Some(mut c) = codec(mode, meta, blockshape, typesize) else {
        return FAILURE;
    };
    if c.field_bytes() > output.len() {
        return FAILURE;
    }
    match c.decompress(input, output) {
        0 => 0,
        _ => output.len() as i32,
    }
}
