//! Where the bytes of a contiguous frame are: a stream kept open (memory, plain files,
//! mapped files), or the file of a user I/O backend, opened for each operation and closed
//! after it as the reference does (a backend sees the same calls from either library).

use std::path::PathBuf;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::io::{Io, OpenMode, Stream};

/// A user I/O file opened per operation.
pub(crate) struct PerOp {
    io: Arc<dyn Io>,
    path: PathBuf,
    /// The stream of the operation in progress and whether it was opened for writing.
    open: Option<(Box<dyn Stream>, bool)>,
    /// Whether the next opening for writing creates the file (a new frame).
    create: bool,
}

/// The bytes of a contiguous frame.
pub(crate) enum Backing {
    /// A stream kept open.
    Held(Box<dyn Stream>),
    /// A file opened per operation.
    PerOp(Box<PerOp>),
}

impl Backing {
    /// The file `path` of backend `io`, opened per operation; `create` for a new frame.
    pub(crate) fn per_op(io: Arc<dyn Io>, path: PathBuf, create: bool) -> Backing {
        Backing::PerOp(Box::new(PerOp {
            io,
            path,
            open: None,
            create,
        }))
    }

    /// Whether the file is opened per operation.
    pub(crate) fn is_per_op(&self) -> bool {
        matches!(self, Backing::PerOp(_))
    }

    /// The stream to read with (the file is opened for reading unless it is open).
    pub(crate) fn reader(&mut self) -> Result<&mut (dyn Stream + 'static)> {
        match self {
            Backing::Held(s) => Ok(s.as_mut()),
            Backing::PerOp(p) => {
                if p.open.is_none() {
                    let mode = if p.create {
                        OpenMode::Create
                    } else {
                        OpenMode::Read
                    };
                    let s = p.io.open(&p.path, mode)?;
                    p.create = false;
                    p.open = Some((s, mode == OpenMode::Create));
                }
                p.open
                    .as_mut()
                    .map(|(s, _)| s.as_mut())
                    .ok_or(Error::FileOpen)
            }
        }
    }

    /// The stream to write with (the file is opened for writing, or created for a new
    /// frame, unless it is open for writing).
    pub(crate) fn writer(&mut self) -> Result<&mut (dyn Stream + 'static)> {
        match self {
            Backing::Held(s) => Ok(s.as_mut()),
            Backing::PerOp(p) => {
                if p.open.as_ref().is_some_and(|(_, w)| !w) {
                    p.open = None;
                }
                if p.open.is_none() {
                    let mode = if p.create {
                        OpenMode::Create
                    } else {
                        OpenMode::ReadWrite
                    };
                    let s = p.io.open(&p.path, mode)?;
                    p.create = false;
                    p.open = Some((s, true));
                }
                p.open
                    .as_mut()
                    .map(|(s, _)| s.as_mut())
                    .ok_or(Error::FileOpen)
            }
        }
    }

    /// Ends the operation: a file opened for it is closed.
    pub(crate) fn close(&mut self) {
        if let Backing::PerOp(p) = self {
            p.open = None;
        }
    }

    /// The whole stream as one slice, for streams in memory.
    pub(crate) fn as_slice(&self) -> Option<&[u8]> {
        match self {
            Backing::Held(s) => s.as_slice(),
            Backing::PerOp(_) => None,
        }
    }

    /// For in-memory streams: whether dropping the stream leaves the buffer alive.
    pub(crate) fn set_keep(&mut self, keep: bool) {
        if let Backing::Held(s) = self {
            s.set_keep(keep);
        }
    }
}
