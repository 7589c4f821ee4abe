//! Shape changes: resizing (with an optional start position per axis), inserting,
//! appending and deleting items along one axis.
//!
//! A change of `L` items at position `s` of an axis of length `n` and chunk length `c`
//! follows the reference's alignment rule: inserting needs `s == n`, or `s` and `L` both
//! multiples of `c`; deleting needs `s + L == n`, or `s` and `L` both multiples of `c`;
//! `s` outside `[0, n]` is refused. Refused calls change nothing.

use std::borrow::BorrowMut;

use super::array::Array;
use super::copy::{copy_box, Side};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;
use crate::special::{special_chunk, Special};

/// Whether inserting `len` items at `s` of an axis of `n` items (chunk `c`) is allowed.
fn insert_ok(s: i64, len: i64, n: i64, c: i64) -> bool {
    (0..=n).contains(&s) && (s == n || (c > 0 && s % c == 0 && len % c == 0))
}

/// Whether deleting `len` items at `s` of an axis of `n` items (chunk `c`) is allowed.
fn delete_ok(s: i64, len: i64, n: i64, c: i64) -> bool {
    (0..=n).contains(&s)
        && len >= 0
        && s.checked_add(len).is_some_and(|e| e <= n)
        && (s + len == n || (c > 0 && s % c == 0 && len % c == 0))
}

/// The pieces of one axis that survive a change: `(old start, new start, length)`.
fn axis_pieces(n: i64, m: i64, at: i64, shift: i64) -> Vec<(i64, i64, i64)> {
    let mut out = Vec::with_capacity(2);
    let mut push = |old: i64, new: i64, len: i64| {
        let len = len.min(m - new);
        if len > 0 {
            out.push((old, new, len));
        }
    };
    if shift > 0 {
        push(0, 0, at);
        push(at, at + shift, n - at);
    } else if shift < 0 {
        push(0, 0, at);
        push(at - shift, at, n - (at - shift));
    } else {
        push(0, 0, n.min(m));
    }
    out
}

impl<S: BorrowMut<SuperChunk>> Array<S> {
    /// Moves the content to `new_shape`: on each axis, items before `at` stay, and the
    /// others move by `shift` (positive: a gap of `shift` items is opened at `at`;
    /// negative: `-shift` items at `at` are dropped). Items that no old item lands on are
    /// unspecified (zeros here).
    pub(crate) fn remap(&mut self, new_shape: &[i64], at: &[i64], shift: &[i64]) -> Result<()> {
        let ndim = self.ndim();
        let new_geom = self.geometry().with_shape(new_shape)?;
        let ts = usize::try_from(self.typesize()).map_err(|_| Error::InvalidParam)?;
        let old_shape = self.shape().to_vec();
        let old_len = usize::try_from(self.geometry().nitems())
            .ok()
            .and_then(|n| n.checked_mul(ts))
            .ok_or(Error::InvalidParam)?;
        let new_len = usize::try_from(new_geom.nitems())
            .ok()
            .and_then(|n| n.checked_mul(ts))
            .ok_or(Error::InvalidParam)?;
        let mut old = Vec::new();
        old.try_reserve_exact(old_len)
            .map_err(|_| Error::MemoryAlloc)?;
        old.resize(old_len, 0u8);
        self.to_buffer(&mut old)?;
        let mut new = Vec::new();
        new.try_reserve_exact(new_len)
            .map_err(|_| Error::MemoryAlloc)?;
        new.resize(new_len, 0u8);
        let pieces: Vec<_> = (0..ndim)
            .map(|d| axis_pieces(old_shape[d], new_shape[d], at[d], shift[d]))
            .collect();
        if new_len > 0 && pieces.iter().all(|p| !p.is_empty()) {
            let total: usize = pieces.iter().map(Vec::len).product();
            for k in 0..total {
                let (mut src, mut dst, mut ext) = (vec![0; ndim], vec![0; ndim], vec![0; ndim]);
                let mut r = k;
                for d in (0..ndim).rev() {
                    let (o, w, l) = pieces[d][r % pieces[d].len()];
                    r /= pieces[d].len();
                    (src[d], dst[d], ext[d]) = (o, w, l);
                }
                copy_box(
                    ts,
                    &ext,
                    &old,
                    Side {
                        shape: &old_shape,
                        start: &src,
                    },
                    &mut new,
                    Side {
                        shape: new_shape,
                        start: &dst,
                    },
                )?;
            }
        }
        drop(old);
        self.set_nchunks(new_geom.nchunks(), new_geom.chunk_nbytes(self.typesize())?)?;
        self.set_geometry(new_geom)?;
        self.set_buffer(&new)
    }

    /// Deletes trailing chunks or appends zero chunks until there are `nchunks`.
    fn set_nchunks(&mut self, nchunks: i64, chunk_nbytes: i32) -> Result<()> {
        let cparams = self.schunk().cparams();
        let sc = self.schunk_mut();
        while sc.nchunks() > nchunks {
            sc.delete_chunk(sc.nchunks() - 1)?;
        }
        if sc.nchunks() < nchunks {
            let mut chunk = [0u8; 64];
            let len = special_chunk(&cparams, Special::Zeros, chunk_nbytes, &mut chunk)?;
            while sc.nchunks() < nchunks {
                sc.append_chunk(&chunk[..len])?;
            }
        }
        Ok(())
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
            at[d] = s;
            shift[d] = m - n;
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

    /// Deletes `len` items at `at` on `axis`. A range past the end shortens the axis by
    /// `len` all the same, as the reference does.
    pub fn delete(&mut self, axis: usize, at: i64, len: i64) -> Result<()> {
        let ndim = self.ndim();
        if axis >= ndim || len < 0 {
            return Err(Error::InvalidParam);
        }
        let n = self.shape()[axis];
        let c = i64::from(self.geometry().chunkshape()[axis]);
        let past_end = (0..=n).contains(&at) && at.checked_add(len).is_some_and(|e| e > n);
        if past_end && len > n {
            return Err(Error::InvalidParam);
        }
        if !past_end && !delete_ok(at, len, n, c) {
            return Err(Error::InvalidParam);
        }
        if len == 0 {
            return Ok(());
        }
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
