//! The memory-mapped file backend (cframes only): reads are served from the mapping.

use std::fs::{File, OpenOptions};
use std::path::Path;

use memmap2::{Mmap, MmapMut, MmapOptions};

use super::{Io, MemoryStream, OpenMode, Stream};
use crate::error::{Error, Result};

/// How the backend maps files (`blosc2_stdio_mmap.mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MmapMode {
    /// "r": read only.
    Read,
    /// "r+": read and write an existing file.
    ReadWrite,
    /// "w+": create or truncate, then read and write.
    Create,
    /// "c": copy on write; changes stay in memory.
    CopyOnWrite,
}

impl MmapMode {
    /// Parses the C mode string.
    pub fn from_name(s: &str) -> Option<MmapMode> {
        Some(match s {
            "r" => MmapMode::Read,
            "r+" => MmapMode::ReadWrite,
            "w+" => MmapMode::Create,
            "c" => MmapMode::CopyOnWrite,
            _ => return None,
        })
    }
}

/// The memory-mapped backend (`BLOSC2_IO_FILESYSTEM_MMAP`).
#[derive(Debug, Clone, Copy)]
pub struct MmapIo {
    /// Mapping mode; `None` follows the frame's needs (read-only for reads).
    pub mode: Option<MmapMode>,
    /// Size of the first writable mapping.
    pub initial_mapping_size: u64,
}

impl Default for MmapIo {
    fn default() -> Self {
        MmapIo {
            mode: None,
            initial_mapping_size: 1 << 30,
        }
    }
}

enum Map {
    Read(Mmap),
    Write(MmapMut),
}

struct MmapStream {
    file: File,
    map: Option<Map>,
    len: u64,
    writable: bool,
}

impl Io for MmapIo {
    fn id(&self) -> u8 {
        super::IO_FILESYSTEM_MMAP
    }

    fn name(&self) -> &str {
        "filesystem_mmap"
    }

    fn open(&self, path: &Path, mode: OpenMode) -> Result<Box<dyn Stream>> {
        let mode = self.mode.unwrap_or(match mode {
            OpenMode::Read => MmapMode::Read,
            OpenMode::ReadWrite => MmapMode::ReadWrite,
            OpenMode::Create => MmapMode::Create,
        });
        if mode == MmapMode::CopyOnWrite {
            let data = std::fs::read(path).map_err(|_| Error::FileOpen)?;
            return Ok(Box::new(MemoryStream::new(Box::new(data))));
        }
        let writable = mode != MmapMode::Read;
        let mut o = OpenOptions::new();
        o.read(true).write(writable);
        if mode == MmapMode::Create {
            o.create(true).truncate(true);
        }
        let file = o.open(path).map_err(|_| Error::FileOpen)?;
        let len = file.metadata().map_err(|_| Error::FileOpen)?.len();
        let mut s = MmapStream {
            file,
            map: None,
            len,
            writable,
        };
        s.remap(len)?;
        Ok(Box::new(s))
    }
}

impl MmapStream {
    /// Maps the first `size` bytes of the file (which must be at least that long).
    fn remap(&mut self, size: u64) -> Result<()> {
        self.map = None;
        if size == 0 {
            return Ok(());
        }
        let size = usize::try_from(size).map_err(|_| Error::MemoryAlloc)?;
        let opts = {
            let mut o = MmapOptions::new();
            o.len(size);
            o
        };
        self.map = Some(if self.writable {
            // SAFETY: the mapping covers bytes the file holds (its length was checked or
            // set above); other processes changing the file under us can only change the
            // bytes we read, which are validated like any untrusted input.
            Map::Write(unsafe { opts.map_mut(&self.file) }.map_err(|_| Error::FileOpen)?)
        } else {
            // SAFETY: as above, for a read-only mapping.
            Map::Read(unsafe { opts.map(&self.file) }.map_err(|_| Error::FileOpen)?)
        });
        Ok(())
    }

    fn mapped(&self) -> &[u8] {
        match &self.map {
            Some(Map::Read(m)) => m,
            Some(Map::Write(m)) => m,
            None => &[],
        }
    }
}

impl Stream for MmapStream {
    fn size(&mut self) -> Result<u64> {
        Ok(self.len)
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        let start = usize::try_from(pos).map_err(|_| Error::FileRead)?;
        let end = start.checked_add(buf.len()).ok_or(Error::FileRead)?;
        if end as u64 > self.len {
            return Err(Error::FileRead);
        }
        buf.copy_from_slice(self.mapped().get(start..end).ok_or(Error::FileRead)?);
        Ok(())
    }

    fn write_at(&mut self, pos: u64, data: &[u8]) -> Result<()> {
        if !self.writable {
            return Err(Error::FileWrite);
        }
        if data.is_empty() {
            return Ok(());
        }
        let end = pos.checked_add(data.len() as u64).ok_or(Error::FileWrite)?;
        if end > self.len {
            self.truncate(end)?;
        }
        let start = usize::try_from(pos).map_err(|_| Error::FileWrite)?;
        match &mut self.map {
            Some(Map::Write(m)) => {
                m[start..start + data.len()].copy_from_slice(data);
                Ok(())
            }
            _ => Err(Error::FileWrite),
        }
    }

    fn truncate(&mut self, len: u64) -> Result<()> {
        if !self.writable {
            return Err(Error::FileTruncate);
        }
        let old = self.len;
        self.map = None;
        let r = self
            .file
            .set_len(len)
            .map_err(|_| Error::FileTruncate)
            .and_then(|()| {
                self.len = len;
                self.remap(len)
            });
        if r.is_err() {
            // Back to the old length and mapping, so a refused size changes nothing.
            let _ = self.file.set_len(old);
            self.len = old;
            let _ = self.remap(old);
        }
        r
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self.mapped())
    }
}
