//! The NDLZ decoders for 4x4 and 8x8 cells. Every read is checked against the input and
//! every back-reference must land inside it; a stream that breaks either is refused.

use super::FAILURE;

/// Reads the input: `pos` is the position of the next byte.
struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    #[inline]
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.input.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(s)
    }

    #[inline]
    fn offset(&mut self) -> Option<usize> {
        let b = self.take(2)?;
        Some(usize::from(u16::from_le_bytes([b[0], b[1]])))
    }

    /// `n` bytes at `back` bytes before position `from`.
    #[inline]
    fn back(&self, from: usize, back: usize, n: usize) -> Option<&'a [u8]> {
        let start = from.checked_sub(back)?;
        self.input.get(start..start.checked_add(n)?)
    }
}

/// Decodes one cell's token into `cell` (`side` x `side` items); `cur` is where the token
/// starts and `padded` the number of items of a padded literal. Returns `None` for a bad
/// stream.
#[inline]
fn cell_token<'a>(
    r: &mut Reader<'a>,
    side: usize,
    padded: usize,
    cell: &mut [u8],
) -> Option<Option<&'a [u8]>> {
    let cur = r.pos;
    let token = r.take(1)?[0];
    let size = side * side;
    match token {
        0 => return Some(Some(r.take(padded)?)),
        0xC0 => {
            let off = r.offset()?;
            return Some(Some(r.back(cur, off, padded)?));
        }
        0x40 => {
            let v = r.take(1)?[0];
            cell[..size].fill(v);
        }
        _ if side == 4 => cell4_rows(r, cur, token, cell)?,
        _ => cell8_rows(r, cur, token, cell)?,
    }
    Some(None)
}

fn cell4_rows(r: &mut Reader, cur: usize, token: u8, cell: &mut [u8]) -> Option<()> {
    let mut put = |row: usize, src: &[u8]| cell[row * 4..row * 4 + 4].copy_from_slice(src);
    match token {
        224..=255 => {
            let off = r.offset()?;
            let (i, j, k) = match token >> 3 {
                28 => (1, 2, 3),
                29 => (0, 1, 2),
                30 => (0, 1, 3),
                _ => (0, 2, 3),
            };
            let src = r.back(cur, off, 12)?;
            put(i, &src[..4]);
            put(j, &src[4..8]);
            put(k, &src[8..]);
            let l = (0..4).find(|&l| l != i && l != j && l != k)?;
            put(l, r.take(4)?);
        }
        128..=191 => {
            let off = r.offset()?;
            let (i, j) = if token == 128 {
                (2, 3)
            } else {
                let t = usize::from(token - 128);
                (t >> 5, (t >> 3) - ((t >> 5) << 2))
            };
            let src = r.back(cur, off, 8)?;
            put(i, &src[..4]);
            put(j, &src[4..]);
            for k in (0..4).filter(|&k| k != i && k != j) {
                put(k, r.take(4)?);
            }
        }
        40..=63 => {
            let off1 = r.offset()?;
            let off2 = r.offset()?;
            let j = usize::from((token - 32) >> 3);
            let mut others = (1..4).filter(|&k| k != j);
            let (l, m) = (others.next()?, others.next()?);
            let a = r.back(cur, off1, 8)?;
            let b = r.back(cur, off2, 8)?;
            put(0, &a[..4]);
            put(j, &a[4..]);
            put(l, &b[..4]);
            put(m, &b[4..]);
        }
        _ => return None,
    }
    Some(())
}

fn cell8_rows(r: &mut Reader, cur: usize, token: u8, cell: &mut [u8]) -> Option<()> {
    let nrows = match token >> 3 {
        21 => 3,
        17 => 2,
        _ => return None,
    };
    let row = usize::from(token & 7);
    if row + nrows > 8 {
        return None;
    }
    let off = r.offset()?;
    let src = r.back(cur, off, nrows * 8)?;
    cell[row * 8..(row + nrows) * 8].copy_from_slice(src);
    // The other rows follow in order: those above the match, then those below.
    let lit = r.take((8 - nrows) * 8)?;
    let (above, below) = lit.split_at(row * 8);
    cell[..row * 8].copy_from_slice(above);
    cell[(row + nrows) * 8..].copy_from_slice(below);
    Some(())
}

/// Decodes an NDLZ stream with `side`-item cells into `out`; returns the number of bytes
/// written (rows x columns of the block in the stream), 0 when `out` is too small or the
/// input too short to hold a header, or [`FAILURE`].
pub(super) fn decode<const SIDE: usize>(input: &[u8], out: &mut [u8]) -> i32 {
    let side = SIDE;
    if input.len() < 9 {
        return 0;
    }
    if input[0] != 2 {
        return FAILURE;
    }
    let dim =
        |at: usize| i32::from_le_bytes([input[at], input[at + 1], input[at + 2], input[at + 3]]);
    let (b0, b1) = (dim(1), dim(5));
    if b0 < 0 || b1 < 0 {
        return FAILURE;
    }
    let (b0, b1) = (b0 as usize, b1 as usize);
    let Some(total) = b0.checked_mul(b1).filter(|&t| t <= i32::MAX as usize) else {
        return FAILURE;
    };
    if out.len() < total {
        return 0;
    }
    // Every cell token writes all items of its cell, so the cells cover the block.
    let out = &mut out[..total];
    let mut r = Reader { input, pos: 9 };
    let stop = [b0.div_ceil(side), b1.div_ceil(side)];
    let mut cell = [0u8; 64];
    let cell = &mut cell[..SIDE * SIDE];
    for c0 in 0..stop[0] {
        let rows = if c0 == stop[0] - 1 && b0 % side != 0 {
            b0 % side
        } else {
            side
        };
        for c1 in 0..stop[1] {
            let cols = if c1 == stop[1] - 1 && b1 % side != 0 {
                b1 % side
            } else {
                side
            };
            let Some(src) = cell_token(&mut r, side, rows * cols, cell) else {
                return FAILURE;
            };
            let src = src.unwrap_or(cell);
            let orig = c0 * side * b1 + c1 * side;
            if rows == SIDE && cols == SIDE {
                for (i, piece) in src.chunks_exact(SIDE).enumerate() {
                    let at = orig + i * b1;
                    let piece: &[u8; SIDE] = piece.try_into().expect("row");
                    out[at..at + SIDE].copy_from_slice(piece);
                }
            } else {
                for (i, piece) in src.chunks(cols).take(rows).enumerate() {
                    let at = orig + i * b1;
                    out[at..at + cols].copy_from_slice(&piece[..cols]);
                }
            }
        }
    }
    total as i32
}
