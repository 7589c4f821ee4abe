//! The geometry of an N-dimensional array: shape, chunk and block shapes, their padded
//! ("ext") versions, item counts and the index maths between array, chunk and block
//! coordinates. Every value is validated and computed with checked arithmetic.

use crate::constants::MAX_BUFFERSIZE;
use crate::error::{Error, Result};

use super::meta::MAX_DIM;

/// Shape, chunk shape and block shape of an array with everything derived from them.
///
/// Chunks tile the array in C order; the array is padded up to whole chunks (`extshape`).
/// Blocks tile each chunk in C order; a chunk is padded up to whole blocks
/// (`extchunkshape`), and each stored chunk holds `extchunknitems` items, block after block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    shape: Vec<i64>,
    chunkshape: Vec<i32>,
    blockshape: Vec<i32>,
    extshape: Vec<i64>,
    extchunkshape: Vec<i64>,
    nitems: i64,
    chunknitems: i64,
    extnitems: i64,
    blocknitems: i64,
    extchunknitems: i64,
}

/// `a` rounded up to a multiple of `b` (`b > 0`).
fn round_up(a: i64, b: i64) -> Result<i64> {
    let r = a % b;
    if r == 0 {
        Ok(a)
    } else {
        a.checked_add(b - r).ok_or(Error::InvalidParam)
    }
}

/// The product of `values`, failing on overflow.
fn product(values: impl IntoIterator<Item = i64>) -> Result<i64> {
    values
        .into_iter()
        .try_fold(1i64, |acc, v| acc.checked_mul(v))
        .ok_or(Error::InvalidParam)
}

/// C-order strides (in items) of a layout with `shape`.
pub(crate) fn c_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1].saturating_mul(shape[d + 1]);
    }
    strides
}

/// The C-order coordinates of flat position `i` in a layout with `shape` (no zero
/// extents).
pub(crate) fn unflatten(shape: &[i64], mut i: i64) -> Vec<i64> {
    let mut out = vec![0i64; shape.len()];
    for d in (0..shape.len()).rev() {
        if shape[d] > 0 {
            out[d] = i % shape[d];
            i /= shape[d];
        }
    }
    out
}

/// The flat position of `coords` in a layout with `strides`.
pub(crate) fn flatten(coords: &[i64], strides: &[i64]) -> i64 {
    coords.iter().zip(strides).map(|(c, s)| c * s).sum()
}

impl Geometry {
    /// Validates the three shapes (same length, at most 16 dimensions, no negative extent,
    /// a positive chunk extent for every non-empty dimension, a positive block extent for
    /// every positive chunk extent) and derives the padded shapes and item counts. Blocks
    /// may be larger than chunks: the chunk is then padded to one block.
    pub fn new(shape: &[i64], chunkshape: &[i32], blockshape: &[i32]) -> Result<Geometry> {
        let ndim = shape.len();
        if ndim > MAX_DIM || chunkshape.len() != ndim || blockshape.len() != ndim {
            return Err(Error::InvalidParam);
        }
        let mut extshape = Vec::with_capacity(ndim);
        let mut extchunkshape = Vec::with_capacity(ndim);
        for d in 0..ndim {
            let (s, c, b) = (shape[d], chunkshape[d], blockshape[d]);
            if s < 0 || c < 0 || b < 0 || (s > 0 && c == 0) || (c > 0 && b == 0) {
                return Err(Error::InvalidParam);
            }
            if c == 0 {
                extshape.push(0);
                extchunkshape.push(0);
            } else {
                extshape.push(round_up(s, i64::from(c))?);
                extchunkshape.push(round_up(i64::from(c), i64::from(b))?);
            }
        }
        let chunknitems = product(chunkshape.iter().map(|&c| i64::from(c)))?;
        let blocknitems = product(blockshape.iter().map(|&b| i64::from(b)))?;
        if chunknitems > i64::from(i32::MAX) || blocknitems > i64::from(i32::MAX) {
            return Err(Error::InvalidParam);
        }
        Ok(Geometry {
            nitems: product(shape.iter().copied())?,
            extnitems: product(extshape.iter().copied())?,
            extchunknitems: product(extchunkshape.iter().copied())?,
            chunknitems,
            blocknitems,
            shape: shape.to_vec(),
            chunkshape: chunkshape.to_vec(),
            blockshape: blockshape.to_vec(),
            extshape,
            extchunkshape,
        })
    }

    /// The same chunk and block shapes with another shape.
    pub fn with_shape(&self, shape: &[i64]) -> Result<Geometry> {
        Geometry::new(shape, &self.chunkshape, &self.blockshape)
    }

    /// Checks that chunks of `typesize`-byte items fit a Blosc2 chunk; returns the chunk
    /// size in bytes (`MaxBufsizeExceeded` when too big).
    pub fn chunk_nbytes(&self, typesize: i32) -> Result<i32> {
        if typesize <= 0 {
            return Err(Error::InvalidParam);
        }
        let n = self
            .extchunknitems
            .checked_mul(i64::from(typesize))
            .ok_or(Error::MaxBufsizeExceeded)?;
        if n > MAX_BUFFERSIZE {
            return Err(Error::MaxBufsizeExceeded);
        }
        Ok(n as i32)
    }

    /// Size of a block in bytes, as the chunk's forced blocksize.
    pub fn block_nbytes(&self, typesize: i32) -> Result<i32> {
        self.blocknitems
            .checked_mul(i64::from(typesize))
            .and_then(|n| i32::try_from(n).ok())
            .ok_or(Error::InvalidParam)
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Shape of the array.
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// Shape of the chunks.
    pub fn chunkshape(&self) -> &[i32] {
        &self.chunkshape
    }

    /// Shape of the blocks.
    pub fn blockshape(&self) -> &[i32] {
        &self.blockshape
    }

    /// Shape padded to whole chunks.
    pub fn extshape(&self) -> &[i64] {
        &self.extshape
    }

    /// Chunk shape padded to whole blocks.
    pub fn extchunkshape(&self) -> &[i64] {
        &self.extchunkshape
    }

    /// Number of items.
    pub fn nitems(&self) -> i64 {
        self.nitems
    }

    /// Number of items in a chunk (without padding).
    pub fn chunknitems(&self) -> i64 {
        self.chunknitems
    }

    /// Number of items in the padded array.
    pub fn extnitems(&self) -> i64 {
        self.extnitems
    }

    /// Number of items in a block.
    pub fn blocknitems(&self) -> i64 {
        self.blocknitems
    }

    /// Number of items in a padded (stored) chunk.
    pub fn extchunknitems(&self) -> i64 {
        self.extchunknitems
    }

    /// Number of chunks along each dimension.
    pub fn chunks_per_dim(&self) -> Vec<i64> {
        self.extshape
            .iter()
            .zip(&self.chunkshape)
            .map(|(&e, &c)| if c == 0 { 0 } else { e / i64::from(c) })
            .collect()
    }

    /// Number of chunks of the array (0 for an empty array, 1 for a scalar).
    pub fn nchunks(&self) -> i64 {
        if self.nitems == 0 {
            return 0;
        }
        self.chunks_per_dim().iter().product()
    }

    /// Number of blocks along each dimension of a chunk.
    pub fn blocks_per_dim(&self) -> Vec<i64> {
        self.extchunkshape
            .iter()
            .zip(&self.blockshape)
            .map(|(&e, &b)| if b == 0 { 0 } else { e / i64::from(b) })
            .collect()
    }

    /// Number of blocks of a stored chunk.
    pub fn nblocks(&self) -> i64 {
        if self.blocknitems == 0 {
            0
        } else {
            self.extchunknitems / self.blocknitems
        }
    }

    /// The chunk coordinates of chunk `n` (C order over [`Self::chunks_per_dim`]).
    pub fn chunk_coords(&self, n: i64) -> Vec<i64> {
        unflatten(&self.chunks_per_dim(), n)
    }

    /// The flat number of the chunk at chunk coordinates `coords`.
    pub fn chunk_index(&self, coords: &[i64]) -> i64 {
        flatten(coords, &c_strides(&self.chunks_per_dim()))
    }

    /// The item box `[start, stop)` chunk `coords` covers, clipped to the shape.
    pub fn chunk_box(&self, coords: &[i64]) -> (Vec<i64>, Vec<i64>) {
        let start: Vec<i64> = coords
            .iter()
            .zip(&self.chunkshape)
            .map(|(&c, &s)| c * i64::from(s))
            .collect();
        let stop = start
            .iter()
            .zip(&self.chunkshape)
            .zip(&self.shape)
            .map(|((&a, &c), &s)| (a + i64::from(c)).min(s))
            .collect();
        (start, stop)
    }

    /// The shape of the slice `[start, stop)` (one value per dimension; a dimension with
    /// `start >= stop` is empty). Its ends are not checked against the array: see
    /// [`Self::check_bounds`].
    pub fn slice_extent(&self, start: &[i64], stop: &[i64]) -> Result<Vec<i64>> {
        let n = self.ndim();
        if start.len() < n || stop.len() < n {
            return Err(Error::InvalidParam);
        }
        (0..n)
            .map(|d| {
                stop[d]
                    .checked_sub(start[d])
                    .map(|e| e.max(0))
                    .ok_or(Error::InvalidParam)
            })
            .collect()
    }

    /// Checks the ends of a slice against the array as the reference fails on them:
    /// `Failure` for a negative end or one past the padded shape, `InvalidParam` for one
    /// inside the padding.
    pub fn check_bounds(&self, start: &[i64], stop: &[i64]) -> Result<()> {
        for d in 0..self.ndim() {
            for v in [start[d], stop[d]] {
                if v < 0 || v > self.extshape[d].max(self.shape[d]) {
                    return Err(Error::Failure);
                }
                if v > self.shape[d] {
                    return Err(Error::InvalidParam);
                }
            }
        }
        Ok(())
    }

    /// Checks a slice `[start, stop)` ([`Self::slice_extent`] and
    /// [`Self::check_bounds`]); returns its shape.
    pub fn check_slice(&self, start: &[i64], stop: &[i64]) -> Result<Vec<i64>> {
        let extent = self.slice_extent(start, stop)?;
        self.check_bounds(start, stop)?;
        Ok(extent)
    }

    /// The chunks (by flat number, in C order) with at least one item in `[start, stop)`;
    /// the slice must have passed [`Self::check_slice`].
    pub fn slice_chunks(&self, start: &[i64], stop: &[i64]) -> Vec<i64> {
        let n = self.ndim();
        if self.nitems == 0 || (0..n).any(|d| start[d] >= stop[d]) {
            return Vec::new();
        }
        let first: Vec<i64> = (0..n)
            .map(|d| start[d] / i64::from(self.chunkshape[d]))
            .collect();
        let counts: Vec<i64> = (0..n)
            .map(|d| (stop[d] - 1) / i64::from(self.chunkshape[d]) - first[d] + 1)
            .collect();
        let strides = c_strides(&self.chunks_per_dim());
        let total: i64 = counts.iter().product();
        (0..total)
            .map(|k| {
                let rel = unflatten(&counts, k);
                let coords: Vec<i64> = rel.iter().zip(&first).map(|(r, f)| r + f).collect();
                flatten(&coords, &strides)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_shapes_and_counts_items() {
        let g = Geometry::new(&[10, 7], &[4, 4], &[3, 2]).unwrap();
        assert_eq!(g.extshape(), &[12, 8]);
        assert_eq!(g.extchunkshape(), &[6, 4]);
        assert_eq!(g.nitems(), 70);
        assert_eq!(g.extnitems(), 96);
        assert_eq!(g.chunknitems(), 16);
        assert_eq!(g.extchunknitems(), 24);
        assert_eq!(g.blocknitems(), 6);
        assert_eq!(g.nblocks(), 4);
        assert_eq!(g.chunks_per_dim(), vec![3, 2]);
        assert_eq!(g.blocks_per_dim(), vec![2, 2]);
        assert_eq!(g.nchunks(), 6);
        assert_eq!(g.chunk_nbytes(8).unwrap(), 192);
        assert_eq!(g.block_nbytes(8).unwrap(), 48);
    }

    #[test]
    fn scalar_and_empty_arrays() {
        let s = Geometry::new(&[], &[], &[]).unwrap();
        assert_eq!((s.nitems(), s.nchunks(), s.extchunknitems()), (1, 1, 1));
        let e = Geometry::new(&[0, 5], &[0, 5], &[0, 5]).unwrap();
        assert_eq!((e.nitems(), e.nchunks(), e.extnitems()), (0, 0, 0));
        let e2 = Geometry::new(&[3, 0], &[2, 2], &[1, 1]).unwrap();
        assert_eq!((e2.nitems(), e2.nchunks()), (0, 0));
        assert_eq!(e2.extshape(), &[4, 0]);
    }

    #[test]
    fn rejects_hostile_shapes() {
        assert!(Geometry::new(&[1; 17], &[1; 17], &[1; 17]).is_err());
        assert!(Geometry::new(&[-1], &[1], &[1]).is_err());
        assert!(Geometry::new(&[5], &[0], &[0]).is_err());
        let wide = Geometry::new(&[5], &[2], &[3]).unwrap();
        assert_eq!(
            (wide.extshape(), wide.extchunkshape()),
            (&[6][..], &[3][..])
        );
        assert!(Geometry::new(&[5], &[2], &[0]).is_err());
        assert!(Geometry::new(&[5], &[2, 2], &[1]).is_err());
        assert!(Geometry::new(&[i64::MAX, 3], &[1, 1], &[1, 1]).is_err());
        assert!(
            Geometry::new(&[i64::MAX], &[2], &[1]).is_err(),
            "padding overflows"
        );
        let big = Geometry::new(&[1 << 20, 1 << 20], &[1 << 16, 1 << 16], &[1, 1]);
        assert!(big.is_err(), "a chunk of 2^32 items");
        let g = Geometry::new(&[1 << 28], &[1 << 28], &[1 << 10]).unwrap();
        assert_eq!(g.chunk_nbytes(8), Err(Error::MaxBufsizeExceeded));
        assert_eq!(g.chunk_nbytes(0), Err(Error::InvalidParam));
    }

    #[test]
    fn chunk_coordinates_and_boxes() {
        let g = Geometry::new(&[10, 7], &[4, 4], &[2, 2]).unwrap();
        assert_eq!(g.chunk_coords(3), vec![1, 1]);
        assert_eq!(g.chunk_index(&[2, 1]), 5);
        assert_eq!(g.chunk_box(&[2, 1]), (vec![8, 4], vec![10, 7]));
        assert_eq!(g.slice_chunks(&[3, 3], &[5, 5]), vec![0, 1, 2, 3]);
        assert_eq!(g.slice_chunks(&[8, 0], &[10, 4]), vec![4]);
        assert_eq!(g.slice_chunks(&[8, 0], &[8, 4]), Vec::<i64>::new());
        assert_eq!(g.check_slice(&[0, 1], &[10, 7]).unwrap(), vec![10, 6]);
        assert!(g.check_slice(&[0, 1], &[11, 7]).is_err());
        assert!(g.check_slice(&[-1, 1], &[1, 7]).is_err());
        assert_eq!(g.check_slice(&[2, 1], &[1, 7]).unwrap(), vec![0, 6]);
        assert!(g.check_slice(&[0], &[1]).is_err());
    }

    #[test]
    fn index_helpers() {
        assert_eq!(c_strides(&[3, 4, 5]), vec![20, 5, 1]);
        assert_eq!(unflatten(&[3, 4, 5], 27), vec![1, 1, 2]);
        assert_eq!(flatten(&[1, 1, 2], &[20, 5, 1]), 27);
    }
}
