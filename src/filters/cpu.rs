//! Run-time choice of the SIMD instruction set used by the shuffle kernels.

use std::sync::OnceLock;

/// An instruction set a family of kernels is written for.
///
/// Every level implies the ones listed before it: `cpu` only hands out a level after
/// detecting all the features of the levels below it as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// Portable code, available everywhere.
    Scalar,
    /// x86 SSE2 (128-bit vectors).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Sse2,
    /// x86 AVX2 (256-bit vectors).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx2,
    /// x86 AVX-512 F and BW (512-bit vectors with byte and word operations).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx512,
    /// x86 AVX-512 F, BW and VBMI (adds byte permutes across a whole 512-bit vector).
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    Avx512Vbmi,
}

/// The best instruction set of this CPU, detected once.
pub(crate) fn best() -> Isa {
    static BEST: OnceLock<Isa> = OnceLock::new();
    *BEST.get_or_init(|| available().last().copied().unwrap_or(Isa::Scalar))
}

/// Every instruction set this CPU can run, from the most portable to the fastest.
pub(crate) fn available() -> Vec<Isa> {
    #[allow(unused_mut)]
    let mut isas = vec![Isa::Scalar];
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        use std::is_x86_feature_detected as has;
        if has!("sse2") {
            isas.push(Isa::Sse2);
            if has!("avx2") {
                isas.push(Isa::Avx2);
                if has!("avx512f") && has!("avx512bw") {
                    isas.push(Isa::Avx512);
                    if has!("avx512vbmi") {
                        isas.push(Isa::Avx512Vbmi);
                    }
                }
            }
        }
    }
    isas
}
