//! zfp 1.0.1's decoder of a contiguous 1- to 4-dimensional field of `f32` or `f64` in the
//! three lossy modes (fixed rate, precision and accuracy), bit for bit as zfp decodes it:
//! blocks of 4^d values in raster order, each a zero bit (all zero) or a one bit, the
//! common exponent, the bit planes of its negabinary coefficients in sequency order, then
//! the inverse decorrelating transform and the scaling back to floating point.
#![forbid(unsafe_code)]

use super::bits::Bits;
use super::planes::decode_ints;
use super::Mode;

/// Fewest bits of a block in variable-rate modes.
const MIN_BITS: u32 = 1;
/// Most bits of a block in variable-rate modes.
const MAX_BITS: u32 = 16658;
/// Most bit planes.
const MAX_PREC: u32 = 64;
/// Lowest exponent of an `f64` (its smallest subnormal's).
const MIN_EXP: i32 = -1074;

/// A stream's coding parameters (zfp's `minbits`, `maxbits`, `maxprec`, `minexp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Params {
    /// Fewest bits of a block.
    pub(super) minbits: u32,
    /// Most bits of a block.
    pub(super) maxbits: u32,
    /// Most bit planes of a block.
    pub(super) maxprec: u32,
    /// Exponent of the smallest bit plane kept.
    pub(super) minexp: i32,
}

impl Params {
    /// The parameters the plugin sets for `mode` and `meta` on `ndim` dimensions of items of
    /// `typesize` (4 or 8) bytes.
    pub(super) fn new(mode: Mode, meta: u8, ndim: usize, typesize: i32) -> Params {
        let variable = |maxprec, minexp| Params {
            minbits: MIN_BITS,
            maxbits: MAX_BITS,
            maxprec,
            minexp,
        };
        match mode {
            Mode::Accuracy => {
                let tolerance = super::tolerance(meta);
                variable(MAX_PREC, frexp_exponent(tolerance) - 1)
            }
            Mode::Precision => variable(super::precision(meta, ndim), MIN_EXP),
            Mode::Rate => {
                let block = f64::from(1u32 << (2 * ndim));
                let rate = super::rate(meta, typesize);
                // Saturating as C's conversion is for the rates a byte can ask for.
                let bits = (block * rate + 0.5).floor() as u32;
                let least = if typesize == 4 { 1 + 8 } else { 1 + 11 };
                let bits = bits.max(least);
                Params {
                    minbits: bits,
                    maxbits: bits,
                    maxprec: MAX_PREC,
                    minexp: MIN_EXP,
                }
            }
        }
    }
}

/// `e` with `x` = m * 2^e and 0.5 <= |m| < 1 (`frexp`), for a positive finite `x`.
fn frexp_exponent(x: f64) -> i32 {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // Subnormal: the exponent of its highest set bit.
        let mantissa = bits & ((1u64 << 52) - 1);
        MIN_EXP + 64 - mantissa.leading_zeros() as i32
    } else {
        biased - 1022
    }
}

/// The signed integers of the transform (`i32` for `f32`, `i64` for `f64`), wrapping as
/// zfp's compiled arithmetic does.
pub(super) trait Int: Copy + Default {
    /// `a + b`, wrapping.
    fn add(self, b: Self) -> Self;
    /// `a - b`, wrapping.
    fn sub(self, b: Self) -> Self;
    /// `a >> 1`, arithmetic.
    fn half(self) -> Self;
}

macro_rules! int {
    ($t:ty) => {
        impl Int for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self.wrapping_sub(b)
            }
            #[inline(always)]
            fn half(self) -> Self {
                self >> 1
            }
        }
    };
}
int!(i32);
int!(i64);

/// A floating-point type zfp codes.
pub(super) trait Real: Copy + Default {
    /// The transform's integers.
    type I: Int;
    /// Bytes of an item.
    const BYTES: usize;
    /// Bits of the integers.
    const INTPREC: u32;
    /// Bits of a block's exponent.
    const EBITS: usize;
    /// Bias of a block's exponent.
    const EBIAS: i32;
    /// The signed integer of a negabinary one (its low `INTPREC` bits).
    fn from_negabinary(u: u64) -> Self::I;
    /// 2^(e - (INTPREC - 2)): the value of the integers' unit for block exponent `e`.
    fn unit(e: i32) -> Self;
    /// `unit` times `i` (as zfp rounds them).
    fn scale(unit: Self, i: Self::I) -> Self;
    /// Stores the value little-endian in the first `BYTES` bytes of `out`.
    fn store(self, out: &mut [u8]);
}

impl Real for f32 {
    type I = i32;
    const BYTES: usize = 4;
    const INTPREC: u32 = 32;
    const EBITS: usize = 8;
    const EBIAS: i32 = 127;
    #[inline(always)]
    fn from_negabinary(u: u64) -> i32 {
        const MASK: u32 = 0xaaaa_aaaa;
        ((u as u32 ^ MASK).wrapping_sub(MASK)) as i32
    }
    #[inline(always)]
    fn unit(e: i32) -> f32 {
        let e = e - 30;
        if e >= -126 {
            f32::from_bits(((e + 127) as u32) << 23)
        } else if e >= -149 {
            f32::from_bits(1u32 << (e + 149))
        } else {
            0.0
        }
    }
    #[inline(always)]
    fn scale(unit: f32, i: i32) -> f32 {
        unit * i as f32
    }
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        out[..4].copy_from_slice(&self.to_le_bytes());
    }
}

impl Real for f64 {
    type I = i64;
    const BYTES: usize = 8;
    const INTPREC: u32 = 64;
    const EBITS: usize = 11;
    const EBIAS: i32 = 1023;
    #[inline(always)]
    fn from_negabinary(u: u64) -> i64 {
        const MASK: u64 = 0xaaaa_aaaa_aaaa_aaaa;
        ((u ^ MASK).wrapping_sub(MASK)) as i64
    }
    #[inline(always)]
    fn unit(e: i32) -> f64 {
        let e = e - 62;
        if e >= -1022 {
            f64::from_bits(((e + 1023) as u64) << 52)
        } else if e >= -1074 {
            f64::from_bits(1u64 << (e + 1074))
        } else {
            0.0
        }
    }
    #[inline(always)]
    fn scale(unit: f64, i: i64) -> f64 {
        unit * i as f64
    }
    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.to_le_bytes());
    }
}

/// zfp's inverse lifting step on the four values at `i`, `i + s`, `i + 2s`, `i + 3s`.
#[inline(always)]
fn inv_lift<I: Int, const N: usize>(p: &mut [I; N], i: usize, s: usize) {
    let (mut x, mut y, mut z, mut w) = (p[i], p[i + s], p[i + 2 * s], p[i + 3 * s]);
    y = y.add(w.half());
    w = w.sub(y.half());
    y = y.add(w);
    w = w.sub(y.sub(w));
    z = z.add(x);
    x = x.sub(z.sub(x));
    y = y.add(z);
    z = z.sub(y.sub(z));
    w = w.add(x);
    x = x.sub(w.sub(x));
    p[i] = x;
    p[i + s] = y;
    p[i + 2 * s] = z;
    p[i + 3 * s] = w;
}

/// The inverse decorrelating transform of a block of `D` dimensions (`N` = 4^D values):
/// along the slowest dimension first.
#[inline(always)]
fn inv_xform<I: Int, const D: usize, const N: usize>(p: &mut [I; N]) {
    for axis in (0..D).rev() {
        let s = 1usize << (2 * axis);
        for hi in (0..N).step_by(4 * s) {
            for lo in 0..s {
                inv_lift(p, hi + lo, s);
            }
        }
    }
}

/// The coefficient order (sequency) of blocks of 1 to 4 dimensions: position `i` of the
/// coded sequence holds the coefficient at `PERM_d[i]` of the block.
const PERM_1: [u8; 4] = [0, 1, 2, 3];
const PERM_2: [u8; 16] = [0, 1, 4, 5, 2, 8, 6, 9, 3, 12, 10, 7, 13, 11, 14, 15];
const PERM_3: [u8; 64] = [
    0, 1, 4, 16, 20, 17, 5, 2, 8, 32, 21, 6, 18, 24, 9, 33, 36, 3, 12, 48, 22, 25, 37, 40, 34, 10,
    7, 19, 28, 13, 49, 52, 41, 38, 26, 23, 29, 53, 11, 35, 44, 14, 50, 56, 42, 27, 39, 45, 30, 54,
    57, 60, 51, 15, 43, 46, 58, 61, 55, 31, 62, 59, 47, 63,
];
const PERM_4: [u8; 256] = [
    0, 1, 4, 16, 64, 5, 80, 17, 68, 65, 20, 2, 8, 32, 128, 84, 81, 69, 21, 6, 18, 66, 24, 72, 9,
    96, 33, 36, 129, 132, 144, 3, 12, 48, 192, 85, 82, 70, 22, 73, 25, 88, 37, 100, 97, 148, 145,
    133, 10, 160, 34, 136, 130, 40, 7, 19, 67, 28, 76, 13, 112, 49, 52, 193, 196, 208, 86, 89, 101,
    149, 161, 137, 41, 134, 38, 164, 26, 152, 146, 104, 98, 74, 83, 71, 23, 77, 29, 92, 53, 116,
    113, 212, 209, 197, 11, 35, 131, 44, 140, 14, 176, 50, 56, 194, 200, 224, 90, 165, 102, 153,
    150, 105, 168, 162, 138, 42, 87, 93, 117, 213, 27, 75, 99, 39, 135, 147, 108, 45, 141, 156, 30,
    78, 177, 180, 54, 114, 120, 57, 198, 210, 216, 201, 225, 228, 15, 240, 51, 204, 195, 60, 169,
    166, 154, 106, 91, 103, 151, 109, 157, 94, 181, 118, 121, 214, 217, 229, 163, 139, 43, 142, 46,
    172, 58, 184, 178, 232, 226, 202, 241, 205, 61, 199, 55, 244, 31, 220, 211, 124, 115, 79, 170,
    167, 155, 107, 158, 110, 173, 122, 185, 182, 233, 230, 218, 95, 245, 119, 221, 215, 125, 242,
    206, 62, 203, 59, 248, 47, 236, 227, 188, 179, 143, 171, 174, 186, 234, 246, 222, 126, 219,
    123, 249, 111, 237, 231, 189, 183, 159, 252, 243, 207, 63, 175, 250, 187, 238, 235, 190, 253,
    247, 223, 127, 254, 251, 239, 191, 255,
];

/// Decodes one block of `D` dimensions into `block` (raster order, x fastest).
#[inline(always)]
fn decode_block<R: Real, const D: usize, const N: usize, const W: usize>(
    r: &mut Bits,
    p: &Params,
    perm: &[u8; N],
    block: &mut [R; N],
) {
    if !r.bit() {
        *block = [R::default(); N];
        if p.minbits > 1 {
            r.pos += (p.minbits - 1) as usize;
        }
        return;
    }
    let header = 1 + R::EBITS as u32;
    let emax = r.read(R::EBITS) as i32 - R::EBIAS;
    let planes = (emax - p.minexp + 2 * D as i32 + 2).max(0) as u32;
    let maxprec = p.maxprec.min(planes);
    let minbits = p.minbits - header.min(p.minbits);
    let mut coded = [0u64; N];
    let bits = decode_ints::<N, W>(
        r,
        p.maxbits.wrapping_sub(header),
        maxprec,
        R::INTPREC,
        &mut coded,
    );
    if bits < minbits {
        r.pos += (minbits - bits) as usize;
    }
    let mut ints = [R::I::default(); N];
    for (u, &at) in coded.iter().zip(perm) {
        ints[usize::from(at)] = R::from_negabinary(*u);
    }
    inv_xform::<R::I, D, N>(&mut ints);
    let unit = R::unit(emax);
    for (f, &i) in block.iter_mut().zip(&ints) {
        *f = R::scale(unit, i);
    }
}

/// Decodes a field of shape `dims` (fastest first, 1 for unused dimensions) into `out`.
fn decode_field<R: Real, const D: usize, const N: usize, const W: usize>(
    input: &[u8],
    p: &Params,
    perm: &[u8; N],
    dims: [usize; 4],
    out: &mut [u8],
) {
    let mut r = Bits::new(input);
    let [nx, ny, nz, nw] = dims;
    let (sy, sz, sw) = (nx, nx * ny, nx * ny * nz);
    let mut block = [R::default(); N];
    for w in (0..nw).step_by(4) {
        let cw = (nw - w).min(4);
        for z in (0..nz).step_by(4) {
            let cz = (nz - z).min(4);
            for y in (0..ny).step_by(4) {
                let cy = (ny - y).min(4);
                for x in (0..nx).step_by(4) {
                    let cx = (nx - x).min(4);
                    decode_block::<R, D, N, W>(&mut r, p, perm, &mut block);
                    for bw in 0..cw {
                        for bz in 0..cz {
                            for by in 0..cy {
                                let at = x + (y + by) * sy + (z + bz) * sz + (w + bw) * sw;
                                let row = &mut out[at * R::BYTES..(at + cx) * R::BYTES];
                                let first = 4 * by + 16 * bz + 64 * bw;
                                for (o, v) in row
                                    .chunks_exact_mut(R::BYTES)
                                    .zip(&block[first..first + cx])
                                {
                                    v.store(o);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Decodes the zfp stream `input` of a field of `R` with shape `dims` (fastest first, 1
/// to 4 of them, none empty) into `out` (at least the field's bytes).
pub(super) fn decode<R: Real>(input: &[u8], p: &Params, dims: &[usize], out: &mut [u8]) {
    let mut d = [1usize; 4];
    d[..dims.len()].copy_from_slice(dims);
    match dims.len() {
        1 => decode_field::<R, 1, 4, 1>(input, p, &PERM_1, d, out),
        2 => decode_field::<R, 2, 16, 1>(input, p, &PERM_2, d, out),
        3 => decode_field::<R, 3, 64, 1>(input, p, &PERM_3, d, out),
        _ => decode_field::<R, 4, 256, 4>(input, p, &PERM_4, d, out),
    }
}
