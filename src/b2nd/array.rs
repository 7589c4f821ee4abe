//! The [`Array`] type: a super-chunk holding the chunks of an N-dimensional array, with
//! its geometry and data type, and the chunk-level helpers the array operations share.

use std::borrow::BorrowMut;

use super::meta::Meta;
use super::scratch::Pad;
use super::Geometry;
use crate::chunk::Header;
use crate::constants::DELTA;
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// Name of the metalayer describing the array.
pub const META_NAME: &str = "b2nd";
/// Name of the metalayer written by the older caterva library (read only).
pub const LEGACY_META_NAME: &str = "caterva";

/// An N-dimensional array stored in a super-chunk (owned, `S = SuperChunk`, or borrowed,
/// `S = &mut SuperChunk`).
///
/// Chunk `n` of the super-chunk holds the chunk at C-order position `n` of the chunk grid,
/// padded to `extchunkshape` items, block after block in C order, each block in C order.
pub struct Array<S = SuperChunk> {
    pub(crate) sc: S,
    pub(crate) geom: Geometry,
    pub(crate) dtype: Option<String>,
    pub(crate) dtype_format: i8,
}

/// The geometry and data type stored in the "b2nd" (or "caterva") metalayer of `sc`.
pub fn read_meta(sc: &SuperChunk) -> Result<(Geometry, Option<String>, i8)> {
    let content = [META_NAME, LEGACY_META_NAME]
        .iter()
        .find_map(|name| {
            sc.metalayers()
                .iter()
                .find(|m| m.name == *name)
                .map(|m| &m.content)
        })
        .ok_or(Error::MetalayerNotFound)?;
    let (meta, _) = Meta::deserialize(content).map_err(|_| Error::Failure)?;
    let geom = Geometry::new(&meta.shape, &meta.chunkshape, &meta.blockshape)?;
    Ok((geom, meta.dtype, meta.dtype_format))
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Wraps a super-chunk that carries a "b2nd" (or legacy "caterva") metalayer, checking
    /// that its chunks agree with the geometry described there.
    pub fn from_schunk(sc: S) -> Result<Array<S>> {
        let (geom, dtype, dtype_format) = read_meta(sc.borrow())?;
        let mut array = Array {
            sc,
            geom,
            dtype,
            dtype_format,
        };
        array.recover_large_typesize()?;
        array.check_chunks()?;
        Ok(array)
    }

    /// Joins a super-chunk with a geometry and data type, checking that they agree.
    pub fn from_parts(
        sc: S,
        geom: Geometry,
        dtype: Option<String>,
        dtype_format: i8,
    ) -> Result<Array<S>> {
        let mut array = Array {
            sc,
            geom,
            dtype,
            dtype_format,
        };
        array.recover_large_typesize()?;
        array.check_chunks()?;
        Ok(array)
    }

    /// Gives back the item size of a super-chunk whose frame was written anew (the frame
    /// header then holds the one-byte item size 1 of an item above 255 bytes, as the
    /// reference writes it): the chunk size over the items of a chunk.
    fn recover_large_typesize(&mut self) -> Result<()> {
        let items = i64::from(self.geom.chunk_nbytes(1)?);
        let sc = self.sc.borrow_mut();
        let chunksize = i64::from(sc.chunksize());
        if sc.typesize() == 1 && sc.nchunks() > 0 && items > 0 && chunksize > items {
            let itemsize = chunksize / items;
            if chunksize % items == 0 && itemsize > 255 {
                sc.restore_typesize(i32::try_from(itemsize).map_err(|_| Error::Failure)?);
            }
        }
        Ok(())
    }

    /// Fails unless the super-chunk has the number and size of chunks the geometry needs.
    fn check_chunks(&self) -> Result<()> {
        let sc = self.sc.borrow();
        let nbytes = self.geom.chunk_nbytes(sc.typesize())?;
        let nchunks = self.geom.nchunks();
        if sc.nchunks() != nchunks
            || (nchunks > 0 && sc.chunksize() > 0 && sc.chunksize() != nbytes)
        {
            return Err(Error::Failure);
        }
        Ok(())
    }

    /// Splits the array into its super-chunk, geometry, dtype and dtype format.
    pub fn into_parts(self) -> (S, Geometry, Option<String>, i8) {
        (self.sc, self.geom, self.dtype, self.dtype_format)
    }

    /// The super-chunk.
    pub fn schunk(&self) -> &SuperChunk {
        self.sc.borrow()
    }

    /// The super-chunk, mutably.
    pub fn schunk_mut(&mut self) -> &mut SuperChunk {
        self.sc.borrow_mut()
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// Shape of the array.
    pub fn shape(&self) -> &[i64] {
        self.geom.shape()
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.geom.ndim()
    }

    /// Size of an item in bytes.
    pub fn typesize(&self) -> i32 {
        self.sc.borrow().typesize()
    }

    /// The data type description, if any.
    pub fn dtype(&self) -> Option<&str> {
        self.dtype.as_deref()
    }

    /// The format of the data type description.
    pub fn dtype_format(&self) -> i8 {
        self.dtype_format
    }

    /// The metalayer describing this array.
    pub fn meta(&self) -> Meta {
        Meta {
            shape: self.geom.shape().to_vec(),
            chunkshape: self.geom.chunkshape().to_vec(),
            blockshape: self.geom.blockshape().to_vec(),
            dtype: self.dtype.clone(),
            dtype_format: self.dtype_format,
        }
    }

    /// Replaces the geometry (a shape change) and writes it to the "b2nd" metalayer,
    /// adding the metalayer when missing. The chunks are the caller's business.
    pub(crate) fn set_geometry(&mut self, geom: Geometry) -> Result<()> {
        self.geom = geom;
        let bytes = self.meta().serialize()?;
        let sc = self.sc.borrow_mut();
        if sc.meta_exists(META_NAME).is_ok() {
            sc.meta_update(META_NAME, &bytes)
                .map_err(|_| Error::Failure)?;
        } else {
            sc.meta_add(META_NAME, &bytes).map_err(|_| Error::Failure)?;
        }
        Ok(())
    }

    /// Bytes of a stored (padded) chunk.
    pub(crate) fn chunk_bytes(&self) -> Result<usize> {
        Ok(self.geom.chunk_nbytes(self.typesize())? as usize)
    }

    /// Bytes of a block.
    pub(crate) fn block_bytes(&self) -> Result<usize> {
        Ok(self.geom.block_nbytes(self.typesize())? as usize)
    }

    /// Decompresses chunk `n` into `out` (exactly [`Self::chunk_bytes`] long). With `mask`
    /// (one flag per block, `true` = skip), only the other blocks are decoded, and of a
    /// file-backed frame only the bytes they need are read; skipped blocks are left as
    /// they were in `out`.
    pub(crate) fn read_chunk(
        &mut self,
        n: i64,
        mask: Option<&[bool]>,
        out: &mut [u8],
    ) -> Result<()> {
        let len = out.len();
        self.read_chunk_to(n, mask, len, || Ok(out)).map(drop)
    }

    /// As [`Self::read_chunk`], into the working buffer `pad`, sized to `len` (the chunk
    /// bytes) only once the stored chunk's header confirms that size; returns the buffer.
    pub(crate) fn read_chunk_pad<'p>(
        &mut self,
        n: i64,
        mask: Option<&[bool]>,
        pad: &'p mut Pad,
        len: usize,
    ) -> Result<&'p mut [u8]> {
        self.read_chunk_to(n, mask, len, || pad.get(len))
    }

    /// Checks that chunk `n` is stored and holds `len` bytes (`InvalidParam` when missing,
    /// as an update would say; `Failure` for another size, the reference's code for a chunk
    /// it cannot decode there), so that a metalayer's geometry is not trusted before the
    /// chunks confirm it.
    pub(crate) fn check_stored_len(&mut self, n: i64, len: usize) -> Result<()> {
        let sc = self.sc.borrow_mut();
        if n < 0 || n >= sc.nchunks() {
            return Err(Error::InvalidParam);
        }
        if usize::try_from(sc.chunksize()).ok() == Some(len) {
            return Ok(());
        }
        let (chunk, _) = sc.chunk_range_with_dctx(n, 0, 0)?;
        if usize::try_from(Header::parse(&chunk)?.nbytes).ok() != Some(len) {
            return Err(Error::Failure);
        }
        Ok(())
    }

    /// Decodes chunk `n` (`len` bytes once decompressed) into the buffer `out` gives,
    /// which it asks for only after checking the chunk's header.
    fn read_chunk_to<'o>(
        &mut self,
        n: i64,
        mask: Option<&[bool]>,
        len: usize,
        out: impl FnOnce() -> Result<&'o mut [u8]>,
    ) -> Result<&'o mut [u8]> {
        let bs = self.block_bytes()?;
        // DELTA decodes every block against the first one, which must then be decoded.
        let mut owned;
        let mut mask = mask;
        if let Some(m) = mask.filter(|m| m.first() == Some(&true)) {
            if self.schunk().cparams().filters.contains(&DELTA) {
                owned = m.to_vec();
                owned[0] = false;
                mask = Some(&owned);
            }
        }
        let (lo, hi) = match mask {
            Some(m) => {
                let first = m.iter().position(|&skip| !skip).unwrap_or(0);
                let last = m.iter().rposition(|&skip| !skip).unwrap_or(0);
                (first * bs, ((last + 1) * bs).min(len))
            }
            None => (0, len),
        };
        let sc = self.sc.borrow_mut();
        let (chunk, dctx) = sc.chunk_range_with_dctx(n, lo, hi)?;
        let h = Header::parse(&chunk)?;
        if usize::try_from(h.nbytes).ok() != Some(len) {
            return Err(Error::Failure);
        }
        let mut serial = false;
        if let Some(m) = mask {
            if h.filters.contains(&DELTA) && m.first() == Some(&true) {
                drop(chunk);
                return self.read_chunk_to(n, None, len, out);
            }
            if h.nblocks().0 == m.len() {
                dctx.set_maskout(m);
                // Handing one block to a worker pool costs more than decoding it.
                serial = m.iter().filter(|&&skip| !skip).count() < 2;
            }
        }
        let out = out()?;
        let nthreads = dctx.dparams().nthreads;
        if serial {
            dctx.set_nthreads(1);
        }
        let r = dctx.decompress(&chunk, out);
        if serial {
            dctx.set_nthreads(nthreads);
        }
        r?;
        Ok(out)
    }

    /// Compresses `data` (one padded chunk) with the super-chunk's parameters and stores
    /// it as chunk `n`.
    pub(crate) fn write_chunk(&mut self, n: i64, data: &[u8]) -> Result<()> {
        self.sc.borrow_mut().compress_update(n, data).map(drop)
    }
}
