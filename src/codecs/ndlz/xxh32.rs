//! XXH32, the 32-bit xxHash the NDLZ encoder hashes cells and rows with, and the pieces it
//! is made of, so that hashes of byte strings sharing their first 16 bytes share that work.

const P1: u32 = 0x9E37_79B1;
const P2: u32 = 0x85EB_CA77;
const P3: u32 = 0xC2B2_AE3D;
const P4: u32 = 0x27D4_EB2F;
const P5: u32 = 0x1656_67B1;

#[cfg(test)]
fn lane(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

#[inline(always)]
fn round(acc: u32, input: u32) -> u32 {
    acc.wrapping_add(input.wrapping_mul(P2))
        .rotate_left(13)
        .wrapping_mul(P1)
}

/// The four accumulators of XXH32 before any input.
#[inline(always)]
pub(crate) fn start(seed: u32) -> [u32; 4] {
    [
        seed.wrapping_add(P1).wrapping_add(P2),
        seed.wrapping_add(P2),
        seed,
        seed.wrapping_sub(P1),
    ]
}

/// The accumulators after one more stripe given as four little-endian words.
#[inline(always)]
pub(crate) fn stripe_words(v: [u32; 4], w: [u32; 4]) -> [u32; 4] {
    [
        round(v[0], w[0]),
        round(v[1], w[1]),
        round(v[2], w[2]),
        round(v[3], w[3]),
    ]
}

/// The state before the tail of an input shorter than 16 bytes of `len` bytes.
#[inline(always)]
pub(crate) fn short_start(seed: u32, len: u32) -> u32 {
    seed.wrapping_add(P5).wrapping_add(len)
}

/// The accumulators merged into one word (inputs of 16 bytes or more).
#[inline(always)]
pub(crate) fn merge(v: [u32; 4]) -> u32 {
    v[0].rotate_left(1)
        .wrapping_add(v[1].rotate_left(7))
        .wrapping_add(v[2].rotate_left(12))
        .wrapping_add(v[3].rotate_left(18))
}

/// Mixes one 4-byte word of the tail, read little-endian, into `h`.
#[inline(always)]
pub(crate) fn tail_u32(h: u32, w: u32) -> u32 {
    h.wrapping_add(w.wrapping_mul(P3))
        .rotate_left(17)
        .wrapping_mul(P4)
}

/// The final avalanche.
#[inline(always)]
pub(crate) fn avalanche(mut h: u32) -> u32 {
    h ^= h >> 15;
    h = h.wrapping_mul(P2);
    h ^= h >> 13;
    h = h.wrapping_mul(P3);
    h ^ (h >> 16)
}

/// The XXH32 hash of `data` with `seed`.
#[cfg(test)]
pub(crate) fn xxh32(data: &[u8], seed: u32) -> u32 {
    let stripes = data.chunks_exact(16);
    let tail = stripes.remainder();
    let mut h = if data.len() >= 16 {
        let mut v = start(seed);
        for s in stripes {
            v = stripe_words(
                v,
                [
                    lane(&s[..4]),
                    lane(&s[4..8]),
                    lane(&s[8..12]),
                    lane(&s[12..]),
                ],
            );
        }
        merge(v)
    } else {
        seed.wrapping_add(P5)
    };
    h = h.wrapping_add(data.len() as u32);
    let words = tail.chunks_exact(4);
    let bytes = words.remainder();
    for w in words {
        h = tail_u32(h, lane(w));
    }
    for &b in bytes {
        h = h
            .wrapping_add(u32::from(b).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    avalanche(h)
}

#[cfg(test)]
mod tests {
    use super::{avalanche, merge, short_start, start, stripe_words, tail_u32, xxh32};

    #[test]
    fn known_values() {
        // Published XXH32 test vectors.
        assert_eq!(xxh32(b"", 0), 0x02CC_5D05);
        assert_eq!(xxh32(b"a", 0), 0x550D_7456);
        assert_eq!(xxh32(b"abc", 0), 0x32D1_53FF);
        assert_eq!(
            xxh32(b"Nobody inspects the spammish repetition", 0),
            0xE229_3B2F
        );
    }

    #[test]
    fn word_pieces_match_the_byte_hash() {
        let w = [0x0403_0201u32, 0x0807_0605, 0x0C0B_0A09, 0x100F_0E0D];
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let cell = avalanche(merge(stripe_words(start(7), w)).wrapping_add(16));
        assert_eq!(cell, xxh32(&bytes, 7));
        let pair = avalanche(tail_u32(tail_u32(short_start(7, 8), w[0]), w[1]));
        assert_eq!(pair, xxh32(&bytes[..8], 7));
        let triple = avalanche(tail_u32(
            tail_u32(tail_u32(short_start(7, 12), w[0]), w[1]),
            w[2],
        ));
        assert_eq!(triple, xxh32(&bytes[..12], 7));
    }
}
