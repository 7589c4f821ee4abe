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
    *out = [0; N];
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
    // Planes of up to 16 coefficients are gathered eight at a time as bytes per
    // coefficient.
    let mut acc = [0u64; 2];
    let mut pending = 0u32;
    // Planes of 64 coefficients are kept whole and transposed at the end.
    let mut planes = [0u64; 64];
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
        if N == 64 {
            planes[k as usize] = x[0];
            continue;
        }
        if N > 16 {
            // Few of many coefficients have a bit set: visit those.
            let bit = 1u64 << k;
            for (j, &word) in x.iter().enumerate() {
                let mut v = word;
                while v != 0 {
                    out[64 * j + v.trailing_zeros() as usize] |= bit;
                    v &= v - 1;
                }
            }
            continue;
        }
        // The plane's bits join the coefficients' bytes of pending planes.
        for (g, a) in acc.iter_mut().enumerate().take(N.div_ceil(8)) {
            let byte = (x[g / 8] >> (8 * (g % 8))) & 0xff;
            *a = *a << 1 | SPREAD[byte as usize];
        }
        pending += 1;
        if pending == 8 {
            flush::<N>(&mut acc, pending, out);
            pending = 0;
        }
    }
    if N == 64 {
        if intprec == 32 {
            transpose_32x2(&mut planes);
        } else {
            transpose_64(&mut planes);
        }
        for (i, u) in out.iter_mut().enumerate() {
            *u = if intprec == 32 {
                (planes[i % 32] >> (32 * (i / 32))) & 0xffff_ffff
            } else {
                planes[i]
            };
        }
    } else if N <= 16 {
        flush::<N>(&mut acc, pending, out);
        if k < 64 {
            for u in out.iter_mut() {
                *u <<= k;
            }
        }
    }
    (r.pos - start) as u32
}

/// Byte `j` of `SPREAD[b]` is bit `j` of `b`.
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b] |= ((b as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    t
};

/// Appends the `pending` (at most 8) planes gathered in `acc` (byte `i % 8` of word
/// `i / 8`: coefficient `i`'s bits, the earliest plane highest) to the low end of the
/// coefficients, and clears `acc`.
#[inline(always)]
fn flush<const N: usize>(acc: &mut [u64; 2], pending: u32, out: &mut [u64; N]) {
    if pending == 0 {
        return;
    }
    for (i, u) in out.iter_mut().enumerate() {
        let byte = (acc[i / 8] >> (8 * (i % 8))) & 0xff;
        *u = *u << pending | byte;
    }
    *acc = [0; 2];
}

/// Transposes the 64 x 64 bit matrix `a` (row `r` is `a[r]`, column `c` its bit `c`).
#[inline(always)]
fn transpose_64(a: &mut [u64; 64]) {
    transpose_steps(a, 32, 0x0000_0000_ffff_ffff);
}

/// Transposes the two 32 x 32 bit matrices in rows 0 to 31 of `a`: the low halves and the
/// high halves of the words.
#[inline(always)]
fn transpose_32x2(a: &mut [u64; 64]) {
    transpose_steps(a, 16, 0x0000_ffff_0000_ffff);
}

/// Swaps the off-diagonal blocks of size `j`, then `j / 2`, down to 1, of the square bit
/// matrices of rows `0..2j` of `a`, `mask` selecting the low half of each block pair's
/// bits first.
#[inline(always)]
fn transpose_steps(a: &mut [u64; 64], first: usize, mask: u64) {
    let mut j = first;
    let mut m = mask;
    while j > 0 {
        for base in (0..2 * first).step_by(2 * j) {
            for k in base..base + j {
                let t = ((a[k] >> j) ^ a[k + j]) & m;
                a[k + j] ^= t;
                a[k] ^= t << j;
            }
        }
        j /= 2;
        m ^= m << j;
    }
}
