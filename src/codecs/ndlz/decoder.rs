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

/// The rows an 8x8 row-match token copies: (first row, number of rows), if valid.
fn row_match(token: u8) -> Option<(usize, usize)> {
    let nrows = match token >> 3 {
        21 => 3,
        17 => 2,
        _ => return None,
    };
    let row = usize::from(token & 7);
    (row + nrows <= 8).then_some((row, nrows))
}

fn cell8_rows(r: &mut Reader, cur: usize, token: u8, cell: &mut [u8]) -> Option<()> {
    let (row, nrows) = row_match(token)?;
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

/// Where the rows of a whole cell come from: one value for all items, or for each row the
/// start of its `SIDE` bytes in the input (every one checked to lie inside it).
enum Rows<const SIDE: usize> {
    Run(u8),
    From([usize; SIDE]),
}

/// The start of `n` input bytes at `back` bytes before `from`, if they lie inside the input.
#[inline(always)]
fn back_start(len: usize, from: usize, back: usize, n: usize) -> Option<usize> {
    let start = from.checked_sub(back)?;
    (start.checked_add(n)? <= len).then_some(start)
}

/// The little-endian offset at `at`.
#[inline(always)]
fn offset_at(input: &[u8], at: usize) -> Option<usize> {
    let b = input.get(at..at.checked_add(2)?)?;
    Some(usize::from(u16::from_le_bytes([b[0], b[1]])))
}

/// Decodes the token at `cur` of a whole (unpadded) cell: its rows and where the next token
/// starts. The same stream checks as [`cell_token`], with the rows left in the input.
#[inline(always)]
fn whole_cell<const SIDE: usize>(input: &[u8], cur: usize) -> Option<(Rows<SIDE>, usize)> {
    let len = input.len();
    let token = *input.get(cur)?;
    let p = cur + 1;
    let size = SIDE * SIDE;
    let mut idx = [0usize; SIDE];
    let next = match token {
        0 => {
            if p.checked_add(size)? > len {
                return None;
            }
            for (l, s) in idx.iter_mut().enumerate() {
                *s = p + l * SIDE;
            }
            p + size
        }
        0xC0 => {
            let start = back_start(len, cur, offset_at(input, p)?, size)?;
            for (l, s) in idx.iter_mut().enumerate() {
                *s = start + l * SIDE;
            }
            p + 2
        }
        0x40 => return Some((Rows::Run(*input.get(p)?), p + 1)),
        _ if SIDE == 8 => {
            let (row, nrows) = row_match(token)?;
            let start = back_start(len, cur, offset_at(input, p)?, nrows * 8)?;
            let lit = p + 2;
            let end = lit + (8 - nrows) * 8;
            if end > len {
                return None;
            }
            // Rows row..row+nrows repeat; the others are literals in order.
            for (l, s) in idx.iter_mut().enumerate() {
                let k = l.wrapping_sub(row);
                let skip = if l >= row { nrows } else { 0 };
                *s = if k < nrows {
                    start + k * 8
                } else {
                    lit + (l - skip) * 8
                };
            }
            end
        }
        _ => rows4(input, cur, token, &mut idx)?,
    };
    Some((Rows::From(idx), next))
}

/// The rows of a 4x4 cell whose token repeats some rows of an earlier cell (see
/// [`cell4_rows`]): their starts go to `idx`; returns where the next token starts.
fn rows4(input: &[u8], cur: usize, token: u8, idx: &mut [usize]) -> Option<usize> {
    let len = input.len();
    let mut p = cur + 1;
    let literal = |p: &mut usize| -> Option<usize> {
        let at = *p;
        (at + 4 <= len).then(|| {
            *p += 4;
            at
        })
    };
    match token {
        224..=255 => {
            let off = offset_at(input, p)?;
            p += 2;
            let (i, j, k) = match token >> 3 {
                28 => (1, 2, 3),
                29 => (0, 1, 2),
                30 => (0, 1, 3),
                _ => (0, 2, 3),
            };
            let b = back_start(len, cur, off, 12)?;
            idx[i] = b;
            idx[j] = b + 4;
            idx[k] = b + 8;
            let l = (0..4).find(|&l| l != i && l != j && l != k)?;
            idx[l] = literal(&mut p)?;
        }
        128..=191 => {
            let off = offset_at(input, p)?;
            p += 2;
            let (i, j) = if token == 128 {
                (2, 3)
            } else {
                let t = usize::from(token - 128);
                (t >> 5, (t >> 3) - ((t >> 5) << 2))
            };
            let b = back_start(len, cur, off, 8)?;
            idx[i] = b;
            idx[j] = b + 4;
            for k in (0..4).filter(|&k| k != i && k != j) {
                idx[k] = literal(&mut p)?;
            }
        }
        40..=63 => {
            let off1 = offset_at(input, p)?;
            let off2 = offset_at(input, p + 2)?;
            p += 4;
            let j = usize::from((token - 32) >> 3);
            let mut others = (1..4).filter(|&k| k != j);
            let (l, m) = (others.next()?, others.next()?);
            let a = back_start(len, cur, off1, 8)?;
            let b = back_start(len, cur, off2, 8)?;
            idx[0] = a;
            idx[j] = a + 4;
            idx[l] = b;
            idx[m] = b + 4;
        }
        _ => return None,
    }
    Some(p)
}

/// Writes the rows of a whole cell to `out` at `orig`, rows `width` bytes apart.
#[inline(always)]
fn put_rows<const SIDE: usize>(
    input: &[u8],
    rows: &Rows<SIDE>,
    out: &mut [u8],
    orig: usize,
    width: usize,
) {
    let dst = &mut out[orig..orig + (SIDE - 1) * width + SIDE];
    match rows {
        Rows::Run(v) => {
            for l in 0..SIDE {
                dst[l * width..l * width + SIDE].copy_from_slice(&[*v; SIDE]);
            }
        }
        Rows::From(idx) => {
            for (l, &s) in idx.iter().enumerate() {
                let row: &[u8; SIDE] = input[s..s + SIDE].try_into().expect("row");
                dst[l * width..l * width + SIDE].copy_from_slice(row);
            }
        }
    }
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
    // Cells wholly inside the block: those before the last row and column of cells, and
    // those of the last ones when the block divides evenly.
    let whole = [b0 / side, b1 / side];
    let mut cell = [0u8; 64];
    let cell = &mut cell[..SIDE * SIDE];
    for c0 in 0..stop[0] {
        let rows = if c0 < whole[0] { side } else { b0 % side };
        for c1 in 0..stop[1] {
            let orig = c0 * side * b1 + c1 * side;
            if c0 < whole[0] && c1 < whole[1] {
                let Some((src, next)) = whole_cell::<SIDE>(input, r.pos) else {
                    return FAILURE;
                };
                put_rows(input, &src, out, orig, b1);
                r.pos = next;
                continue;
            }
            let cols = if c1 < whole[1] { side } else { b1 % side };
            let Some(src) = cell_token(&mut r, side, rows * cols, cell) else {
                return FAILURE;
            };
            let src = src.unwrap_or(cell);
            for (i, piece) in src.chunks(cols).take(rows).enumerate() {
                let at = orig + i * b1;
                out[at..at + cols].copy_from_slice(&piece[..cols]);
            }
        }
    }
    total as i32
}
