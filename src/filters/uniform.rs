//! Whether bytes repeat one 64-byte pattern: the run check made on every stream before it
//! is compressed, and the repeated-element check of blocks.

#[cfg(target_arch = "x86_64")]
use super::cpu::{best, Isa};

/// Whether `data` is `pattern` over and over (the last repetition possibly cut short).
pub(crate) fn repeats(data: &[u8], pattern: &[u8; 64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if matches!(best(), Isa::Avx2 | Isa::Avx512 | Isa::Avx512Vbmi) {
        // SAFETY: this CPU has AVX2 (detected at run time).
        return unsafe { repeats_avx2(data, pattern) };
    }
    repeats_portable(data, pattern)
}

/// Whether every byte of `s` equals the first one.
pub(crate) fn is_run(s: &[u8]) -> bool {
    s.first().is_none_or(|&x| repeats(s, &[x; 64]))
}

/// [`repeats`] in portable code.
fn repeats_portable(data: &[u8], pattern: &[u8; 64]) -> bool {
    let mut chunks = data.chunks_exact(64);
    for c in chunks.by_ref() {
        let diff = c.iter().zip(pattern).fold(0, |acc, (x, y)| acc | (x ^ y));
        if diff != 0 {
            return false;
        }
    }
    let rest = chunks.remainder();
    rest == &pattern[..rest.len()]
}

/// [`repeats`] 128 bytes per step with AVX2 (a scalar loop compares 8 bytes per load, and
/// the check reads every byte of a constant stream, such as the high bytes of small
/// integers after the shuffle).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn repeats_avx2(data: &[u8], pattern: &[u8; 64]) -> bool {
    use std::arch::x86_64::*;
    let p = pattern.as_ptr().cast::<__m256i>();
    // SAFETY: `pattern` is 64 bytes long: two unaligned 32-byte loads inside it.
    let (p0, p1) = unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) };
    let mut chunks = data.chunks_exact(128);
    for c in chunks.by_ref() {
        let at = c.as_ptr().cast::<__m256i>();
        // SAFETY: `c` is 128 bytes long: four unaligned 32-byte loads inside it.
        let [a, b, d, e] = unsafe { [0, 1, 2, 3].map(|i| _mm256_loadu_si256(at.add(i))) };
        let diff = _mm256_or_si256(
            _mm256_or_si256(_mm256_xor_si256(a, p0), _mm256_xor_si256(b, p1)),
            _mm256_or_si256(_mm256_xor_si256(d, p0), _mm256_xor_si256(e, p1)),
        );
        if _mm256_testz_si256(diff, diff) == 0 {
            return false;
        }
    }
    repeats_portable(chunks.remainder(), pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_detected_exactly() {
        assert!(is_run(&[]));
        assert!(is_run(&[7; 100]));
        assert!(is_run(&[0; 3]));
        let mut v = vec![7u8; 100];
        v[99] = 6;
        assert!(!is_run(&v));
        v[99] = 7;
        v[3] = 1;
        assert!(!is_run(&v));
    }

    /// Every length around the vector steps and a difference at every position, checked
    /// by the dispatched and the portable code alike.
    #[test]
    fn a_difference_anywhere_is_found() {
        let pattern: [u8; 64] = std::array::from_fn(|i| (i * 37 + 5) as u8);
        for n in (0..300).chain([1000, 4096, 4097]) {
            let data: Vec<u8> = (0..n).map(|i| pattern[i % 64]).collect();
            assert!(repeats(&data, &pattern), "{n}");
            assert!(repeats_portable(&data, &pattern), "{n}");
            for at in 0..n {
                let mut bad = data.clone();
                bad[at] ^= 0x10;
                assert!(!repeats(&bad, &pattern), "{n} {at}");
                assert!(!repeats_portable(&bad, &pattern), "{n} {at}");
            }
        }
    }
}
