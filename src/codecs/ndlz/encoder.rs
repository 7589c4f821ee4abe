//! The NDLZ encoders for 4x4 and 8x8 cells.
//!
//! Each cell of the 2-D block becomes one token: a literal cell, a cell whose items are all
//! equal, a copy of an earlier literal cell, or (when no whole cell matches) a cell some of
//! whose rows repeat consecutive rows of an earlier literal cell, the other rows following
//! as literals. Earlier cells, row pairs and row triples are found through three hash tables
//! of 4096 positions in the output (0 = empty), updated only by literal cells. The choices,
//! including which table entries a literal cell overwrites, are the reference's, so the
//! output is the same byte for byte.

use super::cell4;
use super::xxh32::{avalanche, merge, start, stripe, tail_word};
use super::MAX_DISTANCE;

const TABLE: usize = 1 << 12;
/// The seed of every hash.
pub(super) const SEED: u32 = 1;

/// The hash-table slot of a hash.
pub(super) fn slot_of(hash: u32) -> usize {
    (hash >> 20) as usize
}

/// A position in the output as a table holds it: `u16` when every position of the block
/// fits (half the table memory to clear), `u32` otherwise.
pub(super) trait Pos: Copy {
    const ZERO: Self;
    fn get(self) -> u32;
    fn new(pos: usize) -> Self;
}

impl Pos for u16 {
    const ZERO: Self = 0;
    fn get(self) -> u32 {
        u32::from(self)
    }
    fn new(pos: usize) -> Self {
        pos as u16
    }
}

impl Pos for u32 {
    const ZERO: Self = 0;
    fn get(self) -> u32 {
        self
    }
    fn new(pos: usize) -> Self {
        pos as u32
    }
}

/// Encoder state: the output written so far and the three hash tables.
pub(super) struct Enc<'a, 't, T> {
    pub(super) out: &'a mut [u8],
    pub(super) op: usize,
    pub(super) cell: &'t mut [T; TABLE],
    pub(super) triple: &'t mut [T; TABLE],
    pub(super) pair: &'t mut [T; TABLE],
}

impl<T: Pos> Enc<'_, '_, T> {
    pub(super) fn push(&mut self, bytes: &[u8]) {
        self.out[self.op..self.op + bytes.len()].copy_from_slice(bytes);
        self.op += bytes.len();
    }

    /// Whether the output at table position `pos` (0 = empty) holds `bytes`.
    #[inline(always)]
    fn holds(&self, pos: u32, bytes: &[u8]) -> bool {
        let p = pos as usize;
        pos != 0 && self.out.get(p..p + bytes.len()) == Some(bytes)
    }

    /// Records the literal cell about to be written at `anchor` in the tables: its cell hash
    /// slot `hcell` and the first `counts` row-triple and row-pair positions of `upd` (all of
    /// them, zeros included, at the slots `hashes` holds, when the first is set).
    pub(super) fn record_literal(
        &mut self,
        hcell: usize,
        anchor: usize,
        hashes: &Hashes,
        upd: &Updates,
        counts: (usize, usize),
    ) {
        self.cell[hcell] = T::new(anchor + 1);
        if upd.triple[0] != 0 {
            for h in 0..counts.0 {
                self.triple[hashes.triple[h]] = T::new(upd.triple[h]);
            }
        }
        if upd.pair[0] != 0 {
            for h in 0..counts.1 {
                self.pair[hashes.pair[h]] = T::new(upd.pair[h]);
            }
        }
    }

    /// Copies the padded border cell at `orig` (`rows` x `cols` items) as a literal.
    pub(super) fn padded(
        &mut self,
        input: &[u8],
        width: usize,
        orig: usize,
        rows: usize,
        cols: usize,
    ) {
        self.push(&[0]);
        for i in 0..rows {
            let at = orig + i * width;
            self.push(&input[at..at + cols]);
        }
    }
}

/// Offset stored for a match at table position `pos` seen from `anchor`.
pub(super) fn offset(anchor: usize, pos: u32) -> [u8; 2] {
    ((anchor - pos as usize) as u16).to_le_bytes()
}

/// Whether a match found at `pos` for rows starting `row_off` bytes into the cell at
/// `anchor` is near enough.
pub(super) fn near(anchor: usize, row_off: usize, pos: u32) -> bool {
    let d = anchor + row_off - pos as usize;
    d != 0 && d < MAX_DISTANCE
}

/// Encodes `input` (the whole 2-D block of one-byte items, `bs[0]` rows of `bs[1]`) into
/// `out` with cells of side `CELL` (4 or 8); returns the size, or 0 when the output does
/// not fit or is not smaller than the input.
pub(super) fn encode<const CELL: usize>(bs: [usize; 2], input: &[u8], out: &mut [u8]) -> usize {
    // Positions stored are below the input size plus one cell.
    if input.len() + 2 * CELL * CELL < usize::from(u16::MAX) {
        encode_with::<CELL, u16>(bs, input, out)
    } else {
        encode_with::<CELL, u32>(bs, input, out)
    }
}

fn encode_with<const CELL: usize, T: Pos>(bs: [usize; 2], input: &[u8], out: &mut [u8]) -> usize {
    let cell_size = CELL * CELL;
    let limit = out.len();
    let mut tables = [T::ZERO; 3 * TABLE];
    let mut tables = tables
        .chunks_exact_mut(TABLE)
        .map(|t| <&mut [T; TABLE]>::try_from(t).expect("table size"));
    let (Some(cell), Some(triple), Some(pair)) = (tables.next(), tables.next(), tables.next())
    else {
        return 0;
    };
    let mut e = Enc {
        out,
        op: 0,
        cell,
        triple,
        pair,
    };
    e.push(&[2]);
    e.push(&(bs[0] as i32).to_le_bytes());
    e.push(&(bs[1] as i32).to_le_bytes());
    let stop = [bs[0].div_ceil(CELL), bs[1].div_ceil(CELL)];
    let mut hashes = Hashes::default();
    let mut buf = [0u8; 64];
    let side = |n: usize, last: bool| {
        if last && !n.is_multiple_of(CELL) {
            n % CELL
        } else {
            CELL
        }
    };
    for c0 in 0..stop[0] {
        let last0 = c0 == stop[0] - 1;
        let rows = side(bs[0], last0);
        if CELL == 4 && rows == 4 {
            if !cell4::stripe(&mut e, input, bs[1], c0 * 4 * bs[1], &mut hashes) {
                return 0;
            }
            continue;
        }
        for c1 in 0..stop[1] {
            if e.op + cell_size + 1 > limit {
                return 0;
            }
            let orig = c0 * CELL * bs[1] + c1 * CELL;
            let cols = side(bs[1], c1 == stop[1] - 1);
            // Whole 4x4 cells went through `cell4::stripe` above.
            if CELL == 8 && rows == CELL && cols == CELL {
                for (i, row) in buf.chunks_exact_mut(CELL).enumerate() {
                    let at = orig + i * bs[1];
                    let src: &[u8; CELL] = input[at..at + CELL].try_into().expect("row");
                    row.copy_from_slice(src);
                }
                cell8(&mut e, &buf, &mut hashes);
            } else {
                e.padded(input, bs[1], orig, rows, cols);
            }
            if e.op > input.len() {
                return 0;
            }
        }
    }
    e.op
}

/// The table slots and positions a literal cell records (kept across cells, as only the
/// positions are cleared for each cell).
#[derive(Default)]
pub(super) struct Hashes {
    pub(super) triple: [usize; 6],
    pub(super) pair: [usize; 7],
}

/// Cell-level choice shared by both cell sizes, for the cell in `buf` whose hash-table slot
/// is `hcell`: all-equal, whole-cell copy, or `rows` (which returns whether it wrote a row
/// match). Writes a literal otherwise.
fn whole_cell<T: Pos>(
    e: &mut Enc<T>,
    buf: &[u8],
    hcell: usize,
    hashes: &mut Hashes,
    counts: (usize, usize),
    rows: impl FnOnce(&mut Enc<T>, usize, &mut Hashes, &mut Updates) -> bool,
) {
    let anchor = e.op;
    let tab = e.cell[hcell].get();
    let cell_match = e.holds(tab, buf);
    let distance = if cell_match { anchor - tab as usize } else { 0 };
    if buf.iter().all(|&b| b == buf[0]) {
        e.push(&[1 << 6, buf[0]]);
    } else if distance == 0 || distance >= MAX_DISTANCE {
        let mut upd = Updates::default();
        if rows(e, anchor, hashes, &mut upd) {
            return;
        }
        e.record_literal(hcell, anchor, hashes, &upd, counts);
        e.push(&[0]);
        e.push(buf);
    } else {
        e.push(&[0xC0]);
        e.push(&offset(anchor, tab));
    }
}

/// Table positions a literal cell records, cleared for every cell.
#[derive(Default)]
pub(super) struct Updates {
    pub(super) triple: [usize; 7],
    pub(super) pair: [usize; 7],
}

/// XXH32 accumulators after rows `i` and `i + 1` of an 8x8 cell: the first stripe of the
/// hashes of the row pair, the row triple and (for row 0) the cell starting there.
fn two_rows(buf: &[u8; 64], i: usize) -> [u32; 4] {
    let s: &[u8; 16] = buf[8 * i..8 * i + 16].try_into().expect("two rows");
    stripe(start(SEED), s)
}

fn cell8<T: Pos>(e: &mut Enc<T>, buf: &[u8; 64], hashes: &mut Hashes) {
    let first = two_rows(buf, 0);
    let mut v = first;
    for s in buf[16..].chunks_exact(16) {
        v = stripe(v, s.try_into().expect("stripe"));
    }
    let hcell = slot_of(avalanche(merge(v).wrapping_add(64)));
    whole_cell(e, buf, hcell, hashes, (6, 7), |e, anchor, hs, upd| {
        // Rows i..i+3 repeating, then rows i..i+2; both hashes of rows i.. share the first
        // stripe, merged here.
        let mut merged = [merge(first); 7];
        for i in 0..6 {
            if i > 0 {
                merged[i] = merge(two_rows(buf, i));
            }
            let third = &buf[8 * i + 16..8 * i + 24];
            let h = merged[i].wrapping_add(24);
            let h = slot_of(avalanche(tail_word(tail_word(h, &third[..4]), &third[4..])));
            let tab = e.triple[h].get();
            if tab == 0 {
                upd.triple[i] = anchor + 1 + 8 * i;
                hs.triple[i] = h;
            }
            if rows_match(e, buf, anchor, i, 3, tab) {
                return true;
            }
        }
        merged[6] = merge(two_rows(buf, 6));
        for (i, &m) in merged.iter().enumerate() {
            let h = slot_of(avalanche(m.wrapping_add(16)));
            let tab = e.pair[h].get();
            if tab == 0 {
                upd.pair[i] = anchor + 1 + 8 * i;
                hs.pair[i] = h;
            }
            if rows_match(e, buf, anchor, i, 2, tab) {
                return true;
            }
        }
        false
    });
}

/// Writes the 8x8 cell at `anchor` as rows `i..i + n` repeating the output at table
/// position `tab` and the other rows as literals, if they do match; returns whether it did.
#[inline(always)]
fn rows_match<T: Pos>(
    e: &mut Enc<T>,
    buf: &[u8; 64],
    anchor: usize,
    i: usize,
    n: usize,
    tab: u32,
) -> bool {
    let start = 8 * i;
    if !(e.holds(tab, &buf[start..start + 8 * n]) && near(anchor, start, tab)) {
        return false;
    }
    let kind: u8 = if n == 3 { 21 } else { 17 };
    e.push(&[(kind << 3) | i as u8]);
    e.push(&offset(anchor, tab));
    e.push(&buf[..start]);
    e.push(&buf[start + 8 * n..]);
    true
}
