//! zfp's embedded coding of a block's unsigned (negabinary) coefficients: bit planes from
//! the most significant down, each plane's first bits (those of coefficients already known
//! to be significant) verbatim, the rest run-length coded with group tests, within a budget
//! of bits (when the mode can exceed it) and a number of planes.
#![forbid(unsafe_code)]

use super::bits::{Bits, PEEK_BITS};

/// Whether a block of `size` coefficients could take more than `maxbits` bits at `maxprec`
/// planes, so that decoding must count bits (zfp's `with_maxbits`).
fn with_maxbits(maxbits: u32, maxprec: u32, size: u32) -> bool {
    (maxprec + 1) * size - 1 > maxbits
}

/// Decodes the `N` coefficients (`W` 64-bit words per plane) of integers of `intprec` bits
/// into `out` from `r`, at most `maxprec` planes and (when the mode needs it) `maxbits`
/// bits; returns the bits read.
#[inline(always)]
pub(super) fn decode_ints<const N: usize, const W: usize>(
    r: &mut Bits,
    maxbits: u32,
    maxprec: u32,
    intprec: u32,
    out: &mut [u64; N],
) -> u32 {
    let limit = if with_maxbits(maxbits, maxprec, N as u32) {
        maxbits as usize
    } else {
        usize::MAX / 2
    };
    let start = r.pos;
    let end = start.saturating_add(limit);
    let kmin = intprec.saturating_sub(maxprec);
    let mut k = intprec;
    let mut n = 0usize;
    // Blocks of at most 64 coefficients: the planes, as bit matrices of N columns, packed
    // 64 / N side by side (plane k in row k % N, lane k / N), transposed at the end.
    let mut planes = [0u64; 64];
    // Larger blocks: the set bits deposited plane by plane.
    if N > 64 {
        *out = [0; N];
    }
    while r.pos < end && k > kmin {
        k -= 1;
        let mut x = [0u64; W];
        // The plane's bits of the coefficients already significant.
        let mut m = n.min(end - r.pos);
        for word in x.iter_mut() {
            if m == 0 {
                break;
            }
            let c = m.min(64);
            *word = r.read(c);
            m -= c;
        }
        // Group tests: is any further coefficient significant, and which one is next.
        while r.pos < end && n < N {
            let mut w = r.peek();
            r.pos += 1;
            if w & 1 == 0 {
                break;
            }
            w >>= 1;
            let mut rem = (end - r.pos).min(N - 1 - n);
            while rem > 0 {
                let c = rem.min(PEEK_BITS);
                let t = (w | 1u64 << c).trailing_zeros() as usize;
                if t < c {
                    r.pos += t + 1;
                    n += t;
                    break;
                }
                r.pos += c;
                n += c;
                rem -= c;
                w = r.peek();
            }
            x[n / 64] |= 1u64 << (n % 64);
            n += 1;
        }
        if N <= 64 {
            let k = k as usize;
            planes[k % N] |= x[0] << (N * (k / N) % 64);
        } else {
            let bit = 1u64 << k;
            for (j, &word) in x.iter().enumerate() {
                let mut v = word;
                while v != 0 {
                    out[64 * j + v.trailing_zeros() as usize] |= bit;
                    v &= v - 1;
                }
            }
        }
    }
    if N == 64 && intprec == 32 {
        // Two 32 x 32 matrices: coefficients 0 to 31 in the low halves, 32 to 63 high.
        transpose(&mut planes, 32, 0x0000_ffff_0000_ffff);
        for (i, u) in out.iter_mut().enumerate() {
            *u = (planes[i % 32] >> (32 * (i / 32) % 64)) & 0xffff_ffff;
        }
    } else if N <= 64 {
        let mask = match N {
            4 => 0x3333_3333_3333_3333,
            16 => 0x00ff_00ff_00ff_00ff,
            _ => 0x0000_0000_ffff_ffff,
        };
        transpose(&mut planes, N, mask);
        out.copy_from_slice(&planes[..N]);
    }
    (r.pos - start) as u32
}

/// Transposes the square bit matrices of side `side` (a power of two, at most 64) packed
/// side by side in rows `0..side` of `a` (row `r` of each in `a[r]`, its column `c` in bit
/// `c` of its lane): swaps off-diagonal blocks of `side / 2`, then of half that, down to
/// 1. `mask` selects the low half of every lane.
#[inline(always)]
fn transpose(a: &mut [u64; 64], side: usize, mask: u64) {
    let mut j = side / 2;
    let mut m = mask;
    while j > 0 {
        for base in (0..side).step_by(2 * j) {
            for i in base..base + j {
                let t = ((a[i] >> j) ^ a[i + j]) & m;
                a[i + j] ^= t;
                a[i] ^= t << j;
            }
        }
        j /= 2;
        m ^= m << j;
    }
}
