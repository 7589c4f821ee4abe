//! Noticing changes other handles made to a frame file: a handle keeps the file's identity
//! and times and the committed bytes that describe its state (header, index and trailer of
//! a contiguous frame; the whole index file of a sparse one), and compares them before each
//! operation. The file times alone cannot prove that nothing changed (file systems stamp
//! times with a coarse clock, and a sparse index replaced by rename may come back with the
//! same inode number and the same header), so until the last change is older than the
//! clock's granularity the bytes are compared too.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::{Store, SuperChunk};
use crate::frame::header::{FrameHeader, HEADER_MINLEN};
use crate::frame::Frame;
use crate::io::{IO_FILESYSTEM, IO_FILESYSTEM_MMAP};

/// How long after a change file times may fail to show the next one: a few clock ticks on
/// file systems with nanosecond times, more where times are whole seconds.
const TIME_GRANULARITY: Duration = Duration::from_millis(50);
/// The same for file systems that keep whole seconds.
const TIME_GRANULARITY_SECONDS: Duration = Duration::from_secs(2);
/// A full comparison this recent stands (two checks within one call of the C API).
const RECHECK_AFTER: Duration = Duration::from_millis(1);
/// Largest state compared byte for byte (bigger indexes are compared by their times only).
const MAX_COMPARED: u64 = 64 << 20;

/// Inode, size and change/modification times (seconds, nanoseconds) of a file.
type FileMeta = (u64, u64, i64, i64, i64, i64);

/// What a handle knows of the committed state of its frame file.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// Inode, size and times of the file.
    meta: FileMeta,
    /// Whether the last change is older than the clock granularity (the times can be
    /// trusted to show the next change).
    settled: bool,
    /// The bytes describing the state.
    bytes: Vec<u8>,
    /// When the bytes were read.
    checked: std::time::Instant,
}

impl Stamp {
    /// The inode of the file.
    pub(crate) fn inode(&self) -> u64 {
        self.meta.0
    }
}

/// Identity, size and times of the file at `path`, and whether its last change is settled.
fn file_meta(path: &Path) -> Option<(FileMeta, bool)> {
    let m = std::fs::metadata(path).ok()?;
    let meta = (
        m.ino(),
        m.size(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec(),
    );
    let changed = m.modified().ok()?;
    let granularity = if m.mtime_nsec() == 0 {
        TIME_GRANULARITY_SECONDS
    } else {
        TIME_GRANULARITY
    };
    let settled = SystemTime::now()
        .duration_since(changed)
        .is_ok_and(|d| d > granularity);
    Some((meta, settled))
}

/// `len` bytes at `pos` of the file at `path`.
fn read_range(file: &std::fs::File, pos: u64, len: u64) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    if len > MAX_COMPARED {
        return None;
    }
    let mut v = vec![0u8; usize::try_from(len).ok()?];
    file.read_exact_at(&mut v, pos).ok()?;
    Some(v)
}

/// The header, index and trailer of the contiguous frame at `base` of the file at `path`.
fn cframe_state(path: &Path, base: u64) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    let fixed = read_range(&file, base, HEADER_MINLEN as u64)?;
    let (header_len, frame_len) = FrameHeader::lengths(&fixed).ok()?;
    let cbytes = u64::from_be_bytes(fixed.get(39..47)?.try_into().ok()?);
    let mut out = read_range(&file, base, header_len)?;
    let tail_at = header_len.checked_add(cbytes)?;
    let tail_len = frame_len.checked_sub(tail_at)?;
    out.extend_from_slice(&read_range(&file, base.checked_add(tail_at)?, tail_len)?);
    Some(out)
}

impl SuperChunk {
    /// The file that holds the committed state of a frame file on the file system, and
    /// the frame's position in it (`None` for other storage).
    fn state_file(&self) -> Option<(std::path::PathBuf, Option<u64>)> {
        let path = self.storage.urlpath.as_ref()?;
        let on_fs = self
            .storage
            .io
            .as_ref()
            .is_none_or(|io| io.id() == IO_FILESYSTEM || io.id() == IO_FILESYSTEM_MMAP);
        if !on_fs {
            return None;
        }
        match &self.store {
            Store::Frame(Frame::Contiguous(f), _) => Some((path.clone(), Some(f.base()))),
            Store::Frame(Frame::Sparse(_), _) => {
                Some((path.join(crate::frame::sframe::INDEX_FILE), None))
            }
            Store::Memory(_) => None,
        }
    }

    /// The current stamp of the frame file; `None` for other storage or when it cannot be
    /// read.
    pub(crate) fn disk_stamp(&mut self) -> Option<Stamp> {
        let (file, base) = self.state_file()?;
        let (meta, settled) = file_meta(&file)?;
        let bytes = match base {
            Some(base) => cframe_state(&file, base)?,
            None => read_range(&std::fs::File::open(&file).ok()?, 0, meta.1)?,
        };
        Some(Stamp {
            meta,
            settled,
            bytes,
            checked: std::time::Instant::now(),
        })
    }

    /// Re-reads the frame when another handle changed it since this one last saw it;
    /// whether it did.
    pub fn resync(&mut self) -> crate::error::Result<bool> {
        if self.synced {
            return Ok(false);
        }
        let Some(old) = &self.stamp else {
            return Ok(false);
        };
        let Some((file, _)) = self.state_file() else {
            return Ok(false);
        };
        match file_meta(&file) {
            Some((meta, _))
                if meta == old.meta && (old.settled || old.checked.elapsed() < RECHECK_AFTER) =>
            {
                return Ok(false)
            }
            None => return Ok(false),
            _ => {}
        }
        let now = self.disk_stamp();
        match (&now, &self.stamp) {
            (Some(n), Some(o)) if n.bytes == o.bytes && n.meta.0 == o.meta.0 => {
                self.stamp = now;
                return Ok(false);
            }
            (None, _) => return Ok(false),
            _ => {}
        }
        // Changed: by a live writer, or by one that died in the middle of a change (its
        // undo record puts the file back first).
        let plain = self
            .storage
            .io
            .as_ref()
            .is_none_or(|io| io.id() == IO_FILESYSTEM);
        if plain {
            crate::frame::undo::recover(&file)?;
        }
        self.refresh()
    }
}
