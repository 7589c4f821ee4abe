//! Fortran-ordered arrays given back in C order, one band of the C-order output at a
//! time: the stored bytes stream past a [`CBand`], which keeps the elements whose C index
//! falls in its band. An array larger than the band takes one pass over the file per band.

use std::io::{self, Write};

/// Collects the C-order elements `first..first + count` (in items) of a Fortran-ordered
/// array from its stored bytes, written to it in order from the start.
pub(crate) struct CBand<'a> {
    shape: &'a [usize],
    itemsize: usize,
    /// Elements per C-order row of the first axis (the product of the other axes).
    row: usize,
    first: usize,
    count: usize,
    band: Vec<u8>,
    /// Fortran index of the next whole item to arrive.
    next: usize,
    /// The start of an item split across writes.
    carry: Vec<u8>,
}

impl<'a> CBand<'a> {
    /// A band for `shape` (at least two axes, no zero extent) of `itemsize`-byte items.
    pub(crate) fn new(shape: &'a [usize], itemsize: usize, first: usize, count: usize) -> Self {
        CBand {
            shape,
            itemsize,
            row: shape[1..].iter().product(),
            first,
            count,
            band: vec![0u8; count * itemsize],
            next: 0,
            carry: Vec::with_capacity(itemsize),
        }
    }

    /// The band, complete once every stored byte was written.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.band
    }

    /// The C index, within the other axes, of the Fortran run `j` (the items that share
    /// every index but the first).
    fn c_rest(&self, mut j: usize) -> usize {
        let mut digits = [0usize; 32];
        let rest = &self.shape[1..];
        for (d, &s) in digits.iter_mut().zip(rest) {
            *d = j % s;
            j /= s;
        }
        digits.iter().zip(rest).fold(0, |acc, (&d, &s)| acc * s + d)
    }

    /// Places whole items whose Fortran indices start at `self.next`.
    fn place(&mut self, items: &[u8]) {
        let t = self.itemsize;
        let s0 = self.shape[0];
        let (lo_c, hi_c) = (self.first, self.first + self.count);
        let mut done = 0;
        let total = items.len() / t;
        while done < total {
            let f = self.next + done;
            let (j, i0) = (f / s0, f % s0);
            let len = (s0 - i0).min(total - done);
            let jc = self.c_rest(j);
            // Items i of this run have C index i * row + jc; keep those in the band.
            let a = lo_c.saturating_sub(jc).div_ceil(self.row).max(i0);
            let b = hi_c.saturating_sub(jc).div_ceil(self.row).min(i0 + len);
            for i in a..b {
                let dst = (i * self.row + jc - lo_c) * t;
                let src = (done + i - i0) * t;
                self.band[dst..dst + t].copy_from_slice(&items[src..src + t]);
            }
            done += len;
        }
        self.next += total;
    }
}

impl Write for CBand<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let t = self.itemsize;
        let mut b = buf;
        if !self.carry.is_empty() {
            let k = (t - self.carry.len()).min(b.len());
            self.carry.extend_from_slice(&b[..k]);
            b = &b[k..];
            if self.carry.len() < t {
                return Ok(buf.len());
            }
            let item = std::mem::take(&mut self.carry);
            self.place(&item);
            self.carry = item;
            self.carry.clear();
        }
        let whole = b.len() / t * t;
        self.place(&b[..whole]);
        self.carry.extend_from_slice(&b[whole..]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
