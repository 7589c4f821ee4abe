//! The chunk index: a Blosc2 chunk of little-endian int64 offsets. A negative offset whose
//! top byte has bit 7 set stands for a whole chunk of one special value.

use crate::constants::{BLOSCLZ, MAX_OVERHEAD, NEVER_SPLIT};
use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::special::Special;

/// What an index entry points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A stored chunk at this offset (cframes) or with this file number (sframes).
    Stored(u64),
    /// A chunk of one special value, not stored.
    Special(Special),
}

const SPECIAL_BIT: u8 = 0x80;

/// The index entry for a special chunk.
pub fn special_offset(kind: Special) -> i64 {
    let code: u8 = match kind {
        Special::Zeros => 1,
        Special::Nans => 2,
        Special::Uninit => 4,
    };
    i64::from_le_bytes([0, 0, 0, 0, 0, 0, 0, SPECIAL_BIT | code])
}

/// Interprets an index entry; `Data` for a special entry of no known kind.
pub fn slot(offset: i64) -> Result<Slot> {
    if offset >= 0 {
        return Ok(Slot::Stored(offset as u64));
    }
    // As in the reference, the kind bits are tested one by one (zeros, then uninitialised,
    // then NaN) and the other bits of the entry are ignored.
    let top = offset.to_le_bytes()[7];
    if top & 1 != 0 {
        Ok(Slot::Special(Special::Zeros))
    } else if top & 4 != 0 {
        Ok(Slot::Special(Special::Uninit))
    } else if top & 2 != 0 {
        Ok(Slot::Special(Special::Nans))
    } else {
        Err(Error::Data)
    }
}

/// The parameters the reference compresses an index with whenever a chunk changes: BloscLZ
/// at level 5 with shuffle, 16 KiB blocks, never split.
fn index_cparams() -> CParams {
    CParams {
        typesize: 8,
        nthreads: 1,
        blocksize: 16 * 1024,
        splitmode: NEVER_SPLIT,
        compcode: BLOSCLZ,
        ..CParams::default()
    }
}

/// Compresses the offsets into an index chunk, as the reference does when chunks are
/// appended, inserted, updated, deleted or reordered.
pub fn encode(offsets: &[i64]) -> Result<Vec<u8>> {
    encode_within(offsets, offsets.len())
}

/// As [`encode`], with the output room of an index of `room` entries: the reference
/// compresses the index left by a deletion into the room of the one before, which lets
/// it keep a compressed index a little larger than a copy of the offsets.
fn encode_within(offsets: &[i64], room: usize) -> Result<Vec<u8>> {
    let mut raw = Vec::with_capacity(offsets.len() * 8);
    for o in offsets {
        raw.extend_from_slice(&o.to_le_bytes());
    }
    let mut out = vec![0u8; room.max(offsets.len()) * 8 + MAX_OVERHEAD];
    let mut ctx = Context::compressor(index_cparams());
    let n = ctx.compress(&raw, &mut out)?;
    if n == 0 {
        return Err(Error::WriteBuffer);
    }
    out.truncate(n);
    Ok(out)
}

/// The index of a frame filled with `n` chunks of one special value, as the reference's
/// `blosc2_schunk_fill_special` writes it: a repeated-value chunk made with the
/// super-chunk's `cparams` (its filters) at typesize 8, BloscLZ level 5, 16 KiB blocks.
pub fn encode_filled(cparams: &CParams, kind: Special, n: usize) -> Result<IndexChunk> {
    let offsets = vec![special_offset(kind); n];
    let nbytes = n
        .checked_mul(8)
        .and_then(|b| i32::try_from(b).ok())
        .ok_or(Error::TwoGbLimit)?;
    let params = CParams {
        typesize: 8,
        blocksize: 16 * 1024,
        clevel: 5,
        compcode: BLOSCLZ,
        ..*cparams
    };
    let mut bytes = vec![0u8; 40];
    let len = crate::special::repeatval_chunk(
        &params,
        nbytes,
        &special_offset(kind).to_le_bytes(),
        &mut bytes,
    )?;
    bytes.truncate(len);
    Ok(IndexChunk::new(offsets, bytes))
}

/// The index chunk a frame holds and the offsets it encodes. The reference rewrites its
/// index only when chunks change, so an index read from a frame (or written by
/// `fill_special`) is kept byte for byte until the offsets differ.
#[derive(Debug, Default)]
pub struct IndexChunk {
    /// The offsets `bytes` encodes; `None` until needed for an index read from a frame
    /// (opening a frame then copies no offsets).
    offsets: Option<Vec<i64>>,
    /// How many offsets `bytes` encodes.
    count: usize,
    bytes: Vec<u8>,
}

impl IndexChunk {
    /// The index chunk `bytes` holding `offsets`.
    pub fn new(offsets: Vec<i64>, bytes: Vec<u8>) -> IndexChunk {
        IndexChunk {
            count: offsets.len(),
            offsets: Some(offsets),
            bytes,
        }
    }

    /// The index chunk `bytes` read from a frame, which [`decode`] turns into its `count`
    /// offsets.
    pub fn read(bytes: Vec<u8>, count: usize) -> IndexChunk {
        IndexChunk {
            offsets: (count == 0).then(Vec::new),
            count,
            bytes,
        }
    }

    /// The index chunk to keep for an opened frame: its stored bytes, taken out of `opened`.
    pub fn take_from(opened: &mut super::cframe::Opened) -> IndexChunk {
        let bytes = std::mem::take(&mut opened.index);
        if opened.index_whole {
            IndexChunk::read(bytes, opened.offsets.len())
        } else {
            IndexChunk::new(opened.offsets.clone(), bytes)
        }
    }

    /// The index chunk for `offsets`: the kept one when it holds them, else a new one.
    pub fn bytes_for(&mut self, offsets: &[i64]) -> Result<&[u8]> {
        let kept = match &self.offsets {
            Some(kept) => kept == offsets,
            None => {
                self.count == offsets.len()
                    && decode(&self.bytes, self.count).is_ok_and(|kept| kept == offsets)
            }
        };
        if !kept {
            self.bytes = if offsets.is_empty() {
                Vec::new()
            } else {
                encode_within(offsets, self.count)?
            };
            self.offsets = Some(offsets.to_vec());
            self.count = offsets.len();
        }
        Ok(&self.bytes)
    }
}

/// Largest index (in bytes) decoded with the thread's kept context and buffer; bigger ones
/// get memory of their own, freed afterwards.
const KEPT_INDEX_MAX: usize = 1 << 20;

/// A decompression context and a buffer kept by each thread for decoding indexes, so that
/// opening a frame allocates no working memory.
struct IndexDecoder {
    ctx: Context,
    raw: Vec<u8>,
}

impl IndexDecoder {
    fn new() -> IndexDecoder {
        IndexDecoder {
            ctx: Context::decompressor(DParams {
                nthreads: 1,
                typesize: 8,
            }),
            raw: Vec::new(),
        }
    }

    /// Decodes `chunk` (whose header claims `want` bytes) into offsets.
    fn decode(&mut self, chunk: &[u8], want: usize) -> Result<Vec<i64>> {
        if self.raw.len() < want {
            self.raw.clear();
            self.raw
                .try_reserve_exact(want)
                .map_err(|_| Error::MemoryAlloc)?;
            self.raw.resize(want, 0);
        }
        // Every byte of `raw[..want]` is overwritten: the decoder fills exactly `want`.
        let raw = &mut self.raw[..want];
        let n = self.ctx.decompress(chunk, raw)?;
        if n != want {
            return Err(Error::Data);
        }
        Ok(raw
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect())
    }
}

thread_local! {
    static DECODER: std::cell::RefCell<Option<IndexDecoder>> =
        const { std::cell::RefCell::new(None) };
}

/// Decodes an index chunk holding exactly `nchunks` offsets.
/// An index chunk of the "uninitialised" special kind is refused: it holds no offsets (the
/// reference reads each one into a variable its `blosc2_getitem` then leaves unwritten, so
/// it opens or refuses such a frame depending on stack contents); so is one repeating a
/// value that does not tile an offset, which that `blosc2_getitem` refuses.
pub fn decode(chunk: &[u8], nchunks: usize) -> Result<Vec<i64>> {
    let h = crate::chunk::Header::parse(chunk)?;
    if h.is_extended() && h.special() == crate::constants::SPECIAL_UNINIT {
        return Err(Error::InvalidHeader);
    }
    // The reference reads each offset with `blosc2_getitem`, which refuses 8 bytes that are
    // not a whole number of repeated values (ours returns the right bytes there).
    let width = (h.cbytes.max(0) as usize).saturating_sub(h.header_len());
    if h.special() == crate::constants::SPECIAL_VALUE && width > 0 && 8 % width != 0 {
        return Err(Error::InvalidHeader);
    }
    let want = nchunks.checked_mul(8).ok_or(Error::InvalidHeader)?;
    if h.nbytes < 0 || h.nbytes as usize != want || h.cbytes as usize > chunk.len() {
        return Err(Error::InvalidHeader);
    }
    let chunk = &chunk[..h.cbytes as usize];
    if want > KEPT_INDEX_MAX {
        return IndexDecoder::new().decode(chunk, want);
    }
    let kept = DECODER.try_with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let r = slot
            .get_or_insert_with(IndexDecoder::new)
            .decode(chunk, want);
        if r.is_err() {
            // Hostile indexes may leave big working memory behind: start afresh next time.
            *slot = None;
        }
        Some(r)
    });
    match kept {
        Ok(Some(r)) => r,
        _ => IndexDecoder::new().decode(chunk, want),
    }
}

/// The number of offsets an index chunk holds, from the first 16 bytes of its header
/// (`crate::cbuffer::basic_info`, all the reference reads to count them: an index of no
/// offsets is never decoded, see [`decode`]).
pub fn count(h: &crate::cbuffer::BasicInfo) -> Result<usize> {
    // The reference reads the offsets as 8-byte items and refuses another item size.
    if h.nbytes < 0 || h.nbytes % 8 != 0 || (h.nbytes > 0 && h.typesize != 8) {
        return Err(Error::InvalidHeader);
    }
    Ok(h.nbytes as usize / 8)
}

#[cfg(test)]
mod index_chunk_tests {
    use super::*;

    /// An index chunk holding `offsets` as another writer may have made it (zstd, no
    /// filter): not the bytes [`encode`] gives.
    fn foreign(offsets: &[i64]) -> Vec<u8> {
        let raw: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
        let mut out = vec![0u8; raw.len() + MAX_OVERHEAD];
        let cp = CParams {
            compcode: crate::constants::ZSTD,
            filters: [0; 6],
            ..index_cparams()
        };
        let n = Context::compressor(cp).compress(&raw, &mut out).unwrap();
        out.truncate(n);
        out
    }

    #[test]
    fn an_index_read_from_a_frame_is_kept_until_its_offsets_change() {
        let offsets: Vec<i64> = (0..3000).map(|i| i * 977).collect();
        let stored = foreign(&offsets);
        assert_ne!(stored, encode(&offsets).unwrap());
        let mut index = IndexChunk::read(stored.clone(), offsets.len());
        assert_eq!(index.bytes_for(&offsets).unwrap(), &stored[..]);
        let mut moved = offsets.clone();
        moved[7] += 1;
        assert_eq!(
            index.bytes_for(&moved).unwrap(),
            &encode(&moved).unwrap()[..]
        );
        assert_eq!(
            decode(index.bytes_for(&moved).unwrap(), 3000).unwrap(),
            moved
        );
        // Fewer offsets than the stored index holds: compared by count first.
        let mut index = IndexChunk::read(stored, offsets.len());
        let shorter = &offsets[..2999];
        assert_eq!(
            decode(index.bytes_for(shorter).unwrap(), 2999).unwrap(),
            shorter
        );
    }

    #[test]
    fn an_index_of_no_offsets_is_kept_as_stored() {
        let stored = foreign(&[]);
        let mut index = IndexChunk::read(stored.clone(), 0);
        assert_eq!(index.bytes_for(&[]).unwrap(), &stored[..]);
        assert_eq!(decode(index.bytes_for(&[5]).unwrap(), 1).unwrap(), [5]);
    }
}
