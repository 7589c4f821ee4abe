//! NDLZ, the codec for 2-D blocks of one-byte items (plugin codec 32): the block is cut into
//! square cells (4x4 or 8x8 items, chosen by the codec's meta) and each cell is coded as a
//! literal, a run of one value, or a (partial) repeat of an earlier cell. Byte-identical
//! with the reference's encoder.
//!
//! A stream starts with the number of dimensions (2) and the block's two dimensions as
//! little-endian `i32`, followed by one token per cell, row of cells after row of cells:
//! * `0`: literal cell (border cells hold only the items inside the block);
//! * `0x40`, value: every item of the cell is `value`;
//! * `0xC0`, offset: copy of the literal cell data `offset` bytes before the token;
//! * otherwise some rows copied from an earlier literal cell (offset before the token) and
//!   the other rows as literals; the token says which rows (see [`decoder`]).

mod cell4;
mod cell8;
mod decoder;
mod encoder;
#[cfg(test)]
mod tests;
mod xxh32;

/// The reference's generic failure code.
pub(crate) const FAILURE: i32 = -1;
/// Matches must be nearer than this many bytes.
const MAX_DISTANCE: usize = 65535;

/// Side of a cell for a codec meta (4 or 8), if it is one.
fn cell_side(meta: u8) -> Option<usize> {
    matches!(meta, 4 | 8).then_some(usize::from(meta))
}

/// Compresses `input`, the whole block of a 2-D array of one-byte items whose block shape is
/// `blockshape`, with cells of side `meta` (4 or 8). Returns the compressed size, 0 when it
/// does not fit in `output` or does not shrink, or [`FAILURE`] for a meta other than 4 or 8,
/// another number of dimensions, or an input whose size is not the block's.
pub fn compress(meta: u8, blockshape: &[i32], input: &[u8], output: &mut [u8]) -> i32 {
    let Some(cell) = cell_side(meta) else {
        return FAILURE;
    };
    let &[b0, b1] = blockshape else {
        return FAILURE;
    };
    if b0 < 0 || b1 < 0 {
        return FAILURE;
    }
    let (b0, b1) = (b0 as usize, b1 as usize);
    if b0.checked_mul(b1) != Some(input.len()) || output.len() < 9 {
        return FAILURE;
    }
    let cell_size = cell * cell;
    let overhead = 17 + ((input.len() / cell_size) as i64 - 1) * 2;
    if input.len() < cell_size || (output.len() as i64) < overhead {
        return 0;
    }
    let n = if cell == 4 {
        encoder::encode::<4>([b0, b1], input, output)
    } else {
        encoder::encode::<8>([b0, b1], input, output)
    };
    n as i32
}

/// Decompresses an NDLZ stream made with cells of side `meta` into `output`; returns the
/// number of bytes written, 0 when `output` is smaller than the block, or [`FAILURE`] for a
/// meta other than 4 or 8 or a corrupt stream.
pub fn decompress(meta: u8, input: &[u8], output: &mut [u8]) -> i32 {
    match cell_side(meta) {
        Some(4) => decoder::decode::<4>(input, output),
        Some(_) => decoder::decode::<8>(input, output),
        None => FAILURE,
    }
}
