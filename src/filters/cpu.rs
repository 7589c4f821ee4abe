//! Run-time choice of the SIMD instruction set used by the shuffle kernels.

use std::sync::OnceLock;

/// An instruction set a family of kernels is written for.
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
        if std::is_x86_feature_detected!("sse2") {
            isas.push(Isa::Sse2);
            if std::is_x86_feature_detected!("avx2") {
                isas.push(Isa::Avx2);
            }
        }
    }
    isas
}
