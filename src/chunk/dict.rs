//! Chunk dictionaries (`use_dict`): built from the filtered blocks of the chunk itself and
//! stored after the block starts, as the reference builds them.
//!
//! The samples are the chunk's blocks after the filter pipeline, one after the other. A
//! zstd dictionary is trained on them (`ZDICT_trainFromBuffer`, see [`regular_samples`] and
//! the VL-block variant, whose samples are the blocks) and digested at level 1; an LZ4
//! dictionary is their first bytes, where the reference's in-place layout leaves the
//! dictionary size at offset `4 * nblocks`. Either is at most `min(32 KiB, nbytes / 20)`
//! bytes; below 256 bytes (or when training fails) no dictionary is used.

use crate::codecs::zstd::{self, CDict};
use crate::constants::*;

/// A dictionary ready for compressing streams.
#[derive(Debug)]
pub(crate) enum EncDict {
    /// Digested zstd dictionary.
    Zstd(CDict),
    /// Raw LZ4 history.
    Lz4(Vec<u8>),
}

/// A chunk dictionary: the bytes stored in the chunk and their compression form.
#[derive(Debug)]
pub(crate) struct ChunkDict {
    /// Bytes stored after the block starts (after their `int32` size).
    pub bytes: Vec<u8>,
    /// The dictionary as the codec uses it.
    pub enc: EncDict,
}

/// The sample sizes zstd training sees for a regular chunk: the first bytes of the filtered
/// blocks cut into `max(8, nblocks * typesize)` samples of `nbytes / count / 16` bytes.
pub(crate) fn regular_samples(nblocks: usize, typesize: usize, nbytes: usize) -> Vec<usize> {
    let count = (nblocks * typesize).max(8);
    vec![nbytes / count / 16; count]
}

/// Builds the dictionary of a chunk of `nbytes` bytes in `nblocks` blocks from `samples`
/// (its filtered blocks), trained for zstd on samples of the sizes `zstd_samples`; `None`
/// when the chunk is to be compressed without one.
pub(crate) fn build(
    compcode: u8,
    samples: &[u8],
    zstd_samples: &[usize],
    nblocks: usize,
    nbytes: usize,
) -> Option<ChunkDict> {
    let maxsize = (MAXDICTSIZE as usize).min(nbytes / 20);
    let useful = MINUSEFULDICT as usize;
    if maxsize < useful || nblocks == 0 {
        return None;
    }
    match compcode {
        ZSTD => {
            let bytes = zstd::train_dict(samples, zstd_samples, maxsize)?;
            if bytes.len() < useful {
                return None;
            }
            let cdict = CDict::new(&bytes, 1)?;
            Some(ChunkDict {
                bytes,
                enc: EncDict::Zstd(cdict),
            })
        }
        LZ4 | LZ4HC => {
            let mut bytes = samples.get(..maxsize)?.to_vec();
            let at = 4 * nblocks;
            for (i, b) in (maxsize as i32).to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at + i) {
                    *slot = b;
                }
            }
            Some(ChunkDict {
                enc: EncDict::Lz4(bytes.clone()),
                bytes,
            })
        }
        _ => None,
    }
}
