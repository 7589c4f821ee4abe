//! The NDLZ encoder's whole 8x8 cells: each row of a cell is one little-endian word read
//! straight from the block; the hashes of rows `i..` share the XXH32 stripe of rows `i` and
//! `i + 1`, and the match checks compare words. The choices and the table updates are the
//! reference's (see [`super::encoder`]).

use super::encoder::{near, offset, slot_of, Enc, Hashes, Pos, Updates, SEED};
use super::xxh32::{avalanche, merge, start, stripe_words, tail_u32};
use super::MAX_DISTANCE;

/// Encodes one stripe of eight rows of `width` items starting at `base` in `input`: its
/// whole cells, then the narrower border cell if any. Returns false when the output is
/// full or no longer smaller than the input.
pub(super) fn stripe<T: Pos>(
    e: &mut Enc<T>,
    input: &[u8],
    width: usize,
    base: usize,
    hashes: &mut Hashes,
) -> bool {
    let limit = e.out.len();
    let stripe = &input[base..base + 8 * width];
    let rows: [&[[u8; 8]]; 8] =
        std::array::from_fn(|k| stripe[k * width..(k + 1) * width].as_chunks::<8>().0);
    let cells = (0..width / 8).map(|c1| std::array::from_fn(|k| u64::from_le_bytes(rows[k][c1])));
    for r in cells {
        if e.op + 65 > limit {
            return false;
        }
        cell(e, r, hashes);
        if e.op > input.len() {
            return false;
        }
    }
    let cols = width % 8;
    if cols != 0 {
        if e.op + 65 > limit {
            return false;
        }
        e.padded(input, width, base + width - cols, 8, cols);
        if e.op > input.len() {
            return false;
        }
    }
    true
}

/// The four XXH32 lanes of rows `i` and `i + 1`.
#[inline(always)]
fn lanes(r: &[u64; 8], i: usize) -> [u32; 4] {
    [
        r[i] as u32,
        (r[i] >> 32) as u32,
        r[i + 1] as u32,
        (r[i + 1] >> 32) as u32,
    ]
}

impl<T: Pos> Enc<'_, '_, T> {
    /// Whether the output at table position `pos` (0 = empty) holds the rows `words`.
    #[inline(always)]
    fn holds_rows8(&self, pos: u32, words: &[u64]) -> bool {
        let p = pos as usize;
        let Some(got) = self.out.get(p..p + 8 * words.len()) else {
            return false;
        };
        let diff = got
            .as_chunks::<8>()
            .0
            .iter()
            .zip(words)
            .fold(0, |acc, (g, w)| acc | (u64::from_le_bytes(*g) ^ w));
        pos != 0 && diff == 0
    }

    /// Writes `words` little-endian at the end of the output.
    #[inline(always)]
    fn put_rows(&mut self, words: &[u64]) {
        for w in words {
            self.out[self.op..self.op + 8].copy_from_slice(&w.to_le_bytes());
            self.op += 8;
        }
    }
}

/// Encodes the whole cell of rows `r`.
#[inline(always)]
fn cell<T: Pos>(e: &mut Enc<T>, r: [u64; 8], hashes: &mut Hashes) {
    let anchor = e.op;
    if r.iter().all(|&w| w == r[0]) && r[0] == (r[0] & 0xFF) * 0x0101_0101_0101_0101 {
        e.push(&[1 << 6, r[0] as u8]);
        return;
    }
    let first = stripe_words(start(SEED), lanes(&r, 0));
    let v = stripe_words(first, lanes(&r, 2));
    let v = stripe_words(v, lanes(&r, 4));
    let v = stripe_words(v, lanes(&r, 6));
    let hcell = slot_of(avalanche(merge(v).wrapping_add(64)));
    let tab = e.cell[hcell].get();
    if e.holds_rows8(tab, &r) && (anchor - tab as usize) < MAX_DISTANCE {
        e.push(&[0xC0]);
        e.push(&offset(anchor, tab));
        return;
    }
    let mut upd = Updates::default();
    if rows(e, &r, first, anchor, hashes, &mut upd) {
        return;
    }
    e.record_literal(hcell, anchor, hashes, &upd, (6, 7));
    e.push(&[0]);
    e.put_rows(&r);
}

/// Writes the cell of rows `r` at `anchor` as three (else two) consecutive rows repeating
/// earlier output and the others literal, if an earlier literal cell has them. `first` is
/// the XXH32 state after rows 0 and 1. Notes in `upd` and `hs` the triples and pairs that
/// the tables lack. Returns whether it wrote the cell.
#[inline(always)]
fn rows<T: Pos>(
    e: &mut Enc<T>,
    r: &[u64; 8],
    first: [u32; 4],
    anchor: usize,
    hs: &mut Hashes,
    upd: &mut Updates,
) -> bool {
    let mut merged = [merge(first); 7];
    for i in 0..6 {
        if i > 0 {
            merged[i] = merge(stripe_words(start(SEED), lanes(r, i)));
        }
        let third = r[i + 2];
        let h = merged[i].wrapping_add(24);
        let h = tail_u32(tail_u32(h, third as u32), (third >> 32) as u32);
        let h = slot_of(avalanche(h));
        let tab = e.triple[h].get();
        if tab == 0 {
            upd.triple[i] = anchor + 1 + 8 * i;
            hs.triple[i] = h;
        }
        if rows_match(e, r, anchor, i, 3, tab) {
            return true;
        }
    }
    merged[6] = merge(stripe_words(start(SEED), lanes(r, 6)));
    for (i, &m) in merged.iter().enumerate() {
        let h = slot_of(avalanche(m.wrapping_add(16)));
        let tab = e.pair[h].get();
        if tab == 0 {
            upd.pair[i] = anchor + 1 + 8 * i;
            hs.pair[i] = h;
        }
        if rows_match(e, r, anchor, i, 2, tab) {
            return true;
        }
    }
    false
}

/// Writes the cell at `anchor` as rows `i..i + n` repeating the output at table position
/// `tab` and the other rows as literals, if they do match; returns whether it did.
#[inline(always)]
fn rows_match<T: Pos>(
    e: &mut Enc<T>,
    r: &[u64; 8],
    anchor: usize,
    i: usize,
    n: usize,
    tab: u32,
) -> bool {
    if !(e.holds_rows8(tab, &r[i..i + n]) && near(anchor, 8 * i, tab)) {
        return false;
    }
    let kind: u8 = if n == 3 { 21 } else { 17 };
    e.push(&[(kind << 3) | i as u8]);
    e.push(&offset(anchor, tab));
    e.put_rows(&r[..i]);
    e.put_rows(&r[i + n..]);
    true
}
