//! Helpers shared by the filter tests.

use super::cpu::{self, Isa};

/// `len` pseudo-random bytes (SplitMix64), reproducible from `seed`.
pub(crate) fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Every kernel level this build has, from the most portable to the fastest.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
const LEVELS: &[Isa] = &[
    Isa::Scalar,
    Isa::Sse2,
    Isa::Avx2,
    Isa::Avx512,
    Isa::Avx512Vbmi,
];
/// Every kernel level this build has.
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
const LEVELS: &[Isa] = &[Isa::Scalar];

/// The kernel levels `test` can cover: those this CPU runs. Levels of this build the CPU
/// cannot run are named on stderr as not tested, and the test fails if
/// `$BLOSC2_REQUIRE_ISA` (a comma-separated list of level names, or `all`) names one.
pub(crate) fn kernel_levels(test: &str) -> Vec<Isa> {
    let available = cpu::available();
    let required = std::env::var("BLOSC2_REQUIRE_ISA").unwrap_or_default();
    let is_required = |isa: Isa| {
        required.split(',').any(|name| {
            let name = name.trim();
            name.eq_ignore_ascii_case("all") || name.eq_ignore_ascii_case(&format!("{isa:?}"))
        })
    };
    for &isa in LEVELS.iter().filter(|isa| !available.contains(isa)) {
        eprintln!("NOT TESTED in {test}: the {isa:?} kernels (this CPU cannot run them)");
        assert!(
            !is_required(isa),
            "{test}: $BLOSC2_REQUIRE_ISA asks for the {isa:?} kernels, which this CPU cannot run"
        );
    }
    available
}

/// A filter kernel run at a chosen level: `(isa, typesize, src, dst)`.
pub(crate) type LevelKernel = fn(Isa, usize, &[u8], &mut [u8]);

/// Asserts that every level of `levels` after the first (the scalar one) gives the scalar
/// output of `forward` and of `inverse` (`names` name them in failures), for every typesize
/// and element count, on random data with a partial element at the end.
pub(crate) fn assert_levels_match_scalar(
    levels: &[Isa],
    typesizes: impl Iterator<Item = usize>,
    counts: &[usize],
    (forward, inverse): (LevelKernel, LevelKernel),
    names: (&str, &str),
) {
    for typesize in typesizes {
        for (seed, &count) in counts.iter().enumerate() {
            let len = count * typesize + typesize / 2;
            let src = random_bytes(len, (typesize * 100 + seed) as u64);
            let mut forwarded = vec![0; len];
            forward(Isa::Scalar, typesize, &src, &mut forwarded);
            let mut inverted = vec![0; len];
            inverse(Isa::Scalar, typesize, &src, &mut inverted);
            for &isa in &levels[1..] {
                let mut dst = vec![0; len];
                forward(isa, typesize, &src, &mut dst);
                assert!(
                    dst == forwarded,
                    "{isa:?} {} typesize {typesize} len {len}",
                    names.0
                );
                inverse(isa, typesize, &src, &mut dst);
                assert!(
                    dst == inverted,
                    "{isa:?} {} typesize {typesize} len {len}",
                    names.1
                );
            }
        }
    }
}
