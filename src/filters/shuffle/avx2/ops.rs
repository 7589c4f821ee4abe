//! AVX2 building blocks shared by the shuffle and bit-shuffle kernels: the unpack
//! transpose network and bounds-documented unaligned loads and stores.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// One perfect-shuffle round: register `2i` receives the interleaved low halves, `2i + 1` the
/// interleaved high halves, of registers `i` and `i + R/2` (bytewise, per 128-bit lane).
///
/// Seen as one index `register * 16 + byte` per lane, a round rotates the index bits left by
/// one; `k` rounds over `R = 2^a` registers therefore transpose a `2^k x 2^(a+4-k)` matrix.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn round<const R: usize>(x: [__m256i; R]) -> [__m256i; R] {
    let half = R / 2;
    let mut y = x;
    for i in 0..half {
        y[2 * i] = _mm256_unpacklo_epi8(x[i], x[i + half]);
        y[2 * i + 1] = _mm256_unpackhi_epi8(x[i], x[i + half]);
    }
    y
}

/// `count` successive [`round`]s.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn rounds<const R: usize>(mut x: [__m256i; R], count: u32) -> [__m256i; R] {
    for _ in 0..count {
        x = round(x);
    }
    x
}

/// Loads bytes `lo..lo+16` into the low lane and `hi..hi+16` into the high lane.
///
/// # Safety
/// Both ranges must lie inside `src`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load_lanes(src: &[u8], lo: usize, hi: usize) -> __m256i {
    debug_assert!(lo + 16 <= src.len() && hi + 16 <= src.len());
    // SAFETY: the caller guarantees both 16-byte ranges are in bounds; loadu2 does two
    // unaligned loads.
    unsafe { _mm256_loadu2_m128i(src.as_ptr().add(hi).cast(), src.as_ptr().add(lo).cast()) }
}

/// Loads the 32 bytes at `at`.
///
/// # Safety
/// `at + 32 <= src.len()`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load(src: &[u8], at: usize) -> __m256i {
    debug_assert!(at + 32 <= src.len());
    // SAFETY: the caller guarantees the 32 bytes are in bounds; the load is unaligned.
    unsafe { _mm256_loadu_si256(src.as_ptr().add(at).cast()) }
}

/// Stores 32 bytes at `at`.
///
/// # Safety
/// `at + 32 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn store(dst: &mut [u8], at: usize, v: __m256i) {
    debug_assert!(at + 32 <= dst.len());
    // SAFETY: the caller guarantees the 32 bytes are in bounds; the store is unaligned.
    unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(at).cast(), v) }
}

/// Stores 16 bytes at `at`.
///
/// # Safety
/// `at + 16 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn store16(dst: &mut [u8], at: usize, v: __m128i) {
    debug_assert!(at + 16 <= dst.len());
    // SAFETY: the caller guarantees the 16 bytes are in bounds; the store is unaligned.
    unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(at).cast(), v) }
}
