//! Orthogonal selections (one list of indices per axis) and sparse flat coordinates.
//!
//! The selection is split by the chunks it touches; of each, only the box spanned by its
//! selected indices is read (and so only the blocks that box touches are decoded).

use std::borrow::BorrowMut;
use std::collections::BTreeMap;

use super::array::Array;
use super::geometry::{c_strides, unflatten};
use super::scratch::with_pad;
use super::Geometry;
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// The selected indices of one axis inside the array, grouped by chunk: for each chunk
/// touched, the `(position in the selection, index)` pairs.
fn axis_groups(sel: &[i64], n: i64, chunk: i64) -> Vec<Vec<(usize, i64)>> {
    let mut groups: BTreeMap<i64, Vec<(usize, i64)>> = BTreeMap::new();
    for (k, &i) in sel.iter().enumerate() {
        if (0..n).contains(&i) {
            groups.entry(i / chunk.max(1)).or_default().push((k, i));
        }
    }
    groups.into_values().collect()
}

/// One chunk's share of a selection: the box `[lo, hi)` spanned by its indices and, for
/// every selected item in it, `(offset in the selection buffer, offset in the box)` in
/// items.
struct Piece {
    lo: Vec<i64>,
    hi: Vec<i64>,
    /// The indices of each axis, in the order `items` crosses them.
    axes: Vec<Vec<i64>>,
    items: Vec<(usize, usize)>,
}

/// The selection split by the chunks it touches (indices outside the array left out).
fn pieces(selection: &[&[i64]], shape: &[i64], chunkshape: &[i32]) -> Vec<Piece> {
    let ndim = selection.len();
    let groups: Vec<_> = (0..ndim)
        .map(|d| axis_groups(selection[d], shape[d], i64::from(chunkshape[d])))
        .collect();
    let sizes: Vec<i64> = selection.iter().map(|s| s.len() as i64).collect();
    let sel_strides = c_strides(&sizes);
    let counts: Vec<i64> = groups.iter().map(|g| g.len() as i64).collect();
    let total: i64 = counts.iter().product();
    let mut out = Vec::new();
    for combo in 0..total {
        let pick = unflatten(&counts, combo);
        let chosen: Vec<&Vec<(usize, i64)>> =
            (0..ndim).map(|d| &groups[d][pick[d] as usize]).collect();
        let lo: Vec<i64> = chosen
            .iter()
            .map(|g| g.iter().map(|p| p.1).min().unwrap_or(0))
            .collect();
        let hi: Vec<i64> = chosen
            .iter()
            .map(|g| g.iter().map(|p| p.1).max().unwrap_or(0) + 1)
            .collect();
        let ext: Vec<i64> = lo.iter().zip(&hi).map(|(a, b)| b - a).collect();
        let box_strides = c_strides(&ext);
        // Offsets of the cross product, built axis by axis.
        let mut items: Vec<(usize, usize)> = vec![(0, 0)];
        for d in 0..ndim {
            let mut next = Vec::with_capacity(items.len() * chosen[d].len());
            for &(so, bo) in &items {
                for &(k, i) in chosen[d] {
                    next.push((
                        so + k * sel_strides[d] as usize,
                        bo + ((i - lo[d]) * box_strides[d]) as usize,
                    ));
                }
            }
            items = next;
        }
        let axes = chosen
            .iter()
            .map(|g| g.iter().map(|p| p.1).collect())
            .collect();
        out.push(Piece {
            lo,
            hi,
            axes,
            items,
        });
    }
    out
}

/// For the items of `p` (a piece of one chunk), their offsets (in items) in the stored
/// chunk (blocks in C order, items in C order inside each block), and the blocks they
/// touch.
fn chunk_offsets(g: &Geometry, p: &Piece) -> (Vec<usize>, Vec<usize>) {
    let ndim = g.ndim();
    let block_strides = c_strides(&g.blocks_per_dim());
    let item_strides = c_strides(
        &g.blockshape()
            .iter()
            .map(|&b| i64::from(b))
            .collect::<Vec<_>>(),
    );
    let bn = g.blocknitems();
    // Per axis, for each index of the box: (block index part, offset part).
    let parts: Vec<Vec<(i64, i64)>> = (0..ndim)
        .map(|d| {
            let (c, b) = (i64::from(g.chunkshape()[d]), i64::from(g.blockshape()[d]));
            let cs = p.lo[d] / c * c;
            (p.lo[d]..p.hi[d])
                .map(|i| {
                    let (bc, ib) = ((i - cs) / b, (i - cs) % b);
                    (
                        bc * block_strides[d],
                        bc * block_strides[d] * bn + ib * item_strides[d],
                    )
                })
                .collect()
        })
        .collect();
    // The same cross product as `p.items`, built axis by axis.
    let mut both: Vec<(i64, i64)> = vec![(0, 0)];
    for d in 0..ndim {
        let mut next = Vec::with_capacity(both.len() * p.axes[d].len());
        for &(blk, off) in &both {
            for &i in &p.axes[d] {
                let (bp, op) = parts[d][(i - p.lo[d]) as usize];
                next.push((blk + bp, off + op));
            }
        }
        both = next;
    }
    let offsets = both.iter().map(|&(_, off)| off as usize).collect();
    let mut blocks: Vec<usize> = both.iter().map(|&(blk, _)| blk as usize).collect();
    blocks.sort_unstable();
    blocks.dedup();
    (offsets, blocks)
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
        let g = self.geometry().clone();
        let ts = self.typesize() as usize;
        let chunk_bytes = self.chunk_bytes()?;
        let nblocks = usize::try_from(g.nblocks()).map_err(|_| Error::InvalidParam)?;
        for p in pieces(selection, g.shape(), g.chunkshape()) {
            let (offsets, blocks) = chunk_offsets(&g, &p);
            let mut mask = vec![true; nblocks];
            for b in blocks {
                if let Some(m) = mask.get_mut(b) {
                    *m = false;
                }
            }
            let coords: Vec<i64> =
                p.lo.iter()
                    .zip(g.chunkshape())
                    .map(|(&l, &c)| l / i64::from(c))
                    .collect();
            let n = g.chunk_index(&coords);
            with_pad(|pad| {
                let data = self.read_chunk_pad(n, Some(&mask), pad, chunk_bytes)?;
                for (&(k, _), &off) in p.items.iter().zip(&offsets) {
                    let src = data.get(off * ts..(off + 1) * ts).ok_or(Error::Data)?;
                    buf[k * ts..(k + 1) * ts].copy_from_slice(src);
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    /// Writes `buf` (C order) to the items at the cross product of `selection`. Indices
    /// outside the array are skipped.
    pub fn set_orthogonal_selection(&mut self, selection: &[&[i64]], buf: &[u8]) -> Result<()> {
        self.refresh()?;
        self.selection_bytes(selection, buf.len())?;
        let shape = self.shape().to_vec();
        let chunkshape = self.geometry().chunkshape().to_vec();
        let ts = self.typesize() as usize;
        for p in pieces(selection, &shape, &chunkshape) {
            let mut tmp = self.read_box(&p.lo, &p.hi)?;
            for &(k, off) in &p.items {
                tmp[off * ts..(off + 1) * ts].copy_from_slice(&buf[k * ts..(k + 1) * ts]);
            }
            let ext: Vec<i64> = p.lo.iter().zip(&p.hi).map(|(a, b)| b - a).collect();
            self.write_slice(&p.lo, &p.hi, &tmp, &ext, false)?;
        }
        Ok(())
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
        let g = self.geometry().clone();
        let shape = g.shape().to_vec();
        // The coordinates grouped by the block holding them (each block is decoded once).
        let mut blocks: BTreeMap<Vec<i64>, Vec<(usize, Vec<i64>)>> = BTreeMap::new();
        for (k, &c) in coords.iter().enumerate() {
            let idx = unflatten(&shape, c);
            let start: Vec<i64> = (0..shape.len())
                .map(|d| {
                    let (cl, bl) = (i64::from(g.chunkshape()[d]), i64::from(g.blockshape()[d]));
                    let cs = idx[d] / cl * cl;
                    cs + (idx[d] - cs) / bl * bl
                })
                .collect();
            blocks.entry(start).or_default().push((k, idx));
        }
        for (start, items) in blocks {
            let stop: Vec<i64> = (0..shape.len())
                .map(|d| {
                    let (cl, bl) = (i64::from(g.chunkshape()[d]), i64::from(g.blockshape()[d]));
                    let chunk_end = (start[d] / cl + 1) * cl;
                    (start[d] + bl).min(chunk_end).min(shape[d])
                })
                .collect();
            let tmp = self.read_box(&start, &stop)?;
            let ext: Vec<i64> = start.iter().zip(&stop).map(|(a, b)| b - a).collect();
            let strides = c_strides(&ext);
            for (k, idx) in items {
                let off: i64 = (0..shape.len())
                    .map(|d| (idx[d] - start[d]) * strides[d])
                    .sum();
                let off = off as usize;
                buf[k * ts..(k + 1) * ts].copy_from_slice(&tmp[off * ts..(off + 1) * ts]);
            }
        }
        // The reference reads the chunks in order: the last one it touches is the highest.
        let last = coords
            .iter()
            .map(|&c| {
                let idx = unflatten(&shape, c);
                let chunk: Vec<i64> = idx
                    .iter()
                    .zip(g.chunkshape())
                    .map(|(&i, &cl)| i / i64::from(cl))
                    .collect();
                g.chunk_index(&chunk)
            })
            .max();
        if let Some(n) = last {
            self.sc.borrow_mut().touched = Some(n);
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
