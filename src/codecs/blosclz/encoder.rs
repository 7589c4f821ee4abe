//! The BloscLZ encoder: an entropy probe that gives up early on data that would not compress
//! well, then a greedy single-hash LZ77 pass.

use super::{FAR_DISTANCE_LIMIT, MAX_COPY, MAX_DISTANCE};

/// Hash table size (log2) of the main pass from clevel 3 up; clevels 1 and 2 use 2 and 1 less.
const HASH_LOG: u32 = 14;
/// Multiplier of the multiplicative hash (Knuth's golden ratio constant, as in LZ4).
const HASH_MULTIPLIER: u32 = 2_654_435_761;
/// Literal-run token for a full run of `MAX_COPY` bytes; also the provisional token written
/// before a literal run whose length is not known yet.
const FULL_LITERAL_TOKEN: u8 = (MAX_COPY - 1) as u8;
/// Smallest probed compression ratio accepted, per clevel (index 0 unused).
const MIN_PROBE_RATIO: [f64; 10] = [0.0, 2.0, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0];
/// A match is cut this many bytes before its first mismatch (so it ends one byte early, a
/// quirk of the format's encoder that the output must keep to be identical).
const MATCH_SHIFT: usize = 4;
/// Bytes a candidate must share with its reference to be encoded as a match: with the cut of
/// [`MATCH_SHIFT`], fewer leave a length field below its minimum of 4.
const MIN_EQUAL: usize = 7;

/// Inputs shorter than this are never compressed.
const MIN_INPUT: usize = 16;
/// Outputs smaller than this are never attempted.
const MIN_OUTPUT: usize = 66;

/// Reads the little-endian `u64` at `buf[at..at + 8]` without a bounds check.
///
/// # Safety
/// `at + 8 <= buf.len()`.
#[inline(always)]
unsafe fn read_u64_unchecked(buf: &[u8], at: usize) -> u64 {
    debug_assert!(at + 8 <= buf.len());
    // SAFETY: the caller guarantees that the 8 bytes are inside `buf`; `[u8; 8]` has no
    // alignment requirement.
    u64::from_le_bytes(unsafe { buf.as_ptr().add(at).cast::<[u8; 8]>().read() })
}

/// Whether the first [`MIN_EQUAL`] bytes of two little-endian `u64`s agree. (One test for
/// the seven bytes: candidates that share four bytes but not seven are common on text and
/// filtered data, and a second unpredictable branch made those twice as slow.)
#[inline(always)]
fn starts_alike(word: u64, other: u64) -> bool {
    (word ^ other) << (8 * (8 - MIN_EQUAL)) == 0
}

/// Reads the little-endian `u32` at `buf[at..at + 4]`.
#[inline(always)]
fn read_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().unwrap())
}

/// Reads the little-endian `u64` at `buf[at..at + 8]`.
#[inline(always)]
fn read_u64(buf: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(buf[at..at + 8].try_into().unwrap())
}

/// Reads the little-endian `u128` at `buf[at..at + 16]`.
#[inline(always)]
fn read_u128(buf: &[u8], at: usize) -> u128 {
    u128::from_le_bytes(buf[at..at + 16].try_into().unwrap())
}

/// Slot of the 4-byte sequence `seq` in a table of `1 << LOG` slots.
#[inline(always)]
fn hash<const LOG: u32>(seq: u32) -> usize {
    (seq.wrapping_mul(HASH_MULTIPLIER) >> (32 - LOG)) as usize
}

/// Extends a match whose bytes before `ip` are known to agree with those `ip - reference`
/// bytes back (`reference < ip`). Returns one past the first position `p >= ip` where
/// `buf[p] != buf[p - distance]`, or `bound` if there is none before it.
#[inline(always)]
fn match_end(buf: &[u8], ip: usize, reference: usize, bound: usize) -> usize {
    let len = bound.saturating_sub(ip);
    let ahead = &buf[ip..ip + len];
    let behind = &buf[reference..reference + len];
    // Most matches are short: try one word first, and find the first difference in it byte by
    // byte. Those branches are predicted on regular data, so the CPU goes on with the next
    // position before the loads have come in; with a branch-free count of the equal bytes it
    // would have to wait for them (ramps of u64 compress 5% faster).
    if len >= 8 {
        let diff = read_u64(ahead, 0) ^ read_u64(behind, 0);
        if diff != 0 {
            let mut at = 0;
            while ahead[at] == behind[at] {
                at += 1;
            }
            return ip + at + 1;
        }
    }
    let mut i = 0;
    while i + 32 <= len {
        let low = read_u128(ahead, i) ^ read_u128(behind, i);
        let high = read_u128(ahead, i + 16) ^ read_u128(behind, i + 16);
        if low | high != 0 {
            let at = if low != 0 {
                low.trailing_zeros() / 8
            } else {
                16 + high.trailing_zeros() / 8
            };
            return ip + i + at as usize + 1;
        }
        i += 32;
    }
    while i + 16 <= len {
        let diff = read_u128(ahead, i) ^ read_u128(behind, i);
        if diff != 0 {
            return ip + i + (diff.trailing_zeros() / 8) as usize + 1;
        }
        i += 16;
    }
    while i < len {
        if ahead[i] != behind[i] {
            return ip + i + 1;
        }
        i += 1;
    }
    ip + len
}

/// Returns one past the end of the match at `anchor` whose first [`MIN_EQUAL`] bytes agree
/// with those `distance + 1` bytes back at `reference`, as [`match_end`] does.
#[inline(always)]
fn extend(buf: &[u8], anchor: usize, reference: usize, distance: usize, bound: usize) -> usize {
    if distance == 0 {
        run_end(buf, anchor + MIN_EQUAL, bound)
    } else {
        match_end(buf, anchor + MIN_EQUAL, reference + MIN_EQUAL, bound)
    }
}

/// [`match_end`] for a match one byte back, a run of the byte before `ip`: one load per 16
/// bytes instead of two. (Runs of 80-90 bytes, as in shuffled int32 ramps, compress 10%
/// faster; kept out of line, as inlined into the encoders it slowed text down by 8%.)
#[inline(never)]
fn run_end(buf: &[u8], ip: usize, bound: usize) -> usize {
    let len = bound.saturating_sub(ip);
    let ahead = &buf[ip..ip + len];
    let pattern = u128::from_ne_bytes([buf[ip - 1]; 16]);
    let mut i = 0;
    while i + 16 <= len {
        let diff = read_u128(ahead, i) ^ pattern;
        if diff != 0 {
            return ip + i + (diff.trailing_zeros() / 8) as usize + 1;
        }
        i += 16;
    }
    while i < len {
        if ahead[i] != buf[ip - 1] {
            return ip + i + 1;
        }
        i += 1;
    }
    ip + len
}

/// Estimates the compression ratio of `probe` by running a cheap version of the encoder that
/// only counts output bytes, with `table` (all zeros) as its hash table.
fn probe_ratio<const LOG: u32, const SLOTS: usize>(probe: &[u8], table: &mut [u32; SLOTS]) -> f64 {
    let bound = probe.len().saturating_sub(1);
    let limit = probe.len().saturating_sub(12);
    let mut ip = 0usize;
    let mut out = 5usize;
    let mut copy = 4usize;
    while ip < limit {
        let anchor = ip;
        // SAFETY: `ip < limit = probe.len() - 12`.
        let word = unsafe { read_u64_unchecked(probe, ip) };
        let slot = hash::<LOG>(word as u32) & (SLOTS - 1);
        let reference = table[slot] as usize;
        table[slot] = anchor as u32;
        // Biased distance, as in the main pass.
        let distance = anchor.wrapping_sub(reference).wrapping_sub(1);
        if distance >= FAR_DISTANCE_LIMIT - 1
            // SAFETY: only reached when `reference < anchor < probe.len() - 12`.
            || !starts_alike(word, unsafe { read_u64_unchecked(probe, reference) })
        {
            out += 1;
            ip = anchor + 1;
            copy += 1;
            if copy == MAX_COPY {
                copy = 0;
                out += 1;
            }
            continue;
        }
        ip = extend(probe, anchor, reference, distance, bound) - MATCH_SHIFT;
        let len = ip - anchor;
        if copy == 0 {
            out -= 1;
        }
        copy = 0;
        if len >= 7 {
            out += (len - 7) / 255 + 1;
        }
        out += if distance < MAX_DISTANCE { 2 } else { 4 };
        table[hash::<LOG>(read_u32(probe, ip)) & (SLOTS - 1)] = ip as u32;
        ip += 2;
        out += 1;
    }
    ip as f64 / out as f64
}

/// Bounded output cursor; every write fails (returns `None`) past `dst.len()`.
struct Output<'a> {
    dst: &'a mut [u8],
    pos: usize,
}

impl Output<'_> {
    /// `Some` when `n` more bytes fit.
    #[inline(always)]
    fn has_room(&self, n: usize) -> Option<()> {
        (self.pos + n <= self.dst.len()).then_some(())
    }

    /// Appends a byte; the caller has checked the room.
    #[inline(always)]
    fn push(&mut self, byte: u8) {
        self.dst[self.pos] = byte;
        self.pos += 1;
    }

    /// Closes the pending literal run of `copy` bytes: patches its token, or drops the
    /// provisional token when the run is empty.
    #[inline(always)]
    fn close_literals(&mut self, copy: usize) {
        if copy > 0 {
            self.dst[self.pos - copy - 1] = (copy - 1) as u8;
        } else {
            self.pos -= 1;
        }
    }

    /// Appends a byte when it fits.
    #[inline(always)]
    fn push_checked(&mut self, byte: u8) -> Option<()> {
        *self.dst.get_mut(self.pos)? = byte;
        self.pos += 1;
        Some(())
    }

    /// Writes one literal byte into the pending run, opening a new run when it is full; fails
    /// unless two bytes fit.
    #[inline(always)]
    fn literal(&mut self, byte: u8, copy: &mut usize) -> Option<()> {
        let room = self.dst.get_mut(self.pos..self.pos + 2)?;
        room[0] = byte;
        *copy += 1;
        if *copy == MAX_COPY {
            *copy = 0;
            room[1] = FULL_LITERAL_TOKEN;
            self.pos += 2;
        } else {
            self.pos += 1;
        }
        Some(())
    }

    /// Writes the extra length bytes of a long match (`len >= 7`).
    #[inline(always)]
    fn long_length(&mut self, mut len: usize) -> Option<()> {
        len -= 7;
        while len >= 255 {
            self.has_room(1)?;
            self.push(255);
            len -= 255;
        }
        self.has_room(1)?;
        self.push(len as u8);
        Some(())
    }

    /// Writes a match token; `distance` is already biased by one.
    #[inline(always)]
    fn matched(&mut self, len: usize, distance: usize) -> Option<()> {
        if distance < MAX_DISTANCE {
            let high = (distance >> 8) as u8;
            if len < 7 {
                let room = self.dst.get_mut(self.pos..self.pos + 2)?;
                room[0] = ((len as u8) << 5) + high;
                room[1] = distance as u8;
                self.pos += 2;
                return Some(());
            } else {
                self.has_room(1)?;
                self.push((7 << 5) + high);
                self.long_length(len)?;
                self.has_room(1)?;
            }
            self.push(distance as u8);
        } else {
            let far = distance - MAX_DISTANCE;
            if len < 7 {
                self.has_room(4)?;
                self.push(((len as u8) << 5) + 31);
            } else {
                self.has_room(1)?;
                self.push((7 << 5) + 31);
                self.long_length(len)?;
                self.has_room(3)?;
            }
            self.push(255);
            self.push((far >> 8) as u8);
            self.push(far as u8);
        }
        Some(())
    }
}

/// Compresses `src` into `dst`; see [`super::compress`].
pub(super) fn compress(clevel: i32, src: &[u8], dst: &mut [u8]) -> usize {
    encode(clevel.clamp(1, 9) as usize, src, dst).unwrap_or(0)
}

/// [`compress`] with `clevel` in 1..=9; `None` when giving up.
fn encode(clevel: usize, src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let length = src.len();
    if length < MIN_INPUT || dst.len() < MIN_OUTPUT || length > i32::MAX as usize {
        return None;
    }
    // The probe looks at the end of the input, more of it at higher clevels.
    let probe_len = match clevel {
        1 => length / 8,
        2 | 3 => length / 4,
        4..=6 => length / 2,
        _ => length,
    };
    let min_ratio = MIN_PROBE_RATIO[clevel];
    let probe = &src[length - probe_len..];
    match clevel {
        1 => encode_with::<{ HASH_LOG - 2 }, { 1 << (HASH_LOG - 2) }, false>(
            src, probe, min_ratio, dst,
        ),
        2 => encode_with::<{ HASH_LOG - 1 }, { 1 << (HASH_LOG - 1) }, false>(
            src, probe, min_ratio, dst,
        ),
        9 => encode_with::<HASH_LOG, { 1 << HASH_LOG }, true>(src, probe, min_ratio, dst),
        _ => encode_with::<HASH_LOG, { 1 << HASH_LOG }, false>(src, probe, min_ratio, dst),
    }
}

/// Probes then encodes with a hash table of `SLOTS = 1 << LOG` slots; `DOUBLE_INSERT` also
/// hashes the position after each match's end.
fn encode_with<const LOG: u32, const SLOTS: usize, const DOUBLE_INSERT: bool>(
    src: &[u8],
    probe: &[u8],
    min_ratio: f64,
    dst: &mut [u8],
) -> Option<usize> {
    let length = src.len();
    let mut table = [0u32; SLOTS];
    // The probe never looks at more bytes than the hash table has slots.
    if probe_ratio::<LOG, SLOTS>(&probe[..probe.len().min(SLOTS)], &mut table) < min_ratio {
        return None;
    }
    table.fill(0);
    let bound = length - 1;
    let limit = length - 12;
    let mut out = Output { dst, pos: 0 };

    out.push(FULL_LITERAL_TOKEN);
    for &byte in &src[..4] {
        out.push(byte);
    }
    let mut copy = 4usize;
    let mut ip = 4usize;
    while ip < limit {
        let anchor = ip;
        // SAFETY: `ip < limit = length - 12`. (The two reads of this loop are its hot spot,
        // and bounds checks there slow the whole encoder down by 10-20%.)
        let word = unsafe { read_u64_unchecked(src, ip) };
        let slot = hash::<LOG>(word as u32) & (SLOTS - 1);
        let reference = table[slot] as usize;
        table[slot] = anchor as u32;
        // Biased distance; wraps around (and is rejected) unless `reference < anchor`.
        let distance = anchor.wrapping_sub(reference).wrapping_sub(1);
        if distance >= FAR_DISTANCE_LIMIT - 1
            // SAFETY: only reached when `distance` did not wrap, so
            // `reference < anchor < length - 12`.
            || !starts_alike(word, unsafe { read_u64_unchecked(src, reference) })
        {
            out.literal(word as u8, &mut copy)?;
            ip = anchor + 1;
            continue;
        }
        ip = extend(src, anchor, reference, distance, bound) - MATCH_SHIFT;
        let len = ip - anchor;
        if len <= 5 && distance >= MAX_DISTANCE {
            out.literal(word as u8, &mut copy)?;
            ip = anchor + 1;
            continue;
        }
        out.close_literals(copy);
        copy = 0;
        out.matched(len, distance)?;
        let seq = read_u32(src, ip);
        table[hash::<LOG>(seq) & (SLOTS - 1)] = ip as u32;
        if DOUBLE_INSERT {
            table[hash::<LOG>(seq >> 8) & (SLOTS - 1)] = (ip + 1) as u32;
        }
        ip += 2;
        out.push_checked(FULL_LITERAL_TOKEN)?;
    }
    while ip <= bound {
        out.literal(src[ip], &mut copy)?;
        ip += 1;
    }
    out.close_literals(copy);
    out.dst[0] |= 1 << 5;
    Some(out.pos)
}
