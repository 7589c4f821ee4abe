//! Removing and adding dimensions of length one (views with another geometry over the
//! same items; `capi::b2nd_view` keeps a view's items shared with its source).

use std::borrow::BorrowMut;

use super::array::{Array, META_NAME};
use super::meta::MAX_DIM;
use super::Geometry;
use crate::error::{Error, Result};
use crate::frame::Meta;
use crate::schunk::{Storage, SuperChunk};

/// The geometry without the axes flagged in `index`; `InvalidIndex` when a flagged axis
/// is not of length one.
pub fn squeezed(g: &Geometry, index: &[bool]) -> Result<Geometry> {
    let n = g.ndim();
    if index.len() < n {
        return Err(Error::InvalidParam);
    }
    let (mut shape, mut chunk, mut block) = (Vec::new(), Vec::new(), Vec::new());
    for (d, &flagged) in index.iter().enumerate().take(n) {
        if flagged {
            if g.shape()[d] != 1 {
                return Err(Error::InvalidIndex);
            }
        } else {
            shape.push(g.shape()[d]);
            chunk.push(g.chunkshape()[d]);
            block.push(g.blockshape()[d]);
        }
    }
    Geometry::new(&shape, &chunk, &block)
}

/// The geometry with `final_dims` dimensions: the flagged ones of length one (chunk and
/// block one), the others taken in order from `g` (`InvalidParam` when `g` runs out).
pub fn expanded(g: &Geometry, axis: &[bool], final_dims: usize) -> Result<Geometry> {
    if final_dims > MAX_DIM || axis.len() < final_dims {
        return Err(Error::InvalidParam);
    }
    let (mut shape, mut chunk, mut block) = (Vec::new(), Vec::new(), Vec::new());
    let mut next = 0;
    for &new_axis in &axis[..final_dims] {
        if !new_axis && next >= g.ndim() {
            return Err(Error::InvalidParam);
        }
        if new_axis {
            shape.push(1);
            chunk.push(1);
            block.push(1);
        } else {
            shape.push(g.shape()[next]);
            chunk.push(g.chunkshape()[next]);
            block.push(g.blockshape()[next]);
            next += 1;
        }
    }
    Geometry::new(&shape, &chunk, &block)
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// An in-memory array holding a copy of this array's chunks under `geom` (which must
    /// lay the items out as this array's geometry does, as squeezing and expanding do),
    /// with a "b2nd" metalayer of its own. The C API keeps it sharing the items with this
    /// array. `InvalidParam` when the array has metalayers other than "b2nd" (as the
    /// reference).
    pub fn view(&mut self, geom: Geometry) -> Result<Array> {
        if self
            .schunk()
            .metalayers()
            .iter()
            .any(|m| m.name != META_NAME)
        {
            return Err(Error::InvalidParam);
        }
        let storage = Storage {
            contiguous: false,
            urlpath: None,
            cparams: self.schunk().cparams(),
            dparams: self.schunk().dparams(),
            io: None,
            buffer: None,
        };
        let sc = self.schunk_mut().copy(storage)?;
        let mut view = Array::from_parts(
            sc,
            self.geometry().clone(),
            self.dtype().map(str::to_owned),
            self.dtype_format(),
        )?;
        view.geom = geom;
        // Replaced rather than updated: a metalayer update cannot grow it (expand_dims).
        let content = view.meta().serialize()?;
        view.sc.metalayers = vec![Meta {
            name: META_NAME.into(),
            content,
        }];
        Ok(view)
    }

    /// A view without the axes flagged in `index` (each of length one).
    pub fn squeeze_index(&mut self, index: &[bool]) -> Result<Array> {
        let g = squeezed(self.geometry(), index)?;
        self.view(g)
    }

    /// A view without any axis of length one.
    pub fn squeeze(&mut self) -> Result<Array> {
        let index: Vec<bool> = self.shape().iter().map(|&s| s == 1).collect();
        self.squeeze_index(&index)
    }

    /// A view with `final_dims` dimensions, new ones of length one where `axis` is set.
    pub fn expand_dims(&mut self, axis: &[bool], final_dims: usize) -> Result<Array> {
        let g = expanded(self.geometry(), axis, final_dims)?;
        self.view(g)
    }
}
