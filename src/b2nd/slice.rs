//! Reading and writing boxes of items (`[start, stop)` per dimension) between an array and
//! C-order buffers: only the chunks a box touches are visited, only the blocks it touches
//! are decoded, and only touched chunks are rewritten.

use std::borrow::BorrowMut;
use std::sync::{Mutex, PoisonError};

use super::array::{read_meta, Array};
use super::copy::{box_span, copy_box, Side};
use super::geometry::{c_strides, flatten, Geometry};
use super::meta::MAX_DIM;
use super::scratch::with_pad;
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;
use crate::threads::{FirstError, Pool};

/// Smallest chunk whose blocks are gathered from a slice on several threads: below it,
/// handing the blocks out costs about what a second thread saves.
const PARALLEL_GATHER_MIN: usize = 512 * 1024;

/// How one chunk meets a slice.
pub(crate) struct ChunkPart {
    /// Flat chunk number.
    pub n: i64,
    /// First item of the chunk (array coordinates).
    pub chunk_start: Vec<i64>,
    /// End of the chunk, clipped to the shape.
    pub chunk_stop: Vec<i64>,
    /// First item of the intersection with the slice.
    pub lo: Vec<i64>,
    /// End of the intersection with the slice.
    pub hi: Vec<i64>,
}

impl ChunkPart {
    /// Whether the slice covers the whole (clipped) chunk.
    pub fn is_whole(&self) -> bool {
        self.lo == self.chunk_start && self.hi == self.chunk_stop
    }
}

/// The chunks a checked slice touches, with their intersections.
pub(crate) fn chunk_parts(g: &Geometry, start: &[i64], stop: &[i64]) -> Vec<ChunkPart> {
    g.slice_chunks(start, stop)
        .into_iter()
        .map(|n| {
            let (chunk_start, chunk_stop) = g.chunk_box(&g.chunk_coords(n));
            let lo = chunk_start
                .iter()
                .zip(start)
                .map(|(&a, &b)| a.max(b))
                .collect();
            let hi = chunk_stop
                .iter()
                .zip(stop)
                .map(|(&a, &b)| a.min(b))
                .collect();
            ChunkPart {
                n,
                chunk_start,
                chunk_stop,
                lo,
                hi,
            }
        })
        .collect()
}

/// Where one block meets a slice: the block's number in its chunk and, per dimension,
/// the extent of the intersection, its start inside the block and inside the slice.
#[derive(Clone)]
pub(crate) struct BlockPiece {
    /// Block number inside the chunk.
    pub block: usize,
    /// Extent of the intersection.
    pub extent: [i64; MAX_DIM],
    /// Start of the intersection inside the block.
    pub in_block: [i64; MAX_DIM],
    /// Start of the intersection relative to the slice start.
    pub in_slice: [i64; MAX_DIM],
}

/// Calls `f` for every block of the chunk of `part` meeting `[part.lo, part.hi)` (in C
/// order), with the intersection relative to a slice starting at `start`.
pub(crate) fn for_each_block(
    g: &Geometry,
    part: &ChunkPart,
    start: &[i64],
    mut f: impl FnMut(&BlockPiece) -> Result<()>,
) -> Result<()> {
    let n = g.ndim();
    let mut bshape = [0i64; MAX_DIM];
    let mut first = [0i64; MAX_DIM];
    let mut counts = [0i64; MAX_DIM];
    let mut bstride = [0i64; MAX_DIM];
    let per_dim = g.blocks_per_dim();
    for d in 0..n {
        bshape[d] = i64::from(g.blockshape()[d]);
        first[d] = (part.lo[d] - part.chunk_start[d]) / bshape[d];
        counts[d] = (part.hi[d] - 1 - part.chunk_start[d]) / bshape[d] - first[d] + 1;
    }
    let mut acc = 1i64;
    for d in (0..n).rev() {
        bstride[d] = acc;
        acc *= per_dim[d];
    }
    let mut rel = [0i64; MAX_DIM];
    let mut piece = BlockPiece {
        block: 0,
        extent: [0; MAX_DIM],
        in_block: [0; MAX_DIM],
        in_slice: [0; MAX_DIM],
    };
    loop {
        let mut block = 0i64;
        for d in 0..n {
            let bc = first[d] + rel[d];
            block += bc * bstride[d];
            let at = part.chunk_start[d] + bc * bshape[d];
            let lo = part.lo[d].max(at);
            let hi = part.hi[d].min(at + bshape[d]);
            piece.extent[d] = hi - lo;
            piece.in_block[d] = lo - at;
            piece.in_slice[d] = lo - start[d];
        }
        piece.block = block as usize;
        f(&piece)?;
        let mut d = n;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            rel[d] += 1;
            if rel[d] < counts[d] {
                break;
            }
            rel[d] = 0;
        }
    }
}

/// [`for_each_block`] with `gather(piece, block)` for every block of the chunk `data`
/// (blocks of `bb` bytes) meeting the part, the blocks spread over the pool's threads; the
/// first error by block order, if any.
fn gather_in_parallel(
    pool: &Pool,
    g: &Geometry,
    part: &ChunkPart,
    start: &[i64],
    data: &mut [u8],
    bb: usize,
    gather: &(dyn Fn(&BlockPiece, &mut [u8]) -> Result<()> + Sync),
) -> Result<()> {
    let mut pieces = Vec::new();
    for_each_block(g, part, start, |p| {
        pieces.push(p.clone());
        Ok(())
    })?;
    let blocks: Vec<Mutex<&mut [u8]>> = data.chunks_mut(bb).map(Mutex::new).collect();
    let errors = FirstError::new();
    pool.for_each_block(pieces.len(), &|k, _, _| {
        let p = &pieces[k];
        let r = match blocks.get(p.block) {
            Some(b) => gather(p, &mut b.lock().unwrap_or_else(PoisonError::into_inner)),
            None => Err(Error::InvalidParam),
        };
        if let Err(e) = r {
            errors.record(k, e);
        }
    })?;
    errors.into_result()
}

/// Whether blocks laid out in a chunk give the chunk's own C order: every block extent
/// divides the chunk's, and the blocks are 1 along the leading dimensions, then any
/// divisor, then whole chunk extents.
pub(crate) fn blocks_in_c_order(g: &Geometry) -> bool {
    let mut k = 0;
    for d in 0..g.ndim() {
        let (c, b) = (g.chunkshape()[d], g.blockshape()[d]);
        if b == 0 || c % b != 0 || (d > k && c != b) {
            return false;
        }
        if d == k && b == 1 {
            k += 1;
        }
    }
    true
}

/// The byte offset in a buffer of `bufshape` where a box of `extent` at `corner` is one
/// contiguous run, if it is.
fn contiguous_offset(bufshape: &[i64], corner: &[i64], extent: &[i64], ts: usize) -> Option<usize> {
    let lead = extent.iter().position(|&e| e != 1).unwrap_or(extent.len());
    if (lead + 1..extent.len()).any(|d| extent[d] != bufshape[d]) {
        return None;
    }
    Some(flatten(corner, &c_strides(bufshape)) as usize * ts)
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Follows changes another handle made to a file-backed array: re-reads the
    /// super-chunk and takes the new shape. `Error::Data` when the number of dimensions,
    /// the chunk or the block shape changed. Returns whether the shape changed.
    pub fn refresh(&mut self) -> Result<bool> {
        if !self.schunk_mut().resync()? {
            return Ok(false);
        }
        self.reload_meta()
    }

    /// Takes the shape from the super-chunk's metalayer (see [`Self::refresh`]).
    pub(crate) fn reload_meta(&mut self) -> Result<bool> {
        let (geom, _, _) = read_meta(self.schunk())?;
        if geom.ndim() != self.geom.ndim()
            || geom.chunkshape() != self.geom.chunkshape()
            || geom.blockshape() != self.geom.blockshape()
        {
            return Err(Error::Data);
        }
        let changed = geom.shape() != self.geom.shape();
        self.geom = geom;
        Ok(changed)
    }

    /// Checks a slice and a buffer of `bufshape` items holding `len` bytes for it; returns
    /// the slice shape.
    fn check_buffer(
        &self,
        start: &[i64],
        stop: &[i64],
        bufshape: &[i64],
        len: usize,
    ) -> Result<Vec<i64>> {
        let extent = self.geom.slice_extent(start, stop)?;
        let n = self.ndim();
        if bufshape.len() < n || (0..n).any(|d| bufshape[d] < extent[d]) {
            return Err(Error::InvalidParam);
        }
        let ts = self.typesize() as usize;
        let items = extent
            .iter()
            .try_fold(1i64, |a, &e| a.checked_mul(e))
            .ok_or(Error::InvalidParam)?;
        let need = usize::try_from(items)
            .ok()
            .and_then(|i| i.checked_mul(ts))
            .ok_or(Error::InvalidParam)?;
        if need > len {
            return Err(Error::InvalidParam);
        }
        let origin = vec![0i64; n];
        let side = Side {
            shape: &bufshape[..n],
            start: &origin,
        };
        if box_span(&side, &extent, ts)? > len {
            return Err(Error::InvalidParam);
        }
        self.geom.check_bounds(start, stop)?;
        Ok(extent)
    }

    /// Copies the items of `[start, stop)` into `buf`, a C-order buffer of `bufshape`
    /// items, at its origin; the rest of `buf` is zeroed.
    pub fn get_slice_buffer(
        &mut self,
        start: &[i64],
        stop: &[i64],
        buf: &mut [u8],
        bufshape: &[i64],
    ) -> Result<()> {
        self.refresh()?;
        let extent = self.check_buffer(start, stop, bufshape, buf.len())?;
        let ts = self.typesize() as usize;
        let n = self.ndim();
        // What the slice does not cover reads as zeros.
        let exact = extent.iter().product::<i64>() as usize * ts == buf.len()
            && bufshape[..n] == extent[..];
        if !exact {
            buf.fill(0);
        }
        if n == 0 {
            return self.read_chunk(0, None, &mut buf[..ts]);
        }
        if self.geom.nitems() == 0 {
            return Ok(());
        }
        let g = self.geom.clone();
        let n = g.ndim();
        let bufshape = &bufshape[..n];
        let cb = self.chunk_bytes()?;
        let bb = self.block_bytes()?;
        let c_order = blocks_in_c_order(&g);
        let bshape: Vec<i64> = g.blockshape().iter().map(|&b| i64::from(b)).collect();
        let mut mask = vec![true; g.nblocks() as usize];
        with_pad(|pad| {
            for part in chunk_parts(&g, start, stop) {
                let corner: Vec<i64> = (0..n).map(|d| part.lo[d] - start[d]).collect();
                let unclipped = (0..n).all(|d| {
                    part.chunk_stop[d] - part.chunk_start[d] == i64::from(g.chunkshape()[d])
                });
                let whole = part.is_whole();
                if c_order && unclipped && whole {
                    let extent: Vec<i64> = g.chunkshape().iter().map(|&c| i64::from(c)).collect();
                    if let Some(off) = contiguous_offset(bufshape, &corner, &extent, ts) {
                        self.read_chunk(part.n, None, &mut buf[off..off + cb])?;
                        continue;
                    }
                }
                mask.fill(true);
                for_each_block(&g, &part, start, |p| {
                    mask[p.block] = false;
                    Ok(())
                })?;
                let data = self.read_chunk_pad(part.n, Some(&mask), pad, cb)?;
                for_each_block(&g, &part, start, |p| {
                    copy_box(
                        ts,
                        &p.extent[..n],
                        &data[p.block * bb..(p.block + 1) * bb],
                        Side {
                            shape: &bshape,
                            start: &p.in_block[..n],
                        },
                        buf,
                        Side {
                            shape: bufshape,
                            start: &p.in_slice[..n],
                        },
                    )
                })?;
            }
            Ok(())
        })
    }

    /// Writes the items of `[start, stop)` from `buf`, a C-order buffer of `bufshape`
    /// items, read at its origin; rewrites only the chunks the slice touches.
    pub fn set_slice_buffer(
        &mut self,
        start: &[i64],
        stop: &[i64],
        buf: &[u8],
        bufshape: &[i64],
    ) -> Result<()> {
        self.write_slice(start, stop, buf, bufshape, true)
    }

    /// [`Self::set_slice_buffer`]; a chunk the slice covers whole is written anew (zeros in
    /// its padding) when `anew`, else read and rewritten like the others, as the
    /// reference's orthogonal writes do.
    pub(crate) fn write_slice(
        &mut self,
        start: &[i64],
        stop: &[i64],
        buf: &[u8],
        bufshape: &[i64],
        anew: bool,
    ) -> Result<()> {
        self.refresh()?;
        self.check_buffer(start, stop, bufshape, buf.len())?;
        let ts = self.typesize() as usize;
        if self.ndim() == 0 {
            return self.write_chunk(0, &buf[..ts]);
        }
        if self.geom.nitems() == 0 {
            return Ok(());
        }
        let g = self.geom.clone();
        let n = g.ndim();
        let bufshape = &bufshape[..n];
        let cb = self.chunk_bytes()?;
        let bb = self.block_bytes()?;
        let c_order = blocks_in_c_order(&g);
        let bshape: Vec<i64> = g.blockshape().iter().map(|&b| i64::from(b)).collect();
        let pool = self.sc.borrow_mut().cctx.worker_pool();
        with_pad(|pad| {
            for part in chunk_parts(&g, start, stop) {
                let corner: Vec<i64> = (0..n).map(|d| part.lo[d] - start[d]).collect();
                let unclipped = (0..n).all(|d| {
                    part.chunk_stop[d] - part.chunk_start[d] == i64::from(g.chunkshape()[d])
                });
                let whole = anew && part.is_whole();
                if c_order && unclipped && whole {
                    let extent: Vec<i64> = g.chunkshape().iter().map(|&c| i64::from(c)).collect();
                    if let Some(off) = contiguous_offset(bufshape, &corner, &extent, ts) {
                        self.write_chunk(part.n, &buf[off..off + cb])?;
                        continue;
                    }
                }
                let data = if whole {
                    self.check_stored_len(part.n, cb)?;
                    pad.get(cb)?
                } else {
                    self.read_chunk_pad(part.n, None, pad, cb)?
                };
                if whole
                    && !(unclipped
                        && g.extchunkshape()
                            .iter()
                            .zip(g.chunkshape())
                            .all(|(&e, &c)| e == i64::from(c)))
                {
                    // Padding the blocks do not overwrite must be zeros.
                    data.fill(0);
                }
                let gather = |p: &BlockPiece, block: &mut [u8]| {
                    copy_box(
                        ts,
                        &p.extent[..n],
                        buf,
                        Side {
                            shape: bufshape,
                            start: &p.in_slice[..n],
                        },
                        block,
                        Side {
                            shape: &bshape,
                            start: &p.in_block[..n],
                        },
                    )
                };
                match pool.as_deref().filter(|_| cb >= PARALLEL_GATHER_MIN) {
                    Some(pool) => gather_in_parallel(pool, &g, &part, start, data, bb, &gather)?,
                    None => for_each_block(&g, &part, start, |p| {
                        gather(p, &mut data[p.block * bb..(p.block + 1) * bb])
                    })?,
                }
                self.write_chunk(part.n, data)?;
            }
            Ok(())
        })
    }

    /// Copies the whole array into `buf` (C order, at least `nitems * typesize` bytes).
    pub fn to_buffer(&mut self, buf: &mut [u8]) -> Result<()> {
        self.refresh()?;
        let shape = self.shape().to_vec();
        let start = vec![0i64; shape.len()];
        if self.geom.nitems() == 0 {
            return Ok(());
        }
        self.get_slice_buffer(&start, &shape, buf, &shape)
    }

    /// Overwrites the whole array from `buf` (C order, at least `nitems * typesize` bytes).
    pub fn set_buffer(&mut self, buf: &[u8]) -> Result<()> {
        let shape = self.shape().to_vec();
        let start = vec![0i64; shape.len()];
        if self.geom.nitems() == 0 {
            return Ok(());
        }
        self.set_slice_buffer(&start, &shape, buf, &shape)
    }
}
