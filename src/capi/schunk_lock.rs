//! The re-entrant, multi-process frame lock of `blosc2_schunk_lock`/`_unlock`: an
//! exclusive `flock` on a sidecar file `<urlpath>.lock`, taken only when the stdio
//! backend parameters ask for locking and the frame lives on disk.

use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::Path;

use crate::error::{Error, Result};

/// Lock state of one super-chunk handle.
pub(crate) struct FrameLock {
    enabled: bool,
    file: Option<File>,
    depth: u32,
}

impl FrameLock {
    /// A lock that is active only when `enabled`.
    pub(crate) fn new(enabled: bool) -> FrameLock {
        FrameLock {
            enabled,
            file: None,
            depth: 0,
        }
    }

    /// Takes the lock (or nests once more when already held).
    pub(crate) fn acquire(&mut self, urlpath: Option<&Path>) -> Result<()> {
        let Some(path) = urlpath.filter(|_| self.enabled) else {
            return Ok(());
        };
        if self.depth > 0 {
            self.depth += 1;
            return Ok(());
        }
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&name)
            .map_err(|_| Error::Lock)?;
        // SAFETY: `f` is an open file descriptor for the duration of the call.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(Error::Lock);
        }
        self.file = Some(f);
        self.depth = 1;
        Ok(())
    }

    /// Releases one level of the lock; `Lock` when it is not held.
    pub(crate) fn release(&mut self) -> Result<()> {
        if !self.enabled {
            return Ok(());
        }
        match self.depth {
            0 => Err(Error::Lock),
            1 => {
                self.depth = 0;
                if let Some(f) = self.file.take() {
                    // SAFETY: `f` is open; closing it below also drops the lock.
                    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_UN) };
                }
                Ok(())
            }
            _ => {
                self.depth -= 1;
                Ok(())
            }
        }
    }
}
