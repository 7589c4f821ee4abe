//! Opt-in advisory locking of file-backed frames (`blosc2_stdio_params.locking`, or the
//! `BLOSC_LOCKING` environment variable for the default backend): an `flock` on a sidecar
//! file (`<file>.b2lock` for contiguous frames, `<dir>/.b2lock` for sparse ones). Every
//! operation on a locking super-chunk runs under the exclusive lock, opening waits for
//! it, and `blosc2_schunk_lock`/`_unlock` hold it across several operations (re-entrant).

use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use super::types::{blosc2_io, blosc2_stdio_params};
use crate::error::{Error, Result};

/// Lock state of one super-chunk handle.
pub(crate) struct FrameLock {
    file: Option<File>,
    depth: u32,
}

/// The sidecar lock file of the frame at `path`.
pub(crate) fn sidecar(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(".b2lock")
    } else {
        let mut s = path.as_os_str().to_owned();
        s.push(".b2lock");
        PathBuf::from(s)
    }
}

/// Whether the I/O selection `io` asks for locking.
///
/// # Safety
/// `io.params` must be NULL or, for backend 0, a `blosc2_stdio_params`.
pub(crate) unsafe fn wanted(io: &blosc2_io) -> bool {
    if io.id != crate::io::IO_FILESYSTEM {
        return false;
    }
    // SAFETY: forwarded caller guarantee.
    match unsafe { io.params.cast::<blosc2_stdio_params>().as_ref() } {
        Some(p) => p.locking,
        None => std::env::var("BLOSC_LOCKING").is_ok_and(|v| !v.is_empty() && v != "0"),
    }
}

fn flock(f: &File, op: libc::c_int) -> Result<()> {
    // SAFETY: `f` is an open file for the duration of the call.
    if unsafe { libc::flock(f.as_raw_fd(), op) } != 0 {
        return Err(Error::Lock);
    }
    Ok(())
}

impl FrameLock {
    /// No locking.
    pub(crate) fn none() -> FrameLock {
        FrameLock {
            file: None,
            depth: 0,
        }
    }

    /// Locking on the sidecar of the frame at `path` (created when missing).
    pub(crate) fn on(path: &Path) -> Result<FrameLock> {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(sidecar(path))
            .map_err(|_| Error::Lock)?;
        Ok(FrameLock {
            file: Some(f),
            depth: 0,
        })
    }

    /// Takes the lock (or nests once more when already held).
    pub(crate) fn acquire(&mut self) -> Result<()> {
        if let Some(f) = &self.file {
            if self.depth == 0 {
                flock(f, libc::LOCK_EX)?;
            }
            self.depth += 1;
        }
        Ok(())
    }

    /// Releases one level of the lock; `Lock` when it is not held.
    pub(crate) fn release(&mut self) -> Result<()> {
        let Some(f) = &self.file else {
            return Ok(());
        };
        match self.depth {
            0 => Err(Error::Lock),
            1 => {
                self.depth = 0;
                flock(f, libc::LOCK_UN)
            }
            _ => {
                self.depth -= 1;
                Ok(())
            }
        }
    }

    /// Runs `f` under the lock.
    pub(crate) fn bracket<T>(&mut self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.acquire()?;
        let r = f();
        let released = self.release();
        let v = r?;
        released?;
        Ok(v)
    }
}
