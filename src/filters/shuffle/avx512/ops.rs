//! AVX-512 building blocks shared by the shuffle and bit-shuffle kernels: the in-lane
//! unpack transpose network, constant vectors, and bounds-documented unaligned loads and
//! stores.

#[cfg(target_arch = "x86")]
use std::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// One perfect-shuffle round: register `2i` receives the interleaved low halves, `2i + 1` the
/// interleaved high halves, of registers `i` and `i + R/2` (bytewise, per 128-bit lane).
///
/// Seen as one index `register * 16 + byte` per lane, a round rotates the index bits left by
/// one; `k` rounds over `R = 2^a` registers therefore transpose a `2^k x 2^(a+4-k)` matrix
/// in each of the four lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn round<const R: usize>(x: [__m512i; R]) -> [__m512i; R] {
    let half = R / 2;
    let mut y = x;
    for i in 0..half {
        y[2 * i] = _mm512_unpacklo_epi8(x[i], x[i + half]);
        y[2 * i + 1] = _mm512_unpackhi_epi8(x[i], x[i + half]);
    }
    y
}

/// `count` successive [`round`]s.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn rounds<const R: usize>(mut x: [__m512i; R], count: u32) -> [__m512i; R] {
    for _ in 0..count {
        x = round(x);
    }
    x
}

/// The vector whose bytes are `table`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn from_bytes(table: &[u8; 64]) -> __m512i {
    // SAFETY: `table` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// The vector whose 16-bit words are `table`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn from_words(table: &[u16; 32]) -> __m512i {
    // SAFETY: `table` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// Loads the 64 bytes at `at`.
///
/// # Safety
/// `at + 64 <= src.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn load(src: &[u8], at: usize) -> __m512i {
    debug_assert!(at + 64 <= src.len());
    // SAFETY: the caller guarantees the 64 bytes are in bounds; the load is unaligned.
    unsafe { _mm512_loadu_si512(src.as_ptr().add(at).cast()) }
}

/// Stores 64 bytes at `at`.
///
/// # Safety
/// `at + 64 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn store(dst: &mut [u8], at: usize, v: __m512i) {
    debug_assert!(at + 64 <= dst.len());
    // SAFETY: the caller guarantees the 64 bytes are in bounds; the store is unaligned.
    unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(at).cast(), v) }
}

/// Calls `step(i)` for `i = 0, len, 2 * len, ..` while `i + len <= total`, except that when
/// `head` is non-zero and leaves room for a step, the steps after the first start at
/// `head`: the first step then overlaps the second (which rewrites the same bytes), and
/// every later step starts where its stores are aligned. With `TO_END`, the elements left
/// short of `total` get one more step at `total - len`, overlapping the one before it in the
/// same way (for steps that may start anywhere). Returns where the steps stopped.
#[inline(always)]
pub(crate) fn aligned_steps<const TO_END: bool>(
    total: usize,
    len: usize,
    head: usize,
    mut step: impl FnMut(usize),
) -> usize {
    if total < len {
        return 0;
    }
    let second = match head != 0 && head + len <= total {
        true => head,
        false => len,
    };
    // One call site, so that `step` is inlined.
    let mut i = 0;
    loop {
        step(i);
        let next = if i == 0 { second } else { i + len };
        if next + len <= total {
            i = next;
        } else if TO_END && i + len < total {
            i = total - len;
        } else {
            return i + len;
        }
    }
}
