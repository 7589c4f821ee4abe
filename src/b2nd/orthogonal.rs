//! Orthogonal selections (one list of indices per axis) and sparse flat coordinates.
//!
//! Only the box spanned by the selected indices is read (and so only the blocks it
//! touches are decoded).

use std::borrow::BorrowMut;

use super::array::Array;
use super::geometry::{c_strides, unflatten};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The per-axis bounds `[lo, hi)` of the indices of `selection` inside `shape` (`None`
/// when some axis selects no index inside it).
fn spanned(selection: &[&[i64]], shape: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let mut lo = Vec::with_capacity(shape.len());
    let mut hi = Vec::with_capacity(shape.len());
    for (sel, &n) in selection.iter().zip(shape) {
        let inside = sel.iter().copied().filter(|&i| (0..n).contains(&i));
        let (min, max) = inside.fold((i64::MAX, i64::MIN), |(a, b), i| (a.min(i), b.max(i)));
        if min > max {
            return None;
        }
        lo.push(min);
        hi.push(max + 1);
    }
    Some((lo, hi))
}

/// Calls `f(offset in the selection buffer, offset in the box)` (in items) for every
/// selected item inside the array, in C order of the selection.
fn for_each_selected(
    selection: &[&[i64]],
    shape: &[i64],
    lo: &[i64],
    hi: &[i64],
    mut f: impl FnMut(usize, usize),
) {
    let n = selection.len();
    let ext: Vec<i64> = lo.iter().zip(hi).map(|(a, b)| b - a).collect();
    let strides = c_strides(&ext);
    let sizes: Vec<i64> = selection.iter().map(|s| s.len() as i64).collect();
    let total: i64 = sizes.iter().product();
    for k in 0..total {
        let idx = unflatten(&sizes, k);
        let mut off = 0i64;
        let mut inside = true;
        for d in 0..n {
            let i = selection[d][idx[d] as usize];
            if !(0..shape[d]).contains(&i) {
                inside = false;
                break;
            }
            off += (i - lo[d]) * strides[d];
        }
        if inside {
            f(k as usize, off as usize);
        }
    }
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Checks a selection and returns the bytes of its result.
    fn selection_bytes(&self, selection: &[&[i64]], buf_len: usize) -> Result<usize> {
        if selection.len() != self.ndim() {
            return Err(Error::InvalidParam);
        }
        let ts = self.typesize() as usize;
        let need = selection
            .iter()
            .try_fold(ts, |acc, s| acc.checked_mul(s.len()))
            .ok_or(Error::InvalidParam)?;
        if need > buf_len {
            return Err(Error::InvalidParam);
        }
        Ok(need)
    }

    /// Reads the box `[lo, hi)` into a new buffer.
    fn read_box(&mut self, lo: &[i64], hi: &[i64]) -> Result<Vec<u8>> {
        let ext: Vec<i64> = lo.iter().zip(hi).map(|(a, b)| b - a).collect();
        let len = ext
            .iter()
            .try_fold(self.typesize() as usize, |acc, &e| {
                acc.checked_mul(usize::try_from(e).ok()?)
            })
            .ok_or(Error::InvalidParam)?;
        let mut tmp = Vec::new();
        tmp.try_reserve_exact(len).map_err(|_| Error::MemoryAlloc)?;
        tmp.resize(len, 0u8);
        self.get_slice_buffer(lo, hi, &mut tmp, &ext)?;
        Ok(tmp)
    }

    /// Copies the items at the cross product of `selection` (one list of indices per axis)
    /// into `buf` in C order. Indices outside the array read as zeros.
    pub fn get_orthogonal_selection(&mut self, selection: &[&[i64]], buf: &mut [u8]) -> Result<()> {
        self.refresh()?;
        let need = self.selection_bytes(selection, buf.len())?;
        buf[..need].fill(0);
        let shape = self.shape().to_vec();
        let Some((lo, hi)) = spanned(selection, &shape) else {
            return Ok(());
        };
        let tmp = self.read_box(&lo, &hi)?;
        let ts = self.typesize() as usize;
        for_each_selected(selection, &shape, &lo, &hi, |k, off| {
            buf[k * ts..(k + 1) * ts].copy_from_slice(&tmp[off * ts..(off + 1) * ts]);
        });
        Ok(())
    }

    /// Writes `buf` (C order) to the items at the cross product of `selection`. Indices
    /// outside the array are skipped.
    pub fn set_orthogonal_selection(&mut self, selection: &[&[i64]], buf: &[u8]) -> Result<()> {
        self.refresh()?;
        self.selection_bytes(selection, buf.len())?;
        let shape = self.shape().to_vec();
        let Some((lo, hi)) = spanned(selection, &shape) else {
            return Ok(());
        };
        let mut tmp = self.read_box(&lo, &hi)?;
        let ts = self.typesize() as usize;
        for_each_selected(selection, &shape, &lo, &hi, |k, off| {
            tmp[off * ts..(off + 1) * ts].copy_from_slice(&buf[k * ts..(k + 1) * ts]);
        });
        let ext: Vec<i64> = lo.iter().zip(&hi).map(|(a, b)| b - a).collect();
        self.set_slice_buffer(&lo, &hi, &tmp, &ext)
    }

    /// Copies the items at the flat C-order `coords` into `buf`, one after the other.
    /// `InvalidParam` for a coordinate outside `[0, nitems)` or a buffer too small.
    pub fn get_sparse(&mut self, coords: &[i64], buf: &mut [u8]) -> Result<()> {
        self.refresh()?;
        let ts = self.typesize() as usize;
        let nitems = self.geometry().nitems();
        let need = coords.len().checked_mul(ts).ok_or(Error::InvalidParam)?;
        if need > buf.len() || coords.iter().any(|&c| !(0..nitems).contains(&c)) {
            return Err(Error::InvalidParam);
        }
        let shape = self.shape().to_vec();
        let ones = vec![1i64; shape.len()];
        for (k, &c) in coords.iter().enumerate() {
            let start = unflatten(&shape, c);
            let stop: Vec<i64> = start.iter().map(|s| s + 1).collect();
            self.get_slice_buffer(&start, &stop, &mut buf[k * ts..(k + 1) * ts], &ones)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Array, Geometry, Params};
    use crate::context::CParams;
    use crate::schunk::Storage;

    fn array(data: &[u8]) -> Array {
        let storage = Storage {
            cparams: CParams {
                typesize: 1,
                ..CParams::default()
            },
            ..Storage::default()
        };
        let g = Geometry::new(&[7, 9], &[3, 4], &[2, 2]).unwrap();
        Array::from_buffer(&Params::new(storage, g), data).unwrap()
    }

    #[test]
    fn orthogonal_get_set_and_sparse_follow_the_model() {
        let mut model: Vec<u8> = (0..63).map(|i| (i * 3 % 256) as u8).collect();
        let mut a = array(&model);
        let rows: &[i64] = &[5, 0, 3];
        let cols: &[i64] = &[8, 1];
        let mut got = vec![0u8; 6];
        a.get_orthogonal_selection(&[rows, cols], &mut got).unwrap();
        let want: Vec<u8> = rows
            .iter()
            .flat_map(|r| cols.iter().map(move |c| (r * 9 + c) as usize))
            .map(|i| model[i])
            .collect();
        assert_eq!(got, want);
        let vals: Vec<u8> = (240..246).collect();
        a.set_orthogonal_selection(&[rows, cols], &vals).unwrap();
        let mut k = 0;
        for r in rows {
            for c in cols {
                model[(r * 9 + c) as usize] = vals[k];
                k += 1;
            }
        }
        let mut all = vec![0u8; 63];
        a.to_buffer(&mut all).unwrap();
        assert_eq!(all, model);
        let coords = [62i64, 0, 17, 17, 40];
        let mut got = vec![0u8; 5];
        a.get_sparse(&coords, &mut got).unwrap();
        let want: Vec<u8> = coords.iter().map(|&c| model[c as usize]).collect();
        assert_eq!(got, want);
        assert!(a.get_sparse(&[63], &mut got).is_err());
        assert!(a.get_sparse(&coords, &mut got[..4]).is_err());
        assert!(a
            .get_orthogonal_selection(&[rows, cols], &mut got[..5])
            .is_err());
    }
}
