//! Contiguous frames: header, chunks, index and trailer in one stream (a buffer or a
//! file, possibly at an offset inside a larger file).
//!
//! The layout is the reference's: chunks packed in the chunk section, each new chunk
//! written where the index began, then the index and the trailer. A frame file given an
//! undo path (plain files) saves the bytes a change overwrites first (see [`super::undo`]),
//! so a change cut short by a crash is undone at the next access.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use super::backing::Backing;
use super::header::{FrameHeader, HEADER_MINLEN, TYPE_CONTIGUOUS};
use super::offsets::{self, IndexChunk};
use super::trailer::{self, TRAILER_MINLEN};
use super::undo::Undo;
use super::Meta;
use crate::error::{Error, Result};
use crate::io::{read_vec, Io, OpenMode, Stream};

mod read;
pub(crate) use read::READ_AHEAD;

/// A contiguous frame over a stream.
pub struct CFrame {
    stream: Backing,
    base: u64,
    header_len: u64,
    /// Length of the committed chunk section.
    chunks_len: u64,
    /// Length of the chunk section with the chunks written since the last commit.
    section: u64,
    frame_len: u64,
    /// The undo record of a frame file that keeps one while it changes.
    undo: Option<Box<Undo>>,
    /// False for a frame followed by another frame in its file (it must not grow over it).
    writable: bool,
    /// For files opened per operation: the committed index and trailer, and whether chunk
    /// bytes were written since (to make the reference's calls).
    last: Option<(Vec<u8>, Vec<u8>)>,
    wrote: bool,
    /// Bytes read with the header of a whole chunk: the size of the last chunk read.
    read_ahead: u64,
    /// The index chunk as last read or committed.
    index: IndexChunk,
}

/// What opening a frame found.
pub struct Opened {
    /// The header.
    pub header: FrameHeader,
    /// The chunk index.
    pub offsets: Vec<i64>,
    /// The variable-length metalayers.
    pub vlmeta: Vec<Meta>,
    /// The index chunk as stored (empty for a frame without chunks).
    pub index: Vec<u8>,
    /// Length of the chunk section as laid out (the header's compressed size, or 0 for a
    /// frame of no data with nothing between header and trailer).
    pub section: u64,
    /// Whether `index` alone decodes to `offsets` (not so when the index chunk's compressed
    /// size reaches into the trailer).
    pub index_whole: bool,
}

/// `len` bytes at `pos` of a stream holding `size` bytes: borrowed from in-memory streams,
/// read from the others.
fn bytes_at(stream: &mut dyn Stream, pos: u64, len: u64, size: u64) -> Result<Cow<'_, [u8]>> {
    let end = pos.checked_add(len).ok_or(Error::ReadBuffer)?;
    if end > size {
        return Err(Error::FileRead);
    }
    let n = usize::try_from(len).map_err(|_| Error::MemoryAlloc)?;
    if stream.as_slice().is_some() {
        let start = usize::try_from(pos).map_err(|_| Error::ReadBuffer)?;
        return stream
            .as_slice()
            .and_then(|s| s.get(start..start.checked_add(n)?))
            .map(Cow::Borrowed)
            .ok_or(Error::ReadBuffer);
    }
    let mut v = vec![0u8; n];
    stream.read_at(pos, &mut v)?;
    Ok(Cow::Owned(v))
}

/// Reads and validates header, trailer and index of a frame whose header starts at `base`;
/// `size` bounds the bytes available for it.
pub(crate) fn read_parts(
    stream: &mut dyn Stream,
    base: u64,
    size: u64,
    frame_type: u8,
) -> Result<(Opened, u64)> {
    if base
        .checked_add(HEADER_MINLEN as u64)
        .is_none_or(|e| e > size)
    {
        return Err(Error::ReadBuffer);
    }
    let (header_len, frame_len) =
        FrameHeader::lengths(&bytes_at(stream, base, HEADER_MINLEN as u64, size)?)?;
    if base.checked_add(frame_len).is_none_or(|e| e > size)
        || frame_len < header_len + TRAILER_MINLEN as u64
    {
        return Err(Error::ReadBuffer);
    }
    let header = FrameHeader::parse(&bytes_at(stream, base, header_len, size)?)?;
    if header.frame_type != frame_type {
        return Err(Error::FrameType);
    }
    let tail_at = base + frame_len - TRAILER_MINLEN as u64;
    let trailer_len =
        trailer::length_from_tail(&bytes_at(stream, tail_at, TRAILER_MINLEN as u64, size)?)?;
    if trailer_len > frame_len - header_len {
        return Err(Error::InvalidHeader);
    }
    // A frame of no data (an uncompressed size of 0, or a negative one) has no chunks and no
    // index, whatever lies between its header and its trailer: the reference reads no index
    // then, and reads its trailer (as long as the length its tail gives) right after the
    // header. It writes such frames, header and trailer only, keeping the compressed size,
    // once every chunk of an in-memory frame is deleted. A negative compressed size passes
    // the header only in a frame without data.
    let no_data = header.nbytes <= 0;
    let trailer_at = if no_data {
        base + header_len
    } else {
        base + frame_len - trailer_len
    };
    let vlmeta = trailer::parse(&bytes_at(stream, trailer_at, trailer_len, size)?)?;
    let index_end = if no_data {
        header_len
    } else {
        frame_len - trailer_len
    };
    let section = if frame_type == TYPE_CONTIGUOUS && !no_data {
        header.cbytes.max(0) as u64
    } else {
        0
    };
    let index_start = header_len
        .checked_add(section)
        .ok_or(Error::InvalidHeader)?;
    if index_start > index_end {
        return Err(Error::InvalidHeader);
    }
    let index_len = index_end - index_start;
    let mut index_whole = true;
    let (offsets, index) = if index_len == 0 {
        (Vec::new(), Vec::new())
    } else {
        let idx = bytes_at(stream, base + index_start, index_len, size)?;
        // As the reference: the index chunk's compressed size may reach past the index (into
        // the trailer) but not past the frame's end.
        let info = crate::cbuffer::basic_info(&idx)?;
        let cbytes = info.cbytes as u64;
        if index_start + cbytes > frame_len {
            return Err(Error::ReadBuffer);
        }
        let n = offsets::count(&info)?;
        check_counts(&header, n, true)?;
        // The reference decodes the index chunk in place, as long as its compressed size
        // says, trailer bytes included.
        let idx = if cbytes > index_len {
            index_whole = false;
            drop(idx);
            bytes_at(stream, base + index_start, cbytes, size)?
        } else {
            idx
        };
        // An index of no offsets is not decoded (nor checked further), as by the reference.
        let offsets = if n == 0 {
            Vec::new()
        } else {
            offsets::decode(&idx, n)?
        };
        (offsets, idx[..index_len as usize].to_vec())
    };
    check_counts(&header, offsets.len(), index_len > 0)?;
    let opened = Opened {
        header,
        offsets,
        vlmeta,
        index,
        section,
        index_whole,
    };
    Ok((opened, frame_len))
}

/// Most chunks a frame may index (a 128 MiB index).
const MAX_CHUNKS: usize = 1 << 24;

/// Checks the chunk count (from an index when `has_index`) against the sizes in the header.
fn check_counts(h: &FrameHeader, n: usize, has_index: bool) -> Result<()> {
    if n > MAX_CHUNKS || (n as u64) > h.nbytes as u64 {
        return Err(Error::InvalidHeader);
    }
    // The reference counts the chunks from the chunk size whenever it is set, also in
    // frames flagged as having variable chunks (which it writes with chunk size 0), and
    // only in frames holding data (none in a frame of size 0 or below).
    if h.chunksize > 0 {
        let cs = i64::from(h.chunksize);
        let want = if h.nbytes > 0 {
            h.nbytes / cs + i64::from(h.nbytes % cs != 0)
        } else {
            0
        };
        if want != n as i64 {
            return Err(Error::InvalidHeader);
        }
    } else if n == 0 && h.nbytes > 0 && !has_index {
        // Without a chunk size, a frame of data needs an index (one of no offsets will do).
        return Err(Error::InvalidHeader);
    }
    Ok(())
}

impl CFrame {
    /// A new, empty frame on `stream` at `base` (the caller commits it).
    pub fn create(stream: Box<dyn Stream>, base: u64) -> CFrame {
        CFrame::on(Backing::Held(stream), base)
    }

    /// A new, empty frame in file `path` of the user I/O backend `io`, which is opened for
    /// each operation (created by the first commit).
    pub fn create_per_op(io: Arc<dyn Io>, path: PathBuf) -> CFrame {
        CFrame::on(Backing::per_op(io, path, true), 0)
    }

    fn on(stream: Backing, base: u64) -> CFrame {
        CFrame {
            stream,
            base,
            header_len: 0,
            chunks_len: 0,
            section: 0,
            frame_len: 0,
            undo: None,
            writable: true,
            last: None,
            wrote: false,
            read_ahead: READ_AHEAD,
            index: IndexChunk::default(),
        }
    }

    /// Opens the frame at `base` of file `path` of the user I/O backend `io`, which is then
    /// opened for each operation.
    pub fn open_per_op(io: Arc<dyn Io>, path: PathBuf, base: u64) -> Result<(CFrame, Opened)> {
        let stream = io.open(&path, OpenMode::Read)?;
        let (mut f, opened) = CFrame::open(stream, base)?;
        let tail_at = base + f.header_len + opened.section;
        let tail = read_vec(f.stream.reader()?, tail_at, base + f.frame_len - tail_at)?;
        let tlen = trailer::length_from_tail(&tail[tail.len().saturating_sub(TRAILER_MINLEN)..])?;
        let split = tail
            .len()
            .checked_sub(tlen as usize)
            .ok_or(Error::InvalidHeader)?;
        f.last = Some((tail[..split].to_vec(), tail[split..].to_vec()));
        f.stream = Backing::per_op(io, path, false);
        Ok((f, opened))
    }

    /// Opens the frame at `base` in `stream`.
    pub fn open(mut stream: Box<dyn Stream>, base: u64) -> Result<(CFrame, Opened)> {
        let size = stream.size()?;
        let (mut opened, frame_len) = read_parts(stream.as_mut(), base, size, TYPE_CONTIGUOUS)?;
        let chunks_len = opened.section;
        let header_len = opened.header.header_len;
        // Every stored chunk must have its short header inside the chunk section. One quick
        // pass clears the usual index (special entries, negative, fail it), the slow one
        // finds the culprit.
        let offs = &opened.offsets;
        let quick = chunks_len
            .checked_sub(16)
            .is_some_and(|last| !offs.iter().fold(false, |b, &o| b | (o as u64 > last)));
        if !quick {
            for &o in offs {
                if let offsets::Slot::Stored(pos) = offsets::slot(o)? {
                    if pos.checked_add(16).is_none_or(|e| e > chunks_len) {
                        return Err(Error::InvalidHeader);
                    }
                }
            }
        }
        // A frame emptied by deletions keeps its old chunk section's length in the header:
        // the reference appends after that much space, so the next chunk goes there too.
        let chunks_len = if opened.offsets.is_empty() && opened.header.nbytes == 0 {
            opened.header.cbytes.max(0) as u64
        } else {
            chunks_len
        };
        let mut f = CFrame::on(Backing::Held(stream), base);
        f.header_len = header_len;
        f.chunks_len = chunks_len;
        f.section = chunks_len;
        f.frame_len = frame_len;
        f.writable = !f.followed_by_frame(size);
        f.index = IndexChunk::take_from(&mut opened);
        Ok((f, opened))
    }

    /// Makes `index` the index chunk the next commit writes if the offsets still match.
    pub fn set_index(&mut self, index: IndexChunk) {
        self.index = index;
    }

    /// Makes every change keep an undo record next to the frame file `path`.
    pub fn keep_undo(&mut self, path: PathBuf) {
        self.undo = Some(Box::new(Undo::new(path)));
    }

    /// Whether another frame starts right after this one (as `append_file` leaves them).
    fn followed_by_frame(&mut self, size: u64) -> bool {
        let end = self.base + self.frame_len;
        if size < end + 10 {
            return false;
        }
        let mut head = [0u8; 10];
        self.stream
            .reader()
            .and_then(|s| s.read_at(end, &mut head))
            .is_ok()
            && head[0] == 0x9e
            && head[1] == 0xa8
            && &head[2..] == super::header::MAGIC
    }

    /// The committed frame length.
    pub fn len(&self) -> u64 {
        self.frame_len
    }

    /// Whether nothing was committed yet.
    pub fn is_empty(&self) -> bool {
        self.frame_len == 0
    }

    /// Length of the committed chunk section (live chunks and unreferenced space).
    pub fn chunks_len(&self) -> u64 {
        self.chunks_len
    }

    /// The whole frame stream as one slice, for frames in memory.
    pub fn as_slice(&self) -> Option<&[u8]> {
        self.stream.as_slice()
    }

    /// Ends a read: a file opened per operation is closed.
    pub(crate) fn end_op(&mut self) {
        self.stream.close();
    }

    /// The committed header length.
    pub fn header_len(&self) -> u64 {
        self.header_len
    }

    /// Where the frame starts in its stream.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Saves, in the undo record of the change in progress (started when needed), the
    /// committed bytes from stream position `pos` on before they are overwritten.
    fn cover(&mut self, pos: u64) -> Result<()> {
        let hlen = if self.frame_len == 0 {
            0
        } else {
            self.header_len
        };
        let CFrame {
            stream, undo, base, ..
        } = self;
        let Some(u) = undo else {
            return Ok(());
        };
        let s = stream.writer()?;
        if !u.is_active() {
            u.start(s, *base, hlen)?;
        }
        u.cover(s, pos)
    }

    /// Writes `data` at `offset` of the chunk section, saving what it overwrites first.
    fn write_section(&mut self, offset: u64, data: &[u8]) -> Result<()> {
        let pos = self.base + self.header_len + offset;
        self.cover(pos)?;
        self.stream.writer()?.write_at(pos, data)
    }

    /// Writes a chunk at the end of the chunk section; returns its offset for the index.
    pub fn store_chunk(&mut self, chunk: &[u8]) -> Result<u64> {
        if !self.writable {
            return Err(Error::FileWrite);
        }
        let at = self.section;
        self.write_section(at, chunk)?;
        self.section += chunk.len() as u64;
        self.wrote = true;
        Ok(at)
    }

    /// Replaces the stored chunk of `old_len` bytes at `old` by `chunk` (or removes it when
    /// `None`), moving the chunks after it; returns the shift of the offsets after `old`.
    pub fn replace_chunk(&mut self, old: u64, old_len: u64, chunk: Option<&[u8]>) -> Result<i64> {
        if !self.writable {
            return Err(Error::FileWrite);
        }
        let new_len = chunk.map_or(0, |c| c.len() as u64);
        let tail_src = old.checked_add(old_len).ok_or(Error::Data)?;
        if tail_src > self.section {
            return Err(Error::Data);
        }
        let tail_len = self.section - tail_src;
        let tail_dst = old + new_len;
        if tail_len > 0 && tail_src != tail_dst {
            let n = usize::try_from(tail_len).map_err(|_| Error::MemoryAlloc)?;
            let mut tail = Vec::new();
            tail.try_reserve_exact(n).map_err(|_| Error::MemoryAlloc)?;
            tail.resize(n, 0);
            let at = self.base + self.header_len;
            self.stream.writer()?.read_at(at + tail_src, &mut tail)?;
            self.cover(at + old)?;
            self.write_section(tail_dst, &tail)?;
        }
        if let Some(c) = chunk {
            self.write_section(old, c)?;
        }
        self.section = self.section - old_len + new_len;
        self.wrote = true;
        Ok(new_len as i64 - old_len as i64)
    }

    /// Whether a header of `len` bytes can be committed: as long as the present one, or
    /// any length while the chunk section is empty.
    pub fn header_fits(&self, len: u64) -> bool {
        self.frame_len == 0 || self.section == 0 || len == self.header_len
    }

    /// The length of the chunk section, with the chunks written since the last commit.
    pub fn section_len(&self) -> u64 {
        self.section
    }

    /// Fixes the header length of a new frame before its chunks are stored.
    pub fn start(&mut self, header_len: u64) {
        self.header_len = header_len;
    }

    /// Writes the index, trailer and header, committing the new state.
    pub fn commit(&mut self, mut header: FrameHeader, offs: &[i64], vlmeta: &[Meta]) -> Result<()> {
        let r = self.commit_inner(&mut header, offs, vlmeta);
        if r.is_err() {
            self.abort();
        }
        self.stream.close();
        r
    }

    fn commit_inner(
        &mut self,
        header: &mut FrameHeader,
        offs: &[i64],
        vlmeta: &[Meta],
    ) -> Result<()> {
        if !self.writable {
            return Err(Error::FileWrite);
        }
        // A frame whose chunks were all deleted, or whose chunks hold no data, is header
        // and trailer only, its header still giving the chunk section's length, as the
        // reference writes it (and reads it: a frame of no data has no index to read).
        let bare = offs.is_empty() || header.nbytes == 0;
        let index = if bare {
            Vec::new()
        } else {
            self.index.bytes_for(offs)?.to_vec()
        };
        let trailer = trailer::encode(vlmeta)?;
        header.frame_type = TYPE_CONTIGUOUS;
        header.cbytes = i64::try_from(self.section).map_err(|_| Error::Data)?;
        let hlen = header.encode()?.len() as u64;
        if !self.header_fits(hlen) {
            return Err(Error::InvalidParam);
        }
        if hlen != self.header_len {
            self.cover(self.base)?;
            self.header_len = hlen;
        }
        let idx_at = if bare { 0 } else { self.section };
        let frame_len = hlen + idx_at + index.len() as u64 + trailer.len() as u64;
        header.frame_len = frame_len;
        let bytes = header.encode()?;
        if self.stream.is_per_op() {
            self.commit_per_op(&bytes, idx_at, &index, &trailer, frame_len)?;
            self.chunks_len = self.section;
            self.frame_len = frame_len;
            return Ok(());
        }
        self.write_section(idx_at, &index)?;
        self.write_section(idx_at + index.len() as u64, &trailer)?;
        // The record saved the committed header when it started.
        self.cover(u64::MAX)?;
        let s = self.stream.writer()?;
        s.write_at(self.base, &bytes)?;
        let end = self.base + frame_len;
        if self.base == 0 && s.size()? > end {
            s.truncate(end)?;
        }
        if let Some(u) = &mut self.undo {
            u.finish()?;
        }
        self.chunks_len = self.section;
        self.frame_len = frame_len;
        Ok(())
    }

    /// Writes a state through a file opened per operation with the reference's calls: the
    /// chunks written since the last commit and the index in one opening (with the header
    /// first for a new frame), the header in the next, the trailer and the cut to the frame
    /// length in the next, the frame length in the last; an unchanged index and trailer
    /// that stay in place take only the header's. The index goes `idx_at` bytes into the
    /// chunk section.
    fn commit_per_op(
        &mut self,
        header: &[u8],
        idx_at: u64,
        index: &[u8],
        trailer: &[u8],
        len: u64,
    ) -> Result<()> {
        let idx_at = self.base + self.header_len + idx_at;
        let new = self.frame_len == 0;
        let (index_changed, trailer_changed) = match &self.last {
            Some((i, t)) => (i.as_slice() != index, t.as_slice() != trailer),
            None => (true, true),
        };
        let index_op = new || self.wrote || index_changed;
        let moved = self.frame_len != len;
        if new {
            let s = self.stream.writer()?;
            s.write_at(self.base, header)?;
            s.write_at(idx_at, index)?;
        } else {
            if index_op {
                self.stream.writer()?.write_at(idx_at, index)?;
                self.stream.close();
            }
            self.stream.writer()?.write_at(self.base, header)?;
        }
        self.stream.close();
        if new || index_op || trailer_changed || moved {
            let s = self.stream.writer()?;
            s.write_at(idx_at + index.len() as u64, trailer)?;
            s.truncate(self.base + len)?;
            self.stream.close();
            let at = self.base + super::header::POS_FRAME_LEN as u64;
            self.stream.writer()?.write_at(at, &len.to_be_bytes())?;
            self.stream.close();
        }
        self.last = Some((index.to_vec(), trailer.to_vec()));
        self.wrote = false;
        Ok(())
    }

    /// Gives up the change in progress: the frame goes back to its committed state.
    pub fn abort(&mut self) {
        if let Some(u) = &mut self.undo {
            // A failed roll-back leaves the record for the next access to apply.
            if let Ok(s) = self.stream.writer() {
                let _ = u.roll_back(s);
            }
        }
        if self.frame_len != 0 {
            self.section = self.chunks_len;
        }
        self.wrote = false;
    }

    /// Lets an in-memory buffer outlive this frame (see [`crate::io::FrameBuffer::set_keep`]).
    pub fn keep_buffer(&mut self, keep: bool) {
        self.stream.set_keep(keep);
    }

    /// Reads the whole committed frame.
    pub fn to_vec(&mut self) -> Result<Vec<u8>> {
        let r = read_vec(self.stream.reader()?, self.base, self.frame_len);
        self.stream.close();
        r
    }
}
