//! The NDLZ encoders for 4x4 and 8x8 cells.
//!
//! Each cell of the 2-D block becomes one token: a literal cell, a cell whose items are all
//! equal, a copy of an earlier literal cell, or (when no whole cell matches) a cell some of
//! whose rows repeat consecutive rows of an earlier literal cell, the other rows following
//! as literals. Earlier cells, row pairs and row triples are found through three hash tables
//! of 4096 positions in the output (0 = empty), updated only by literal cells. The choices,
//! including which table entries a literal cell overwrites, are the reference's, so the
//! output is the same byte for byte.

use super::xxh32::xxh32;
use super::MAX_DISTANCE;

const TABLE: usize = 1 << 12;

/// The hash-table slot of `bytes`.
fn slot(bytes: &[u8]) -> usize {
    (xxh32(bytes, 1) >> 20) as usize
}

/// Encoder state: the output written so far and the three hash tables.
struct Enc<'a> {
    out: &'a mut [u8],
    op: usize,
    cell: Vec<u32>,
    triple: Vec<u32>,
    pair: Vec<u32>,
}

impl Enc<'_> {
    fn push(&mut self, bytes: &[u8]) {
        self.out[self.op..self.op + bytes.len()].copy_from_slice(bytes);
        self.op += bytes.len();
    }

    /// Whether the output at table position `pos` (0 = empty) holds `bytes`.
    fn holds(&self, pos: u32, bytes: &[u8]) -> bool {
        let p = pos as usize;
        pos != 0 && self.out.get(p..p + bytes.len()) == Some(bytes)
    }

    /// Offset stored for a match at table position `pos` seen from `anchor`.
    fn offset(anchor: usize, pos: u32) -> [u8; 2] {
        ((anchor - pos as usize) as u16).to_le_bytes()
    }

    /// Whether a match found at `pos` for rows starting `row_off` bytes into the cell at
    /// `anchor` is near enough.
    fn near(anchor: usize, row_off: usize, pos: u32) -> bool {
        let d = anchor + row_off - pos as usize;
        d != 0 && d < MAX_DISTANCE
    }

    /// Copies the padded border cell at `orig` (`rows` x `cols` items) as a literal.
    fn padded(&mut self, input: &[u8], width: usize, orig: usize, rows: usize, cols: usize) {
        self.push(&[0]);
        for i in 0..rows {
            let at = orig + i * width;
            self.push(&input[at..at + cols]);
        }
    }
}

/// Encodes `input` (the whole 2-D block of one-byte items, `bs[0]` rows of `bs[1]`) into
/// `out` with cells of side `CELL` (4 or 8); returns the size, or 0 when the output does
/// not fit or is not smaller than the input.
pub(super) fn encode<const CELL: usize>(bs: [usize; 2], input: &[u8], out: &mut [u8]) -> usize {
    let cell_size = CELL * CELL;
    let limit = out.len();
    let mut e = Enc {
        out,
        op: 0,
        cell: vec![0; TABLE],
        triple: vec![0; TABLE],
        pair: vec![0; TABLE],
    };
    e.push(&[2]);
    e.push(&(bs[0] as i32).to_le_bytes());
    e.push(&(bs[1] as i32).to_le_bytes());
    let stop = [bs[0].div_ceil(CELL), bs[1].div_ceil(CELL)];
    let mut hashes = Hashes::default();
    let mut buf = [0u8; 64];
    let buf = &mut buf[..cell_size];
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
        for c1 in 0..stop[1] {
            if e.op + cell_size + 1 > limit {
                return 0;
            }
            let orig = c0 * CELL * bs[1] + c1 * CELL;
            let cols = side(bs[1], c1 == stop[1] - 1);
            if rows != CELL || cols != CELL {
                e.padded(input, bs[1], orig, rows, cols);
            } else {
                for (i, row) in buf.chunks_exact_mut(CELL).enumerate() {
                    let at = orig + i * bs[1];
                    let src: &[u8; CELL] = input[at..at + CELL].try_into().expect("row");
                    row.copy_from_slice(src);
                }
                if CELL == 4 {
                    cell4(&mut e, buf, &mut hashes);
                } else {
                    cell8(&mut e, buf, &mut hashes);
                }
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
struct Hashes {
    triple: [usize; 6],
    pair: [usize; 7],
}

/// Cell-level choice shared by both cell sizes: all-equal, whole-cell copy, or `rows`
/// (which returns whether it wrote a row match). Writes a literal otherwise.
fn whole_cell(
    e: &mut Enc,
    buf: &[u8],
    hashes: &mut Hashes,
    counts: (usize, usize),
    rows: impl FnOnce(&mut Enc, usize, &mut Hashes, &mut Updates) -> bool,
) {
    let anchor = e.op;
    let hcell = slot(buf);
    let tab = e.cell[hcell];
    let cell_match = e.holds(tab, buf);
    let distance = if cell_match { anchor - tab as usize } else { 0 };
    if buf.iter().all(|&b| b == buf[0]) {
        e.push(&[1 << 6, buf[0]]);
    } else if distance == 0 || distance >= MAX_DISTANCE {
        let mut upd = Updates::default();
        if rows(e, anchor, hashes, &mut upd) {
            return;
        }
        e.cell[hcell] = (anchor + 1) as u32;
        if upd.triple[0] != 0 {
            for h in 0..counts.0 {
                e.triple[hashes.triple[h]] = upd.triple[h];
            }
        }
        if upd.pair[0] != 0 {
            for h in 0..counts.1 {
                e.pair[hashes.pair[h]] = upd.pair[h];
            }
        }
        e.push(&[0]);
        e.push(buf);
    } else {
        e.push(&[0xC0]);
        e.push(&Enc::offset(anchor, tab));
    }
}

/// Table positions a literal cell records, cleared for every cell.
#[derive(Default)]
struct Updates {
    triple: [u32; 7],
    pair: [u32; 7],
}

fn cell4(e: &mut Enc, buf: &[u8], hashes: &mut Hashes) {
    let row = |i: usize| &buf[4 * i..4 * i + 4];
    whole_cell(e, buf, hashes, (2, 3), |e, anchor, hs, upd| {
        let mut pairbuf = [0u8; 8];
        let set_pair = |a: usize, b: usize, p: &mut [u8; 8]| {
            p[..4].copy_from_slice(row(a));
            p[4..].copy_from_slice(row(b));
        };
        // Two pairs: rows 0 and j, then the other two rows.
        for j in 1..4 {
            set_pair(0, j, &mut pairbuf);
            let tab = e.pair[slot(&pairbuf)];
            if !(e.holds(tab, &pairbuf) && Enc::near(anchor, 0, tab)) {
                continue;
            }
            let mut others = (1..4).filter(|&k| k != j);
            let (l, m) = (others.next().unwrap_or(1), others.next().unwrap_or(2));
            let mut second = [0u8; 8];
            set_pair(l, m, &mut second);
            let tab2 = e.pair[slot(&second)];
            if e.holds(tab2, &second) && Enc::near(anchor, l * 4, tab2) {
                e.push(&[(1 << 5) | (j << 3) as u8]);
                e.push(&Enc::offset(anchor, tab));
                e.push(&Enc::offset(anchor, tab2));
                return true;
            }
        }
        // Row triples.
        for i in 0..2 {
            for j in i + 1..3 {
                for k in j + 1..4 {
                    let mut t = [0u8; 12];
                    t[..4].copy_from_slice(row(i));
                    t[4..8].copy_from_slice(row(j));
                    t[8..].copy_from_slice(row(k));
                    let h = slot(&t);
                    let tab = e.triple[h];
                    if tab == 0 && j - i == 1 && k - j == 1 {
                        upd.triple[i] = (anchor + 1 + i * 4) as u32;
                        hs.triple[i] = h;
                    }
                    if e.holds(tab, &t) && Enc::near(anchor, i * 4, tab) {
                        let token = if i == 1 {
                            7 << 5
                        } else {
                            (7 << 5) | ((j + k - 2) << 3)
                        };
                        e.push(&[token as u8]);
                        e.push(&Enc::offset(anchor, tab));
                        let l = (0..4).find(|&l| l != i && l != j && l != k).unwrap_or(0);
                        e.push(row(l));
                        return true;
                    }
                }
            }
        }
        // Row pairs.
        for i in 0..3 {
            for j in i + 1..4 {
                set_pair(i, j, &mut pairbuf);
                let h = slot(&pairbuf);
                let tab = e.pair[h];
                if tab == 0 && j - i == 1 {
                    upd.pair[i] = (anchor + 1 + i * 4) as u32;
                    hs.pair[i] = h;
                }
                if e.holds(tab, &pairbuf) && Enc::near(anchor, i * 4, tab) {
                    let token = if i == 2 {
                        1 << 7
                    } else {
                        (1 << 7) | (i << 5) | (j << 3)
                    };
                    e.push(&[token as u8]);
                    e.push(&Enc::offset(anchor, tab));
                    for k in (0..4).filter(|&k| k != i && k != j) {
                        e.push(row(k));
                    }
                    return true;
                }
            }
        }
        false
    });
}

fn cell8(e: &mut Enc, buf: &[u8], hashes: &mut Hashes) {
    whole_cell(e, buf, hashes, (6, 7), |e, anchor, hs, upd| {
        // Rows i..i+3 repeating, then rows i..i+2.
        for (nrows, count, kind) in [(3usize, 6usize, 21u8), (2, 7, 17)] {
            for i in 0..count {
                let start = i * 8;
                let rows = &buf[start..start + nrows * 8];
                let h = slot(rows);
                let table = if nrows == 3 { &e.triple } else { &e.pair };
                let tab = table[h];
                if tab == 0 {
                    let pos = (anchor + 1 + start) as u32;
                    if nrows == 3 {
                        upd.triple[i] = pos;
                        hs.triple[i] = h;
                    } else {
                        upd.pair[i] = pos;
                        hs.pair[i] = h;
                    }
                }
                if e.holds(tab, rows) && Enc::near(anchor, start, tab) {
                    e.push(&[(kind << 3) | i as u8]);
                    e.push(&Enc::offset(anchor, tab));
                    for l in (0..8).filter(|&l| l < i || l >= i + nrows) {
                        e.push(&buf[l * 8..l * 8 + 8]);
                    }
                    return true;
                }
            }
        }
        false
    });
}
