//! The undo record of a contiguous frame file: before a change overwrites bytes of the
//! committed frame, the old bytes go to `<file>.b2undo`, which is removed once the new
//! header is written. A process killed in between leaves the record behind, and the next
//! open (or access) of the frame writes the old bytes back.
//!
//! The record is an advisory-locked file: its writer holds an exclusive `flock` until it
//! removed it, so a reader that finds the record locked waits for the writer instead of
//! undoing a change in progress. Layout: magic, the old file size, then records of
//! (position, length, bytes, check word), each appended before the bytes it saves are
//! touched; a record cut short by a crash saved bytes that were never overwritten.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::io::Stream;

/// First bytes of an undo record.
const MAGIC: &[u8; 8] = b"B2UNDO\x00\x01";
/// Mixed into each record's check word.
const CHECK: u64 = 0x6232_756e_646f_2121;
/// How many times a reader waits for writers before giving up on recovery.
const MAX_WAITS: usize = 64;

/// The undo record path of the frame file `path`.
pub fn undo_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".b2undo");
    PathBuf::from(s)
}

/// An undo record being written for one change of a frame file.
pub(crate) struct Undo {
    path: PathBuf,
    file: File,
    /// Bytes of the old file from here on are saved (or lie past its end).
    covered: u64,
    old_size: u64,
    saved: Vec<(u64, Vec<u8>)>,
}

impl Undo {
    /// Starts the record of a change to `stream` (the frame file, locked for the writer),
    /// saving the `header_len` bytes at `base` first.
    pub(crate) fn start(
        path: &Path,
        stream: &mut dyn Stream,
        base: u64,
        header_len: u64,
    ) -> Result<Undo> {
        recover(path)?;
        let upath = undo_path(path);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&upath)
            .map_err(|_| Error::FileOpen)?;
        file.lock().map_err(|_| Error::Lock)?;
        file.set_len(0).map_err(|_| Error::FileWrite)?;
        let old_size = stream.size()?;
        let mut head = MAGIC.to_vec();
        head.extend_from_slice(&old_size.to_le_bytes());
        file.write_all_at(&head, 0).map_err(|_| Error::FileWrite)?;
        let mut u = Undo {
            path: upath,
            file,
            covered: old_size,
            old_size,
            saved: Vec::new(),
        };
        if header_len > 0 && base < old_size {
            let len = header_len.min(old_size - base);
            let mut bytes = vec![0u8; len as usize];
            stream.read_at(base, &mut bytes)?;
            u.append(base, bytes)?;
        }
        Ok(u)
    }

    /// Saves the old bytes from `pos` on (up to what is already saved) before they are
    /// overwritten.
    pub(crate) fn cover(&mut self, stream: &mut dyn Stream, pos: u64) -> Result<()> {
        if pos >= self.covered {
            return Ok(());
        }
        let len = usize::try_from(self.covered - pos).map_err(|_| Error::MemoryAlloc)?;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| Error::MemoryAlloc)?;
        bytes.resize(len, 0);
        stream.read_at(pos, &mut bytes)?;
        self.append(pos, bytes)?;
        self.covered = pos;
        Ok(())
    }

    fn append(&mut self, pos: u64, bytes: Vec<u8>) -> Result<()> {
        let len = bytes.len() as u64;
        let mut rec = Vec::with_capacity(bytes.len() + 24);
        rec.extend_from_slice(&pos.to_le_bytes());
        rec.extend_from_slice(&len.to_le_bytes());
        rec.extend_from_slice(&bytes);
        rec.extend_from_slice(&(pos ^ len.rotate_left(17) ^ CHECK).to_le_bytes());
        let at = self.file.metadata().map_err(|_| Error::FileWrite)?.len();
        self.file
            .write_all_at(&rec, at)
            .map_err(|_| Error::FileWrite)?;
        self.saved.push((pos, bytes));
        Ok(())
    }

    /// The change is committed: removes the record (then releases its lock).
    pub(crate) fn finish(self) -> Result<()> {
        std::fs::remove_file(&self.path).map_err(|_| Error::FileWrite)
    }

    /// The change failed: writes the saved bytes back and removes the record.
    pub(crate) fn roll_back(self, stream: &mut dyn Stream) -> Result<()> {
        for (pos, bytes) in self.saved.iter().rev() {
            stream.write_at(*pos, bytes)?;
        }
        if stream.size()? != self.old_size {
            stream.truncate(self.old_size)?;
        }
        self.finish()
    }
}

/// Saved extents: position and old bytes.
type Saved<'a> = Vec<(u64, &'a [u8])>;

/// The saved extents and old size in the bytes of an undo record; `None` when it is not
/// one (records cut short end the list).
fn parse(bytes: &[u8]) -> Option<(u64, Saved<'_>)> {
    let head = bytes.get(..16)?;
    if &head[..8] != MAGIC {
        return None;
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    let old_size = word(&head[8..16]);
    let mut out = Vec::new();
    let mut at = 16usize;
    while let Some(h) = bytes.get(at..at.checked_add(16)?) {
        let (pos, len) = (word(&h[..8]), word(&h[8..16]));
        let start = at + 16;
        let Some(end) = usize::try_from(len).ok().and_then(|l| start.checked_add(l)) else {
            break;
        };
        let Some(check) = end.checked_add(8).and_then(|e| bytes.get(end..e)) else {
            break;
        };
        if word(check) != pos ^ len.rotate_left(17) ^ CHECK {
            break;
        }
        out.push((pos, &bytes[start..end]));
        at = end + 8;
    }
    Some((old_size, out))
}

/// Whether the open record `f` is still the frame's (not removed by a writer meanwhile).
fn linked(f: &File) -> bool {
    f.metadata().is_ok_and(|m| m.nlink() > 0)
}

/// Puts a frame file back in its last committed state when a writer died in the middle of
/// a change (its undo record is left); waits for a live writer to finish first.
pub fn recover(path: &Path) -> Result<()> {
    let upath = undo_path(path);
    for _ in 0..MAX_WAITS {
        let Ok(f) = OpenOptions::new().read(true).write(true).open(&upath) else {
            return Ok(());
        };
        match f.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // A live writer: wait until it is done, then look again.
                f.lock_shared().map_err(|_| Error::Lock)?;
                continue;
            }
            Err(TryLockError::Error(_)) => return Err(Error::Lock),
        }
        if !linked(&f) {
            continue;
        }
        return apply(path, &upath, f);
    }
    Err(Error::Lock)
}

/// Writes the saved bytes of the locked record `f` back into the frame file and removes
/// the record.
fn apply(path: &Path, upath: &Path, mut f: File) -> Result<()> {
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|_| Error::FileRead)?;
    if let Some((old_size, saved)) = parse(&bytes) {
        let mut frame = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|_| Error::FileOpen)?;
        for (pos, data) in saved.iter().rev() {
            frame
                .write_all_at(data, *pos)
                .map_err(|_| Error::FileWrite)?;
        }
        frame.set_len(old_size).map_err(|_| Error::FileTruncate)?;
        frame.flush().map_err(|_| Error::FileWrite)?;
    }
    std::fs::remove_file(upath).map_err(|_| Error::FileRemove)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_cut_short_are_ignored() {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&10u64.to_le_bytes());
        b.extend_from_slice(&3u64.to_le_bytes());
        b.extend_from_slice(&2u64.to_le_bytes());
        b.extend_from_slice(b"ab");
        b.extend_from_slice(&(3 ^ 2u64.rotate_left(17) ^ CHECK).to_le_bytes());
        let whole = b.len();
        b.extend_from_slice(&5u64.to_le_bytes());
        b.extend_from_slice(&4u64.to_le_bytes());
        b.extend_from_slice(b"xy");
        let (size, saved) = parse(&b).expect("record");
        assert_eq!(size, 10);
        assert_eq!(saved, vec![(3, &b"ab"[..])]);
        assert_eq!(parse(&b[..whole]).expect("record").1.len(), 1);
        assert!(parse(b"B2UNDO").is_none());
    }
}
