//! Appending to a Bloscpack file within its reserve of offset slots, as bloscpack's
//! `append` does: the last chunk is filled up to the chunk size, then new chunks follow.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

use super::chunk::{compress_chunk, compress_many, decompress_chunk, ChunkParams};
use super::error::{Error, Result};
use super::header::split_in_chunks;
use super::reader::Reader;
use super::writer::{write_offsets, BATCH_BYTES};

/// Appends `len` bytes read from `input` to the Bloscpack file `file` (open for reading
/// and writing). `params` defaults to bloscpack's defaults with the file's typesize.
/// Returns the number of chunks added. The file must store offsets and have enough
/// reserved slots (`max_app_chunks`) for the new chunks.
pub fn append(
    file: &mut File,
    input: &mut dyn Read,
    len: u64,
    params: Option<ChunkParams>,
) -> Result<i64> {
    let (mut header, offsets, offsets_pos, last) = {
        let mut r = Reader::new(&mut *file)?;
        if !r.header().offsets {
            return Err(Error::Unsupported(
                "appending to a file without offsets".into(),
            ));
        }
        let n = r.header().nchunks;
        if n < 1 || r.header().chunk_size < 0 || r.header().last_chunk < 0 {
            return Err(Error::Unsupported(
                "appending to a file without chunk sizes".into(),
            ));
        }
        r.seek_chunk(n - 1)?;
        let last = r
            .next_chunk()?
            .ok_or_else(|| Error::format("the last chunk is missing"))?;
        (*r.header(), r.offsets().to_vec(), r.offsets_pos(), last)
    };
    let params = params.unwrap_or(ChunkParams {
        typesize: header.typesize.max(1),
        ..ChunkParams::default()
    });
    let mut tail = decompress_chunk(&last.data, last.nbytes)?;
    let room = (header.chunk_size as u64).saturating_sub(tail.len() as u64);
    let fill = len.min(room);
    let start = tail.len();
    tail.resize(start + fill as usize, 0);
    input.read_exact(&mut tail[start..])?;
    let rest = len - fill;
    let (n_new, _, last_size) = if rest == 0 {
        (0, 0, 0)
    } else {
        split_in_chunks(rest, header.chunk_size as u64)?
    };
    if n_new > header.max_app_chunks {
        return Err(Error::Unsupported(format!(
            "not enough space: {n_new} new chunks needed, {} reserved",
            header.max_app_chunks
        )));
    }
    let checksum = header.checksum;
    file.seek(SeekFrom::Start(last.offset))?;
    let mut pos = last.offset;
    let mut put = |file: &mut File, chunk: &[u8]| -> Result<u64> {
        let at = pos;
        file.write_all(chunk)?;
        let d = checksum.digest(chunk);
        file.write_all(&d)?;
        pos += (chunk.len() + d.len()) as u64;
        Ok(at)
    };
    put(file, &compress_chunk(&tail, &params)?)?;
    let mut new_offsets = Vec::new();
    let chunk = header.chunk_size as u64;
    let per_batch = (BATCH_BYTES / chunk.max(1)).max(1);
    let mut left = n_new;
    let mut buf = Vec::new();
    while left > 0 {
        let n = per_batch.min(left as u64) as i64;
        let sizes: Vec<usize> = (0..n)
            .map(|k| {
                if k + 1 == left {
                    last_size as usize
                } else {
                    chunk as usize
                }
            })
            .collect();
        buf.resize(sizes.iter().sum(), 0);
        input.read_exact(&mut buf)?;
        let mut parts = Vec::new();
        let mut at = 0;
        for s in &sizes {
            parts.push(&buf[at..at + s]);
            at += s;
        }
        for c in compress_many(&parts, &params)? {
            new_offsets.push(put(file, &c)? as i64);
        }
        left -= n;
    }
    file.set_len(pos)?;
    if n_new == 0 {
        header.last_chunk += fill as i32;
    } else {
        header.last_chunk = last_size;
        header.nchunks += n_new;
        header.max_app_chunks -= n_new;
    }
    file.seek(SeekFrom::Start(0))?;
    file.write_all(&header.encode())?;
    file.seek(SeekFrom::Start(offsets_pos))?;
    let mut all = offsets;
    all.extend(new_offsets);
    write_offsets(file, &all)?;
    file.flush()?;
    Ok(n_new)
}
