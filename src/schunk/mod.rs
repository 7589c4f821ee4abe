//! Super-chunks: sequences of compressed chunks sharing parameters, with metalayers, kept
//! in memory, in a contiguous frame (a buffer or a file) or in a sparse frame (a directory).

mod chunks;
mod compress;
mod lazy;
mod meta;
mod open;
mod outbuf;
mod persist;
mod slice;
mod stamp;

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
    pub(crate) stamp: Option<stamp::Stamp>,
    /// Bumped whenever a re-read replaced the state with another handle's changes.
    pub(crate) generation: u64,
    /// Whether frame headers carry the fixed thread counts of a copy (0 and 1) instead of
    /// the contexts' (the reference's `blosc2_schunk_copy`).
    pub(crate) copy_threads: bool,
    /// Set while a C API call runs after it caught up with other handles' changes: the
    /// operations inside that call need not check the file again.
    pub(crate) synced: bool,
    /// Where new chunks are compressed before they are stored.
    pub(crate) out_buf: outbuf::OutBuf,
    /// The chunk the last read, append, insert, update or delete touched, until taken.
    pub(crate) touched: Option<i64>,
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
            copy_threads: false,
            synced: false,
            out_buf: outbuf::OutBuf::default(),
            touched: None,
        }
    }

    /// The chunk the last read, append, insert, update or delete touched since the last
    /// call (what the reference's `current_nchunk` follows).
    pub(crate) fn take_touched(&mut self) -> Option<i64> {
        self.touched.take()
    }

    /// A new, empty super-chunk. As in the reference, an existing file or directory at
    /// `urlpath` is never overwritten: that is [`Error::FileOpen`] (remove it first).
    pub fn new(storage: Storage) -> Result<SuperChunk> {
        if storage.urlpath.as_ref().is_some_and(|p| p.exists()) {
            return Err(Error::FileOpen);
        }
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

    /// Sets the item size that a frame header could not hold (items above 255 bytes).
    pub(crate) fn restore_typesize(&mut self, typesize: i32) {
        self.cparams.typesize = typesize;
        self.dparams.typesize = typesize;
    }

    /// Compression parameters.
    pub fn cparams(&self) -> CParams {
        self.cparams
    }

    /// Decompression parameters.
    pub fn dparams(&self) -> DParams {
        self.dparams
    }

    /// Sets how many threads decompress each chunk from now on (values below 1 mean 1);
    /// a super-chunk opened from a file starts with one.
    ///
    /// ```
    /// use blosc2::schunk::{Storage, SuperChunk};
    ///
    /// let mut sc = SuperChunk::new(Storage::default())?;
    /// sc.append_buffer(&[7u8; 100_000])?;
    /// sc.set_dparams_nthreads(4);
    /// assert_eq!(sc.dparams().nthreads, 4);
    /// let mut out = vec![0u8; 100_000];
    /// assert_eq!(sc.decompress_chunk(0, &mut out)?, 100_000);
    /// # Ok::<(), blosc2::Error>(())
    /// ```
    pub fn set_dparams_nthreads(&mut self, nthreads: i16) {
        let n = nthreads.max(1);
        self.dparams.nthreads = n;
        self.dctx.set_nthreads(n);
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
            // The thread counts of the frame's contexts, which `BLOSC_NTHREADS` overrides
            // when they are made (a frame written anew asks for 0 and 1).
            nthreads_c: crate::global::env_nthreads().unwrap_or(if self.copy_threads {
                0
            } else {
                self.cparams.nthreads
            }),
            nthreads_d: crate::global::env_nthreads().unwrap_or(if self.copy_threads {
                1
            } else {
                self.dparams.nthreads
            }),
            has_vlmeta: !self.vlmetalayers.is_empty(),
            filters: self.cparams.filters,
            filters_meta: self.cparams.filters_meta,
            compcode_meta: self.cparams.compcode_meta,
            use_dict: self.cparams.use_dict,
            metalayers: self.metalayers.clone(),
        }
    }

    /// Writes the current state to the frame, if any. Contiguous frames account the
    /// whole chunk section as compressed bytes, as the reference does.
    pub(crate) fn commit(&mut self) -> Result<()> {
        self.tick += 1;
        let header = self.frame_header();
        let vlmeta = &self.vlmetalayers;
        match &mut self.store {
            Store::Frame(f, offsets) => f.commit(header, offsets, vlmeta)?,
            Store::Memory(_) => return Ok(()),
        }
        if let Store::Frame(Frame::Contiguous(f), _) = &self.store {
            self.cbytes = i64::try_from(f.chunks_len()).map_err(|_| Error::Data)?;
        }
        self.stamp = self.disk_stamp();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
