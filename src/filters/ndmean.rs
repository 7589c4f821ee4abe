//! NDMEAN (plugin filter 33): replaces every item of each cell of an N-dimensional block of
//! `f32` or `f64` items by the cell's mean (lossy), cells gathered as NDCELL gathers them;
//! the backward pass puts the cells back in place.
//!
//! A cell has side `meta` in every dimension, cut to the block where the block is narrower.
//! Sums run in the item type, in the reference's order, so the means are bit-identical.

use super::ndcell::{check_len, scatter, Cells};
use crate::error::{Error, Result};

/// The cells NDMEAN uses for `meta` and `blockshape`.
fn cells(meta: u8, blockshape: &[i32]) -> Result<Cells> {
    let side = i32::from(meta as i8);
    let side: Vec<usize> = blockshape
        .iter()
        .map(|&b| usize::try_from(side.min(b)).unwrap_or(0))
        .collect();
    Cells::new(blockshape, &side)
}

/// A running cell mean in the item type.
trait Item: Copy {
    const SIZE: usize;
    fn zero() -> Self;
    fn load(b: &[u8]) -> Self;
    fn add(self, o: Self) -> Self;
    fn mean(self, n: usize) -> Self;
    fn store(self, b: &mut [u8]);
}

impl Item for f32 {
    const SIZE: usize = 4;
    fn zero() -> Self {
        0.0
    }
    fn load(b: &[u8]) -> Self {
        f32::from_le_bytes(b.try_into().expect("4 bytes"))
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn mean(self, n: usize) -> Self {
        self / n as f32
    }
    fn store(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
}

impl Item for f64 {
    const SIZE: usize = 8;
    fn zero() -> Self {
        0.0
    }
    fn load(b: &[u8]) -> Self {
        f64::from_le_bytes(b.try_into().expect("8 bytes"))
    }
    fn add(self, o: Self) -> Self {
        self + o
    }
    fn mean(self, n: usize) -> Self {
        self / n as f64
    }
    fn store(self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_le_bytes());
    }
}

/// Writes each cell's mean as many times as the cell has items.
fn means<T: Item>(c: &Cells, src: &[u8], dst: &mut [u8]) -> Result<()> {
    let n = T::SIZE;
    let mut op = 0;
    let mut sum = T::zero();
    let mut len = 0usize;
    let mut fits = true;
    let mut flush = |sum: T, len: usize, op: &mut usize| {
        let m = sum.mean(len);
        match dst.get_mut(*op..*op + len * n) {
            Some(d) => d.chunks_exact_mut(n).for_each(|d| m.store(d)),
            None => fits = false,
        }
        *op += len * n;
    };
    let walked = c.walk(|at, run, first| {
        if first && len > 0 {
            flush(sum, len, &mut op);
            sum = T::zero();
            len = 0;
        }
        for item in src[at * n..(at + run) * n].chunks_exact(n) {
            sum = sum.add(T::load(item));
        }
        len += run;
    });
    if len > 0 {
        flush(sum, len, &mut op);
    }
    if walked && fits && op == src.len() {
        Ok(())
    } else {
        Err(Error::Failure)
    }
}

/// Forward pass on a block `src` of `typesize`-byte items (4: `f32`, 8: `f64`).
pub fn forward(
    meta: u8,
    blockshape: &[i32],
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<()> {
    if typesize != 4 && typesize != 8 {
        return Err(Error::Failure);
    }
    let c = cells(meta, blockshape)?;
    check_len(&c, typesize, src.len(), c.side.iter().product())?;
    if typesize == 4 {
        means::<f32>(&c, src, dst)
    } else {
        means::<f64>(&c, src, dst)
    }
}

/// Backward pass: puts the cells back (the means stay).
pub fn backward(
    meta: u8,
    blockshape: &[i32],
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<()> {
    let c = cells(meta, blockshape)?;
    check_len(&c, typesize, src.len(), c.side.iter().product())?;
    scatter(&c, typesize, src, dst)
}
