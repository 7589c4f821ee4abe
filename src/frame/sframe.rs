//! Sparse frames: a directory holding the index frame `chunks.b2frame` (header, chunk index
//! of file numbers, trailer) and one `%08X.chunk` file per stored chunk.
//!
//! New chunks go to new files; an updated chunk's file is replaced atomically. The index is
//! rewritten in place as the reference does; on plain files its old bytes go to an undo
//! record first (see [`super::undo`]), so an interrupted change leaves the old index.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::cframe::{read_parts, Opened};
use super::header::{FrameHeader, TYPE_SPARSE};
use super::offsets::{self, IndexChunk, Slot};
use super::trailer;
use super::undo::Undo;
use super::Meta;
use crate::error::{Error, Result};
use crate::io::{read_vec, Io, OpenMode};

/// Name of the index file inside the directory.
pub const INDEX_FILE: &str = "chunks.b2frame";
/// Largest chunk file accepted.
const MAX_CHUNK_FILE: u64 = i32::MAX as u64;

/// A sparse frame in a directory.
pub struct SFrame {
    dir: PathBuf,
    io: Arc<dyn Io>,
    next_id: u64,
    frame_len: u64,
    doomed: Vec<u64>,
    /// The undo record of the index file (plain files).
    undo: Option<Box<Undo>>,
    /// Other backends: the committed index and trailer, and whether chunk files were
    /// written since (to make the reference's calls).
    last: Option<(Vec<u8>, Vec<u8>)>,
    stored: bool,
    /// The index chunk as last read or committed.
    index: IndexChunk,
}

/// The undo record of the index file of the sparse frame in `dir`, for plain files.
fn index_undo(dir: &Path, io: &dyn Io) -> Option<Box<Undo>> {
    (io.id() == crate::io::IO_FILESYSTEM).then(|| Box::new(Undo::new(dir.join(INDEX_FILE))))
}

/// The path of chunk file `id` in `dir`.
pub fn chunk_path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id:08X}.chunk"))
}

impl SFrame {
    /// A new, empty sparse frame in `dir` (created if missing; the caller commits it).
    pub fn create(dir: &Path, io: Arc<dyn Io>) -> Result<SFrame> {
        std::fs::create_dir_all(dir).map_err(|_| Error::FileOpen)?;
        let undo = index_undo(dir, io.as_ref());
        Ok(SFrame {
            dir: dir.to_path_buf(),
            io,
            next_id: 0,
            frame_len: 0,
            doomed: Vec::new(),
            undo,
            last: None,
            stored: false,
            index: IndexChunk::default(),
        })
    }

    /// Opens the sparse frame in `dir`.
    pub fn open(dir: &Path, io: Arc<dyn Io>) -> Result<(SFrame, Opened)> {
        if io.id() == crate::io::IO_FILESYSTEM {
            super::undo::recover(&dir.join(INDEX_FILE))?;
        }
        let mut s = io.open(&dir.join(INDEX_FILE), OpenMode::Read)?;
        let size = s.size()?;
        let (mut opened, frame_len) = read_parts(s.as_mut(), 0, size, TYPE_SPARSE)?;
        let mut next_id = 0u64;
        for &o in &opened.offsets {
            if let Slot::Stored(id) = offsets::slot(o)? {
                if id >= u64::from(u32::MAX) {
                    return Err(Error::InvalidHeader);
                }
                next_id = next_id.max(id + 1);
            }
        }
        let undo = index_undo(dir, io.as_ref());
        let last = if undo.is_none() {
            let hl = opened.header.header_len;
            let tail = read_vec(s.as_mut(), hl, frame_len.saturating_sub(hl))?;
            let tl = trailer::length_from_tail(&tail[tail.len().saturating_sub(25)..])?;
            let split = tail
                .len()
                .checked_sub(tl as usize)
                .ok_or(Error::InvalidHeader)?;
            Some((tail[..split].to_vec(), tail[split..].to_vec()))
        } else {
            None
        };
        drop(s);
        Ok((
            SFrame {
                dir: dir.to_path_buf(),
                io,
                next_id,
                frame_len,
                doomed: Vec::new(),
                undo,
                last,
                stored: false,
                index: IndexChunk::take_from(&mut opened),
            },
            opened,
        ))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The committed length of the index frame.
    pub fn len(&self) -> u64 {
        self.frame_len
    }

    /// Whether nothing was committed yet.
    pub fn is_empty(&self) -> bool {
        self.frame_len == 0
    }

    /// Reads chunk file `id`.
    pub fn read_chunk(&mut self, id: u64) -> Result<Cow<'_, [u8]>> {
        let mut s = self.io.open(&chunk_path(&self.dir, id), OpenMode::Read)?;
        let size = s.size()?;
        if size > MAX_CHUNK_FILE {
            return Err(Error::ReadBuffer);
        }
        // An empty file, or one shorter than its chunk header or than the chunk the header
        // claims, was cut short: a read error, as for the reference's empty chunk files.
        if size < 16 {
            return Err(Error::FileRead);
        }
        let chunk = read_vec(s.as_mut(), 0, size)?;
        let cbytes = i32::from_le_bytes([chunk[12], chunk[13], chunk[14], chunk[15]]);
        if u64::try_from(cbytes).is_ok_and(|c| c > size) {
            return Err(Error::FileRead);
        }
        Ok(Cow::Owned(chunk))
    }

    /// Writes a chunk to a new file; returns its number for the index.
    pub fn store_chunk(&mut self, chunk: &[u8]) -> Result<u64> {
        let id = self.next_id;
        let mut s = self.io.open(&chunk_path(&self.dir, id), OpenMode::Create)?;
        s.write_at(0, chunk)?;
        self.next_id += 1;
        self.stored = true;
        Ok(id)
    }

    /// Numbers the next new chunk file after the highest one `offs` references, as the
    /// reference does.
    pub fn number_after(&mut self, offs: &[i64]) {
        self.next_id = offs.iter().map(|&o| o + 1).max().unwrap_or(0).max(0) as u64;
    }

    /// Writes `chunk` over chunk file `id` (an update keeps the chunk's file, as the
    /// reference does); on plain files the new content replaces the old one atomically.
    pub fn overwrite_chunk(&mut self, id: u64, chunk: &[u8]) -> Result<()> {
        let path = chunk_path(&self.dir, id);
        if self.io.id() != crate::io::IO_FILESYSTEM {
            let mut s = self.io.open(&path, OpenMode::Create)?;
            self.stored = true;
            return s.write_at(0, chunk);
        }
        let tmp = self.dir.join(format!("{id:08X}.chunk.tmp"));
        {
            let mut s = self.io.open(&tmp, OpenMode::Create)?;
            s.write_at(0, chunk)?;
        }
        std::fs::rename(&tmp, &path).map_err(|_| Error::FileWrite)
    }

    /// Makes `index` the index chunk the next commit writes if the offsets still match.
    pub fn set_index(&mut self, index: IndexChunk) {
        self.index = index;
    }

    /// Marks chunk file `id` for removal once the next commit succeeded.
    pub fn release(&mut self, id: u64) {
        self.doomed.push(id);
    }

    /// Writes the index frame and removes released chunk files.
    pub fn commit(&mut self, mut header: FrameHeader, offs: &[i64], vlmeta: &[Meta]) -> Result<()> {
        // Chunks that hold no data get no index, as in the reference (see CFrame::commit).
        let index = if header.nbytes == 0 {
            Vec::new()
        } else {
            self.index.bytes_for(offs)?.to_vec()
        };
        let trailer = trailer::encode(vlmeta)?;
        header.frame_type = TYPE_SPARSE;
        let hlen = header.encode()?.len() as u64;
        header.frame_len = hlen + index.len() as u64 + trailer.len() as u64;
        let head = header.encode()?;
        let doomed: Vec<u64> = std::mem::take(&mut self.doomed)
            .into_iter()
            .filter(|&id| !offs.contains(&(id as i64)))
            .collect();
        if self.undo.is_none() {
            // Through the backend, as the reference: dropped chunk files first, then the
            // index file in its openings.
            for &id in &doomed {
                self.discard_chunk(id);
            }
            self.write_index_per_op(&head, &index, &trailer, header.frame_len)?;
        } else {
            let mut bytes = head;
            bytes.extend_from_slice(&index);
            bytes.extend_from_slice(&trailer);
            self.write_index(&bytes)?;
            for &id in &doomed {
                self.discard_chunk(id);
            }
        }
        self.frame_len = header.frame_len;
        self.stored = false;
        Ok(())
    }

    /// Plain files: rewrites the index file in place and cuts it to its length, saving the
    /// old bytes in the undo record first.
    fn write_index(&mut self, bytes: &[u8]) -> Result<()> {
        let Some(u) = &mut self.undo else {
            return Err(Error::Failure);
        };
        let path = self.dir.join(INDEX_FILE);
        let mut s = match self.io.open(&path, OpenMode::ReadWrite) {
            Ok(s) => s,
            Err(_) => self.io.open(&path, OpenMode::Create)?,
        };
        u.start(s.as_mut(), 0, 0)?;
        let r = (|| {
            u.cover(s.as_mut(), 0)?;
            s.write_at(0, bytes)?;
            if s.size()? > bytes.len() as u64 {
                s.truncate(bytes.len() as u64)?;
            }
            u.finish()
        })();
        if r.is_err() {
            let _ = u.roll_back(s.as_mut());
        }
        r
    }

    /// Other backends: writes the index file with the reference's calls (header and
    /// index for a new frame; otherwise the index when it changed or chunks were written,
    /// then the header after an opening of its own to read it; then the trailer with the
    /// cut to the frame length, and the frame length).
    fn write_index_per_op(
        &mut self,
        head: &[u8],
        index: &[u8],
        trailer: &[u8],
        len: u64,
    ) -> Result<()> {
        let path = self.dir.join(INDEX_FILE);
        let hlen = head.len() as u64;
        let new = self.frame_len == 0;
        let (index_changed, trailer_changed) = match &self.last {
            Some((i, t)) => (i.as_slice() != index, t.as_slice() != trailer),
            None => (true, true),
        };
        let index_op = new || self.stored || index_changed;
        let rw = |io: &Arc<dyn Io>| io.open(&path, OpenMode::ReadWrite);
        if new {
            let mut s = self.io.open(&path, OpenMode::Create)?;
            s.write_at(0, head)?;
            s.write_at(hlen, index)?;
        } else {
            if index_op {
                rw(&self.io)?.write_at(hlen, index)?;
            }
            let mut s = rw(&self.io)?;
            let mut fixed = [0u8; super::header::HEADER_MINLEN];
            let _ = s.read_at(0, &mut fixed);
            drop(s);
            rw(&self.io)?.write_at(0, head)?;
        }
        if new || index_op || trailer_changed || self.frame_len != len {
            let mut s = rw(&self.io)?;
            s.write_at(hlen + index.len() as u64, trailer)?;
            s.truncate(len)?;
            drop(s);
            let at = super::header::POS_FRAME_LEN as u64;
            rw(&self.io)?.write_at(at, &len.to_be_bytes())?;
        }
        self.last = Some((index.to_vec(), trailer.to_vec()));
        Ok(())
    }

    /// Drops chunk file `id`: removed from plain files; emptied through other backends
    /// (they have no removal), as the reference does.
    fn discard_chunk(&self, id: u64) {
        let path = chunk_path(&self.dir, id);
        if self.io.id() == crate::io::IO_FILESYSTEM {
            let _ = std::fs::remove_file(path);
        } else if let Ok(mut s) = self.io.open(&path, OpenMode::Create) {
            let _ = s.truncate(0);
        }
    }

    /// The index frame as committed.
    pub fn index_bytes(&self) -> Result<Vec<u8>> {
        let mut s = self.io.open(&self.dir.join(INDEX_FILE), OpenMode::Read)?;
        read_vec(s.as_mut(), 0, self.frame_len)
    }
}
