//! The NDLZ encoders for 4x4 and 8x8 cells.
//!
//! Each cell of the 2-D block becomes one token: a literal cell, a cell whose items are all
//! equal, a copy of an earlier literal cell, or (when no whole cell matches) a cell some of
//! whose rows repeat consecutive rows of an earlier literal cell, the other rows following
//! as literals. Earlier cells, row pairs and row triples are found through three hash tables
//! of 4096 positions in the output (0 = empty), updated only by literal cells. The choices,
//! including which table entries a literal cell overwrites, are the reference's, so the
//! output is the same byte for byte.

use super::MAX_DISTANCE;
use super::{cell4, cell8};

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
        if rows == CELL {
            let whole = if CELL == 4 {
                cell4::stripe(&mut e, input, bs[1], c0 * 4 * bs[1], &mut hashes)
            } else {
                cell8::stripe(&mut e, input, bs[1], c0 * 8 * bs[1], &mut hashes)
            };
            if !whole {
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
            e.padded(input, bs[1], orig, rows, cols);
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

/// Table positions a literal cell records, cleared for every cell.
#[derive(Default)]
pub(super) struct Updates {
    pub(super) triple: [usize; 7],
    pub(super) pair: [usize; 7],
}
