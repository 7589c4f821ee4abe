//! Instrumented chunks (`instr_codec`): instead of the data, one 16-byte record per stream
//! the chunk would have (its compression ratio, the codec and filter speeds, whether it is a
//! run), stored as a chunk of raw records with the real chunk's flags and `blosc2_flags`
//! bit 7 set.

use std::time::Instant;

use super::compress::{block_bound, job, Layout};
use super::header::{offsets, read_i32, write_i32, NewHeader};
use super::scratch::Scratch;
use super::streams::{encode_block, EncParams};
use crate::constants::*;
use crate::error::Result;

/// Size of one record (`blosc2_instr`).
const RECORD: usize = 16;

/// Speed in GB/s of `bytes` handled in `seconds` (never 0 or infinite).
fn speed(bytes: usize, seconds: f64) -> f32 {
    (bytes as f64 / seconds.max(1e-9) / 1e9) as f32
}

/// One record: cratio, cspeed, filter speed (little-endian floats) and the flags.
fn record(cratio: f32, cspeed: f32, filter_speed: f32, run: bool) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..4].copy_from_slice(&cratio.to_le_bytes());
    r[4..8].copy_from_slice(&cspeed.to_le_bytes());
    r[8..12].copy_from_slice(&filter_speed.to_le_bytes());
    r[12] = u8::from(run);
    r
}

/// Compresses every block of the chunk into scratch memory to measure it and writes the
/// records chunk into `dst` with `header` (the real chunk's fields); returns its size, 0
/// when it does not fit.
pub(crate) fn compress(
    p: &EncParams,
    lay: &Layout,
    sc: &mut Scratch,
    header: NewHeader,
    dst: &mut [u8],
) -> Result<usize> {
    let mut records: Vec<Vec<[u8; RECORD]>> = Vec::with_capacity(lay.nblocks);
    let mut tmp = vec![0u8; block_bound(lay) + 4 * lay.typesize.max(1)];
    for j in 0..lay.nblocks {
        let b = job(lay, j, 0);
        let t = Instant::now();
        let Some(n) = encode_block(p, sc, b, &mut tmp, 0, None)? else {
            return Ok(0);
        };
        let seconds = t.elapsed().as_secs_f64();
        let nstreams = if p.split && !b.leftover {
            lay.typesize
        } else {
            1
        };
        let neblock = b.bsize / nstreams;
        let filter_speed = speed(b.bsize, seconds);
        let mut block = Vec::with_capacity(nstreams);
        let mut pos = 0;
        for _ in 0..nstreams {
            let csize = read_i32(&tmp[..n], pos);
            let len = 4 + match csize {
                c if c > 0 => c as usize,
                c if c < 0 => 1,
                _ => 0,
            };
            pos += len;
            let cspeed = speed(neblock, seconds / nstreams as f64);
            block.push(record(
                neblock as f32 / len as f32,
                cspeed,
                filter_speed,
                csize <= 0,
            ));
        }
        records.push(block);
    }
    let total: usize = records.iter().map(Vec::len).sum();
    let per_block = if p.split { lay.typesize } else { 1 };
    let hlen = EXTENDED_HEADER_LENGTH;
    let size = hlen + 4 * records.len() + total * (4 + RECORD);
    if size > dst.len() {
        return Ok(0);
    }
    NewHeader {
        nbytes: (RECORD * total) as i32,
        blocksize: (RECORD * per_block) as i32,
        blosc2_flags: INSTR_CODEC,
        ..header
    }
    .write(dst, true);
    let mut pos = hlen + 4 * records.len();
    for (j, block) in records.iter().enumerate() {
        write_i32(dst, hlen + 4 * j, pos as i32);
        for r in block {
            write_i32(dst, pos, RECORD as i32);
            dst[pos + 4..pos + 4 + RECORD].copy_from_slice(r);
            pos += 4 + RECORD;
        }
    }
    write_i32(dst, offsets::CBYTES, pos as i32);
    Ok(pos)
}
