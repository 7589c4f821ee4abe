//! Byte shuffle: groups the i-th byte of every element together.
//!
//! For `n = len / typesize` whole elements, byte `j` of element `i` moves to position
//! `j * n + i`; the `len % typesize` trailing bytes are copied unchanged.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod avx512;
mod scalar;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) mod sse2;
#[cfg(test)]
mod tests;

use super::cpu::{self, Isa};

/// Shuffles `src` into `dst` (same length) for elements of `typesize` bytes; trailing bytes
/// that do not form a whole element are copied unchanged. A `typesize` of 0 or 1 copies.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    shuffle_with(cpu::best(), typesize, src, dst);
}

/// Reverses [`shuffle`]: `dst` receives the elements whose byte planes are in `src`.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    unshuffle_with(cpu::best(), typesize, src, dst);
}

/// [`shuffle`] with the kernels of `isa`.
pub(crate) fn shuffle_with(isa: Isa, typesize: usize, src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "shuffle: source and destination lengths differ"
    );
    let whole = whole_bytes(typesize, src.len());
    if typesize > 1 && whole > 0 {
        let count = whole / typesize;
        shuffle_rows_with(
            isa,
            typesize,
            &src[..whole],
            &mut dst[..whole],
            count,
            count,
        );
    } else {
        dst[..whole].copy_from_slice(&src[..whole]);
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// [`unshuffle`] with the kernels of `isa`.
pub(crate) fn unshuffle_with(isa: Isa, typesize: usize, src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "unshuffle: source and destination lengths differ"
    );
    let whole = whole_bytes(typesize, src.len());
    if typesize > 1 && whole > 0 {
        let count = whole / typesize;
        unshuffle_rows_with(
            isa,
            typesize,
            &src[..whole],
            &mut dst[..whole],
            count,
            count,
        );
    } else {
        dst[..whole].copy_from_slice(&src[..whole]);
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// The first index below 64 at which `addr + index * size` is a multiple of 64, if any: SIMD
/// kernels start their main loop there so that their stores fill whole cache lines.
fn aligned_start(addr: usize, size: usize) -> Option<usize> {
    (0..64).find(|index| (addr + index * size).is_multiple_of(64))
}

/// The bytes of `len` that form whole elements of `typesize` bytes (0 when `typesize` is 0).
fn whole_bytes(typesize: usize, len: usize) -> usize {
    match typesize {
        0 => 0,
        _ => len - len % typesize,
    }
}

/// Writes `dst[j * stride + i] = src[i * typesize + j]` for the first `count` elements of
/// `src`, with the kernels of `isa`. Needs `typesize >= 1`, `count <= stride`,
/// `count * typesize <= src.len()` and `(typesize - 1) * stride + count <= dst.len()`.
pub(crate) fn shuffle_rows_with(
    isa: Isa,
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) {
    let done = match isa {
        Isa::Scalar => 0,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Sse2` is only handed out by `cpu` after detecting SSE2.
        Isa::Sse2 => unsafe { sse2::shuffle_rows(typesize, src, dst, stride, count) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Avx512Vbmi` is only handed out by `cpu` after detecting AVX-512 F,
        // BW and VBMI.
        Isa::Avx512Vbmi if avx512::shuffles_with_vbmi(typesize) => unsafe {
            avx512::shuffle_rows_vbmi(typesize, src, dst, stride, count)
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: every level from `Isa::Avx2` on is only handed out by `cpu` after detecting
        // AVX2 (the AVX-512 levels have no byte-shuffle kernels of their own for the other
        // typesizes).
        Isa::Avx2 | Isa::Avx512 | Isa::Avx512Vbmi => unsafe {
            avx2::shuffle_rows(typesize, src, dst, stride, count)
        },
    };
    scalar::shuffle_rows(typesize, src, dst, stride, done, count);
}

/// Writes `dst[i * typesize + j] = src[j * stride + i]` for the first `count` elements of
/// `dst`, with the kernels of `isa`. Needs `typesize >= 1`, `count <= stride`,
/// `count * typesize <= dst.len()` and `(typesize - 1) * stride + count <= src.len()`.
pub(crate) fn unshuffle_rows_with(
    isa: Isa,
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) {
    let done = match isa {
        Isa::Scalar => 0,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Sse2` is only handed out by `cpu` after detecting SSE2.
        Isa::Sse2 => unsafe { sse2::unshuffle_rows(typesize, src, dst, stride, count) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Avx512Vbmi` is only handed out by `cpu` after detecting AVX-512 F,
        // BW and VBMI.
        Isa::Avx512Vbmi if avx512::unshuffles_with_vbmi(typesize) => unsafe {
            avx512::unshuffle_rows_vbmi(typesize, src, dst, stride, count)
        },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: every level from `Isa::Avx2` on is only handed out by `cpu` after detecting
        // AVX2 (the AVX-512 levels have no byte-shuffle kernels of their own for the other
        // typesizes).
        Isa::Avx2 | Isa::Avx512 | Isa::Avx512Vbmi => unsafe {
            avx2::unshuffle_rows(typesize, src, dst, stride, count)
        },
    };
    scalar::unshuffle_rows(typesize, src, dst, stride, done, count);
}
