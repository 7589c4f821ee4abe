//! Bit shuffle: groups the i-th bit of every element together.
//!
//! For `n = len / typesize` elements, only the first `m = n - n % 8` are transposed: bit `k`
//! of byte `j` of element `i` moves to bit `i % 8` of byte `(8 * j + k) * m / 8 + i / 8`.
//! The remaining bytes are copied unchanged.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
mod scalar;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod sse2;
#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::ops::Range;

use super::cpu::{self, Isa};
use super::shuffle;

/// Bit-shuffles `src` into `dst` (same length) for elements of `typesize` bytes. Only the
/// largest multiple of 8 elements is transposed; the rest is copied unchanged. A `typesize`
/// of 0 copies.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn bitshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    bitshuffle_with(cpu::best(), typesize, src, dst);
}

/// Reverses [`bitshuffle`].
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn bitunshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    bitunshuffle_with(cpu::best(), typesize, src, dst);
}

/// Reverses the bit shuffle of chunks in format version 2 (Blosc1 and early Blosc2), which
/// left blocks whose element count is not a multiple of 8 entirely untransposed: such blocks
/// are copied, others are handled as by [`bitunshuffle`].
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn bitunshuffle_v2(typesize: usize, src: &[u8], dst: &mut [u8]) {
    if typesize != 0 && !(src.len() / typesize).is_multiple_of(8) {
        assert_eq!(
            src.len(),
            dst.len(),
            "bitunshuffle: source and destination lengths differ"
        );
        dst.copy_from_slice(src);
    } else {
        bitunshuffle(typesize, src, dst);
    }
}

/// The bytes of `len` that the bit shuffle transposes: whole elements, in a multiple of 8.
fn transposed_bytes(typesize: usize, len: usize) -> usize {
    match typesize {
        0 => 0,
        _ => {
            let count = len / typesize;
            (count - count % 8) * typesize
        }
    }
}

/// The kernels that transpose the bits of byte planes of `typesize`-byte elements under
/// `isa`: the AVX-512 ones, except for 11- to 31-byte elements other than 16. For those,
/// on the measured Sapphire Rapids core, the AVX-512 kernels are faster while the data
/// stays in the L2 cache but 5% to 30% slower than the AVX2 ones beyond it (4 MiB buffers),
/// so the AVX2 ones are used.
fn bit_isa(isa: Isa, typesize: usize) -> Isa {
    match isa {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Isa::Avx512 | Isa::Avx512Vbmi if (11..=31).contains(&typesize) && typesize != 16 => {
            Isa::Avx2
        }
        _ => isa,
    }
}

/// Elements whose byte planes are staged at once: about 16 KiB, in a multiple of 256, and
/// at least one step of the bit-transpose kernels of `isa`.
fn chunk_elements(isa: Isa, typesize: usize) -> usize {
    let step = match isa {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        Isa::Avx512 | Isa::Avx512Vbmi => 512,
        _ => 256,
    };
    ((16384 / typesize) & !255).max(step)
}

/// The ranges of the `count` elements that are staged at once. The first range is longer
/// by the elements after which the bit rows, which start at address `rows`, reach a 64-byte
/// boundary: when the rows are a multiple of 64 bytes long, the later ranges then read or
/// write whole cache lines of every row. This is skipped when it would make the first range
/// more than half as long again, as its staging area then outgrows the L1 cache.
fn element_ranges(
    isa: Isa,
    typesize: usize,
    count: usize,
    rows: usize,
) -> impl Iterator<Item = Range<usize>> + Clone {
    let chunk = chunk_elements(isa, typesize);
    let lead = Some(8 * ((64 - rows % 64) % 64))
        .filter(|&lead| lead <= chunk / 2)
        .unwrap_or(0);
    let mut start = 0;
    std::iter::from_fn(move || {
        (start < count).then(|| {
            let len = if start == 0 { chunk + lead } else { chunk };
            let range = start..count.min(start + len);
            start = range.end;
            range
        })
    })
}

thread_local! {
    /// The staging memory of this thread's calls, kept from one call to the next (each block
    /// of a chunk is one call: allocating and zeroing it every time cost a third as much as
    /// the transpose of a 16 KiB block).
    static STAGING: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on a 64-byte aligned scratch area of `len` bytes (SIMD stores into it are faster
/// when every plane starts on a cache line), of unspecified content.
fn with_staging<R>(len: usize, f: impl FnOnce(&mut [u8]) -> R) -> R {
    let area = |buffer: &mut Vec<u8>| {
        if buffer.len() < len + 63 {
            buffer.resize(len + 63, 0);
        }
        let skew = (64 - buffer.as_ptr() as usize % 64) % 64;
        f(&mut buffer[skew..skew + len])
    };
    STAGING.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => area(&mut buffer),
        Err(_) => area(&mut Vec::new()),
    })
}

/// [`bitshuffle`] with the kernels of `isa`.
pub(crate) fn bitshuffle_with(isa: Isa, typesize: usize, src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "bitshuffle: source and destination lengths differ"
    );
    let whole = transposed_bytes(typesize, src.len());
    dst[whole..].copy_from_slice(&src[whole..]);
    if whole == 0 {
        return;
    }
    let (src, dst) = (&src[..whole], &mut dst[..whole]);
    let count = whole / typesize;
    let row = count / 8;
    let bits = bit_isa(isa, typesize);
    if typesize == 1 {
        plane_to_rows_with(bits, src, dst, row, 0);
        return;
    }
    let ranges = element_ranges(bits, typesize, count, dst.as_ptr() as usize);
    let longest = ranges.clone().map(|range| range.len()).max().unwrap_or(0);
    with_staging(longest * typesize, |staging| {
        for Range { start: first, end } in ranges {
            let elems = end - first;
            let planes = &mut staging[..elems * typesize];
            let source = &src[first * typesize..end * typesize];
            shuffle::shuffle_rows_with(isa, typesize, source, planes, elems, elems);
            for (plane, rows) in planes
                .chunks_exact(elems)
                .zip(dst.chunks_exact_mut(8 * row))
            {
                plane_to_rows_with(bits, plane, rows, row, first / 8);
            }
        }
    });
}

/// [`bitunshuffle`] with the kernels of `isa`.
pub(crate) fn bitunshuffle_with(isa: Isa, typesize: usize, src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "bitunshuffle: source and destination lengths differ"
    );
    let whole = transposed_bytes(typesize, src.len());
    dst[whole..].copy_from_slice(&src[whole..]);
    if whole == 0 {
        return;
    }
    let (src, dst) = (&src[..whole], &mut dst[..whole]);
    let count = whole / typesize;
    let row = count / 8;
    let bits = bit_isa(isa, typesize);
    if typesize == 1 {
        rows_to_plane_with(bits, src, row, 0, dst);
        return;
    }
    let ranges = element_ranges(bits, typesize, count, src.as_ptr() as usize);
    let longest = ranges.clone().map(|range| range.len()).max().unwrap_or(0);
    with_staging(longest * typesize, |staging| {
        for Range { start: first, end } in ranges {
            let elems = end - first;
            let planes = &mut staging[..elems * typesize];
            for (plane, rows) in planes
                .chunks_exact_mut(elems)
                .zip(src.chunks_exact(8 * row))
            {
                rows_to_plane_with(bits, rows, row, first / 8, plane);
            }
            let target = &mut dst[first * typesize..end * typesize];
            shuffle::unshuffle_rows_with(isa, typesize, planes, target, elems, elems);
        }
    });
}

/// Spreads the byte plane `plane` over the 8 bit rows of `rows` (each `row_stride` bytes),
/// starting at byte `col` of each row, with the kernels of `isa`.
fn plane_to_rows_with(isa: Isa, plane: &[u8], rows: &mut [u8], row_stride: usize, col: usize) {
    let done = match isa {
        Isa::Scalar => 0,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Sse2` is only handed out by `cpu` after detecting SSE2.
        Isa::Sse2 => unsafe { sse2::plane_to_rows(plane, rows, row_stride, col) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Avx2` is only handed out by `cpu` after detecting AVX2.
        Isa::Avx2 => unsafe { avx2::plane_to_rows(plane, rows, row_stride, col) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: both AVX-512 levels are only handed out by `cpu` after detecting AVX-512 F
        // and BW.
        Isa::Avx512 | Isa::Avx512Vbmi => unsafe {
            avx512::plane_to_rows(plane, rows, row_stride, col)
        },
    };
    scalar::plane_to_rows(plane, rows, row_stride, col, done);
}

/// Rebuilds the byte plane `plane` from the 8 bit rows of `rows` (each `row_stride` bytes),
/// starting at byte `col` of each row, with the kernels of `isa`.
fn rows_to_plane_with(isa: Isa, rows: &[u8], row_stride: usize, col: usize, plane: &mut [u8]) {
    let done = match isa {
        Isa::Scalar => 0,
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Sse2` is only handed out by `cpu` after detecting SSE2.
        Isa::Sse2 => unsafe { sse2::rows_to_plane(rows, row_stride, col, plane) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: `Isa::Avx2` is only handed out by `cpu` after detecting AVX2.
        Isa::Avx2 => unsafe { avx2::rows_to_plane(rows, row_stride, col, plane) },
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        // SAFETY: both AVX-512 levels are only handed out by `cpu` after detecting AVX-512 F
        // and BW.
        Isa::Avx512 | Isa::Avx512Vbmi => unsafe {
            avx512::rows_to_plane(rows, row_stride, col, plane)
        },
    };
    scalar::rows_to_plane(rows, row_stride, col, plane, done);
}
