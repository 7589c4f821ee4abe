//! An I/O backend serving read-only files from memory through the stream interface (no
//! zero-copy slice, so frames opened through it take the file paths: lazy chunks, ranged
//! chunk reads), and the reads every opened super-chunk goes through.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use blosc2::frame::MetaName;
use blosc2::io::{Io, OpenMode, Stream};
use blosc2::schunk::SuperChunk;
use blosc2::{Context, DParams, Error};

use super::{with_scratch, MAX_OUT};

/// Most chunks read per run.
const MAX_CHUNKS: i64 = 16;

/// Read-only files held in memory, by path.
pub struct MemIo(pub HashMap<PathBuf, Arc<[u8]>>);

/// An open file of [`MemIo`].
struct MemFile(Arc<[u8]>);

impl Stream for MemFile {
    fn size(&mut self) -> blosc2::Result<u64> {
        Ok(self.0.len() as u64)
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> blosc2::Result<()> {
        let start = usize::try_from(pos).map_err(|_| Error::FileRead)?;
        let src = start
            .checked_add(buf.len())
            .and_then(|end| self.0.get(start..end))
            .ok_or(Error::FileRead)?;
        buf.copy_from_slice(src);
        Ok(())
    }

    fn write_at(&mut self, _pos: u64, _data: &[u8]) -> blosc2::Result<()> {
        Err(Error::FileWrite)
    }

    fn truncate(&mut self, _len: u64) -> blosc2::Result<()> {
        Err(Error::FileTruncate)
    }
}

impl Io for MemIo {
    fn id(&self) -> u8 {
        200
    }

    fn name(&self) -> &str {
        "fuzz-memory"
    }

    fn open(&self, path: &Path, mode: OpenMode) -> blosc2::Result<Box<dyn Stream>> {
        if mode != OpenMode::Read {
            return Err(Error::FileOpen);
        }
        let file = self.0.get(path).ok_or(Error::FileOpen)?;
        Ok(Box::new(MemFile(file.clone())))
    }
}

/// Reads an opened super-chunk every way a reader may: metalayers, variable-length
/// metalayers, chunks as stored and as lazy chunks (decoded through a context too), whole
/// chunks, VL blocks and two slices (the whole data, capped, and a window from `knob`).
pub fn read_all(sc: &mut SuperChunk, knob: u8) {
    for m in sc.metalayers().to_vec() {
        let _ = sc.meta_exists(&m.name);
    }
    let names: Vec<MetaName> = sc.vlmeta_names().into_iter().cloned().collect();
    for name in names {
        let _ = sc.vlmeta_get(&name);
    }
    let chunksize = i64::from(sc.chunksize()).clamp(0, MAX_OUT as i64) as usize;
    let typesize = i64::from(sc.typesize().max(1));
    let items = (sc.nbytes() / typesize).clamp(0, MAX_OUT as i64 / typesize);
    with_scratch(chunksize, (items * typesize) as usize, |out, buf| {
        read_chunks(sc, knob, out);
        let _ = sc.get_slice(0, items, buf);
        let start = items * i64::from(knob) / 256;
        let stop = (start + i64::from(knob) * 3 + 1).min(items);
        let _ = sc.get_slice(start, stop, buf);
    });
}

/// Every chunk (up to [`MAX_CHUNKS`]) decoded whole, as a lazy chunk through a context, and
/// as VL blocks, into `out`.
fn read_chunks(sc: &mut SuperChunk, knob: u8, out: &mut [u8]) {
    let mut ctx = Context::decompressor(DParams::default());
    for n in 0..sc.nchunks().min(MAX_CHUNKS) {
        let _ = sc.decompress_chunk(n, out);
        if let Ok(lazy) = sc.lazy_chunk(n) {
            let lazy = lazy.into_owned();
            let _ = ctx.decompress(&lazy, out);
            let _ = ctx.getitem(&lazy, 0, 1, out);
        }
        if sc.has_vl_blocks() {
            let _ = sc.vlblock(n, i32::from(knob % 4));
        }
    }
}
