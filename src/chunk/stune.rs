//! Automatic blocksize and split decisions, identical to the reference's `stune`.

use crate::constants::*;

/// Whether a codec is one of the high-compression-ratio ones (lz4hc, zlib, zstd).
fn is_hcr(compcode: u8) -> bool {
    matches!(compcode, LZ4HC | ZLIB | ZSTD)
}

/// The reference's `split_block`: whether blocks of `blocksize` bytes are stored as
/// `typesize` separate streams.
pub fn split_block(
    splitmode: i32,
    compcode: u8,
    clevel: u8,
    typesize: i32,
    blocksize: i32,
    has_shuffle: bool,
) -> bool {
    match splitmode {
        ALWAYS_SPLIT => true,
        NEVER_SPLIT => false,
        _ => {
            let codec_ok = matches!(compcode, BLOSCLZ | LZ4) || (compcode == ZSTD && clevel <= 5);
            codec_ok && has_shuffle && typesize <= 16 && typesize > 0 && blocksize / typesize >= 32
        }
    }
}

/// Inputs of the automatic blocksize computation.
#[derive(Debug, Clone, Copy)]
pub struct BlocksizeInput {
    /// Uncompressed size.
    pub nbytes: i32,
    /// Uncapped typesize.
    pub typesize: i32,
    /// Compression level.
    pub clevel: u8,
    /// Codec code.
    pub compcode: u8,
    /// Split mode.
    pub splitmode: i32,
    /// Whether the pipeline has a byte SHUFFLE.
    pub has_shuffle: bool,
    /// Forced blocksize, 0 for automatic.
    pub forced: i32,
}

/// The blocksize compression uses (BEHAVIOUR §3).
pub fn compute_blocksize(p: &BlocksizeInput) -> i32 {
    let nbytes = p.nbytes;
    let ts = p.typesize;
    if nbytes < ts {
        return 1;
    }
    let mut bs;
    if p.forced != 0 {
        bs = p.forced;
    } else {
        let split = split_block(p.splitmode, p.compcode, p.clevel, ts, nbytes, p.has_shuffle);
        bs = nbytes;
        if nbytes >= 32 * 1024 {
            bs = 32 * 1024 * if is_hcr(p.compcode) { 2 } else { 1 };
            bs = match p.clevel {
                0 => bs / 4,
                1 => bs / 2,
                2 => bs,
                3 => bs * 2,
                4 | 5 => bs * 4,
                6..=8 => bs * 8,
                _ => bs * if is_hcr(p.compcode) { 16 } else { 8 },
            };
        }
        if p.clevel > 0 && split {
            let per_ts: i64 = match p.clevel {
                1..=3 => 32 * 1024,
                4..=6 => 64 * 1024,
                7 => 128 * 1024,
                8 => 256 * 1024,
                _ => 512 * 1024,
            };
            let b = (per_ts * i64::from(ts)).clamp(32 * 1024, 4 * 1024 * 1024);
            bs = b as i32;
        }
    }
    if bs > nbytes {
        bs = nbytes;
    }
    if bs > ts {
        bs = bs / ts * ts;
    }
    bs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bs(nbytes: i32, compcode: u8, clevel: u8, ts: i32, splitmode: i32, shuffle: bool) -> i32 {
        compute_blocksize(&BlocksizeInput {
            nbytes,
            typesize: ts,
            clevel,
            compcode,
            splitmode,
            has_shuffle: shuffle,
            forced: 0,
        })
    }

    /// The measured examples of BEHAVIOUR.md §3.
    #[test]
    fn measured_examples() {
        let mib = 1 << 20;
        let f = FORWARD_COMPAT_SPLIT;
        assert_eq!(bs(15, BLOSCLZ, 5, 16, f, true), 1);
        assert_eq!(bs(100, BLOSCLZ, 5, 8, f, true), 96);
        assert_eq!(bs(1000, BLOSCLZ, 5, 8, f, true), 1000);
        assert_eq!(bs(32768, ZSTD, 5, 4, f, true), 32768);
        assert_eq!(bs(100_000, BLOSCLZ, 5, 4, f, true), 100_000);
        assert_eq!(bs(100_000, LZ4, 1, 8, f, false), 16384);
        assert_eq!(bs(262_144, BLOSCLZ, 1, 2, f, true), 65536);
        assert_eq!(bs(mib, BLOSCLZ, 0, 4, f, true), 8192);
        assert_eq!(bs(mib, ZSTD, 0, 4, f, true), 16384);
        assert_eq!(bs(mib, BLOSCLZ, 5, 4, f, true), 262_144);
        assert_eq!(bs(mib, BLOSCLZ, 5, 4, NEVER_SPLIT, true), 131_072);
        assert_eq!(bs(mib, BLOSCLZ, 5, 17, f, true), 131_070);
        assert_eq!(bs(mib, BLOSCLZ, 9, 8, f, true), mib);
        assert_eq!(bs(mib, LZ4, 5, 4, f, false), 131_072);
        assert_eq!(bs(mib, LZ4HC, 5, 4, f, true), 262_144);
        assert_eq!(bs(mib, ZSTD, 5, 4, f, true), 262_144);
        assert_eq!(bs(mib, ZSTD, 1, 16, f, true), 524_288);
        assert_eq!(bs(4 * mib, ZSTD, 9, 8, NEVER_SPLIT, true), mib);
        assert_eq!(bs(16 * mib, BLOSCLZ, 9, 16, f, true), 4 * mib);
    }
}
