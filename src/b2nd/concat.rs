//! Concatenating two arrays along an axis.

use std::borrow::BorrowMut;

use super::array::Array;
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The shape of `first` followed by `second` along `axis`; `InvalidParam` unless both have
/// the same number of dimensions, `axis` is one of them and the other axes agree.
pub fn concat_shape(first: &[i64], second: &[i64], axis: usize) -> Result<Vec<i64>> {
    if first.len() != second.len() || axis >= first.len() {
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
}
