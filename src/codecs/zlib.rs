//! zlib through the vendored zlib-ng 2.3.3 (zlib-compatible API, symbols prefixed `oxzng_`),
//! which `build.rs` compiles and links statically.

use std::ffi::{c_int, c_ulong};

const Z_OK: c_int = 0;

// The two entry points of zlib-ng used here, under their prefixed names (zlib's `uLong` is
// C `unsigned long`).
extern "C" {
    fn oxzng_compress2(
        dest: *mut u8,
        dest_len: *mut c_ulong,
        source: *const u8,
        source_len: c_ulong,
        level: c_int,
    ) -> c_int;
    fn oxzng_uncompress(
        dest: *mut u8,
        dest_len: *mut c_ulong,
        source: *const u8,
        source_len: c_ulong,
    ) -> c_int;
}

/// Compresses `src` into `dst` with `compress2` at `level`; returns the compressed size, or
/// 0 when it fails or does not fit.
pub fn compress(src: &[u8], dst: &mut [u8], level: i32) -> usize {
    let (Ok(src_len), Ok(mut out_len)) =
        (c_ulong::try_from(src.len()), c_ulong::try_from(dst.len()))
    else {
        return 0;
    };
    // SAFETY: `compress2` reads `src_len` bytes from `src` and writes at most `out_len`
    // bytes to `dst`; both are the lengths of the live slices.
    let rc =
        unsafe { oxzng_compress2(dst.as_mut_ptr(), &mut out_len, src.as_ptr(), src_len, level) };
    if rc != Z_OK {
        return 0;
    }
    usize::try_from(out_len).unwrap_or(0)
}

/// Decompresses the zlib stream `src` into `dst`; returns the number of bytes written, or
/// `None` when the stream is malformed or does not fit.
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let src_len = c_ulong::try_from(src.len()).ok()?;
    let mut out_len = c_ulong::try_from(dst.len()).ok()?;
    // SAFETY: `uncompress` reads at most `src_len` bytes and writes at most `out_len` bytes,
    // the lengths of the two live slices.
    let rc = unsafe { oxzng_uncompress(dst.as_mut_ptr(), &mut out_len, src.as_ptr(), src_len) };
    if rc != Z_OK {
        return None;
    }
    usize::try_from(out_len).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_limits() {
        let src: Vec<u8> = (0..10_000u32).map(|i| (i % 13) as u8).collect();
        let mut c = vec![0u8; 20_000];
        let n = compress(&src, &mut c, 5);
        assert!(n > 0 && n < src.len());
        let mut d = vec![0u8; src.len()];
        assert_eq!(decompress(&c[..n], &mut d), Some(src.len()));
        assert_eq!(d, src);
        assert_eq!(compress(&src, &mut c[..8], 5), 0);
        assert_eq!(decompress(&c[..n - 3], &mut d), None);
    }
}
