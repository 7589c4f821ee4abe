//! Lazy reads of chunks stored in file-backed contiguous frames: only the header, the
//! block starts, the dictionary and the blocks covering a byte range are read (small chunks
//! come whole with their header); the rest of the returned chunk stays zero and is never
//! decoded by a range read.

use super::CFrame;
use crate::chunk::Header;
use crate::constants::{EXTENDED_HEADER_LENGTH, NO_SPECIAL};
use crate::error::{Error, Result};

/// A chunk being filled from the stream: the bytes below `have` are already read.
struct Partial {
    pos: u64,
    out: Vec<u8>,
    have: usize,
}

impl Partial {
    /// Reads bytes `a..b` of the chunk unless they are in hand.
    fn fill(&mut self, f: &mut CFrame, a: usize, b: usize) -> Result<()> {
        let a = a.max(self.have);
        if a < b {
            let dst = self.out.get_mut(a..b).ok_or(Error::InvalidHeader)?;
            f.read_at(self.pos + a as u64, dst)?;
        }
        Ok(())
    }
}

/// Whether a range read ending at byte `hi` may skip blocks of the chunk whose first bytes
/// are `head`.
fn range_readable(head: &[u8], hi: usize) -> Result<bool> {
    let h = Header::parse_fields(head)?;
    Ok(h.is_extended()
        && !h.is_vl()
        && !h.is_lazy()
        && h.special() == NO_SPECIAL
        && hi <= h.nbytes.max(0) as usize)
}

impl CFrame {
    /// The chunk at `offset`, holding what decoding its bytes `lo..hi` needs.
    pub fn read_chunk_range(&mut self, offset: u64, lo: usize, hi: usize) -> Result<Vec<u8>> {
        if self.as_slice().is_some() {
            return Ok(self.read_chunk(offset)?.into_owned());
        }
        let (pos, cbytes, head) = self.chunk_head(offset, super::cframe::READ_AHEAD)?;
        if head.len() == cbytes {
            return Ok(head);
        }
        let hl = EXTENDED_HEADER_LENGTH;
        let whole = cbytes < hl || hi <= lo || !range_readable(&head, hi)?;
        if whole {
            return self.complete(pos, cbytes, head);
        }
        let have = head.len();
        let mut out = head;
        out.try_reserve_exact(cbytes - have)
            .map_err(|_| Error::MemoryAlloc)?;
        out.resize(cbytes, 0);
        let mut p = Partial { pos, out, have };
        if self.partial(&mut p, lo, hi)? {
            return Ok(p.out);
        }
        p.out.truncate(p.have);
        self.complete(pos, cbytes, p.out)
    }

    /// Reads the parts of `p` that decoding bytes `lo..hi` needs; false when the chunk must
    /// be read whole.
    fn partial(&mut self, p: &mut Partial, lo: usize, hi: usize) -> Result<bool> {
        let hl = EXTENDED_HEADER_LENGTH;
        let cbytes = p.out.len();
        let h = Header::parse(&p.out)?;
        if h.is_memcpyed() {
            let (a, b) = (hl + lo, hl + hi);
            if b > cbytes {
                return Ok(false);
            }
            p.fill(self, a, b)?;
            return Ok(true);
        }
        let (nblocks, _) = h.nblocks();
        let bs_end = nblocks
            .checked_mul(4)
            .and_then(|n| n.checked_add(hl))
            .filter(|&e| e <= cbytes)
            .ok_or(Error::InvalidHeader)?;
        p.fill(self, hl, bs_end)?;
        let mut data_start = bs_end;
        if h.uses_dict() {
            if bs_end + 4 > cbytes {
                return Ok(false);
            }
            p.fill(self, bs_end, bs_end + 4)?;
            let d = &p.out[bs_end..bs_end + 4];
            let dsize = i32::from_le_bytes([d[0], d[1], d[2], d[3]]);
            let end = usize::try_from(dsize)
                .ok()
                .and_then(|d| d.checked_add(bs_end + 4));
            match end {
                Some(end) if end <= cbytes => {
                    p.fill(self, bs_end + 4, end)?;
                    data_start = end;
                }
                _ => return Ok(false),
            }
        }
        let bstarts: Vec<usize> = p.out[hl..bs_end]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]).max(0) as usize)
            .collect();
        if bstarts.iter().any(|&s| s < data_start || s > cbytes) {
            return Ok(false);
        }
        let mut sorted = bstarts.clone();
        sorted.sort_unstable();
        let bs = h.blocksize.max(1) as usize;
        let mut spans = Vec::new();
        for j in lo / bs..=(hi - 1) / bs {
            let start = *bstarts.get(j).ok_or(Error::InvalidHeader)?;
            let after = sorted.partition_point(|&s| s <= start);
            spans.push((start, sorted.get(after).copied().unwrap_or(cbytes)));
        }
        spans.sort_unstable();
        let mut k = 0;
        while k < spans.len() {
            let (a, mut b) = spans[k];
            k += 1;
            while k < spans.len() && spans[k].0 <= b {
                b = b.max(spans[k].1);
                k += 1;
            }
            p.fill(self, a, b)?;
        }
        Ok(true)
    }
}
