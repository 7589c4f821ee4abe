//! Decoding any container to its bytes in C order, streaming.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::OnceLock;

use blosc2::b2nd::Array;
use blosc2::bcolz::CArray;
use blosc2::bloscpack::Reader;
use blosc2::schunk::SuperChunk;
use blosc2::{Context, DParams};

use crate::detect::Format;
use crate::progress::Progress;
use crate::{blosc_err, cores};

/// Largest raw chunk file read (a chunk holds less than 2 GiB).
const MAX_CHUNK_FILE: u64 = i32::MAX as u64 + 64;

/// The uncompressed size a container announces, when cheap to know.
pub fn announced_nbytes(path: &Path, fmt: Format) -> Option<u64> {
    match fmt {
        Format::Bloscpack => Reader::new(File::open(path).ok()?).ok()?.nbytes().ok(),
        Format::BcolzCArray => CArray::open(path).ok().map(|a| a.nbytes()),
        Format::CFrame | Format::SFrame | Format::B2nd => SuperChunk::open(path, 0, None)
            .ok()
            .and_then(|sc| u64::try_from(sc.nbytes()).ok()),
        _ => None,
    }
}

/// Bytes of a Fortran-ordered `.blp` array reordered in memory at a time (`--fortran-band`).
pub static FORTRAN_BAND: OnceLock<usize> = OnceLock::new();

fn fortran_band() -> usize {
    FORTRAN_BAND
        .get()
        .copied()
        .unwrap_or(blosc2::bloscpack::FORTRAN_BAND_BYTES)
}

/// Whether decoding `fmt` already writes in large pieces while it decodes (so that a
/// background writer would only add a copy).
pub fn overlaps_writes(fmt: Format) -> bool {
    matches!(fmt, Format::Bloscpack | Format::BcolzCArray)
}

/// Writes the decoded content of `path` to `out`; returns the number of bytes.
pub fn decode(
    path: &Path,
    fmt: Format,
    out: &mut (dyn Write + Send),
    bar: &Progress,
) -> Result<u64, String> {
    let mut progress = |n: u64| bar.set(n);
    match fmt {
        Format::Bloscpack => {
            let f = File::open(path).map_err(|e| e.to_string())?;
            let mut r = Reader::new(f).map_err(|e| e.to_string())?;
            r.decode_c_order_bounded(out, fortran_band(), &mut progress)
                .map_err(|e| e.to_string())
        }
        Format::BcolzCArray => CArray::open(path)
            .and_then(|a| a.decode_to(out, &mut progress))
            .map_err(|e| e.to_string()),
        Format::BcolzCTable => Err(format!(
            "{} is a bcolz ctable: decompress one column (its directory {}/<name>), or \
             `convert` the table to one b2nd array per column",
            path.display(),
            path.display()
        )),
        Format::CFrame | Format::SFrame => {
            let mut sc = SuperChunk::open(path, 0, None).map_err(|e| blosc_err("open", e))?;
            sc.set_dparams_nthreads(cores());
            decode_schunk(&mut sc, out, &mut progress)
        }
        Format::B2nd => decode_b2nd(path, out, &mut progress),
        Format::Chunk => {
            let f = File::open(path).map_err(|e| e.to_string())?;
            let mut chunk = Vec::new();
            f.take(MAX_CHUNK_FILE)
                .read_to_end(&mut chunk)
                .map_err(|e| e.to_string())?;
            let info = blosc2::cbuffer::basic_info(&chunk).map_err(|e| blosc_err("chunk", e))?;
            if info.cbytes as usize != chunk.len() {
                return Err(format!(
                    "the chunk header says {} compressed bytes, the file has {}",
                    info.cbytes,
                    chunk.len()
                ));
            }
            let mut ctx = Context::decompressor(DParams {
                nthreads: cores(),
                typesize: i32::from(info.typesize),
            });
            let mut buf = vec![0u8; info.nbytes.max(0) as usize];
            let n = ctx
                .decompress(&chunk, &mut buf)
                .map_err(|e| blosc_err("decompress", e))?;
            out.write_all(&buf[..n]).map_err(|e| e.to_string())?;
            Ok(n as u64)
        }
    }
}

/// Every chunk of a super-chunk in order (each decoded on the super-chunk's threads).
pub fn decode_schunk(
    sc: &mut SuperChunk,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, String> {
    let mut total = 0u64;
    let mut buf = vec![0u8; usize::try_from(sc.chunksize()).unwrap_or(0)];
    for n in 0..sc.nchunks() {
        let got = match sc.decompress_chunk(n, &mut buf) {
            Ok(got) => got,
            Err(_) => {
                let nbytes = {
                    let c = sc
                        .chunk(n)
                        .map_err(|e| blosc_err(&format!("chunk {n}"), e))?;
                    blosc2::cbuffer::basic_info(&c)
                        .map_err(|e| blosc_err(&format!("chunk {n}"), e))?
                        .nbytes
                };
                buf.resize(nbytes.max(0) as usize, 0);
                sc.decompress_chunk(n, &mut buf)
                    .map_err(|e| blosc_err(&format!("chunk {n}"), e))?
            }
        };
        out.write_all(&buf[..got]).map_err(|e| e.to_string())?;
        total += got as u64;
        progress(total);
    }
    Ok(total)
}

/// A b2nd array in C order, one band of chunk rows at a time.
fn decode_b2nd(
    path: &Path,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, String> {
    let mut a = Array::open(path, 0, None).map_err(|e| blosc_err("b2nd open", e))?;
    a.schunk_mut().set_dparams_nthreads(cores());
    let shape = a.shape().to_vec();
    let ts = a.typesize() as usize;
    if shape.is_empty() {
        let mut buf = vec![0u8; ts];
        a.to_buffer(&mut buf).map_err(|e| blosc_err("b2nd", e))?;
        out.write_all(&buf).map_err(|e| e.to_string())?;
        return Ok(ts as u64);
    }
    if shape.contains(&0) {
        return Ok(0);
    }
    let rows = i64::from(a.geometry().chunkshape()[0]).max(1);
    let row_items: i64 = shape[1..].iter().product();
    let mut total = 0u64;
    let mut r0 = 0i64;
    let mut buf = Vec::new();
    while r0 < shape[0] {
        let r1 = (r0 + rows).min(shape[0]);
        let mut start = vec![0i64; shape.len()];
        start[0] = r0;
        let mut stop = shape.clone();
        stop[0] = r1;
        let bufshape: Vec<i64> = start.iter().zip(&stop).map(|(s, e)| e - s).collect();
        buf.resize(((r1 - r0) * row_items) as usize * ts, 0);
        a.get_slice_buffer(&start, &stop, &mut buf, &bufshape)
            .map_err(|e| blosc_err("b2nd slice", e))?;
        out.write_all(&buf).map_err(|e| e.to_string())?;
        total += buf.len() as u64;
        progress(total);
        r0 = r1;
    }
    Ok(total)
}
