//! Concatenating two arrays along an axis.

use std::borrow::BorrowMut;

use super::array::Array;
use super::copy::{copy_box, Side};
use super::geometry::{c_strides, flatten};
use super::Geometry;
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The shape of `first` followed by `second` along `axis`; `InvalidParam` unless both have
/// the same number of dimensions, `axis` is one of them and the other axes agree.
pub fn concat_shape(first: &[i64], second: &[i64], axis: usize) -> Result<Vec<i64>> {
    if first.is_empty() || first.len() != second.len() || axis >= first.len() {
        return Err(Error::InvalidParam);
    }
    if (0..first.len()).any(|d| d != axis && first[d] != second[d]) {
        return Err(Error::InvalidParam);
    }
    let mut shape = first.to_vec();
    shape[axis] = first[axis]
        .checked_add(second[axis])
        .ok_or(Error::InvalidParam)?;
    Ok(shape)
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Writes `buf`, a C-order box of `shape` items, with its first item at `start`.
    pub fn write_box(&mut self, buf: &[u8], shape: &[i64], start: &[i64]) -> Result<()> {
        if shape.len() != self.ndim() || start.len() != self.ndim() {
            return Err(Error::InvalidParam);
        }
        if shape.contains(&0) {
            return Ok(());
        }
        let stop = start
            .iter()
            .zip(shape)
            .map(|(&s, &e)| s.checked_add(e).ok_or(Error::InvalidParam))
            .collect::<Result<Vec<i64>>>()?;
        self.set_slice_buffer(start, &stop, buf, shape)
    }

    /// Writes `buf`, the C-order items of an array of geometry `other`, starting `offset`
    /// items along `axis`, one chunk of `other` after the other (as the reference copies
    /// the second array of a concatenation, which decides the order of the chunks in a
    /// frame).
    pub fn put_items(
        &mut self,
        buf: &[u8],
        other: &Geometry,
        axis: usize,
        offset: i64,
    ) -> Result<()> {
        let ts = self.typesize() as usize;
        let shape = other.shape().to_vec();
        let zeros = vec![0i64; shape.len()];
        let mut sub = Vec::new();
        for c in 0..other.nchunks() {
            let (lo, hi) = other.chunk_box(&other.chunk_coords(c));
            let ext: Vec<i64> = (0..shape.len())
                .map(|d| hi[d].min(shape[d]) - lo[d])
                .collect();
            if ext.iter().any(|&e| e <= 0) {
                continue;
            }
            sub.resize(ext.iter().product::<i64>() as usize * ts, 0);
            let from = Side {
                shape: &shape,
                start: &lo,
            };
            let to = Side {
                shape: &ext,
                start: &zeros,
            };
            copy_box(ts, &ext, buf, from, &mut sub, to)?;
            let mut at = lo;
            at[axis] = at[axis].checked_add(offset).ok_or(Error::InvalidParam)?;
            self.write_box(&sub, &ext, &at)?;
        }
        Ok(())
    }

    /// Enlarges this array along `axis` with `other`, the C-order content of an array of
    /// `other_shape` (same item size).
    pub fn concatenate_in_place(
        &mut self,
        other: &[u8],
        other_shape: &[i64],
        axis: usize,
    ) -> Result<()> {
        let shape = concat_shape(self.shape(), other_shape, axis)?;
        let mut start = vec![0i64; shape.len()];
        start[axis] = self.shape()[axis];
        self.resize(&shape, None)?;
        self.write_box(other, other_shape, &start)
    }

    /// Whether the stored chunks of an array of geometry `other` can be stored as they are
    /// from `offset` items along `axis` (same chunk and block shapes, `offset` a multiple
    /// of the chunk length).
    pub fn chunks_align(&self, other: &Geometry, axis: usize, offset: i64) -> bool {
        let g = self.geometry();
        let c = g.chunkshape().get(axis).copied().unwrap_or(0);
        g.chunkshape() == other.chunkshape()
            && g.blockshape() == other.blockshape()
            && c > 0
            && offset % i64::from(c) == 0
    }

    /// The stored (compressed) chunks, in order.
    pub fn stored_chunks(&mut self) -> Result<Vec<Vec<u8>>> {
        let sc = self.schunk_mut();
        (0..sc.nchunks())
            .map(|n| Ok(sc.chunk(n)?.into_owned()))
            .collect()
    }

    /// Stores `chunks` (the stored chunks of an array of geometry `other`) at the chunk
    /// slots starting `offset` items along `axis`; `offset` must be a multiple of the
    /// chunk length (see [`Self::chunks_align`]) and the array large enough.
    pub fn put_chunks(
        &mut self,
        chunks: &[Vec<u8>],
        other: &Geometry,
        axis: usize,
        offset: i64,
    ) -> Result<()> {
        let g = self.geometry().clone();
        let c = i64::from(*g.chunkshape().get(axis).ok_or(Error::InvalidParam)?);
        if c <= 0 || offset % c != 0 {
            return Err(Error::InvalidParam);
        }
        let cpd = g.chunks_per_dim();
        let strides = c_strides(&cpd);
        for (n, chunk) in chunks.iter().enumerate() {
            let mut coords = other.chunk_coords(n as i64);
            coords[axis] += offset / c;
            if coords.iter().zip(&cpd).any(|(&x, &m)| x >= m) {
                return Err(Error::InvalidParam);
            }
            self.schunk_mut()
                .update_chunk(flatten(&coords, &strides), chunk)?;
        }
        Ok(())
    }
}
