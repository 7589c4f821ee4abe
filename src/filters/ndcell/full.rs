//! The cell walk of blocks made only of full cells (every dimension a multiple of the cell
//! side), the common case: the row offsets of one cell and the origins of all cells are
//! computed once, and each row is copied with a copy of fixed size.

use super::Cells;

/// Where the rows of every cell are, for a block of full cells.
pub(super) struct Plan {
    /// Origins (item indices) of the cells, in walk order.
    origins: Vec<usize>,
    /// Offsets (items) of the rows of a cell from its origin, in walk order.
    rows: Vec<usize>,
    /// Items per row.
    run: usize,
}

impl Plan {
    /// The plan of `c`, or `None` when some cell is cut by the block's border or the cells
    /// do not all use one side.
    pub(super) fn new(c: &Cells) -> Option<Plan> {
        let nd = c.block.len();
        let side = c.stride_side;
        if c.side.iter().any(|&s| s != side)
            || c.block.iter().any(|&b| b % side != 0)
            || c.block.len() > 8
        {
            return None;
        }
        // Item strides of each dimension (row-major).
        let mut strides = vec![1usize; nd];
        for d in (0..nd.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1].checked_mul(c.block[d + 1])?;
        }
        let mut rows = vec![0usize];
        for d in (0..nd - 1).rev() {
            let step = strides[d];
            rows = (0..side)
                .flat_map(|k| rows.iter().map(move |&r| r + k * step))
                .collect();
        }
        let mut origins = vec![0usize];
        for d in (0..nd).rev() {
            let step = side * strides[d];
            origins = (0..c.block[d] / side)
                .flat_map(|k| origins.iter().map(move |&o| o + k * step))
                .collect();
        }
        Some(Plan {
            origins,
            rows,
            run: side,
        })
    }

    /// Gathers the cells of `block` (a block of `typesize`-byte items) into `packed`; both
    /// hold exactly the block.
    pub(super) fn gather(&self, typesize: usize, block: &[u8], packed: &mut [u8]) {
        let n = self.run * typesize;
        match n {
            8 => self.gather_rows(8, typesize, block, packed),
            16 => self.gather_rows(16, typesize, block, packed),
            32 => self.gather_rows(32, typesize, block, packed),
            64 => self.gather_rows(64, typesize, block, packed),
            _ => self.gather_rows(n, typesize, block, packed),
        }
    }

    /// Scatters the packed cells of `packed` back into `block`; both hold exactly the block.
    pub(super) fn scatter(&self, typesize: usize, packed: &[u8], block: &mut [u8]) {
        let n = self.run * typesize;
        match n {
            8 => self.scatter_rows(8, typesize, packed, block),
            16 => self.scatter_rows(16, typesize, packed, block),
            32 => self.scatter_rows(32, typesize, packed, block),
            64 => self.scatter_rows(64, typesize, packed, block),
            _ => self.scatter_rows(n, typesize, packed, block),
        }
    }

    /// [`Plan::gather`] with rows of `n` bytes (a constant where inlined).
    #[inline(always)]
    fn gather_rows(&self, n: usize, ts: usize, block: &[u8], packed: &mut [u8]) {
        let mut pieces = packed.chunks_exact_mut(n);
        for &o in &self.origins {
            for &r in &self.rows {
                let at = (o + r) * ts;
                let (Some(p), Some(b)) = (pieces.next(), block.get(at..at + n)) else {
                    return;
                };
                p.copy_from_slice(b);
            }
        }
    }

    /// [`Plan::scatter`] with rows of `n` bytes (a constant where inlined).
    #[inline(always)]
    fn scatter_rows(&self, n: usize, ts: usize, packed: &[u8], block: &mut [u8]) {
        let mut pieces = packed.chunks_exact(n);
        for &o in &self.origins {
            for &r in &self.rows {
                let at = (o + r) * ts;
                let (Some(p), Some(b)) = (pieces.next(), block.get_mut(at..at + n)) else {
                    return;
                };
                b.copy_from_slice(p);
            }
        }
    }
}
