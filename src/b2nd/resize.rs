//! Shape changes: resizing (with an optional start position per axis), inserting,
//! appending and deleting items along one axis.
//!
//! A change of `L` items at position `s` of an axis of length `n` and chunk length `c`
//! follows the reference's alignment rule: inserting needs `s == n`, or `s` and `L` both
//! multiples of `c`; deleting needs `s + L == n`, or `s` and `L` both multiples of `c`;
//! `s` outside `[0, n]` is refused. Refused calls change nothing.

use std::borrow::BorrowMut;

use super::array::Array;
use super::geometry::{c_strides, flatten, unflatten};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;
use crate::special::{special_chunk, Special};

/// Whether inserting `len` items at `s` of an axis of `n` items (chunk `c`) is allowed.
fn insert_ok(s: i64, len: i64, n: i64, c: i64) -> bool {
    (0..=n).contains(&s) && (s == n || (c > 0 && s % c == 0 && len % c == 0))
}

/// Whether deleting `len` items at `s` of an axis of `n` items (chunk `c`) is allowed, as
/// the reference decides: an empty range, a range ending the axis, or whole chunks (even
/// past the end, which then shortens the axis by `len` all the same).
fn delete_ok(s: i64, len: i64, n: i64, c: i64) -> bool {
    (0..=n).contains(&s)
        && (0..=n).contains(&len)
        && (len == 0 || s + len == n || (c > 0 && s % c == 0 && len % c == 0))
}

/// The old item an item at `x` of an axis comes from after a change at `at` by `shift`
/// (see [`Array::remap`]); `None` for items of the gap a positive shift opens.
fn old_position(x: i64, at: i64, shift: i64) -> Option<i64> {
    if x < at || shift == 0 {
        Some(x)
    } else if shift > 0 {
        (x >= at + shift).then(|| x - shift)
    } else {
        Some(x - shift)
    }
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Moves the content to `new_shape` chunk by chunk: on each axis, chunks starting
    /// before `at` stay, the others move by `shift` items (positive: zero chunks fill a gap
    /// of `shift` items at `at`; negative: the chunks of `-shift` items at `at` are
    /// dropped). `at` and `shift` must be multiples of the chunk length, or the change at
    /// the end of the axis (`at` = the smaller length). Stored chunks are moved, not
    /// recompressed; items that no old item lands on are unspecified.
    pub(crate) fn remap(&mut self, new_shape: &[i64], at: &[i64], shift: &[i64]) -> Result<()> {
        let old_geom = self.geometry().clone();
        let new_geom = old_geom.with_shape(new_shape)?;
        let old_cpd = old_geom.chunks_per_dim();
        let old_any = old_geom.nchunks() > 0;
        let chunk = old_geom.chunkshape().to_vec();
        let new_cpd = new_geom.chunks_per_dim();
        let old_strides = c_strides(&old_cpd);
        // The old chunk each new chunk comes from (`None`: a new zero chunk).
        let sources: Vec<Option<i64>> = (0..new_geom.nchunks())
            .map(|k| {
                let coords = unflatten(&new_cpd, k);
                let mut old = Vec::with_capacity(coords.len());
                for (d, &cn) in coords.iter().enumerate() {
                    let c = i64::from(chunk[d]);
                    let x = old_position(cn * c, at[d], shift[d])?;
                    if !old_any || x / c >= old_cpd[d] {
                        return None;
                    }
                    old.push(x / c);
                }
                Some(flatten(&old, &old_strides))
            })
            .collect();
        let mut used = vec![false; usize::try_from(old_geom.nchunks()).unwrap_or(0)];
        for &n in sources.iter().flatten() {
            used[n as usize] = true;
        }
        let chunk_nbytes = new_geom.chunk_nbytes(self.typesize())?;
        let cparams = self.schunk().cparams();
        let mut zero = [0u8; 64];
        let zlen = special_chunk(&cparams, Special::Zeros, chunk_nbytes, &mut zero)?;
        let sc = self.schunk_mut();
        for n in (0..used.len()).rev() {
            if !used[n] {
                sc.delete_chunk(n as i64)?;
            }
        }
        for (k, src) in sources.iter().enumerate() {
            if src.is_none() {
                let k = k as i64;
                if k == sc.nchunks() {
                    sc.append_chunk(&zero[..zlen])?;
                } else {
                    sc.insert_chunk(k, &zero[..zlen])?;
                }
            }
        }
        self.set_geometry(new_geom)
    }

    /// Resizes to `new_shape`. With `start`, each axis grows by inserting at (or shrinks
    /// by deleting from) `start[d]`; without, at its end. `InvalidParam` for a start the
    /// alignment rule refuses or a negative shape.
    pub fn resize(&mut self, new_shape: &[i64], start: Option<&[i64]>) -> Result<()> {
        let ndim = self.ndim();
        if new_shape.len() != ndim || start.is_some_and(|s| s.len() != ndim) {
            return Err(Error::InvalidParam);
        }
        if new_shape.iter().any(|&m| m < 0) {
            return Err(Error::InvalidParam);
        }
        let mut at = vec![0i64; ndim];
        let mut shift = vec![0i64; ndim];
        for d in 0..ndim {
            let (n, m) = (self.shape()[d], new_shape[d]);
            let c = i64::from(self.geometry().chunkshape()[d]);
            let s = match start {
                Some(st) => st[d],
                None => n.min(m),
            };
            let ok = match m.cmp(&n) {
                std::cmp::Ordering::Greater => insert_ok(s, m - n, n, c),
                std::cmp::Ordering::Less => delete_ok(s, n - m, n, c),
                std::cmp::Ordering::Equal => true,
            };
            if !ok {
                return Err(Error::InvalidParam);
            }
            if m < n && s + (n - m) > n {
                // Whole chunks past the end: the axis is cut at its new length.
                at[d] = m;
            } else {
                at[d] = s;
                shift[d] = m - n;
            }
        }
        if new_shape == self.shape() {
            return Ok(());
        }
        self.remap(new_shape, &at, &shift)
    }

    /// Inserts `buf` (C order, the array's shape with `len` items on `axis`, `len` derived
    /// from the buffer's size) at `at` on `axis`.
    pub fn insert(&mut self, buf: &[u8], axis: usize, at: i64) -> Result<()> {
        let ndim = self.ndim();
        if axis >= ndim {
            return Err(Error::InvalidParam);
        }
        let ts = i64::from(self.typesize());
        let row: i64 = (0..ndim)
            .filter(|&d| d != axis)
            .try_fold(ts, |acc, d| acc.checked_mul(self.shape()[d]))
            .ok_or(Error::InvalidParam)?;
        let blen = i64::try_from(buf.len()).map_err(|_| Error::InvalidParam)?;
        if row <= 0 || blen % row != 0 {
            return Err(Error::InvalidParam);
        }
        let len = blen / row;
        let n = self.shape()[axis];
        let c = i64::from(self.geometry().chunkshape()[axis]);
        if !insert_ok(at, len, n, c) {
            return Err(Error::InvalidParam);
        }
        if len == 0 {
            return Ok(());
        }
        let mut new_shape = self.shape().to_vec();
        new_shape[axis] = n.checked_add(len).ok_or(Error::InvalidParam)?;
        let mut at_v = vec![0i64; ndim];
        let mut shift = vec![0i64; ndim];
        at_v[axis] = at;
        shift[axis] = len;
        self.remap(&new_shape, &at_v, &shift)?;
        let mut start = vec![0i64; ndim];
        start[axis] = at;
        let mut stop = new_shape.clone();
        stop[axis] = at + len;
        let mut bufshape = new_shape;
        bufshape[axis] = len;
        self.set_slice_buffer(&start, &stop, buf, &bufshape)
    }

    /// Appends `buf` at the end of `axis` (see [`Self::insert`]).
    pub fn append(&mut self, buf: &[u8], axis: usize) -> Result<()> {
        let n = *self.shape().get(axis).ok_or(Error::InvalidParam)?;
        self.insert(buf, axis, n)
    }

    /// Deletes `len` items at `at` on `axis`: a range that ends the axis, or one whose
    /// start and length are whole chunks; such a range past the end shortens the axis by
    /// `len` all the same, as the reference does. An empty range changes nothing.
    pub fn delete(&mut self, axis: usize, at: i64, len: i64) -> Result<()> {
        let ndim = self.ndim();
        if axis >= ndim || len < 0 {
            return Err(Error::InvalidParam);
        }
        let n = self.shape()[axis];
        let c = i64::from(self.geometry().chunkshape()[axis]);
        if !delete_ok(at, len, n, c) {
            return Err(Error::InvalidParam);
        }
        if len == 0 {
            return Ok(());
        }
        let past_end = at + len > n;
        let mut new_shape = self.shape().to_vec();
        new_shape[axis] = n - len;
        let mut at_v = vec![0i64; ndim];
        let mut shift = vec![0i64; ndim];
        if past_end {
            at_v[axis] = n - len;
        } else {
            at_v[axis] = at;
            shift[axis] = -len;
        }
        self.remap(&new_shape, &at_v, &shift)
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{c_strides, flatten, unflatten};
    use super::super::{Array, Geometry, Params};
    use crate::context::CParams;
    use crate::schunk::Storage;

    fn array(shape: &[i64], chunks: &[i32], blocks: &[i32], data: &[u8]) -> Array {
        let storage = Storage {
            cparams: CParams {
                typesize: 1,
                ..CParams::default()
            },
            ..Storage::default()
        };
        let p = Params::new(storage, Geometry::new(shape, chunks, blocks).unwrap());
        Array::from_buffer(&p, data).unwrap()
    }

    /// The model of a change: item `i` of the new shape comes from the old item that
    /// `at`/`shift` map to it, or is unspecified (`None`).
    fn model(old: &[u8], shape: &[i64], ns: &[i64], at: &[i64], shift: &[i64]) -> Vec<Option<u8>> {
        let total: i64 = ns.iter().product();
        let strides = c_strides(shape);
        (0..total)
            .map(|k| {
                let mut idx = unflatten(ns, k);
                for d in 0..ns.len() {
                    if shift[d] > 0 && idx[d] >= at[d] {
                        if idx[d] < at[d] + shift[d] {
                            return None;
                        }
                        idx[d] -= shift[d];
                    } else if shift[d] < 0 && idx[d] >= at[d] {
                        idx[d] -= shift[d];
                    }
                    if idx[d] >= shape[d] {
                        return None;
                    }
                }
                Some(old[flatten(&idx, &strides) as usize])
            })
            .collect()
    }

    fn check(a: &mut Array, want: &[Option<u8>]) {
        let mut got = vec![0u8; want.len()];
        a.to_buffer(&mut got).unwrap();
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            if let Some(w) = w {
                assert_eq!(g, w, "item {i}");
            }
        }
    }

    /// New shape, start, and the model's `at` and `shift`.
    type Case<'a> = (&'a [i64], Option<&'a [i64]>, &'a [i64], &'a [i64]);

    fn data(n: i64) -> Vec<u8> {
        (0..n).map(|i| (i * 13 % 251) as u8).collect()
    }

    #[test]
    fn resize_with_and_without_start_follows_the_model() {
        let shape = [10i64, 7];
        let old = data(70);
        let cases: &[Case] = &[
            (&[14, 7], None, &[10, 0], &[4, 0]),
            (&[6, 3], None, &[6, 3], &[-4, -4]),
            (&[14, 11], Some(&[4, 4]), &[4, 4], &[4, 4]),
            (&[6, 7], Some(&[0, 0]), &[0, 0], &[-4, 0]),
            (&[8, 7], Some(&[8, 0]), &[8, 0], &[-2, 0]),
        ];
        for &(ns, start, at, shift) in cases {
            let mut a = array(&shape, &[4, 4], &[2, 2], &old);
            a.resize(ns, start).unwrap();
            assert_eq!(a.shape(), ns);
            check(&mut a, &model(&old, &shape, ns, at, shift));
        }
        let mut a = array(&shape, &[4, 4], &[2, 2], &old);
        assert!(a.resize(&[12, 7], Some(&[1, 0])).is_err());
        assert!(a.resize(&[7, 7], Some(&[1, 0])).is_err());
        assert!(a.resize(&[-1, 7], None).is_err());
        assert_eq!(a.shape(), &shape);
    }

    #[test]
    fn insert_append_delete_follow_the_model() {
        let shape = [9i64, 5];
        let old = data(45);
        let mut a = array(&shape, &[3, 2], &[2, 2], &old);
        let rows: Vec<u8> = (200..215).collect();
        a.insert(&rows, 0, 3).unwrap();
        let mut want = model(&old, &shape, &[12, 5], &[3, 0], &[3, 0]);
        for (k, v) in rows.iter().enumerate() {
            want[15 + k] = Some(*v);
        }
        check(&mut a, &want);
        let cur: Vec<u8> = want.iter().map(|v| v.unwrap()).collect();
        let col: Vec<u8> = (100..112).collect();
        a.append(&col, 1).unwrap();
        let mut want = model(&cur, &[12, 5], &[12, 6], &[0, 5], &[0, 1]);
        for (r, v) in col.iter().enumerate() {
            want[r * 6 + 5] = Some(*v);
        }
        check(&mut a, &want);
        let cur: Vec<u8> = want.iter().map(|v| v.unwrap()).collect();
        a.delete(0, 3, 3).unwrap();
        check(&mut a, &model(&cur, &[12, 6], &[9, 6], &[3, 0], &[-3, 0]));
        assert!(a.delete(0, 1, 2).is_err());
        assert!(a.insert(&col[..5], 0, 0).is_err());
        assert!(a.insert(&rows[..6], 0, 1).is_err());
        assert!(a.delete(2, 0, 1).is_err());
    }

    #[test]
    fn concatenation_and_views_keep_the_items() {
        let old = data(24);
        let mut a = array(&[4, 6], &[2, 3], &[1, 3], &old);
        let more: Vec<u8> = (150..162).collect();
        a.concatenate_in_place(&more, &[2, 6], 0).unwrap();
        let mut want = old.clone();
        want.extend_from_slice(&more);
        let w: Vec<Option<u8>> = want.iter().copied().map(Some).collect();
        check(&mut a, &w);
        assert!(a.concatenate_in_place(&more, &[2, 6], 1).is_err());
        let mut e = a.expand_dims(&[true, false, false], 3).unwrap();
        assert_eq!(e.shape(), &[1, 6, 6]);
        check(&mut e, &w);
        let mut s = e.squeeze().unwrap();
        assert_eq!(s.shape(), &[6, 6]);
        check(&mut s, &w);
        assert!(e.squeeze_index(&[false, true, false]).is_err());
    }
}
