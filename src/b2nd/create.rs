//! Creating arrays: filled with special values (zeros, NaNs, uninitialised), with one
//! repeated value, or from a C-order buffer.

use std::borrow::BorrowMut;

use super::array::Array;
use super::Geometry;
use crate::error::{Error, Result};
use crate::schunk::{Storage, SuperChunk};
use crate::special::{repeatval_chunk, Special};

/// Everything needed to create an array.
#[derive(Clone)]
pub struct Params {
    /// Storage of the super-chunk (its `cparams.blocksize` is replaced by the block size).
    pub storage: Storage,
    /// Shapes of the array, its chunks and blocks.
    pub geometry: Geometry,
    /// Data type description (`None` writes the default `|u1`).
    pub dtype: Option<String>,
    /// Format of the data type description.
    pub dtype_format: i8,
    /// Extra fixed-length metalayers (name, content) added after "b2nd".
    pub metalayers: Vec<(String, Vec<u8>)>,
}

impl Params {
    /// Parameters for an array of `geometry` in `storage`, dtype `|S<typesize>`.
    pub fn new(storage: Storage, geometry: Geometry) -> Params {
        let dtype = format!("|S{}", storage.cparams.typesize);
        Params {
            storage,
            geometry,
            dtype: Some(dtype),
            dtype_format: 0,
            metalayers: Vec::new(),
        }
    }

    /// The storage with the block size the geometry forces.
    pub fn effective_storage(&self) -> Result<Storage> {
        let mut storage = self.storage.clone();
        let ts = storage.cparams.typesize;
        if ts <= 0 {
            return Err(Error::InvalidParam);
        }
        storage.cparams.blocksize = self.geometry.block_nbytes(ts)?;
        Ok(storage)
    }
}

impl Array<SuperChunk> {
    /// A new array whose chunks are all special chunks of `kind` (stored as such, no data).
    /// `Error::Data` for NaNs unless the typesize is 4 or 8; `Error::Failure` when the
    /// storage path exists already (nothing is overwritten, as in the reference).
    pub fn special(params: &Params, kind: Special) -> Result<Array> {
        let storage = params.effective_storage()?;
        let ts = storage.cparams.typesize;
        if kind == Special::Nans && ts != 4 && ts != 8 {
            return Err(Error::Data);
        }
        if storage.urlpath.as_ref().is_some_and(|p| p.exists()) {
            return Err(Error::Failure);
        }
        let g = params.geometry.clone();
        let chunksize = g.chunk_nbytes(ts)?;
        let mut sc = SuperChunk::new(storage)?;
        sc.chunksize = chunksize;
        let mut array = Array {
            sc,
            geom: g.clone(),
            dtype: params.dtype.clone(),
            dtype_format: params.dtype_format,
        };
        array.set_geometry(g.clone())?;
        for (name, content) in &params.metalayers {
            array
                .sc
                .meta_add(name, content)
                .map_err(|_| Error::Failure)?;
        }
        let nchunks = g.nchunks();
        if nchunks > 0 {
            let nitems = nchunks
                .checked_mul(g.extchunknitems())
                .ok_or(Error::InvalidParam)?;
            array.sc.fill_special(nitems, kind, chunksize)?;
        }
        Ok(array)
    }

    /// A new array of zeros.
    pub fn zeros(params: &Params) -> Result<Array> {
        Array::special(params, Special::Zeros)
    }

    /// A new array of NaNs (typesize 4 or 8).
    pub fn nans(params: &Params) -> Result<Array> {
        Array::special(params, Special::Nans)
    }

    /// A new array with unspecified content.
    pub fn uninit(params: &Params) -> Result<Array> {
        Array::special(params, Special::Uninit)
    }

    /// A new array with every item equal to `value` (`typesize` bytes).
    pub fn full(params: &Params, value: &[u8]) -> Result<Array> {
        let mut array = Array::zeros(params)?;
        array.fill_value(value)?;
        Ok(array)
    }

    /// A new array holding `buf` (C order, at least `nitems * typesize` bytes).
    pub fn from_buffer(params: &Params, buf: &[u8]) -> Result<Array> {
        let mut array = Array::zeros(params)?;
        array.check_whole_buffer(buf.len())?;
        array.set_buffer(buf)?;
        Ok(array)
    }
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Replaces every chunk with one repeating the `typesize`-byte `value`.
    pub fn fill_value(&mut self, value: &[u8]) -> Result<()> {
        let ts = self.typesize() as usize;
        let value = value.get(..ts).ok_or(Error::InvalidParam)?;
        let nbytes = self.geom.chunk_nbytes(self.typesize())?;
        let sc = self.sc.borrow_mut();
        let mut chunk = vec![0u8; 32 + ts];
        let len = repeatval_chunk(&sc.cparams(), nbytes, value, &mut chunk)
            .map_err(|_| Error::Failure)?;
        chunk.truncate(len);
        for n in 0..sc.nchunks() {
            sc.update_chunk(n, &chunk).map_err(|_| Error::Failure)?;
        }
        Ok(())
    }

    /// Fails with `InvalidParam` when `len` bytes cannot hold the whole array.
    pub fn check_whole_buffer(&self, len: usize) -> Result<()> {
        let need = self
            .geom
            .nitems()
            .checked_mul(i64::from(self.typesize()))
            .ok_or(Error::InvalidParam)?;
        if (len as u64) < need as u64 {
            return Err(Error::InvalidParam);
        }
        Ok(())
    }
}
