//! The NDLZ encoder's whole 4x4 cells: each row of a cell is one little-endian word read
//! straight from the block, and the hashes and match checks work on those words (a row
//! pair or triple hashes from the shared state after its first rows). The choices and the
//! table updates are the reference's (see [`super::encoder`]).

use super::encoder::{near, offset, slot_of, Enc, Hashes, Pos, Updates, SEED};
use super::xxh32::{avalanche, merge, short_start, start, stripe_words, tail_u32};
use super::MAX_DISTANCE;

/// Encodes one stripe of four rows of `width` items starting at `base` in `input`: its
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
    let rows = &input[base..base + 4 * width];
    let (r0, rest) = rows.split_at(width);
    let (r1, rest) = rest.split_at(width);
    let (r2, r3) = rest.split_at(width);
    let cells = r0
        .as_chunks::<4>()
        .0
        .iter()
        .zip(r1.as_chunks::<4>().0)
        .zip(r2.as_chunks::<4>().0)
        .zip(r3.as_chunks::<4>().0);
    for (((a, b), c), d) in cells {
        if e.op + 17 > limit {
            return false;
        }
        let r = [
            u32::from_le_bytes(*a),
            u32::from_le_bytes(*b),
            u32::from_le_bytes(*c),
            u32::from_le_bytes(*d),
        ];
        cell(e, r, hashes);
        if e.op > input.len() {
            return false;
        }
    }
    let cols = width % 4;
    if cols != 0 {
        if e.op + 17 > limit {
            return false;
        }
        e.padded(input, width, base + width - cols, 4, cols);
        if e.op > input.len() {
            return false;
        }
    }
    true
}

impl<T: Pos> Enc<'_, '_, T> {
    /// Whether the output at table position `pos` (0 = empty) holds the rows `words`.
    #[inline(always)]
    fn holds_rows<const N: usize>(&self, pos: u32, words: [u32; N]) -> bool {
        let p = pos as usize;
        let Some(got) = self.out.get(p..p + 4 * N) else {
            return false;
        };
        let diff = got
            .as_chunks::<4>()
            .0
            .iter()
            .zip(words)
            .fold(0, |acc, (g, w)| acc | (u32::from_le_bytes(*g) ^ w));
        pos != 0 && diff == 0
    }

    /// Writes `bytes` at the end of the output.
    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.out[self.op..self.op + N].copy_from_slice(&bytes);
        self.op += N;
    }

    /// Writes a match token with the offset of table position `tab`, then `rows` literally.
    #[inline(always)]
    fn matched<const N: usize>(&mut self, token: u8, anchor: usize, tab: u32, rows: [u32; N]) {
        let [o0, o1] = offset(anchor, tab);
        self.put([token, o0, o1]);
        for w in &rows {
            self.put(w.to_le_bytes());
        }
    }
}

/// Encodes the whole cell of rows `r`.
#[inline(always)]
fn cell<T: Pos>(e: &mut Enc<T>, r: [u32; 4], hashes: &mut Hashes) {
    let anchor = e.op;
    if r[0] == r[1] && r[1] == r[2] && r[2] == r[3] && r[0] == (r[0] & 0xFF) * 0x0101_0101 {
        e.put([1 << 6, r[0] as u8]);
        return;
    }
    let hcell = slot_of(avalanche(
        merge(stripe_words(start(SEED), r)).wrapping_add(16),
    ));
    let tab = e.cell[hcell].get();
    if e.holds_rows(tab, r) && (anchor - tab as usize) < MAX_DISTANCE {
        e.matched(0xC0, anchor, tab, []);
        return;
    }
    let mut upd = Updates::default();
    if rows(e, r, anchor, hashes, &mut upd) {
        return;
    }
    e.record_literal(hcell, anchor, hashes, &upd, (2, 3));
    e.put([0]);
    for w in &r {
        e.put(w.to_le_bytes());
    }
}

/// Writes the cell of rows `r` at `anchor` as some rows repeating earlier output and the
/// others literal, if an earlier literal cell has them: two pairs (row 0 and another, then
/// the other two), a triple, or a pair. Notes in `upd` and `hs` the triples and pairs of
/// consecutive rows that the tables lack. Returns whether it wrote the cell.
#[inline(always)]
fn rows<T: Pos>(
    e: &mut Enc<T>,
    r: [u32; 4],
    anchor: usize,
    hs: &mut Hashes,
    upd: &mut Updates,
) -> bool {
    let h8 = short_start(SEED, 8);
    let firsts = [tail_u32(h8, r[0]), tail_u32(h8, r[1]), tail_u32(h8, r[2])];
    let pair_slot = |i: usize, j: usize| slot_of(avalanche(tail_u32(firsts[i], r[j])));
    for j in 1..4 {
        let tab = e.pair[pair_slot(0, j)].get();
        if !(e.holds_rows(tab, [r[0], r[j]]) && near(anchor, 0, tab)) {
            continue;
        }
        let (l, m) = match j {
            1 => (2, 3),
            2 => (1, 3),
            _ => (1, 2),
        };
        let tab2 = e.pair[pair_slot(l, m)].get();
        if e.holds_rows(tab2, [r[l], r[m]]) && near(anchor, l * 4, tab2) {
            e.matched((1 << 5) | (j << 3) as u8, anchor, tab, []);
            e.put(offset(anchor, tab2));
            return true;
        }
    }
    let h12 = short_start(SEED, 12);
    for i in 0..2 {
        let hi = tail_u32(h12, r[i]);
        for j in i + 1..3 {
            let hij = tail_u32(hi, r[j]);
            for k in j + 1..4 {
                let h = slot_of(avalanche(tail_u32(hij, r[k])));
                let tab = e.triple[h].get();
                if tab == 0 && j - i == 1 && k - j == 1 {
                    upd.triple[i] = anchor + 1 + i * 4;
                    hs.triple[i] = h;
                }
                if e.holds_rows(tab, [r[i], r[j], r[k]]) && near(anchor, i * 4, tab) {
                    let token = if i == 1 {
                        7 << 5
                    } else {
                        (7 << 5) | ((j + k - 2) << 3)
                    };
                    // The row left out: the four indices sum to 6.
                    e.matched(token as u8, anchor, tab, [r[6 - i - j - k]]);
                    return true;
                }
            }
        }
    }
    for i in 0..3 {
        for j in i + 1..4 {
            let h = pair_slot(i, j);
            let tab = e.pair[h].get();
            if tab == 0 && j - i == 1 {
                upd.pair[i] = anchor + 1 + i * 4;
                hs.pair[i] = h;
            }
            if e.holds_rows(tab, [r[i], r[j]]) && near(anchor, i * 4, tab) {
                let token = if i == 2 {
                    1 << 7
                } else {
                    (1 << 7) | (i << 5) | (j << 3)
                };
                // The two rows left out, in order.
                let (k, l) = match (i, j) {
                    (0, 1) => (2, 3),
                    (0, 2) => (1, 3),
                    (0, 3) => (1, 2),
                    (1, 2) => (0, 3),
                    (1, 3) => (0, 2),
                    _ => (0, 1),
                };
                e.matched(token as u8, anchor, tab, [r[k], r[l]]);
                return true;
            }
        }
    }
    false
}
