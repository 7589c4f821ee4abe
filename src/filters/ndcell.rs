//! NDCELL (plugin filter 32): reorders an N-dimensional block so that the items of each
//! cell (a hypercube of side `meta`, cut short at the block's far borders) are contiguous,
//! cells in row-major order; the backward pass puts them back. NDMEAN shares the backward
//! pass and the cell walk.

mod full;

use crate::error::{Error, Result};

/// The cells of a block: the block shape and the cell side in each dimension.
#[derive(Debug, Clone)]
pub(crate) struct Cells {
    /// Block shape (items per dimension).
    pub block: Vec<usize>,
    /// Cell side per dimension.
    pub side: Vec<usize>,
    /// Cell side used for the cell origins in every dimension (the reference takes the
    /// first dimension's side; it differs only where a cell is cut to a narrower block).
    pub stride_side: usize,
}

impl Cells {
    /// Cells of side `side` in every dimension of `block`; fails on an empty block or side.
    pub fn new(block: &[i32], side: &[usize]) -> Result<Cells> {
        let block: Vec<usize> = block
            .iter()
            .map(|&b| usize::try_from(b).ok().filter(|&b| b > 0))
            .collect::<Option<_>>()
            .ok_or(Error::Failure)?;
        if block.is_empty() || side.len() != block.len() || side.contains(&0) {
            return Err(Error::Failure);
        }
        Ok(Cells {
            stride_side: side[0],
            block,
            side: side.to_vec(),
        })
    }

    /// Number of items of the block.
    pub fn items(&self) -> Option<usize> {
        self.block.iter().try_fold(1usize, |a, &b| a.checked_mul(b))
    }

    /// Calls `f(item_index, run_length, first_piece_of_its_cell)` for every row piece of
    /// every cell, in the order the forward pass writes them; returns `false` (before the
    /// offending piece) when a piece would leave the block.
    pub fn walk(&self, mut f: impl FnMut(usize, usize, bool)) -> bool {
        let nd = self.block.len();
        let counts: Vec<usize> = (0..nd)
            .map(|d| self.block[d].div_ceil(self.side[d]))
            .collect();
        let total = self.items().unwrap_or(0);
        let mut ii = vec![0usize; nd];
        let mut kk = vec![0usize; nd];
        let mut pad = vec![0usize; nd];
        loop {
            let mut orig = 0usize;
            let mut stride = self.stride_side;
            for d in (0..nd).rev() {
                orig += ii[d] * stride;
                stride *= self.block[d];
            }
            for d in 0..nd {
                let cut = self.block[d] % self.side[d];
                pad[d] = if cut != 0 && ii[d] == counts[d] - 1 {
                    cut
                } else {
                    self.side[d]
                };
            }
            kk.iter_mut().for_each(|k| *k = 0);
            let mut first = true;
            loop {
                let mut at = orig;
                let mut stride = self.block[nd - 1];
                for d in (0..nd - 1).rev() {
                    at += kk[d] * stride;
                    stride *= self.block[d];
                }
                let run = pad[nd - 1];
                if at + run > total {
                    return false;
                }
                f(at, run, first);
                first = false;
                if !odometer(&mut kk[..nd - 1], &pad[..nd - 1]) {
                    break;
                }
            }
            if !odometer(&mut ii, &counts) {
                return true;
            }
        }
    }
}

/// Steps the row-major counter `ii` within `shape`; `false` after the last position.
fn odometer(ii: &mut [usize], shape: &[usize]) -> bool {
    for d in (0..ii.len()).rev() {
        ii[d] += 1;
        if ii[d] < shape[d] {
            return true;
        }
        ii[d] = 0;
    }
    false
}

/// The cells of side `meta` of a block, as NDCELL uses them.
pub(crate) fn cells(meta: u8, blockshape: &[i32]) -> Result<Cells> {
    let side = meta as i8;
    if side <= 0 {
        return Err(Error::Failure);
    }
    Cells::new(blockshape, &vec![side as usize; blockshape.len()])
}

/// Checks that `len` bytes are one block of `typesize`-byte items no smaller than a full
/// cell of `cell_items` items.
pub(crate) fn check_len(c: &Cells, typesize: usize, len: usize, cell_items: usize) -> Result<()> {
    let blocksize = c.items().and_then(|n| n.checked_mul(typesize));
    if typesize == 0 || blocksize != Some(len) || len < cell_items.saturating_mul(typesize) {
        return Err(Error::Failure);
    }
    Ok(())
}

/// Forward pass: gathers the cells of `src` (a block of `typesize`-byte items) into `dst`.
pub fn forward(
    meta: u8,
    blockshape: &[i32],
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<()> {
    let c = cells(meta, blockshape)?;
    let full = c
        .side
        .iter()
        .try_fold(1usize, |a, &s| a.checked_mul(s))
        .ok_or(Error::Failure)?;
    check_len(&c, typesize, src.len(), full)?;
    if let Some(plan) = full::Plan::new(&c).filter(|_| dst.len() >= src.len()) {
        plan.gather(typesize, src, dst);
        return Ok(());
    }
    let mut op = 0;
    let ok = c.walk(|at, run, _| {
        let n = run * typesize;
        dst[op..op + n].copy_from_slice(&src[at * typesize..at * typesize + n]);
        op += n;
    });
    if ok && op == src.len() {
        Ok(())
    } else {
        Err(Error::Failure)
    }
}

/// Backward pass shared by NDCELL and NDMEAN: scatters the cells of `src` back to their
/// places in `dst`.
pub(crate) fn scatter(c: &Cells, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<()> {
    if let Some(plan) = full::Plan::new(c) {
        if c.items().and_then(|n| n.checked_mul(typesize)) == Some(src.len())
            && dst.len() >= src.len()
        {
            plan.scatter(typesize, src, dst);
            return Ok(());
        }
    }
    let mut ip = 0;
    let mut overflow = false;
    let mut end = 0;
    let ok = c.walk(|at, run, _| {
        let n = run * typesize;
        match src.get(ip..ip + n) {
            Some(s) if !overflow => dst[at * typesize..at * typesize + n].copy_from_slice(s),
            _ => overflow = true,
        }
        ip += n;
        end = at + run;
    });
    // As the reference, the last piece must end the block.
    if ok && !overflow && ip == src.len() && Some(end) == c.items() {
        Ok(())
    } else {
        Err(Error::Failure)
    }
}

/// Backward pass of NDCELL: the inverse of [`forward`].
pub fn backward(
    meta: u8,
    blockshape: &[i32],
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<()> {
    let c = cells(meta, blockshape)?;
    let full = c
        .side
        .iter()
        .try_fold(1usize, |a, &s| a.checked_mul(s))
        .ok_or(Error::Failure)?;
    check_len(&c, typesize, src.len(), full)?;
    scatter(&c, typesize, src, dst)
}
