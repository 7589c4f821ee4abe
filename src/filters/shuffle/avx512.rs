//! AVX-512 byte-shuffle kernels: 64 elements per step.
//!
//! The entry points pick, per typesize, the kernel measured fastest on AVX-512 hardware
//! (an Intel Sapphire Rapids core, buffers of 256 KiB and 4 MiB); every other typesize goes
//! to the AVX2 kernels. Elements left over after the 64-element steps go to the AVX2
//! kernels too (32 at a time), so that short buffers keep their vector path.
//!
//! With F and BW only, every typesize goes to the AVX2 kernels: a 512-bit byte unpack
//! costs as much as two 256-bit ones there (which issue on two ports), so the unpack
//! networks gain nothing from wider registers. VBMI's whole-register byte permutes do
//! better: they shuffle elements of 2 to 10 and 16 bytes, and unshuffle elements of 2, 3,
//! 5 to 7 and 9 to 11 bytes, faster than the AVX2 kernels. The narrow kernels' permute
//! count grows with the square of the typesize, which makes them slower than the AVX2
//! kernels beyond these sizes; unshuffling 4, 8 or 16 bytes is faster with the AVX2
//! unpacks.

use super::avx2;

pub(crate) mod ops;
mod vbmi;

/// Elements handled by one step.
const STEP: usize = 64;

/// Whether [`shuffle_rows_vbmi`] has a kernel of its own for `typesize`; callers send the
/// other typesizes straight to the AVX2 kernels.
pub(crate) fn shuffles_with_vbmi(typesize: usize) -> bool {
    matches!(typesize, 2..=10 | 16)
}

/// Whether [`unshuffle_rows_vbmi`] has a kernel of its own for `typesize`; callers send the
/// other typesizes straight to the AVX2 kernels.
pub(crate) fn unshuffles_with_vbmi(typesize: usize) -> bool {
    matches!(typesize, 2 | 3 | 5..=7 | 9..=11)
}

/// Runs `kernel` (which returns how many elements from 0 on it handled), then the AVX2
/// shuffle kernel on the elements it left; returns how many elements were handled.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn then_avx2_shuffle(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
    kernel: impl FnOnce(&[u8], &mut [u8]) -> usize,
) -> usize {
    let done = kernel(src, dst);
    done + avx2::shuffle_rows(
        typesize,
        &src[done * typesize..],
        &mut dst[done..],
        stride,
        count - done,
    )
}

/// Runs `kernel` (which returns how many elements from 0 on it handled), then the AVX2
/// unshuffle kernel on the elements it left; returns how many elements were handled.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn then_avx2_unshuffle(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
    kernel: impl FnOnce(&[u8], &mut [u8]) -> usize,
) -> usize {
    let done = kernel(src, dst);
    done + avx2::unshuffle_rows(
        typesize,
        &src[done..],
        &mut dst[done * typesize..],
        stride,
        count - done,
    )
}

/// Writes `dst[j * stride + i] = src[i * typesize + j]` for the elements from 0 on with the
/// VBMI kernels where they are faster, else the AVX2 ones; returns how many elements were
/// handled (a multiple of 32 not above `count`).
///
/// # Panics
/// If `count > stride`, `count * typesize > src.len()` or
/// `(typesize - 1) * stride + count > dst.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) fn shuffle_rows_vbmi(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let steps = count / STEP;
    if steps == 0 || typesize < 2 {
        return avx2::shuffle_rows(typesize, src, dst, stride, count);
    }
    assert!(count <= stride && count * typesize <= src.len());
    assert!((typesize - 1) * stride + count <= dst.len());
    then_avx2_shuffle(
        typesize,
        src,
        dst,
        stride,
        count,
        |src, dst| match typesize {
            2 => vbmi::shuffle_pow2::<2>(src, dst, stride, steps),
            4 => vbmi::shuffle_pow2::<4>(src, dst, stride, steps),
            8 => vbmi::shuffle_pow2::<8>(src, dst, stride, steps),
            16 => vbmi::shuffle_pow2::<16>(src, dst, stride, steps),
            3 => vbmi::shuffle_narrow::<3>(src, dst, stride, steps),
            5 => vbmi::shuffle_narrow::<5>(src, dst, stride, steps),
            6 => vbmi::shuffle_narrow::<6>(src, dst, stride, steps),
            7 => vbmi::shuffle_narrow::<7>(src, dst, stride, steps),
            9 => vbmi::shuffle_narrow::<9>(src, dst, stride, steps),
            10 => vbmi::shuffle_narrow::<10>(src, dst, stride, steps),
            _ => 0,
        },
    )
}

/// Writes `dst[i * typesize + j] = src[j * stride + i]` for the elements from 0 on with the
/// VBMI kernels where they are faster, else the AVX2 ones; returns how many elements were
/// handled (a multiple of 32 not above `count`). The inverse of [`shuffle_rows_vbmi`].
///
/// # Panics
/// If `count > stride`, `count * typesize > dst.len()` or
/// `(typesize - 1) * stride + count > src.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) fn unshuffle_rows_vbmi(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    count: usize,
) -> usize {
    let steps = count / STEP;
    if steps == 0 || typesize < 2 {
        return avx2::unshuffle_rows(typesize, src, dst, stride, count);
    }
    assert!(count <= stride && count * typesize <= dst.len());
    assert!((typesize - 1) * stride + count <= src.len());
    then_avx2_unshuffle(
        typesize,
        src,
        dst,
        stride,
        count,
        |src, dst| match typesize {
            2 => vbmi::unshuffle_pow2::<2>(src, dst, stride, steps),
            3 => vbmi::unshuffle_narrow::<3>(src, dst, stride, steps),
            5 => vbmi::unshuffle_narrow::<5>(src, dst, stride, steps),
            6 => vbmi::unshuffle_narrow::<6>(src, dst, stride, steps),
            7 => vbmi::unshuffle_narrow::<7>(src, dst, stride, steps),
            9 => vbmi::unshuffle_narrow::<9>(src, dst, stride, steps),
            10 => vbmi::unshuffle_narrow::<10>(src, dst, stride, steps),
            11 => vbmi::unshuffle_narrow::<11>(src, dst, stride, steps),
            _ => 0,
        },
    )
}
