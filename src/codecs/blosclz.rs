//! BloscLZ, the native Blosc codec (the format and encoder of c-blosc2's BloscLZ 2.5.3).
//!
//! A stream is a sequence of tokens. The low 5 bits of the first byte always start a literal
//! run (its top 3 bits are a marker and are ignored). Each token's first byte `c` is:
//! * `c < 32`: a literal run of `c + 1` bytes that follow;
//! * otherwise a match of `(c >> 5) + 2` bytes (when `c >> 5 == 7`, more length bytes follow,
//!   each added, until one is not 255) at distance `((c & 31) << 8) + d + 1`, `d` being the
//!   next byte; when `c & 31 == 31` and `d == 255`, two big-endian bytes `f` follow and the
//!   distance is `f + 8192` instead.

mod decoder;
mod encoder;
#[cfg(test)]
mod reference_tests;
#[cfg(test)]
mod tests;

/// Longest literal run of one token.
const MAX_COPY: usize = 32;
/// Matches at (biased) distances from this one up use the far encoding.
const MAX_DISTANCE: usize = 8191;
/// Matches at (unbiased) distances from this one up are not encoded.
const FAR_DISTANCE_LIMIT: usize = 65535 + MAX_DISTANCE - 1;

/// Compresses `src` into `dst` at `clevel` (1..=9, values outside are clamped); returns the
/// compressed size, or 0 when the data is not compressible enough or does not fit in `dst`.
pub fn compress(clevel: i32, src: &[u8], dst: &mut [u8]) -> usize {
    encoder::compress(clevel, src, dst)
}

/// Decompresses a BloscLZ stream `src` into `dst`; returns the number of bytes written, or
/// `None` when the stream is malformed or would overflow `dst`.
///
/// Like the reference, an empty stream decodes to nothing, and a match token ending the
/// stream is not copied (so a shorter size is returned).
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    decoder::decompress(src, dst)
}
