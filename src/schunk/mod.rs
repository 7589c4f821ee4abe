//! Super-chunks: sequences of compressed chunks sharing parameters, with metalayers, kept
//! in memory, in a contiguous frame (a buffer or a file) or in a sparse frame (a directory).

mod chunks;
mod meta;
mod open;
mod persist;
mod slice;

use std::path::PathBuf;
use std::sync::Arc;

use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::frame::{Frame, FrameHeader, Meta};
use crate::io::{FrameBuffer, Io};

pub use slice::{multidim_to_unidim, unidim_to_multidim};

/// Where and how a super-chunk is stored.
#[derive(Clone, Default)]
pub struct Storage {
    /// Contiguous frame (true) or sparse storage (false).
    pub contiguous: bool,
    /// File (contiguous) or directory (sparse) path; `None` keeps the data in memory.
    pub urlpath: Option<PathBuf>,
    /// Compression parameters.
    pub cparams: CParams,
    /// Decompression parameters.
    pub dparams: DParams,
    /// I/O backend; `None` uses the registered file-system backend (available after
    /// [`crate::global::init`]).
    pub io: Option<Arc<dyn Io>>,
    /// Makes the buffer of an in-memory contiguous frame (a `Vec` when `None`).
    pub buffer: Option<fn() -> Box<dyn FrameBuffer>>,
}

impl Storage {
    /// The I/O backend to use: the given one or the registered default.
    pub(crate) fn backend(&self) -> Result<Arc<dyn Io>> {
        match &self.io {
            Some(io) => Ok(io.clone()),
            None => crate::io::get(crate::io::IO_FILESYSTEM).ok_or(Error::PluginIo),
        }
    }
}

/// Where the chunks live.
pub(crate) enum Store {
    /// In memory, one buffer per chunk.
    Memory(Vec<Vec<u8>>),
    /// In a frame, with its index.
    Frame(Frame, Vec<i64>),
}

/// A super-chunk.
pub struct SuperChunk {
    pub(crate) cparams: CParams,
    pub(crate) dparams: DParams,
    pub(crate) cctx: Context,
    pub(crate) dctx: Context,
    pub(crate) chunksize: i32,
    pub(crate) nbytes: i64,
    pub(crate) cbytes: i64,
    pub(crate) vl_blocks: bool,
    pub(crate) metalayers: Vec<Meta>,
    pub(crate) vlmetalayers: Vec<Meta>,
    pub(crate) store: Store,
    pub(crate) storage: Storage,
    pub(crate) tick: i64,
    /// What the file looked like after this handle last read or wrote it.
    pub(crate) stamp: Option<(u64, Vec<u8>)>,
    /// Bumped whenever a re-read replaced the state with another handle's changes.
    pub(crate) generation: u64,
}

impl SuperChunk {
    fn with_store(storage: Storage, store: Store) -> SuperChunk {
        SuperChunk {
            cparams: storage.cparams,
            dparams: storage.dparams,
            cctx: Context::compressor(storage.cparams),
            dctx: Context::decompressor(storage.dparams),
            chunksize: -1,
            nbytes: 0,
            cbytes: 0,
            vl_blocks: false,
            metalayers: Vec::new(),
            vlmetalayers: Vec::new(),
            store,
            storage,
            tick: 0,
            stamp: None,
            generation: 0,
        }
    }

    /// A new, empty super-chunk (files and directories at `urlpath` are overwritten).
    pub fn new(storage: Storage) -> Result<SuperChunk> {
        let store = open::create_store(&storage)?;
        let mut sc = SuperChunk::with_store(storage, store);
        sc.sync_plugin_meta();
        if matches!(sc.store, Store::Frame(..)) {
            sc.commit()?;
        }
        Ok(sc)
    }

    /// Number of chunks.
    pub fn nchunks(&self) -> i64 {
        match &self.store {
            Store::Memory(v) => v.len() as i64,
            Store::Frame(_, o) => o.len() as i64,
        }
    }

    /// Uncompressed size of the data.
    pub fn nbytes(&self) -> i64 {
        self.nbytes
    }

    /// Compressed size of the data.
    pub fn cbytes(&self) -> i64 {
        self.cbytes
    }

    /// Uncompressed size of each chunk (-1 while empty, 0 when sizes vary).
    pub fn chunksize(&self) -> i32 {
        self.chunksize
    }

    /// Item size.
    pub fn typesize(&self) -> i32 {
        self.cparams.typesize
    }

    /// Compression parameters.
    pub fn cparams(&self) -> CParams {
        self.cparams
    }

    /// Decompression parameters.
    pub fn dparams(&self) -> DParams {
        self.dparams
    }

    /// Gives the super-chunk's compression and decompression contexts the prefilter,
    /// postfilter and host data of `cctx` and `dctx`; they are then told the number of the
    /// chunk they work on.
    pub fn share_callbacks(&mut self, cctx: &Context, dctx: &Context) {
        self.cctx.share_callbacks_from(cctx);
        self.dctx.share_callbacks_from(dctx);
        self.sync_plugin_meta();
    }

    /// The storage description.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Counter bumped by every change.
    pub fn change_tick(&self) -> i64 {
        self.tick
    }

    /// Counter bumped whenever the state was re-read from another handle's changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the chunks live in a frame.
    pub fn has_frame(&self) -> bool {
        matches!(self.store, Store::Frame(..))
    }

    /// The frame, if any.
    pub fn frame(&self) -> Option<&Frame> {
        match &self.store {
            Store::Frame(f, _) => Some(f),
            Store::Memory(_) => None,
        }
    }

    /// The chunk index of the frame, if any.
    pub fn frame_offsets(&self) -> Option<&[i64]> {
        match &self.store {
            Store::Frame(_, o) => Some(o),
            Store::Memory(_) => None,
        }
    }

    /// The frame header describing the current state.
    pub(crate) fn frame_header(&self) -> FrameHeader {
        let variable = self.chunksize == 0;
        FrameHeader {
            header_len: 0,
            frame_len: 0,
            version: if variable || self.vl_blocks { 3 } else { 2 },
            variable_chunks: variable,
            vl_blocks: self.vl_blocks,
            frame_type: 0,
            compcode: self.cparams.compcode,
            clevel: self.cparams.clevel,
            splitmode: u8::try_from(self.cparams.splitmode).unwrap_or(4),
            nbytes: self.nbytes,
            cbytes: self.cbytes,
            typesize: self.cparams.typesize,
            blocksize: self.cparams.blocksize,
            chunksize: self.chunksize,
            nthreads_c: self.cparams.nthreads,
            nthreads_d: self.dparams.nthreads,
            has_vlmeta: !self.vlmetalayers.is_empty(),
            filters: self.cparams.filters,
            filters_meta: self.cparams.filters_meta,
            compcode_meta: self.cparams.compcode_meta,
            use_dict: self.cparams.use_dict,
            metalayers: self.metalayers.clone(),
        }
    }

    /// Writes the current state to the frame, if any.
    pub(crate) fn commit(&mut self) -> Result<()> {
        self.tick += 1;
        let header = self.frame_header();
        let needs_rewrite = match &self.store {
            Store::Frame(Frame::Contiguous(f), _) => {
                f.header_len_changes(header.encode()?.len() as u64)
            }
            _ => false,
        };
        if needs_rewrite {
            return self.rewrite_contiguous(header);
        }
        let vlmeta = &self.vlmetalayers;
        match &mut self.store {
            Store::Frame(f, offsets) => f.commit(header, offsets, vlmeta)?,
            Store::Memory(_) => return Ok(()),
        }
        if self.needs_compaction() {
            self.compact_file()?;
        }
        self.stamp = self.disk_stamp();
        Ok(())
    }

    /// Writes a contiguous frame again from scratch (its header changed size).
    fn rewrite_contiguous(&mut self, header: FrameHeader) -> Result<()> {
        let Store::Frame(Frame::Contiguous(f), offsets) = &mut self.store else {
            return Err(Error::Failure);
        };
        let mut chunks = Vec::with_capacity(offsets.len());
        for &o in offsets.iter() {
            chunks.push(match crate::frame::offsets::slot(o)? {
                crate::frame::offsets::Slot::Stored(at) => Some(f.read_chunk(at)?.into_owned()),
                crate::frame::offsets::Slot::Special(_) => None,
            });
        }
        f.reset()?;
        f.start(header.encode()?.len() as u64);
        for (o, c) in offsets.iter_mut().zip(chunks) {
            if let Some(c) = c {
                *o = f.store_chunk(&c)? as i64;
            }
        }
        f.commit(header, offsets, &self.vlmetalayers)
    }
}

#[cfg(test)]
mod tests;
