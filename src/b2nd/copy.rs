//! Copies of N-dimensional boxes between C-order buffers of different shapes.

use super::geometry::c_strides;
use super::meta::MAX_DIM;
use crate::error::{Error, Result};

/// One side of a box copy: a C-order buffer of `shape` items and the corner of the box in
/// it.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// Shape of the whole buffer (in items).
    pub shape: &'a [i64],
    /// Coordinates of the box's first item.
    pub start: &'a [i64],
}

/// Bytes a buffer needs to hold a box of `extent` at `side` (offset of its last item plus
/// one item); fails unless the box lies inside the side's shape.
pub(crate) fn box_span(side: &Side, extent: &[i64], itemsize: usize) -> Result<usize> {
    let n = extent.len();
    if side.shape.len() < n || side.start.len() < n {
        return Err(Error::InvalidParam);
    }
    let strides = c_strides(&side.shape[..n]);
    let mut last: i64 = 0;
    for d in 0..n {
        let (s, e, sh) = (side.start[d], extent[d], side.shape[d]);
        if s < 0 || e < 0 || s.checked_add(e).is_none_or(|end| end > sh) {
            return Err(Error::InvalidParam);
        }
        if e == 0 {
            return Ok(0);
        }
        let corner = (s + e - 1)
            .checked_mul(strides[d])
            .ok_or(Error::InvalidParam)?;
        last = last.checked_add(corner).ok_or(Error::InvalidParam)?;
    }
    let items = usize::try_from(last).map_err(|_| Error::InvalidParam)? + 1;
    items.checked_mul(itemsize).ok_or(Error::InvalidParam)
}

/// Copies the box of `extent` items at `src` to `dst` (items of `itemsize` bytes). Both
/// boxes must lie inside their shapes and buffers; nothing is written otherwise.
pub fn copy_box(
    itemsize: usize,
    extent: &[i64],
    src: &[u8],
    src_side: Side,
    dst: &mut [u8],
    dst_side: Side,
) -> Result<()> {
    let n = extent.len();
    let need_src = box_span(&src_side, extent, itemsize)?;
    let need_dst = box_span(&dst_side, extent, itemsize)?;
    if need_src > src.len() || need_dst > dst.len() {
        return Err(Error::InvalidParam);
    }
    if n == 0 {
        let item = src.get(..itemsize).ok_or(Error::InvalidParam)?;
        dst.get_mut(..itemsize)
            .ok_or(Error::InvalidParam)?
            .copy_from_slice(item);
        return Ok(());
    }
    if need_src == 0 {
        return Ok(());
    }
    let ss = c_strides(&src_side.shape[..n]);
    let ds = c_strides(&dst_side.shape[..n]);
    // Trailing dimensions copied whole on both sides merge into one contiguous run.
    let mut inner = n - 1;
    let mut run = extent[n - 1];
    while inner > 0
        && extent[inner] == src_side.shape[inner]
        && extent[inner] == dst_side.shape[inner]
    {
        inner -= 1;
        run *= extent[inner];
    }
    let run_bytes = run as usize * itemsize;
    let ts = itemsize as i64;
    // Byte offsets of the current run; the odometer over the outer dimensions moves them
    // by the strides (every position was bounds-checked through the spans above).
    let mut so: i64 = (0..n).map(|d| src_side.start[d] * ss[d]).sum::<i64>() * ts;
    let mut d_o: i64 = (0..n).map(|d| dst_side.start[d] * ds[d]).sum::<i64>() * ts;
    let mut idx = [0i64; MAX_DIM];
    loop {
        let (a, b) = (so as usize, d_o as usize);
        dst[b..b + run_bytes].copy_from_slice(&src[a..a + run_bytes]);
        let mut d = inner;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            idx[d] += 1;
            so += ss[d] * ts;
            d_o += ds[d] * ts;
            if idx[d] < extent[d] {
                break;
            }
            so -= ss[d] * ts * extent[d];
            d_o -= ds[d] * ts * extent[d];
            idx[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_a_box_between_shapes() {
        let src: Vec<u8> = (0..20).collect();
        let mut dst = vec![0xffu8; 12];
        copy_box(
            1,
            &[2, 3],
            &src,
            Side {
                shape: &[4, 5],
                start: &[1, 1],
            },
            &mut dst,
            Side {
                shape: &[3, 4],
                start: &[1, 0],
            },
        )
        .unwrap();
        let mut want = vec![0xffu8; 12];
        want[4..7].copy_from_slice(&[6, 7, 8]);
        want[8..11].copy_from_slice(&[11, 12, 13]);
        assert_eq!(dst, want);
    }

    #[test]
    fn merges_whole_rows_and_copies_scalars() {
        let src: Vec<u8> = (0..24).collect();
        let mut dst = vec![0u8; 24];
        let side = Side {
            shape: &[2, 3, 4],
            start: &[0, 0, 0],
        };
        copy_box(1, &[2, 3, 4], &src, side, &mut dst, side).unwrap();
        assert_eq!(dst, src);
        let mut one = [0u8; 2];
        copy_box(
            2,
            &[],
            &[7, 9],
            Side {
                shape: &[],
                start: &[],
            },
            &mut one,
            Side {
                shape: &[],
                start: &[],
            },
        )
        .unwrap();
        assert_eq!(one, [7, 9]);
    }

    #[test]
    fn rejects_boxes_outside() {
        let src = [0u8; 16];
        let mut dst = [0u8; 16];
        let inside = Side {
            shape: &[4, 4],
            start: &[0, 0],
        };
        let out = Side {
            shape: &[4, 4],
            start: &[3, 0],
        };
        assert!(copy_box(1, &[2, 2], &src, out, &mut dst, inside).is_err());
        assert!(copy_box(1, &[2, 2], &src, inside, &mut dst, out).is_err());
        assert!(copy_box(1, &[2, 2], &src[..4], inside, &mut dst, inside).is_err());
        let neg = Side {
            shape: &[4, 4],
            start: &[-1, 0],
        };
        assert!(copy_box(1, &[2, 2], &src, neg, &mut dst, inside).is_err());
        assert!(copy_box(1, &[2, 2], &src, inside, &mut dst, inside).is_ok());
    }
}
