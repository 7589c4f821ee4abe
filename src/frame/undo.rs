//! The undo record of a contiguous frame file: before a change overwrites bytes of the
//! committed frame, the old bytes go to `<file>.b2undo`, and the record is marked done once
//! the new header is written. A process killed in between leaves a live record, and the
//! next open (or access after a change) of the frame writes the old bytes back.
//!
//! The record file is advisory-locked (`flock`) by its writer for the length of a change,
//! so a reader that finds it locked waits for the writer instead of undoing a change in
//! progress. It stays beside the frame while a handle writes to it (creating and removing
//! a file for every change would cost directory updates) and is removed when the last
//! writing handle closes. Layout: magic, change number, old file size, then records of
//! (position, length, bytes, check word), each written before the bytes it saves are
//! touched; a record cut short, or left from an earlier change (another change number),
//! ends the list. A done record has its magic cleared.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::io::Stream;

/// First bytes of a live undo record.
const MAGIC: &[u8; 8] = b"B2UNDO\x00\x02";
/// Length of the record header: magic, change number, old size.
const HEAD: u64 = 24;
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

/// The check word of a saved extent of change `gen`.
fn check_word(pos: u64, len: u64, gen: u64) -> u64 {
    pos ^ len.rotate_left(17) ^ gen.rotate_left(41) ^ CHECK
}

/// A change number unlikely to repeat across processes and changes.
fn new_gen(last: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 40) ^ last.wrapping_add(0x9e37_79b9_7f4a_7c15)
}

/// The change in progress.
struct Active {
    gen: u64,
    /// Bytes of the old file from here on are saved (or lie past its end).
    covered: u64,
    old_size: u64,
    /// Where the next saved extent goes in the record file.
    end: u64,
    saved: Vec<(u64, Vec<u8>)>,
}

/// The undo record of one frame file, as one handle writes it.
pub(crate) struct Undo {
    frame: PathBuf,
    path: PathBuf,
    file: Option<File>,
    gen: u64,
    active: Option<Active>,
}

impl Undo {
    /// The undo record of the frame file `frame` (nothing is created yet).
    pub(crate) fn new(frame: PathBuf) -> Undo {
        let path = undo_path(&frame);
        Undo {
            frame,
            path,
            file: None,
            gen: 0,
            active: None,
        }
    }

    /// Whether a change is in progress.
    pub(crate) fn is_active(&self) -> bool {
        self.active.is_some()
    }

    /// The record file, opened (created when missing) and locked for a change; a live
    /// record left by a writer that died is applied first.
    fn lock_file(&mut self) -> Result<&File> {
        for _ in 0..MAX_WAITS {
            if self.file.as_ref().is_none_or(|f| !linked(f)) {
                let f = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(&self.path)
                    .map_err(|_| Error::FileOpen)?;
                self.file = Some(f);
            }
            let Some(f) = &self.file else {
                return Err(Error::FileOpen);
            };
            f.lock().map_err(|_| Error::Lock)?;
            if !linked(f) {
                let _ = f.unlock();
                continue;
            }
            apply_live(&self.frame, f)?;
            return self.file.as_ref().ok_or(Error::FileOpen);
        }
        Err(Error::Lock)
    }

    /// Starts the record of a change to `stream` (the frame file), saving the
    /// `header_len` bytes at `base` first.
    pub(crate) fn start(
        &mut self,
        stream: &mut dyn Stream,
        base: u64,
        header_len: u64,
    ) -> Result<()> {
        self.gen = new_gen(self.gen);
        let gen = self.gen;
        let old_size = stream.size()?;
        let f = self.lock_file()?;
        let mut head = MAGIC.to_vec();
        head.extend_from_slice(&gen.to_le_bytes());
        head.extend_from_slice(&old_size.to_le_bytes());
        if f.write_all_at(&head, 0).is_err() {
            let _ = f.unlock();
            return Err(Error::FileWrite);
        }
        self.active = Some(Active {
            gen,
            covered: old_size,
            old_size,
            end: HEAD,
            saved: Vec::new(),
        });
        if header_len > 0 && base < old_size {
            let len = header_len.min(old_size - base);
            let mut bytes = vec![0u8; len as usize];
            stream.read_at(base, &mut bytes)?;
            self.append(base, bytes)?;
        }
        Ok(())
    }

    /// Saves the old bytes from `pos` on (up to what is already saved) before they are
    /// overwritten.
    pub(crate) fn cover(&mut self, stream: &mut dyn Stream, pos: u64) -> Result<()> {
        let Some(a) = &self.active else {
            return Err(Error::Failure);
        };
        if pos >= a.covered {
            return Ok(());
        }
        let len = usize::try_from(a.covered - pos).map_err(|_| Error::MemoryAlloc)?;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| Error::MemoryAlloc)?;
        bytes.resize(len, 0);
        stream.read_at(pos, &mut bytes)?;
        self.append(pos, bytes)?;
        if let Some(a) = &mut self.active {
            a.covered = pos;
        }
        Ok(())
    }

    fn append(&mut self, pos: u64, bytes: Vec<u8>) -> Result<()> {
        let (Some(a), Some(f)) = (&mut self.active, &self.file) else {
            return Err(Error::Failure);
        };
        let len = bytes.len() as u64;
        let mut rec = Vec::with_capacity(bytes.len() + 24);
        rec.extend_from_slice(&pos.to_le_bytes());
        rec.extend_from_slice(&len.to_le_bytes());
        rec.extend_from_slice(&bytes);
        rec.extend_from_slice(&check_word(pos, len, a.gen).to_le_bytes());
        f.write_all_at(&rec, a.end).map_err(|_| Error::FileWrite)?;
        a.end += rec.len() as u64;
        a.saved.push((pos, bytes));
        Ok(())
    }

    /// The change is committed: marks the record done and unlocks it.
    pub(crate) fn finish(&mut self) -> Result<()> {
        if self.active.take().is_none() {
            return Ok(());
        }
        let Some(f) = &self.file else {
            return Ok(());
        };
        let r = f.write_all_at(&[0u8; 8], 0).map_err(|_| Error::FileWrite);
        let _ = f.unlock();
        r
    }

    /// The change failed: writes the saved bytes back and marks the record done.
    pub(crate) fn roll_back(&mut self, stream: &mut dyn Stream) -> Result<()> {
        let Some(a) = &self.active else {
            return Ok(());
        };
        for (pos, bytes) in a.saved.iter().rev() {
            stream.write_at(*pos, bytes)?;
        }
        if stream.size()? != a.old_size {
            stream.truncate(a.old_size)?;
        }
        self.finish()
    }
}

impl Drop for Undo {
    /// Removes the record file when no change is left in it and no other writer holds it.
    fn drop(&mut self) {
        if let Some(f) = self.file.take() {
            if self.active.is_none() && f.try_lock().is_ok() && linked(&f) {
                let mut head = [0u8; 8];
                let done = f.read_exact_at(&mut head, 0).is_err() || &head != MAGIC;
                if done {
                    let _ = std::fs::remove_file(&self.path);
                }
            }
        }
    }
}

/// Saved extents: position and old bytes.
type Saved<'a> = Vec<(u64, &'a [u8])>;

/// The old size and saved extents of a live undo record; `None` for a done record or none.
fn parse(bytes: &[u8]) -> Option<(u64, Saved<'_>)> {
    let head = bytes.get(..HEAD as usize)?;
    if &head[..8] != MAGIC {
        return None;
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    let gen = word(&head[8..16]);
    let old_size = word(&head[16..24]);
    let mut out = Vec::new();
    let mut at = HEAD as usize;
    while let Some(h) = bytes.get(at..at.checked_add(16)?) {
        let (pos, len) = (word(&h[..8]), word(&h[8..16]));
        let start = at + 16;
        let Some(end) = usize::try_from(len).ok().and_then(|l| start.checked_add(l)) else {
            break;
        };
        let Some(check) = end.checked_add(8).and_then(|e| bytes.get(end..e)) else {
            break;
        };
        if word(check) != check_word(pos, len, gen) {
            break;
        }
        out.push((pos, &bytes[start..end]));
        at = end + 8;
    }
    Some((old_size, out))
}

/// Whether the open record `f` is still the frame's (not removed meanwhile).
fn linked(f: &File) -> bool {
    f.metadata().is_ok_and(|m| m.nlink() > 0)
}

/// With the record `f` locked: writes the saved bytes of a live record (its writer died)
/// back into the frame file `frame` and marks the record done; whether there was one.
fn apply_live(frame: &Path, f: &File) -> Result<bool> {
    let size = f.metadata().map_err(|_| Error::FileRead)?.len();
    let mut head = [0u8; 8];
    if size < HEAD || f.read_exact_at(&mut head, 0).is_err() || &head != MAGIC {
        return Ok(false);
    }
    let n = usize::try_from(size).map_err(|_| Error::MemoryAlloc)?;
    let mut bytes = vec![0u8; n];
    f.read_exact_at(&mut bytes, 0)
        .map_err(|_| Error::FileRead)?;
    if let Some((old_size, saved)) = parse(&bytes) {
        let out = OpenOptions::new()
            .write(true)
            .open(frame)
            .map_err(|_| Error::FileOpen)?;
        for (pos, data) in saved.iter().rev() {
            out.write_all_at(data, *pos).map_err(|_| Error::FileWrite)?;
        }
        out.set_len(old_size).map_err(|_| Error::FileTruncate)?;
    }
    f.write_all_at(&[0u8; 8], 0).map_err(|_| Error::FileWrite)?;
    Ok(true)
}

/// Puts a frame file back in its last committed state when a writer died in the middle of
/// a change (its live undo record is left); waits for a live writer to finish first.
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
        if apply_live(path, &f)? {
            // Handles that still hold the record notice it is gone and make a new one.
            let _ = std::fs::remove_file(&upath);
        }
        return Ok(());
    }
    Err(Error::Lock)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pos: u64, data: &[u8], gen: u64) -> Vec<u8> {
        let mut b = pos.to_le_bytes().to_vec();
        b.extend_from_slice(&(data.len() as u64).to_le_bytes());
        b.extend_from_slice(data);
        b.extend_from_slice(&check_word(pos, data.len() as u64, gen).to_le_bytes());
        b
    }

    #[test]
    fn records_cut_short_or_of_other_changes_end_the_list() {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&7u64.to_le_bytes());
        b.extend_from_slice(&10u64.to_le_bytes());
        b.extend_from_slice(&record(3, b"ab", 7));
        let whole = b.len();
        b.extend_from_slice(&record(5, b"xy", 6));
        let (size, saved) = parse(&b).expect("record");
        assert_eq!(size, 10);
        assert_eq!(saved, vec![(3, &b"ab"[..])]);
        assert_eq!(parse(&b[..whole - 1]).expect("record").1.len(), 0);
        assert!(parse(b"B2UNDO").is_none());
        b[..8].copy_from_slice(&[0; 8]);
        assert!(parse(&b).is_none(), "a done record");
    }
}
