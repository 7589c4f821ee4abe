//! Creating the storage of a new super-chunk and opening existing frames.

use std::path::Path;
use std::sync::Arc;

use super::{Storage, Store, SuperChunk};
use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::frame::{CFrame, Frame, Opened, SFrame};
use crate::io::{FrameBuffer, Io, MemoryStream, OpenMode};

/// Whether frame files of backend `io` keep an undo record while they change (plain files
/// of the default backend).
pub(crate) fn keeps_undo(io: &Arc<dyn Io>) -> bool {
    io.id() == crate::io::IO_FILESYSTEM
}

/// Whether contiguous frame files of backend `io` are opened for each operation and closed
/// after it, as the reference does (user I/O backends, which see every call).
fn per_operation(io: &Arc<dyn Io>) -> bool {
    io.id() != crate::io::IO_FILESYSTEM && io.id() != crate::io::IO_FILESYSTEM_MMAP
}

/// The empty store a new super-chunk starts with.
pub(super) fn create_store(storage: &Storage) -> Result<Store> {
    match (&storage.urlpath, storage.contiguous) {
        (None, false) => Ok(Store::Memory(Vec::new())),
        (None, true) => {
            storage.backend()?;
            let buf: Box<dyn FrameBuffer> = match storage.buffer {
                Some(make) => make(),
                None => Box::new(Vec::new()),
            };
            let f = CFrame::create(Box::new(MemoryStream::new(buf)), 0);
            Ok(Store::Frame(Frame::Contiguous(f), Vec::new()))
        }
        (Some(path), true) => {
            let io = storage.backend()?;
            if path.is_dir() {
                std::fs::remove_dir_all(path).map_err(|_| Error::FileRemove)?;
            }
            if per_operation(&io) {
                let f = CFrame::create_per_op(io, path.clone());
                return Ok(Store::Frame(Frame::Contiguous(f), Vec::new()));
            }
            let stream = io.open(path, OpenMode::Create)?;
            let mut f = CFrame::create(stream, 0);
            if keeps_undo(&io) {
                f.keep_undo(path.clone());
            }
            Ok(Store::Frame(Frame::Contiguous(f), Vec::new()))
        }
        (Some(path), false) => {
            let io = storage.backend()?;
            if path.is_file() {
                std::fs::remove_file(path).map_err(|_| Error::FileRemove)?;
            } else if path.is_dir() {
                std::fs::remove_dir_all(path).map_err(|_| Error::FileRemove)?;
            }
            Ok(Store::Frame(
                Frame::Sparse(SFrame::create(path, io)?),
                Vec::new(),
            ))
        }
    }
}

impl SuperChunk {
    /// Builds a super-chunk around an opened frame.
    fn from_opened(frame: Frame, opened: Opened, mut storage: Storage) -> Result<SuperChunk> {
        let h = opened.header;
        let cparams = CParams {
            compcode: h.compcode,
            compcode_meta: h.compcode_meta,
            clevel: h.clevel.min(9),
            use_dict: h.use_dict,
            typesize: h.typesize,
            nthreads: 1,
            blocksize: h.blocksize,
            splitmode: i32::from(h.splitmode),
            filters: h.filters,
            filters_meta: h.filters_meta,
            instr_codec: false,
        };
        let dparams = DParams {
            nthreads: 1,
            typesize: h.typesize,
        };
        storage.cparams = cparams;
        storage.dparams = dparams;
        if h.metalayers.len() > crate::frame::MAX_METALAYERS {
            return Err(Error::InvalidHeader);
        }
        let mut sc = SuperChunk::with_store(storage, Store::Frame(frame, opened.offsets));
        sc.chunksize = h.chunksize;
        sc.nbytes = h.nbytes;
        sc.cbytes = h.cbytes;
        sc.vl_blocks = h.vl_blocks;
        sc.metalayers = h.metalayers;
        sc.vlmetalayers = opened.vlmeta;
        sc.cctx = Context::compressor(cparams);
        sc.dctx = Context::decompressor(dparams);
        sc.sync_plugin_meta();
        sc.stamp = sc.disk_stamp();
        Ok(sc)
    }

    /// Opens the frame stored at `path`: a contiguous frame file whose header starts at
    /// byte `offset`, or a sparse frame directory (`offset` must then be 0).
    pub fn open(path: &Path, offset: u64, io: Option<Arc<dyn Io>>) -> Result<SuperChunk> {
        let is_dir = path.is_dir();
        let storage = Storage {
            contiguous: !is_dir,
            urlpath: Some(path.to_path_buf()),
            io,
            ..Storage::default()
        };
        let io = storage.backend()?;
        if is_dir {
            if offset != 0 {
                return Err(Error::InvalidParam);
            }
            let (f, opened) = SFrame::open(path, io)?;
            return SuperChunk::from_opened(Frame::Sparse(f), opened, storage);
        }
        if per_operation(&io) {
            let (f, opened) = CFrame::open_per_op(io, path.to_path_buf(), offset)?;
            return SuperChunk::from_opened(Frame::Contiguous(f), opened, storage);
        }
        if keeps_undo(&io) {
            crate::frame::undo::recover(path)?;
        }
        let stream = io
            .open(path, OpenMode::ReadWrite)
            .or_else(|_| io.open(path, OpenMode::Read))?;
        let (mut f, opened) = CFrame::open(stream, offset)?;
        if keeps_undo(&io) {
            f.keep_undo(path.to_path_buf());
        }
        SuperChunk::from_opened(Frame::Contiguous(f), opened, storage)
    }

    /// Wraps an in-memory contiguous frame held in `buffer` (exactly the frame's bytes).
    pub fn from_buffer(buffer: Box<dyn FrameBuffer>) -> Result<SuperChunk> {
        let len = buffer.bytes().len();
        if len < crate::frame::header::HEADER_MINLEN {
            return Err(Error::ReadBuffer);
        }
        let stream = Box::new(MemoryStream::new(buffer));
        let (f, opened) = CFrame::open(stream, 0)?;
        // A buffer holds exactly one frame (the reference refuses trailing bytes).
        if f.len() != len as u64 {
            return Err(Error::InvalidHeader);
        }
        let storage = Storage {
            contiguous: true,
            ..Storage::default()
        };
        SuperChunk::from_opened(Frame::Contiguous(f), opened, storage)
    }

    /// Moves every chunk into memory (a super-chunk without frame), as the reference does
    /// for `blosc2_schunk_from_buffer(..., copy = true)`; the block size becomes the one
    /// the chunks share (0 when they differ).
    ///
    /// As in the reference, each copied chunk needs only a readable 16-byte header (the
    /// one `blosc2_cbuffer_sizes` reads) and a compressed size of at least an extended
    /// header, and the chunks' sizes must add up to the header's `nbytes`; a frame of no
    /// chunks is taken as it is.
    pub fn into_memory(mut self) -> Result<SuperChunk> {
        let mut chunks = Vec::with_capacity(self.nchunks() as usize);
        let mut blocksize = None;
        let mut nbytes = 0i64;
        for n in 0..self.nchunks() {
            let chunk = self.stored(n)?.into_owned();
            let info = crate::cbuffer::basic_info(&chunk)?;
            // The reference reads each copied chunk as a lazy chunk, which must hold at
            // least an extended header.
            if info.cbytes < crate::constants::EXTENDED_HEADER_LENGTH as i32 {
                return Err(Error::ReadBuffer);
            }
            let bs = if info.nbytes > 0 {
                info.blocksize.min(info.nbytes)
            } else {
                info.blocksize
            };
            blocksize = match blocksize {
                Some(b) if b != bs => Some(0),
                Some(b) => Some(b),
                None => Some(bs),
            };
            nbytes += i64::from(info.nbytes);
            chunks.push(chunk);
        }
        if !chunks.is_empty() && nbytes != self.nbytes {
            return Err(Error::InvalidHeader);
        }
        // The reported block size becomes the chunks' common one (0 when they differ), as
        // in the reference; the compression context keeps the frame header's.
        if let Some(bs) = blocksize {
            self.cparams.blocksize = bs;
        }
        // A frame of no chunks keeps the compressed size its header gives, as in the
        // reference (which writes frames whose header still counts deleted chunks).
        if !chunks.is_empty() {
            self.cbytes = chunks.iter().map(|c| c.len() as i64).sum();
        }
        self.store = Store::Memory(chunks);
        self.storage.contiguous = false;
        self.storage.urlpath = None;
        Ok(self)
    }

    /// A super-chunk over a copy of the in-memory contiguous frame `bytes`.
    pub fn from_cframe(bytes: &[u8]) -> Result<SuperChunk> {
        SuperChunk::from_buffer(Box::new(bytes.to_vec()))
    }
}

impl SuperChunk {
    /// Gives the contexts of a re-read state the callbacks and thread counts of `old`.
    fn keep_contexts_of(&mut self, old: &SuperChunk) {
        self.cparams.nthreads = old.cparams.nthreads;
        self.dparams.nthreads = old.dparams.nthreads;
        self.cctx.set_nthreads(old.cparams.nthreads);
        self.dctx.set_nthreads(old.dparams.nthreads);
        self.cctx.share_callbacks_from(&old.cctx);
        self.dctx.share_callbacks_from(&old.dctx);
        self.sync_plugin_meta();
    }

    /// Re-reads a file-backed frame that another handle may have changed; whether it had.
    pub fn refresh(&mut self) -> Result<bool> {
        let Some(path) = self.storage.urlpath.clone() else {
            return Ok(false);
        };
        let base = match &self.store {
            Store::Frame(Frame::Contiguous(f), _) => Some(f.base()),
            Store::Frame(Frame::Sparse(_), _) => None,
            Store::Memory(_) => return Ok(false),
        };
        let mut fresh = SuperChunk::open(&path, base.unwrap_or(0), self.storage.io.clone())?;
        // A contiguous frame reads through its open file: another file at the path (same
        // contents or not) must replace it.
        let inode = |sc: &SuperChunk| sc.stamp.as_ref().map(|s| s.inode());
        let same_file = base.is_none() || inode(&fresh) == inode(self);
        let same = same_file
            && fresh.nbytes == self.nbytes
            && fresh.frame_offsets() == self.frame_offsets()
            && fresh.metalayers == self.metalayers
            && fresh.vlmetalayers == self.vlmetalayers
            && fresh.frame_len() == self.frame_len();
        if same {
            self.stamp = fresh.stamp;
            return Ok(false);
        }
        fresh.storage.buffer = self.storage.buffer;
        fresh.keep_contexts_of(self);
        fresh.tick = self.tick + 1;
        fresh.generation = self.generation + 1;
        *self = fresh;
        Ok(true)
    }
}
