//! Chunk operations: append, insert, update, delete, reorder, read and decompress.

use std::borrow::Cow;

use super::{Store, SuperChunk};
use crate::chunk::Header;
use crate::constants::{SPECIAL_NAN, SPECIAL_UNINIT, SPECIAL_ZERO};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::frame::offsets::{self, Slot};
use crate::frame::Frame;
use crate::special::{special_chunk, Special};

/// The validated header of a chunk handed in, and the chunk cut to its own length.
fn checked(chunk: &[u8]) -> Result<(Header, &[u8])> {
    let h = Header::parse(chunk)?;
    if h.is_lazy() || h.nbytes < 0 {
        return Err(Error::InvalidHeader);
    }
    Ok((h, &chunk[..h.cbytes as usize]))
}

/// The uncompressed size a chunk's header claims, rejecting negative sizes.
pub(crate) fn nbytes_of(chunk: &[u8]) -> Result<usize> {
    usize::try_from(Header::parse(chunk)?.nbytes).map_err(|_| Error::InvalidHeader)
}

/// The special kind a chunk header stands for, when the frame can store it as an offset.
pub(super) fn special_kind(h: &Header) -> Option<Special> {
    if !h.is_extended() || h.version < 3 {
        return None;
    }
    match h.special() {
        SPECIAL_ZERO => Some(Special::Zeros),
        SPECIAL_NAN => Some(Special::Nans),
        SPECIAL_UNINIT => Some(Special::Uninit),
        _ => None,
    }
}

/// The error of a chunk operation whose frame could not be written.
fn write_error(e: Error, op: Error) -> Error {
    match e {
        Error::FileWrite | Error::FileTruncate => op,
        other => other,
    }
}

/// Which operation a chunk-size change comes from (for its error code).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Append,
    Insert,
    Update,
}

impl SuperChunk {
    /// Uncompressed size of chunk `n` for special index entries.
    fn special_nbytes(&self, n: usize) -> Result<i32> {
        let cs = self.chunksize;
        if cs <= 0 {
            return Err(Error::Data);
        }
        let nchunks = self.nchunks();
        if n as i64 + 1 == nchunks {
            let rest = self.nbytes - i64::from(cs) * (nchunks - 1);
            if rest <= 0 || rest > i64::from(cs) {
                return Err(Error::Data);
            }
            return Ok(rest as i32);
        }
        Ok(cs)
    }

    /// Chunk `n` as stored (special index entries come back as 32-byte chunks).
    pub fn chunk(&mut self, n: i64) -> Result<Cow<'_, [u8]>> {
        self.resync()?;
        self.stored(n)
    }

    /// Chunk `n` as this handle last saw it (no re-sync with the file).
    pub(crate) fn stored(&mut self, n: i64) -> Result<Cow<'_, [u8]>> {
        self.chunk_with_dctx(n).map(|(c, _)| c)
    }

    /// Chunk `n` together with the decompression context (borrowed side by side, so
    /// in-memory chunks need no copy).
    pub(crate) fn chunk_with_dctx(&mut self, n: i64) -> Result<(Cow<'_, [u8]>, &mut Context)> {
        let idx = usize::try_from(n).map_err(|_| Error::InvalidParam)?;
        if n >= self.nchunks() {
            return Err(Error::InvalidParam);
        }
        // A frame whose chunks hold no data has no index to read them from.
        if self.has_frame() && self.nbytes == 0 {
            return Err(Error::Data);
        }
        self.touched = Some(n);
        let slot = match &self.store {
            Store::Memory(_) => None,
            Store::Frame(_, offs) => Some(offsets::slot(offs[idx])?),
        };
        let special = match slot {
            Some(Slot::Special(kind)) => {
                let nbytes = self.special_nbytes(idx)?;
                let mut out = vec![0u8; 32];
                special_chunk(&self.cparams, kind, nbytes, &mut out)?;
                Some(out)
            }
            _ => None,
        };
        let SuperChunk { store, dctx, .. } = self;
        dctx.set_nchunk(Some(n));
        let chunk = match (special, store, slot) {
            (Some(v), _, _) => Cow::Owned(v),
            (None, Store::Memory(v), _) => Cow::Borrowed(&v[idx][..]),
            (None, Store::Frame(f, _), Some(Slot::Stored(at))) => f.read_chunk(at)?,
            _ => return Err(Error::Failure),
        };
        Ok((chunk, dctx))
    }

    /// Chunk `n` with what decoding its bytes `lo..hi` needs (file-backed contiguous frames
    /// read only those blocks), and the decompression context.
    pub(crate) fn chunk_range_with_dctx(
        &mut self,
        n: i64,
        lo: usize,
        hi: usize,
    ) -> Result<(Cow<'_, [u8]>, &mut Context)> {
        let idx = usize::try_from(n).map_err(|_| Error::InvalidParam)?;
        if n < self.nchunks() {
            self.touched = Some(n);
        }
        let at = match &self.store {
            Store::Frame(Frame::Contiguous(_), offs) if self.storage.urlpath.is_some() => {
                match offs.get(idx).map(|&o| offsets::slot(o)) {
                    Some(Ok(Slot::Stored(at))) => Some(at),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(at) = at else {
            return self.chunk_with_dctx(n);
        };
        let SuperChunk { store, dctx, .. } = self;
        dctx.set_nchunk(Some(n));
        let Store::Frame(Frame::Contiguous(f), _) = store else {
            return Err(Error::Failure);
        };
        Ok((Cow::Owned(f.read_chunk_range(at, lo, hi)?), dctx))
    }

    /// Decompresses chunk `n` into `dest`; returns its uncompressed size.
    pub fn decompress_chunk(&mut self, n: i64, dest: &mut [u8]) -> Result<usize> {
        self.resync()?;
        let in_frame = self.has_frame();
        let (chunk, dctx) = self.chunk_with_dctx(n)?;
        if nbytes_of(&chunk)? > dest.len() {
            return Err(if in_frame {
                Error::WriteBuffer
            } else {
                Error::InvalidParam
            });
        }
        dctx.decompress(&chunk, dest)
    }

    /// Updates the chunk size for a chunk of `nb` bytes placed at position `at`: the first
    /// chunk sets it; a bigger chunk, a chunk after a short one, or a short chunk anywhere
    /// but last makes it variable (0).
    fn fit_chunksize(&mut self, nb: i32, at: i64, op: Op) -> Result<()> {
        let n = self.nchunks();
        let cs = self.chunksize;
        if cs == -1 {
            self.chunksize = nb;
            return Ok(());
        }
        if cs == 0 {
            return Ok(());
        }
        // An emptied super-chunk keeps its chunk size and takes no larger chunk.
        if n == 0 && nb > cs {
            return Err(match op {
                Op::Insert => Error::ChunkInsert,
                _ => Error::ChunkAppend,
            });
        }
        let last_short = self.nbytes != i64::from(cs) * n;
        let keep = match op {
            Op::Append => nb <= cs && !last_short,
            Op::Insert if at == n => nb <= cs && !last_short,
            Op::Insert => nb == cs,
            Op::Update if at + 1 == n => nb <= cs,
            Op::Update => nb == cs,
        };
        if keep {
            return Ok(());
        }
        self.make_variable()
    }

    /// Switches to variable chunk sizes, storing special entries as real chunks first.
    fn make_variable(&mut self) -> Result<()> {
        if let Store::Frame(_, offs) = &self.store {
            let specials: Vec<usize> = offs
                .iter()
                .enumerate()
                .filter(|(_, &o)| o < 0)
                .map(|(i, _)| i)
                .collect();
            for i in specials {
                let chunk = self.stored(i as i64)?.into_owned();
                if let Store::Frame(f, offs) = &mut self.store {
                    offs[i] = f.store_chunk(&chunk)? as i64;
                }
            }
        }
        self.chunksize = 0;
        Ok(())
    }

    /// Stores a chunk and returns its index entry (frames) or buffer (memory).
    fn place(&mut self, h: &Header, chunk: &[u8]) -> Result<(Option<i64>, i64)> {
        let special = special_kind(h).filter(|_| self.chunksize > 0);
        match &mut self.store {
            Store::Memory(_) => Ok((None, i64::from(h.cbytes))),
            Store::Frame(f, offs) => match special {
                Some(kind) => Ok((Some(offsets::special_offset(kind)), 0)),
                None => {
                    if let Frame::Sparse(sf) = f {
                        sf.number_after(offs);
                    }
                    Ok((Some(f.store_chunk(chunk)? as i64), i64::from(h.cbytes)))
                }
            },
        }
    }

    /// For a stored chunk of a contiguous frame: writes its replacement where it lies (a
    /// special replacement removes it), moving the chunks after it and their offsets, as
    /// the reference does; returns the new index entry and stored size. `None` elsewhere.
    fn replace_in_place(
        &mut self,
        at: usize,
        old_len: i64,
        h: &Header,
        chunk: &[u8],
    ) -> Option<Result<(Option<i64>, i64)>> {
        let special = special_kind(h).filter(|_| self.chunksize > 0);
        if let Store::Frame(Frame::Sparse(f), offs) = &mut self.store {
            let old = u64::try_from(offs[at]).ok()?;
            if special.is_some() {
                return None;
            }
            let r = f.overwrite_chunk(old, chunk);
            return Some(r.map(|()| (Some(old as i64), i64::from(h.cbytes))));
        }
        let Store::Frame(Frame::Contiguous(f), offs) = &mut self.store else {
            return None;
        };
        let old = u64::try_from(offs[at]).ok()?;
        let new = special.is_none().then_some(chunk);
        let r = f.replace_chunk(old, old_len as u64, new).map(|delta| {
            for (i, o) in offs.iter_mut().enumerate() {
                if i != at && *o >= 0 && *o as u64 > old {
                    *o += delta;
                }
            }
            match special {
                Some(kind) => (Some(offsets::special_offset(kind)), 0),
                None => (Some(old as i64), i64::from(h.cbytes)),
            }
        });
        Some(r)
    }

    /// The compressed size an index entry accounts for.
    fn stored_cbytes(&mut self, n: usize) -> Result<i64> {
        if let Store::Frame(_, offs) = &self.store {
            if offs[n] < 0 {
                return Ok(0);
            }
        }
        let c = self.stored(n as i64)?;
        Ok(i64::from(Header::parse(&c)?.cbytes))
    }

    /// Refuses to mix chunks with variable-length blocks and regular ones, as the reference.
    fn check_vl_mix(&self, h: &Header, op: Error) -> Result<()> {
        if self.nchunks() > 0 && h.is_vl() != self.vl_blocks {
            return Err(op);
        }
        Ok(())
    }

    /// Whether the chunks have variable-length blocks.
    pub fn has_vl_blocks(&self) -> bool {
        self.vl_blocks
    }

    /// Runs a change; when it fails, the in-memory state goes back to what it was (the
    /// frame on disk still holds the last committed state).
    pub(super) fn transaction<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let offsets = match &self.store {
            Store::Frame(_, o) => Some(o.clone()),
            Store::Memory(_) => None,
        };
        let saved = (self.chunksize, self.nbytes, self.cbytes, self.vl_blocks);
        let r = f(self);
        if r.is_err() {
            if let (Store::Frame(frame, o), Some(old)) = (&mut self.store, offsets) {
                frame.abort();
                *o = old;
            }
            (self.chunksize, self.nbytes, self.cbytes, self.vl_blocks) = saved;
        }
        r
    }

    /// Refuses to add to a frame whose `n` chunks hold no data: its frame has no index (see
    /// `CFrame::commit`), which the reference fails to read back (-3) when it adds one (and
    /// so does [`SuperChunk::chunk_with_dctx`]).
    fn check_frame_has_data(&self, n: i64) -> Result<()> {
        if self.has_frame() && n > 0 && self.nbytes == 0 {
            return Err(Error::Data);
        }
        Ok(())
    }

    /// Appends a compressed chunk; returns the new number of chunks.
    pub fn append_chunk(&mut self, chunk: &[u8]) -> Result<i64> {
        self.resync()?;
        self.transaction(|s| s.append_inner(Cow::Borrowed(chunk)))
    }

    /// Appends `chunk`; an owned one is kept as is by in-memory super-chunks.
    pub(super) fn append_inner(&mut self, chunk: Cow<'_, [u8]>) -> Result<i64> {
        let (h, _) = checked(&chunk)?;
        let len = h.cbytes as usize;
        self.check_vl_mix(&h, Error::ChunkAppend)?;
        let n = self.nchunks();
        self.check_frame_has_data(n)?;
        self.fit_chunksize(h.nbytes, n, Op::Append)?;
        let (entry, cb) = self
            .place(&h, &chunk[..len])
            .map_err(|e| write_error(e, Error::ChunkAppend))?;
        match (&mut self.store, entry) {
            (Store::Memory(v), _) => v.push(match chunk {
                Cow::Owned(mut c) => {
                    c.truncate(len);
                    c
                }
                Cow::Borrowed(b) => b[..len].to_vec(),
            }),
            (Store::Frame(_, offs), Some(e)) => offs.push(e),
            _ => return Err(Error::Failure),
        }
        self.nbytes += i64::from(h.nbytes);
        self.cbytes += cb;
        self.vl_blocks |= h.is_vl();
        self.commit()
            .map_err(|e| write_error(e, Error::ChunkAppend))?;
        self.touched = Some(self.nchunks() - 1);
        Ok(self.nchunks())
    }

    /// Inserts a compressed chunk at position `n`; returns the new number of chunks.
    pub fn insert_chunk(&mut self, n: i64, chunk: &[u8]) -> Result<i64> {
        self.resync()?;
        self.transaction(|s| s.insert_inner(n, chunk))
    }

    fn insert_inner(&mut self, n: i64, chunk: &[u8]) -> Result<i64> {
        if n < 0 || n > self.nchunks() {
            return Err(Error::InvalidParam);
        }
        let (h, chunk) = checked(chunk)?;
        self.check_vl_mix(&h, Error::ChunkInsert)?;
        self.check_frame_has_data(self.nchunks())?;
        self.fit_chunksize(h.nbytes, n, Op::Insert)?;
        let (entry, cb) = self
            .place(&h, chunk)
            .map_err(|e| write_error(e, Error::ChunkInsert))?;
        let at = n as usize;
        match (&mut self.store, entry) {
            (Store::Memory(v), _) => v.insert(at, chunk.to_vec()),
            (Store::Frame(_, offs), Some(e)) => offs.insert(at, e),
            _ => return Err(Error::Failure),
        }
        self.nbytes += i64::from(h.nbytes);
        self.cbytes += cb;
        self.vl_blocks |= h.is_vl();
        self.commit()
            .map_err(|e| write_error(e, Error::ChunkInsert))?;
        self.touched = Some(n);
        Ok(self.nchunks())
    }

    /// Replaces chunk `n`; returns the number of chunks.
    pub fn update_chunk(&mut self, n: i64, chunk: &[u8]) -> Result<i64> {
        self.resync()?;
        self.transaction(|s| s.update_inner(n, Cow::Borrowed(chunk)))
    }

    pub(super) fn update_inner(&mut self, n: i64, chunk: Cow<'_, [u8]>) -> Result<i64> {
        if n < 0 || n >= self.nchunks() {
            return Err(Error::InvalidParam);
        }
        let (h, _) = checked(&chunk)?;
        let len = h.cbytes as usize;
        self.check_vl_mix(&h, Error::ChunkUpdate)?;
        let at = n as usize;
        let old_nbytes = nbytes_of(&self.stored(n)?)? as i32;
        let old_cbytes = self.stored_cbytes(at)?;
        self.fit_chunksize(h.nbytes, n, Op::Update)?;
        let in_place = self.replace_in_place(at, old_cbytes, &h, &chunk[..len]);
        let (entry, cb) = match in_place {
            Some(r) => r.map_err(|e| write_error(e, Error::ChunkUpdate))?,
            None => self
                .place(&h, &chunk[..len])
                .map_err(|e| write_error(e, Error::ChunkUpdate))?,
        };
        match (&mut self.store, entry) {
            (Store::Memory(v), _) => {
                v[at] = match chunk {
                    Cow::Owned(mut c) => {
                        c.truncate(len);
                        c
                    }
                    Cow::Borrowed(b) => b[..len].to_vec(),
                }
            }
            (Store::Frame(f, offs), Some(e)) => {
                if offs[at] >= 0 && offs[at] != e && !f.is_contiguous() {
                    f.release(offs[at] as u64);
                }
                offs[at] = e;
                // The reference compresses its index anew on every update.
                f.set_index(offsets::IndexChunk::default());
            }
            _ => return Err(Error::Failure),
        }
        self.nbytes += i64::from(h.nbytes) - i64::from(old_nbytes);
        self.cbytes += cb - old_cbytes;
        self.vl_blocks |= h.is_vl();
        self.commit()
            .map_err(|e| write_error(e, Error::ChunkUpdate))?;
        self.touched = Some(n);
        Ok(self.nchunks())
    }

    /// Removes chunk `n`; returns the new number of chunks.
    pub fn delete_chunk(&mut self, n: i64) -> Result<i64> {
        self.resync()?;
        self.transaction(|s| s.delete_inner(n))
    }

    fn delete_inner(&mut self, n: i64) -> Result<i64> {
        if n < 0 || n >= self.nchunks() {
            return Err(Error::InvalidParam);
        }
        // As in the reference, which cannot read the index of such a frame here either.
        if self.has_frame() && self.nbytes == 0 {
            return Err(Error::Failure);
        }
        let at = n as usize;
        let old_nbytes = nbytes_of(&self.stored(n)?)? as i32;
        let old_cbytes = self.stored_cbytes(at)?;
        let cs = self.chunksize;
        let was_last = n + 1 == self.nchunks();
        match &mut self.store {
            Store::Memory(v) => {
                v.remove(at);
            }
            Store::Frame(f, offs) => {
                if offs[at] >= 0 {
                    f.release(offs[at] as u64);
                }
                offs.remove(at);
            }
        }
        self.nbytes -= i64::from(old_nbytes);
        self.cbytes -= old_cbytes;
        if cs > 0 && old_nbytes != cs && !was_last {
            self.make_variable()?;
        }
        self.commit()?;
        self.touched = Some(n);
        Ok(self.nchunks())
    }

    /// Reorders the chunks: new chunk `i` is old chunk `order[i]` (a permutation).
    pub fn reorder(&mut self, order: &[i64]) -> Result<()> {
        self.resync()?;
        self.transaction(|s| s.reorder_inner(order))
    }

    fn reorder_inner(&mut self, order: &[i64]) -> Result<()> {
        let n = self.nchunks() as usize;
        // The reference refuses to reorder the empty index of a frame.
        if n == 0 && self.has_frame() {
            return Err(Error::Data);
        }
        if order.len() != n {
            return Err(Error::Data);
        }
        let mut seen = vec![false; n];
        for &o in order {
            let i = usize::try_from(o).map_err(|_| Error::Data)?;
            if i >= n || std::mem::replace(&mut seen[i], true) {
                return Err(Error::Data);
            }
        }
        if self.chunksize > 0 && self.nbytes != i64::from(self.chunksize) * n as i64 {
            let last = order.last().copied().unwrap_or(0) as usize;
            if last + 1 != n {
                self.make_variable()?;
            }
        }
        match &mut self.store {
            Store::Memory(v) => {
                let old = std::mem::take(v);
                let mut slots: Vec<Option<Vec<u8>>> = old.into_iter().map(Some).collect();
                *v = order
                    .iter()
                    .map(|&o| slots[o as usize].take().unwrap_or_default())
                    .collect();
            }
            Store::Frame(f, offs) => {
                let old = offs.clone();
                *offs = order.iter().map(|&o| old[o as usize]).collect();
                // The reference compresses its index anew on every reorder.
                f.set_index(offsets::IndexChunk::default());
            }
        }
        self.commit()
    }

    /// Decodes block `nblock` of the VL-block chunk `n`.
    pub fn vlblock(&mut self, n: i64, nblock: i32) -> Result<Vec<u8>> {
        self.resync()?;
        let chunk = self.stored(n)?.into_owned();
        self.dctx.vl_decompress_block(&chunk, nblock)
    }
}
