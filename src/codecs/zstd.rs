//! Zstandard through the bundled libzstd (`zstd-sys`), with reusable contexts.

use std::ffi::c_void;
use std::ptr::NonNull;

use zstd_sys as z;

fn ok(code: usize) -> Option<usize> {
    // SAFETY: `ZSTD_isError` only inspects the integer it is given.
    if unsafe { z::ZSTD_isError(code) } != 0 {
        None
    } else {
        Some(code)
    }
}

/// A reusable compression context (`ZSTD_CCtx`).
#[derive(Debug)]
pub struct CCtx(NonNull<z::ZSTD_CCtx>);

// SAFETY: a ZSTD_CCtx has no thread affinity; it is only used through `&mut self`, so it is
// never accessed from two threads at once.
unsafe impl Send for CCtx {}

impl CCtx {
    /// Creates a context; `None` when libzstd cannot allocate one.
    pub fn new() -> Option<CCtx> {
        // SAFETY: plain constructor; a NULL result is handled.
        NonNull::new(unsafe { z::ZSTD_createCCtx() }).map(CCtx)
    }

    /// Compresses `src` into `dst` at zstd `level`; returns the compressed size, or 0 when it
    /// fails or does not fit.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8], level: i32) -> usize {
        // SAFETY: the context is valid; libzstd reads `src.len()` bytes and writes at most
        // `dst.len()` bytes of the two live slices.
        let code = unsafe {
            z::ZSTD_compressCCtx(
                self.0.as_ptr(),
                dst.as_mut_ptr().cast(),
                dst.len(),
                src.as_ptr().cast(),
                src.len(),
                level,
            )
        };
        ok(code).unwrap_or(0)
    }
}

impl CCtx {
    /// Compresses `src` into `dst` with a digested dictionary; 0 when it fails or does not
    /// fit.
    pub fn compress_with_dict(&mut self, src: &[u8], dst: &mut [u8], dict: &CDict) -> usize {
        // SAFETY: valid context and dictionary; libzstd reads `src.len()` bytes and writes
        // at most `dst.len()` bytes of the two live slices.
        let code = unsafe {
            z::ZSTD_compress_usingCDict(
                self.0.as_ptr(),
                dst.as_mut_ptr().cast(),
                dst.len(),
                src.as_ptr().cast(),
                src.len(),
                dict.0.as_ptr(),
            )
        };
        ok(code).unwrap_or(0)
    }
}

impl Drop for CCtx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZSTD_createCCtx and is freed exactly once.
        unsafe { z::ZSTD_freeCCtx(self.0.as_ptr()) };
    }
}

/// A reusable decompression context (`ZSTD_DCtx`).
#[derive(Debug)]
pub struct DCtx(NonNull<z::ZSTD_DCtx>);

// SAFETY: as for `CCtx`: no thread affinity, only used through `&mut self`.
unsafe impl Send for DCtx {}

impl DCtx {
    /// Creates a context; `None` when libzstd cannot allocate one.
    pub fn new() -> Option<DCtx> {
        // SAFETY: plain constructor; a NULL result is handled.
        NonNull::new(unsafe { z::ZSTD_createDCtx() }).map(DCtx)
    }

    /// Decompresses the frame `src` into `dst`; `None` when malformed or too large.
    pub fn decompress(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: Option<&DDict>,
    ) -> Option<usize> {
        // SAFETY: valid context (and dictionary, which outlives the call); libzstd's decoder
        // is bounds-checked: it reads at most `src.len()` and writes at most `dst.len()` bytes.
        let code = unsafe {
            match dict {
                Some(d) => z::ZSTD_decompress_usingDDict(
                    self.0.as_ptr(),
                    dst.as_mut_ptr().cast(),
                    dst.len(),
                    src.as_ptr().cast(),
                    src.len(),
                    d.0.as_ptr(),
                ),
                None => z::ZSTD_decompressDCtx(
                    self.0.as_ptr(),
                    dst.as_mut_ptr().cast(),
                    dst.len(),
                    src.as_ptr().cast(),
                    src.len(),
                ),
            }
        };
        ok(code)
    }
}

impl Drop for DCtx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZSTD_createDCtx and is freed exactly once.
        unsafe { z::ZSTD_freeDCtx(self.0.as_ptr()) };
    }
}

/// A digested decompression dictionary (`ZSTD_DDict`), shareable between threads.
#[derive(Debug)]
pub struct DDict(NonNull<z::ZSTD_DDict>);

// SAFETY: a ZSTD_DDict is immutable after creation and documented as shareable by several
// decompression contexts at once.
unsafe impl Send for DDict {}
// SAFETY: see above: only read after creation.
unsafe impl Sync for DDict {}

impl DDict {
    /// Digests `dict` (copied); `None` when libzstd refuses it.
    pub fn new(dict: &[u8]) -> Option<DDict> {
        // SAFETY: libzstd copies `dict.len()` bytes from the live slice.
        NonNull::new(unsafe { z::ZSTD_createDDict(dict.as_ptr().cast::<c_void>(), dict.len()) })
            .map(DDict)
    }
}

impl Drop for DDict {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZSTD_createDDict and is freed exactly once.
        unsafe { z::ZSTD_freeDDict(self.0.as_ptr()) };
    }
}

/// A digested compression dictionary (`ZSTD_CDict`), shareable between threads.
#[derive(Debug)]
pub struct CDict(NonNull<z::ZSTD_CDict>);

// SAFETY: a ZSTD_CDict is immutable after creation and documented as usable by several
// compression contexts at once.
unsafe impl Send for CDict {}
// SAFETY: see above: only read after creation.
unsafe impl Sync for CDict {}

impl CDict {
    /// Digests `dict` (copied) for compression at `level`; `None` when libzstd refuses it.
    pub fn new(dict: &[u8], level: i32) -> Option<CDict> {
        // SAFETY: libzstd copies `dict.len()` bytes from the live slice.
        NonNull::new(unsafe {
            z::ZSTD_createCDict(dict.as_ptr().cast::<c_void>(), dict.len(), level)
        })
        .map(CDict)
    }
}

impl Drop for CDict {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZSTD_createCDict and is freed exactly once.
        unsafe { z::ZSTD_freeCDict(self.0.as_ptr()) };
    }
}

/// Trains a dictionary of at most `capacity` bytes on `samples`, the concatenation of
/// samples of the given sizes (`ZDICT_trainFromBuffer`); `None` when training fails.
pub fn train_dict(samples: &[u8], sizes: &[usize], capacity: usize) -> Option<Vec<u8>> {
    if sizes.iter().sum::<usize>() > samples.len() {
        return None;
    }
    let n = u32::try_from(sizes.len()).ok()?;
    let mut dict = vec![0u8; capacity];
    // SAFETY: libzstd reads the samples (whose sizes add up to at most `samples.len()`,
    // checked above) and writes at most `capacity` bytes into `dict`.
    let code = unsafe {
        z::ZDICT_trainFromBuffer(
            dict.as_mut_ptr().cast(),
            capacity,
            samples.as_ptr().cast(),
            sizes.as_ptr(),
            n,
        )
    };
    // SAFETY: `ZDICT_isError` only inspects the integer it is given.
    if unsafe { z::ZDICT_isError(code) } != 0 {
        return None;
    }
    dict.truncate(code);
    Some(dict)
}

/// Highest zstd compression level (`ZSTD_maxCLevel`).
pub fn max_level() -> i32 {
    // SAFETY: pure function without arguments.
    unsafe { z::ZSTD_maxCLevel() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let src: Vec<u8> = (0..10_000u32).map(|i| (i % 7) as u8).collect();
        let mut c = vec![0u8; 20_000];
        let mut cc = CCtx::new().unwrap();
        let n = cc.compress(&src, &mut c, 3);
        assert!(n > 0 && n < src.len());
        let mut d = vec![0u8; src.len()];
        let mut dc = DCtx::new().unwrap();
        assert_eq!(dc.decompress(&c[..n], &mut d, None), Some(src.len()));
        assert_eq!(d, src);
        assert_eq!(dc.decompress(&c[..n - 1], &mut d, None), None);
        assert_eq!(cc.compress(&src, &mut c[..4], 3), 0);
        assert_eq!(max_level(), 22);
    }
}
