//! Lazy reads of chunks stored in file-backed contiguous frames: only the header, the
//! block starts, the dictionary and the blocks covering a byte range are read; the rest
//! of the returned chunk stays zero and is never decoded by a range read.

use super::CFrame;
use crate::chunk::Header;
use crate::constants::{EXTENDED_HEADER_LENGTH, NO_SPECIAL};
use crate::error::{Error, Result};

impl CFrame {
    /// The chunk at `offset`, holding what decoding its bytes `lo..hi` needs.
    pub fn read_chunk_range(&mut self, offset: u64, lo: usize, hi: usize) -> Result<Vec<u8>> {
        if self.stream().as_slice().is_some() {
            return Ok(self.read_chunk(offset)?.into_owned());
        }
        let (pos, cbytes) = self.chunk_span(offset)?;
        match self.partial(pos, cbytes, lo, hi)? {
            Some(v) => Ok(v),
            None => Ok(self.read_chunk(offset)?.into_owned()),
        }
    }

    /// The partial chunk, or `None` when the chunk must be read whole.
    fn partial(
        &mut self,
        pos: u64,
        cbytes: usize,
        lo: usize,
        hi: usize,
    ) -> Result<Option<Vec<u8>>> {
        let hl = EXTENDED_HEADER_LENGTH;
        if cbytes < hl || hi <= lo {
            return Ok(None);
        }
        let mut out = vec![0u8; cbytes];
        self.read_at(pos, &mut out[..hl])?;
        let h = Header::parse(&out)?;
        if !h.is_extended() || h.is_vl() || h.is_lazy() || h.special() != NO_SPECIAL {
            return Ok(None);
        }
        if hi > h.nbytes.max(0) as usize {
            return Ok(None);
        }
        if h.is_memcpyed() {
            let (a, b) = (hl + lo, hl + hi);
            if b > cbytes {
                return Ok(None);
            }
            self.read_at(pos + a as u64, &mut out[a..b])?;
            return Ok(Some(out));
        }
        let (nblocks, _) = h.nblocks();
        let bs_end = nblocks
            .checked_mul(4)
            .and_then(|n| n.checked_add(hl))
            .filter(|&e| e <= cbytes)
            .ok_or(Error::InvalidHeader)?;
        self.read_at(pos + hl as u64, &mut out[hl..bs_end])?;
        let mut data_start = bs_end;
        if h.uses_dict() {
            if bs_end + 4 > cbytes {
                return Ok(None);
            }
            self.read_at(pos + bs_end as u64, &mut out[bs_end..bs_end + 4])?;
            let dsize = i32::from_le_bytes([
                out[bs_end],
                out[bs_end + 1],
                out[bs_end + 2],
                out[bs_end + 3],
            ]);
            let end = usize::try_from(dsize)
                .ok()
                .and_then(|d| d.checked_add(bs_end + 4));
            match end {
                Some(end) if end <= cbytes => {
                    self.read_at(pos + bs_end as u64 + 4, &mut out[bs_end + 4..end])?;
                    data_start = end;
                }
                _ => return Ok(None),
            }
        }
        let bstarts: Vec<usize> = out[hl..bs_end]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]).max(0) as usize)
            .collect();
        if bstarts.iter().any(|&s| s < data_start || s > cbytes) {
            return Ok(None);
        }
        let bs = h.blocksize.max(1) as usize;
        for j in lo / bs..=(hi - 1) / bs {
            let start = *bstarts.get(j).ok_or(Error::InvalidHeader)?;
            let end = bstarts
                .iter()
                .copied()
                .filter(|&s| s > start)
                .min()
                .unwrap_or(cbytes);
            self.read_at(pos + start as u64, &mut out[start..end])?;
        }
        Ok(Some(out))
    }
}
