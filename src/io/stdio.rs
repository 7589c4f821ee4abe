//! The default backend: plain files with positional reads and writes.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::{Io, OpenMode, Stream};
use crate::error::{Error, Result};

/// The file-system backend (`BLOSC2_IO_FILESYSTEM`).
#[derive(Debug, Clone, Copy, Default)]
pub struct StdioIo;

struct FileStream(File);

impl Io for StdioIo {
    fn id(&self) -> u8 {
        super::IO_FILESYSTEM
    }

    fn name(&self) -> &str {
        "filesystem"
    }

    fn open(&self, path: &Path, mode: OpenMode) -> Result<Box<dyn Stream>> {
        let mut o = OpenOptions::new();
        match mode {
            OpenMode::Read => o.read(true),
            OpenMode::ReadWrite => o.read(true).write(true),
            OpenMode::Create => o.read(true).write(true).create(true).truncate(true),
        };
        let f = o.open(path).map_err(|_| Error::FileOpen)?;
        Ok(Box::new(FileStream(f)))
    }
}

impl Stream for FileStream {
    fn size(&mut self) -> Result<u64> {
        Ok(self.0.metadata().map_err(|_| Error::FileRead)?.len())
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        self.0.read_exact_at(buf, pos).map_err(|_| Error::FileRead)
    }

    fn write_at(&mut self, pos: u64, data: &[u8]) -> Result<()> {
        self.0.write_all_at(data, pos).map_err(|_| Error::FileWrite)
    }

    fn truncate(&mut self, len: u64) -> Result<()> {
        self.0.set_len(len).map_err(|_| Error::FileTruncate)
    }
}
