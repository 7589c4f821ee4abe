//! Serialising a super-chunk: contiguous frame buffers and files, and copies into new
//! storage.

use std::path::Path;

use super::{Storage, Store, SuperChunk};
use crate::context::CParams;
use crate::error::{Error, Result};
use crate::frame::offsets::{self, Slot};
use crate::frame::{CFrame, Frame};
use crate::io::{MemoryStream, OpenMode, Stream};

impl SuperChunk {
    /// The bytes of an in-memory contiguous frame, in place.
    pub fn frame_bytes(&self) -> Option<&[u8]> {
        match &self.store {
            Store::Frame(Frame::Contiguous(f), _) if self.storage.urlpath.is_none() => f.as_slice(),
            _ => None,
        }
    }

    /// The length of the frame (of the index file for sparse frames), or an estimate
    /// (`cbytes + 8 * nchunks`) without one.
    pub fn frame_len(&self) -> i64 {
        match &self.store {
            Store::Frame(f, _) => f.len() as i64,
            Store::Memory(_) => self.cbytes + 8 * self.nchunks(),
        }
    }

    /// Sets how buffers of in-memory frames made later (copies) are allocated.
    pub fn set_buffer_maker(&mut self, make: fn() -> Box<dyn crate::io::FrameBuffer>) {
        self.storage.buffer = Some(make);
    }

    /// Lets an in-memory frame buffer outlive the super-chunk (its holder frees it).
    pub fn keep_frame_buffer(&mut self, keep: bool) {
        if let Store::Frame(Frame::Contiguous(f), _) = &mut self.store {
            f.keep_buffer(keep);
        }
    }

    /// The header of a frame built anew from this super-chunk's chunks (`to_buffer`,
    /// `to_file` and `append_file` of anything but an in-memory frame): the reference
    /// writes fixed thread counts there (0 and 1, or what `BLOSC_NTHREADS` says), and the
    /// block size and item size its compression context last used (1 for items of more
    /// than 255 bytes).
    fn copy_header(&mut self) -> Result<crate::frame::FrameHeader> {
        let mut h = self.frame_header();
        // A super-chunk emptied by deletions keeps its chunk size (so does its own frame,
        // also when opened again), but a frame written anew from it says "unset" unless it
        // has metalayers or vlmetalayers (the reference rewrites the header for those).
        if self.nchunks() == 0 && self.metalayers().is_empty() && self.vlmetalayers.is_empty() {
            h.chunksize = -1;
        }
        let env = crate::global::env_nthreads();
        h.nthreads_c = env.unwrap_or(0);
        h.nthreads_d = env.unwrap_or(1);
        let cp = self.cctx.cparams();
        h.blocksize = cp.blocksize;
        h.typesize = cp.typesize;
        Ok(h)
    }

    /// Writes this super-chunk as a contiguous frame into `stream` at `base`.
    fn write_cframe(&mut self, stream: Box<dyn Stream>, base: u64) -> Result<CFrame> {
        let mut f = CFrame::create(stream, base);
        let header = self.copy_header()?;
        f.start(header.encode()?.len() as u64);
        let mut offs = Vec::with_capacity(self.nchunks() as usize);
        let mut nbytes = 0i64;
        for n in 0..self.nchunks() {
            // The reference copies by appending, which fails on a frame whose chunks so
            // far hold no data (see `check_frame_has_data`).
            if nbytes == 0 {
                if n > 0 {
                    return Err(Error::SchunkCopy);
                }
                nbytes = super::chunks::nbytes_of(&self.stored(n)?)? as i64;
            }
            let entry = match &self.store {
                Store::Frame(_, o) => o[n as usize],
                Store::Memory(_) => 0,
            };
            let slot = if self.has_frame() {
                offsets::slot(entry)?
            } else {
                Slot::Stored(0)
            };
            offs.push(match slot {
                Slot::Special(_) => entry,
                Slot::Stored(_) => {
                    // As the reference's appends do, zeros, NaNs and uninit chunks become
                    // index entries of frames with a fixed chunk size.
                    let c = self.stored(n)?.into_owned();
                    let h = crate::chunk::Header::parse(&c)?;
                    match super::chunks::special_kind(&h).filter(|_| header.chunksize > 0) {
                        Some(kind) => offsets::special_offset(kind),
                        None => f.store_chunk(&c)? as i64,
                    }
                }
            });
        }
        f.commit(header, &offs, &self.vlmetalayers)?;
        // The reference reads every chunk, the last one last.
        if self.nchunks() > 0 {
            self.touched = Some(self.nchunks() - 1);
        }
        Ok(f)
    }

    /// A contiguous frame holding this super-chunk.
    pub fn to_cframe(&mut self) -> Result<Vec<u8>> {
        if let Some(b) = self.frame_bytes() {
            return Ok(b.to_vec());
        }
        let mut f = self.write_cframe(Box::new(MemoryStream::new(Box::new(Vec::new()))), 0)?;
        f.to_vec().map_err(|_| Error::SchunkCopy)
    }

    /// Writes this super-chunk as a contiguous frame file; returns its length.
    pub fn to_file(&mut self, path: &Path) -> Result<i64> {
        let io = self.storage.backend()?;
        let mut stream = io.open(path, OpenMode::Create)?;
        if let Some(bytes) = self.frame_bytes() {
            stream.write_at(0, bytes)?;
            return Ok(bytes.len() as i64);
        }
        let f = self.write_cframe(stream, 0)?;
        Ok(f.len() as i64)
    }

    /// Appends this super-chunk as a contiguous frame at the end of file `path` (created
    /// when missing); returns the offset where the frame starts.
    pub fn append_file(&mut self, path: &Path) -> Result<i64> {
        let io = self.storage.backend()?;
        let mut stream = if path.exists() {
            io.open(path, OpenMode::ReadWrite)?
        } else {
            io.open(path, OpenMode::Create)?
        };
        let base = stream.size()?;
        // An in-memory frame goes as it is, as `to_file` writes it.
        if let Some(bytes) = self.frame_bytes() {
            stream.write_at(base, bytes)?;
            return i64::try_from(base).map_err(|_| Error::FileWrite);
        }
        self.write_cframe(stream, base)?;
        i64::try_from(base).map_err(|_| Error::FileWrite)
    }

    /// A deep copy into new storage compressed with `cparams`, as the reference's
    /// `blosc2_schunk_copy` with parameters makes it: chunks are copied as they are when the
    /// parameters (a block size of 0 taking the current one) match those this super-chunk
    /// compresses with, and decompressed and compressed anew otherwise.
    pub fn copy_with(&mut self, mut storage: Storage, cparams: CParams) -> Result<SuperChunk> {
        let cur = self.cctx.cparams();
        let blocksize = if cparams.blocksize == 0 {
            cur.blocksize
        } else {
            cparams.blocksize
        };
        let same = cparams.typesize == cur.typesize
            && cparams.clevel == cur.clevel
            && cparams.compcode == cur.compcode
            && cparams.use_dict == cur.use_dict
            && blocksize == cur.blocksize
            && cparams.filters == cur.filters
            && cparams.filters_meta == cur.filters_meta;
        storage.cparams = cparams;
        storage.dparams = self.dparams;
        if storage.io.is_none() {
            storage.io = self.storage.io.clone();
        }
        let mut out = SuperChunk::new(storage).map_err(|_| Error::SchunkCopy)?;
        out.chunksize = -1;
        out.metalayers = self.metalayers.clone();
        out.vlmetalayers = self.vlmetalayers.clone();
        out.commit()?;
        let mut buf = Vec::new();
        for n in 0..self.nchunks() {
            let c = self.stored(n)?.into_owned();
            if same {
                out.append_chunk(&c)?;
                continue;
            }
            buf.resize(super::chunks::nbytes_of(&c)?, 0);
            let k = self.decompress_chunk(n, &mut buf)?;
            out.append_buffer(&buf[..k])?;
        }
        if self.nchunks() > 0 {
            self.touched = Some(self.nchunks() - 1);
        }
        out.keep_chunksize_of(self)?;
        Ok(out)
    }

    /// A deep copy into new storage (parameters, metalayers and chunks).
    pub fn copy(&mut self, mut storage: Storage) -> Result<SuperChunk> {
        storage.cparams = self.cparams;
        // The reference takes the block size its compression context last used.
        storage.cparams.blocksize = self.cctx.cparams().blocksize;
        storage.dparams = self.dparams;
        if storage.io.is_none() {
            storage.io = self.storage.io.clone();
        }
        let mut out = SuperChunk::new(storage).map_err(|_| Error::SchunkCopy)?;
        out.copy_threads = true;
        out.chunksize = -1;
        out.metalayers = self.metalayers.clone();
        out.vlmetalayers = self.vlmetalayers.clone();
        out.commit()?;
        for n in 0..self.nchunks() {
            let c = self.stored(n)?.into_owned();
            out.append_chunk(&c)?;
        }
        if self.nchunks() > 0 {
            self.touched = Some(self.nchunks() - 1);
        }
        out.keep_chunksize_of(self)?;
        Ok(out)
    }

    /// An empty copy keeps the chunk size of its (empty) source, in its frame too, as in
    /// the reference.
    fn keep_chunksize_of(&mut self, source: &SuperChunk) -> Result<()> {
        if source.nchunks() == 0 && self.chunksize != source.chunksize {
            self.chunksize = source.chunksize;
            self.commit()?;
        }
        Ok(())
    }
}
