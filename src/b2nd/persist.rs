//! Opening, serialising, saving and copying arrays, and slices into new arrays.

use std::borrow::BorrowMut;
use std::path::Path;
use std::sync::Arc;

use super::array::{Array, META_NAME};
use super::create::Params;
use crate::error::{Error, Result};
use crate::io::Io;
use crate::schunk::{Storage, SuperChunk};

impl Array<SuperChunk> {
    /// Opens the array in the frame file (or sparse-frame directory) at `path`, starting
    /// at byte `offset` of a file.
    pub fn open(path: &Path, offset: u64, io: Option<Arc<dyn Io>>) -> Result<Array> {
        Array::from_schunk(SuperChunk::open(path, offset, io)?)
    }

    /// An in-memory array holding a copy of the contiguous frame `bytes`.
    pub fn from_cframe(bytes: &[u8]) -> Result<Array> {
        Array::from_schunk(SuperChunk::from_cframe(bytes)?.into_memory()?)
    }
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// The array as a contiguous frame.
    pub fn to_cframe(&mut self) -> Result<Vec<u8>> {
        self.schunk_mut().to_cframe()
    }

    /// Writes a copy of the array to `path` (a frame file, or a sparse-frame directory
    /// when `contiguous` is false) with the same parameters and shapes; `Error::Failure`
    /// when `path` exists (nothing is overwritten, as in the reference).
    pub fn save(&mut self, path: &Path, contiguous: bool) -> Result<()> {
        if path.exists() {
            return Err(Error::Failure);
        }
        // As the reference: a copy of the super-chunk into the new storage.
        let storage = Storage {
            contiguous,
            urlpath: Some(path.to_path_buf()),
            io: self.schunk().storage().io.clone(),
            ..Storage::default()
        };
        self.schunk_mut().copy(storage)?;
        Ok(())
    }

    /// The parameters of a new array holding `[start, stop)` of this one: `params` with
    /// the shape `stop - start` (chunk and block shapes, storage and dtype stay its own).
    pub fn slice_params(&self, params: &Params, start: &[i64], stop: &[i64]) -> Result<Params> {
        let extent = self.geom.slice_extent(start, stop)?;
        self.geom.check_bounds(start, start)?;
        if params.geometry.ndim() != self.ndim()
            || params.storage.cparams.typesize != self.typesize()
        {
            return Err(Error::InvalidParam);
        }
        let mut p = params.clone();
        p.geometry = params.geometry.with_shape(&extent)?;
        Ok(p)
    }

    /// Fills this array with the items of `src` starting at `start` (this array's shape
    /// gives the extent), chunk by chunk; what lies beyond `src`'s shape is left as it is.
    pub fn fill_from<T: BorrowMut<SuperChunk>>(
        &mut self,
        src: &mut Array<T>,
        start: &[i64],
    ) -> Result<()> {
        src.refresh()?;
        let n = self.ndim();
        if src.ndim() != n || src.typesize() != self.typesize() || start.len() < n {
            return Err(Error::InvalidParam);
        }
        src.geom.check_bounds(start, start)?;
        let g = self.geom.clone();
        let ts = self.typesize() as usize;
        let mut buf = Vec::new();
        for c in 0..g.nchunks() {
            let (cs, ce) = g.chunk_box(&g.chunk_coords(c));
            let from: Vec<i64> = (0..n).map(|d| cs[d] + start[d]).collect();
            let to: Vec<i64> = (0..n)
                .map(|d| (ce[d] + start[d]).min(src.shape()[d]))
                .collect();
            if (0..n).any(|d| from[d] >= to[d]) {
                continue;
            }
            let shape: Vec<i64> = (0..n).map(|d| to[d] - from[d]).collect();
            let end: Vec<i64> = (0..n).map(|d| cs[d] + shape[d]).collect();
            let items: i64 = shape.iter().product();
            buf.resize(items as usize * ts, 0);
            src.get_slice_buffer(&from, &to, &mut buf, &shape)?;
            self.set_slice_buffer(&cs, &end, &buf, &shape)?;
        }
        Ok(())
    }

    /// A new array holding `[start, stop)` of this one, created with `params` (see
    /// [`Self::slice_params`]).
    pub fn get_slice(&mut self, params: &Params, start: &[i64], stop: &[i64]) -> Result<Array> {
        self.refresh()?;
        let mut out = Array::zeros(&self.slice_params(params, start, stop)?)?;
        out.fill_from(self, start)?;
        Ok(out)
    }

    /// Whether a copy with `params` can copy the chunks as they are (same chunk and block
    /// shapes).
    pub fn copies_chunks(&self, params: &Params) -> bool {
        let g = &params.geometry;
        g.ndim() == self.ndim()
            && g.chunkshape() == self.geom.chunkshape()
            && g.blockshape() == self.geom.blockshape()
    }

    /// The parameters of a re-chunked copy: `params` with this array's shape and its
    /// metalayers other than "b2nd".
    pub fn copy_params(&self, params: &Params) -> Result<Params> {
        let start = vec![0i64; self.ndim()];
        let mut p = self.slice_params(params, &start, self.shape())?;
        p.metalayers = self
            .schunk()
            .metalayers()
            .iter()
            .filter(|m| m.name != META_NAME)
            .map(|m| (m.name.to_string(), m.content.clone()))
            .collect();
        Ok(p)
    }

    /// Adds this array's variable-length metalayers to `dest`, compressed as the reference
    /// adds them: with `dest`'s parameters when it has a frame, else with the defaults.
    pub fn copy_vlmeta_to<T: BorrowMut<SuperChunk>>(&self, dest: &mut Array<T>) -> Result<()> {
        let cp = dest.schunk().has_frame().then(|| dest.schunk().cparams());
        for m in self.schunk().vlmetalayers() {
            let (_, content) = self.schunk().vlmeta_get(&m.name)?;
            dest.schunk_mut().vlmeta_add(&m.name, &content, cp)?;
        }
        Ok(())
    }

    /// A copy of the array created with `params` (its shape is replaced by this array's).
    /// With the same chunk and block shapes the chunks are copied as they are (and the
    /// compression parameters stay this array's); otherwise the data is re-chunked and
    /// recompressed, and the other metalayers and the variable-length metalayers follow.
    pub fn copy(&mut self, params: &Params) -> Result<Array> {
        self.refresh()?;
        if self.copies_chunks(params) {
            if params.storage.urlpath.as_ref().is_some_and(|p| p.exists()) {
                return Err(Error::Failure);
            }
            let sc = self.schunk_mut().copy(params.storage.clone())?;
            return Array::from_parts(sc, self.geom.clone(), self.dtype.clone(), self.dtype_format);
        }
        let mut out = Array::zeros(&self.copy_params(params)?)?;
        out.fill_from(self, &vec![0i64; self.ndim()])?;
        self.copy_vlmeta_to(&mut out)?;
        Ok(out)
    }
}
