//! The error of the container readers and writers (Bloscpack and bcolz).

use std::fmt;

/// Why reading or writing a container failed.
#[derive(Debug)]
pub enum Error {
    /// The operating system refused a read, write, seek or open.
    Io(std::io::Error),
    /// The bytes are not a valid container: bad magic, a lying header, a truncated file,
    /// inconsistent sizes or malformed metadata.
    Format(String),
    /// A stored checksum does not match the data it covers.
    Checksum(String),
    /// The chunk engine refused a chunk (the Blosc error it returned).
    Codec(crate::Error),
    /// A valid container that uses a feature this library does not implement, or a
    /// request the container cannot satisfy (no room left to append, ...).
    Unsupported(String),
}

/// Result of the container API.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A [`Error::Format`] with this message.
    pub fn format(msg: impl Into<String>) -> Error {
        Error::Format(msg.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "I/O error: {e}"),
            Error::Format(m) => write!(f, "invalid container: {m}"),
            Error::Checksum(m) => write!(f, "checksum mismatch: {m}"),
            Error::Codec(e) => write!(f, "Blosc chunk error {}: {}", e.code(), e.message()),
            Error::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::Format("the file is truncated".into())
        } else {
            Error::Io(e)
        }
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error::Codec(e)
    }
}
