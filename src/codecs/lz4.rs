//! LZ4 and LZ4HC through liblz4 1.10 as this crate's build script compiles it from the
//! `lz4-sys` crate's source (`oxlz4_*` symbols, see `build_script/lz4.rs`).

use std::ffi::c_void;
use std::os::raw::{c_char, c_int};
use std::ptr::NonNull;

extern "C" {
    #[link_name = "oxlz4_LZ4_createStream"]
    fn LZ4_createStream() -> *mut c_void;
    #[link_name = "oxlz4_LZ4_freeStream"]
    fn LZ4_freeStream(state: *mut c_void) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_fast"]
    fn LZ4_compress_fast(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_decompress_safe"]
    fn LZ4_decompress_safe(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_fast_extState_fastReset"]
    fn LZ4_compress_fast_extState_fastReset(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_createStreamHC"]
    fn LZ4_createStreamHC() -> *mut c_void;
    #[link_name = "oxlz4_LZ4_freeStreamHC"]
    fn LZ4_freeStreamHC(state: *mut c_void) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_HC_extStateHC_fastReset"]
    fn LZ4_compress_HC_extStateHC_fastReset(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        level: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_loadDict"]
    fn LZ4_loadDict(state: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_fast_continue"]
    fn LZ4_compress_fast_continue(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        acceleration: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_resetStreamHC_fast"]
    fn LZ4_resetStreamHC_fast(state: *mut c_void, level: c_int);
    #[link_name = "oxlz4_LZ4_loadDictHC"]
    fn LZ4_loadDictHC(state: *mut c_void, dict: *const c_char, dict_size: c_int) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_HC_continue"]
    fn LZ4_compress_HC_continue(
        state: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_compress_HC"]
    fn LZ4_compress_HC(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        level: c_int,
    ) -> c_int;
    #[link_name = "oxlz4_LZ4_decompress_safe_usingDict"]
    fn LZ4_decompress_safe_usingDict(
        src: *const c_char,
        dst: *mut c_char,
        src_size: c_int,
        dst_capacity: c_int,
        dict_start: *const c_char,
        dict_size: c_int,
    ) -> c_int;
}

/// Largest input liblz4 accepts.
const MAX_INPUT: usize = 0x7E00_0000;

fn len_c(n: usize) -> c_int {
    c_int::try_from(n).unwrap_or(c_int::MAX)
}

/// A reusable LZ4 compression state: compressing with it gives the bytes
/// `LZ4_compress_fast` gives, without clearing a fresh 16 KiB table every call.
#[derive(Debug)]
pub struct State(NonNull<c_void>);

// SAFETY: the state has no thread affinity and is only used through `&mut self`.
unsafe impl Send for State {}

impl State {
    /// Allocates an initialised state; `None` when liblz4 cannot allocate it.
    pub fn new() -> Option<State> {
        // SAFETY: plain constructor returning an initialised stream or NULL.
        NonNull::new(unsafe { LZ4_createStream() }).map(State)
    }

    /// Like [`compress`], reusing this state.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8], accel: i32) -> usize {
        if src.len() > MAX_INPUT {
            return 0;
        }
        // SAFETY: the state was initialised by LZ4_createStream and only ever used by this
        // function (which keeps it "correctly initialised" as liblz4 requires); pointers and
        // lengths describe the live slices.
        let n = unsafe {
            LZ4_compress_fast_extState_fastReset(
                self.0.as_ptr(),
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                len_c(src.len()),
                len_c(dst.len()),
                accel,
            )
        };
        usize::try_from(n).unwrap_or(0)
    }
}

impl State {
    /// Compresses `src` into `dst` with `dict` as the data preceding it; returns the
    /// compressed size, or 0 when it does not fit.
    pub fn compress_with_dict(
        &mut self,
        dict: &[u8],
        src: &[u8],
        dst: &mut [u8],
        accel: i32,
    ) -> usize {
        if src.len() > MAX_INPUT || dict.len() > MAX_INPUT {
            return 0;
        }
        // SAFETY: the state is an initialised stream; loading the dictionary resets it and
        // keeps a reference to `dict`, which stays alive for the compression call that
        // follows; pointers and lengths describe the live slices.
        let n = unsafe {
            let state = self.0.as_ptr();
            LZ4_loadDict(state, dict.as_ptr().cast(), len_c(dict.len()));
            LZ4_compress_fast_continue(
                state,
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                len_c(src.len()),
                len_c(dst.len()),
                accel,
            )
        };
        usize::try_from(n).unwrap_or(0)
    }
}

impl Drop for State {
    fn drop(&mut self) {
        // SAFETY: created by LZ4_createStream and freed exactly once.
        unsafe { LZ4_freeStream(self.0.as_ptr()) };
    }
}

/// A reusable LZ4HC compression state (see [`State`]).
#[derive(Debug)]
pub struct StateHc(NonNull<c_void>);

// SAFETY: as for `State`.
unsafe impl Send for StateHc {}

impl StateHc {
    /// Allocates an initialised state; `None` when liblz4 cannot allocate it.
    pub fn new() -> Option<StateHc> {
        // SAFETY: plain constructor returning an initialised stream or NULL.
        NonNull::new(unsafe { LZ4_createStreamHC() }).map(StateHc)
    }

    /// Like [`compress_hc`], reusing this state.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8], level: i32) -> usize {
        if src.len() > MAX_INPUT {
            return 0;
        }
        // SAFETY: as in `State::compress`, with the HC state from LZ4_createStreamHC.
        let n = unsafe {
            LZ4_compress_HC_extStateHC_fastReset(
                self.0.as_ptr(),
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                len_c(src.len()),
                len_c(dst.len()),
                level,
            )
        };
        usize::try_from(n).unwrap_or(0)
    }
}

impl StateHc {
    /// Like [`State::compress_with_dict`] for LZ4HC at `level`.
    pub fn compress_with_dict(
        &mut self,
        dict: &[u8],
        src: &[u8],
        dst: &mut [u8],
        level: i32,
    ) -> usize {
        if src.len() > MAX_INPUT || dict.len() > MAX_INPUT {
            return 0;
        }
        // SAFETY: as in `State::compress_with_dict`, with the HC stream (reset to `level`
        // before the dictionary is loaded).
        let n = unsafe {
            let state = self.0.as_ptr();
            LZ4_resetStreamHC_fast(state, level);
            LZ4_loadDictHC(state, dict.as_ptr().cast(), len_c(dict.len()));
            LZ4_compress_HC_continue(
                state,
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                len_c(src.len()),
                len_c(dst.len()),
            )
        };
        usize::try_from(n).unwrap_or(0)
    }
}

impl Drop for StateHc {
    fn drop(&mut self) {
        // SAFETY: created by LZ4_createStreamHC and freed exactly once.
        unsafe { LZ4_freeStreamHC(self.0.as_ptr()) };
    }
}

/// Compresses `src` into `dst` with `LZ4_compress_fast` at acceleration `accel`; returns the
/// compressed size, or 0 when it does not fit in `dst`.
pub fn compress(src: &[u8], dst: &mut [u8], accel: i32) -> usize {
    if src.len() > MAX_INPUT {
        return 0;
    }
    // SAFETY: both pointers come from live slices and the lengths passed are theirs
    // (clamped to c_int, which only shrinks the writable window); liblz4 never writes past
    // `dst_capacity` and never reads past `src_size`.
    let n = unsafe {
        LZ4_compress_fast(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            len_c(src.len()),
            len_c(dst.len()),
            accel,
        )
    };
    usize::try_from(n).unwrap_or(0)
}

/// Compresses `src` into `dst` with `LZ4_compress_HC` at `level`; returns the compressed
/// size, or 0 when it does not fit in `dst`.
pub fn compress_hc(src: &[u8], dst: &mut [u8], level: i32) -> usize {
    if src.len() > MAX_INPUT {
        return 0;
    }
    // SAFETY: as in `compress`: pointers and lengths describe the two live slices.
    let n = unsafe {
        LZ4_compress_HC(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            len_c(src.len()),
            len_c(dst.len()),
            level,
        )
    };
    usize::try_from(n).unwrap_or(0)
}

/// Decompresses the LZ4 block `src` into `dst`; returns the number of bytes written, or
/// `None` when the stream is malformed or does not fit.
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    if src.len() > MAX_INPUT || dst.len() > c_int::MAX as usize {
        return None;
    }
    // SAFETY: `LZ4_decompress_safe` is the bounds-checked decoder: it reads at most
    // `src.len()` bytes and writes at most `dst.len()` bytes, for any input.
    let n = unsafe {
        LZ4_decompress_safe(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            len_c(src.len()),
            len_c(dst.len()),
        )
    };
    usize::try_from(n).ok()
}

/// Decompresses the LZ4 block `src` into `dst` using `dict` as prefix history.
pub fn decompress_with_dict(src: &[u8], dst: &mut [u8], dict: &[u8]) -> Option<usize> {
    if src.len() > MAX_INPUT || dst.len() > c_int::MAX as usize || dict.len() > MAX_INPUT {
        return None;
    }
    // SAFETY: bounds-checked decoder; `dict` is a separate live slice only read from, and
    // every length passed is the length of its slice.
    let n = unsafe {
        LZ4_decompress_safe_usingDict(
            src.as_ptr().cast(),
            dst.as_mut_ptr().cast(),
            len_c(src.len()),
            len_c(dst.len()),
            dict.as_ptr().cast(),
            len_c(dict.len()),
        )
    };
    usize::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_limits() {
        let src: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut c = vec![0u8; 20_000];
        let n = compress(&src, &mut c, 1);
        assert!(n > 0 && n < src.len());
        let mut d = vec![0u8; src.len()];
        assert_eq!(decompress(&c[..n], &mut d), Some(src.len()));
        assert_eq!(d, src);
        let nh = compress_hc(&src, &mut c, 9);
        assert!(nh > 0);
        assert_eq!(decompress(&c[..nh], &mut d), Some(src.len()));
        assert_eq!(d, src);
        // Too small an output: 0, not a partial write.
        assert_eq!(compress(&src, &mut c[..10], 1), 0);
        // Truncated stream: error.
        assert_eq!(decompress(&c[..n / 2], &mut d), None);
        // Reused states give the one-shot bytes, call after call.
        let (mut st, mut hc) = (State::new().unwrap(), StateHc::new().unwrap());
        let mut c2 = vec![0u8; 20_000];
        for part in [&src[..], &src[100..5000], &src[..]] {
            let a = compress(part, &mut c, 3);
            assert_eq!(st.compress(part, &mut c2, 3), a);
            assert_eq!(c[..a], c2[..a]);
            let h = compress_hc(part, &mut c, 9);
            assert_eq!(hc.compress(part, &mut c2, 9), h);
            assert_eq!(c[..h], c2[..h]);
        }
    }
}
