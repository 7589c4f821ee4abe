//! zlib through zlib-ng 2.3.3, the reference's zlib (zlib-compatible API, symbols prefixed
//! `oxzng_`), which `build.rs` compiles from the `libz-sys` crate's copy and links statically.

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
    use crate::filters::{bitshuffle::bitshuffle, shuffle::shuffle};

    /// `zng_compress2` of zlib-ng's native API, as the reference library exports it.
    type ZngCompress2 = unsafe extern "C" fn(*mut u8, *mut usize, *const u8, usize, i32) -> i32;

    /// Data like the chunk benchmark's (integer ramps of 4 and 8 bytes, float64 sine
    /// samples, text, random bytes, zeros), each unfiltered, shuffled and bitshuffled.
    fn inputs(len: usize) -> Vec<(String, Vec<u8>)> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        const WORDS: [&str; 9] = [
            "the ", "quick ", "brown ", "fox ", "blosc ", "chunk, ", "of ", "a ", "data. ",
        ];
        let mut text = Vec::with_capacity(len + 8);
        while text.len() < len {
            text.extend_from_slice(WORDS[(next() % 9) as usize].as_bytes());
        }
        text.truncate(len);
        let kinds: [(&str, usize, Vec<u8>); 6] = [
            (
                "ramp-i32",
                4,
                (0..len / 4)
                    .flat_map(|i| (i as u32 * 3).to_le_bytes())
                    .collect(),
            ),
            (
                "ramp-i64",
                8,
                (0..len / 8)
                    .flat_map(|i| (i as u64 * 3).to_le_bytes())
                    .collect(),
            ),
            (
                "sin-f64",
                8,
                (0..len / 8)
                    .flat_map(|i| (i as f64 * 0.001).sin().to_le_bytes())
                    .collect(),
            ),
            ("text", 4, text),
            ("random", 8, (0..len).map(|_| next() as u8).collect()),
            ("zeros", 4, vec![0; len]),
        ];
        let mut out = Vec::new();
        for (name, typesize, data) in kinds {
            let mut shuffled = vec![0; data.len()];
            shuffle(typesize, &data, &mut shuffled);
            let mut bits = vec![0; data.len()];
            bitshuffle(typesize, &data, &mut bits);
            out.push((format!("{name} shuffled"), shuffled));
            out.push((format!("{name} bitshuffled"), bits));
            out.push((name.to_string(), data));
        }
        out
    }

    #[test]
    fn same_streams_as_the_reference_zlib_ng_at_every_level() {
        let Some(lib) = crate::testref::library() else {
            return;
        };
        // SAFETY: zlib-ng 2.3.3 declares `int32_t zng_compress2(uint8_t *dest, size_t
        // *destLen, const uint8_t *source, size_t sourceLen, int32_t level)`.
        let zng_compress2: ZngCompress2 = unsafe { lib.sym("zng_compress2") };
        for len in [40_000, 262_144] {
            for (name, data) in inputs(len) {
                for level in 1..=9 {
                    let mut ours = vec![0u8; 2 * len + 1024];
                    let n = compress(&data, &mut ours, level);
                    let mut theirs = vec![0u8; 2 * len + 1024];
                    let mut theirs_len = theirs.len();
                    // SAFETY: the reference reads `data.len()` bytes of `data` and writes at
                    // most `theirs_len` bytes, the length of `theirs`.
                    let rc = unsafe {
                        zng_compress2(
                            theirs.as_mut_ptr(),
                            &mut theirs_len,
                            data.as_ptr(),
                            data.len(),
                            level,
                        )
                    };
                    assert_eq!(rc, Z_OK, "reference, {name} {len} level {level}");
                    assert!(
                        n > 0 && ours[..n] == theirs[..theirs_len],
                        "{name} {len} level {level}: {n} bytes, the reference {theirs_len}"
                    );
                    let mut back = vec![0u8; len];
                    assert_eq!(
                        decompress(&theirs[..theirs_len], &mut back),
                        Some(data.len())
                    );
                    assert!(back[..data.len()] == data[..], "{name} {len} level {level}");
                }
            }
        }
    }

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
