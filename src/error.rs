//! Error codes shared by the Rust API and the C API (`BLOSC2_ERROR_*`).

use std::fmt;

/// A failure, carrying the reference library's negative error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Error {
    /// Generic failure (-1).
    Failure = -1,
    /// Bad stream (-2).
    Stream = -2,
    /// Invalid data (-3).
    Data = -3,
    /// Memory allocation failure (-4).
    MemoryAlloc = -4,
    /// Not enough space to read (-5).
    ReadBuffer = -5,
    /// Not enough space to write (-6).
    WriteBuffer = -6,
    /// Codec not supported (-7).
    CodecSupport = -7,
    /// Invalid parameter supplied to codec (-8).
    CodecParam = -8,
    /// Codec dictionary error (-9).
    CodecDict = -9,
    /// Version not supported (-10).
    VersionSupport = -10,
    /// Invalid value in header (-11).
    InvalidHeader = -11,
    /// Invalid parameter supplied to function (-12).
    InvalidParam = -12,
    /// File read failure (-13).
    FileRead = -13,
    /// File write failure (-14).
    FileWrite = -14,
    /// File open failure (-15).
    FileOpen = -15,
    /// Not found (-16).
    NotFound = -16,
    /// Bad run length encoding (-17).
    RunLength = -17,
    /// Filter pipeline error (-18).
    FilterPipeline = -18,
    /// Chunk insert failure (-19).
    ChunkInsert = -19,
    /// Chunk append failure (-20).
    ChunkAppend = -20,
    /// Chunk update failure (-21).
    ChunkUpdate = -21,
    /// Sizes larger than 2gb not supported (-22).
    TwoGbLimit = -22,
    /// Super-chunk copy failure (-23).
    SchunkCopy = -23,
    /// Wrong type for frame (-24).
    FrameType = -24,
    /// File truncate failure (-25).
    FileTruncate = -25,
    /// Thread or thread context creation failure (-26).
    ThreadCreate = -26,
    /// Postfilter failure (-27).
    Postfilter = -27,
    /// Special frame failure (-28).
    FrameSpecial = -28,
    /// Special super-chunk failure (-29).
    SchunkSpecial = -29,
    /// IO plugin error (-30).
    PluginIo = -30,
    /// Remove file failure (-31).
    FileRemove = -31,
    /// Pointer is null (-32).
    NullPointer = -32,
    /// Invalid index (-33).
    InvalidIndex = -33,
    /// Metalayer has not been found (-34).
    MetalayerNotFound = -34,
    /// Maximum buffersize exceeded (-35).
    MaxBufsizeExceeded = -35,
    /// Tuner failure (-36).
    Tuner = -36,
    /// Frame lock failure (-37).
    Lock = -37,
}

/// Result type of the safe core.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The negative C error code.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The error for a negative C error code, if it is one of the known codes.
    pub fn from_code(code: i32) -> Option<Error> {
        ALL.iter().copied().find(|e| e.code() == code)
    }

    /// The message `blosc2_error_string` gives for this error.
    pub fn message(self) -> &'static str {
        match self {
            Error::Failure => "Generic failure",
            Error::Stream => "Bad stream",
            Error::Data => "Invalid data",
            Error::MemoryAlloc => "Memory alloc/realloc failure",
            Error::ReadBuffer => "Not enough space to read",
            Error::WriteBuffer => "Not enough space to write",
            Error::CodecSupport => "Codec not supported",
            Error::CodecParam => "Invalid parameter supplied to codec",
            Error::CodecDict => "Codec dictionary error",
            Error::VersionSupport => "Version not supported",
            Error::InvalidHeader => "Invalid value in header",
            Error::InvalidParam => "Invalid parameter supplied to function",
            Error::FileRead => "File read failure",
            Error::FileWrite => "File write failure",
            Error::FileOpen => "File open failure",
            Error::NotFound => "Not found",
            Error::RunLength => "Bad run length encoding",
            Error::FilterPipeline => "Filter pipeline error",
            Error::ChunkInsert => "Chunk insert failure",
            Error::ChunkAppend => "Chunk append failure",
            Error::ChunkUpdate => "Chunk update failure",
            Error::TwoGbLimit => "Sizes larger than 2gb not supported",
            Error::SchunkCopy => "Super-chunk copy failure",
            Error::FrameType => "Wrong type for frame",
            Error::FileTruncate => "File truncate failure",
            Error::ThreadCreate => "Thread or thread context creation failure",
            Error::Postfilter => "Postfilter failure",
            Error::FrameSpecial => "Special frame failure",
            Error::SchunkSpecial => "Special super-chunk failure",
            Error::PluginIo => "IO plugin error",
            Error::FileRemove => "Remove file failure",
            Error::NullPointer => "Pointer is null",
            Error::InvalidIndex => "Invalid index",
            Error::MetalayerNotFound => "Metalayer has not been found",
            Error::MaxBufsizeExceeded => "Maximum buffersize exceeded",
            Error::Tuner => "Tuner failure",
            Error::Lock => "Frame lock failure",
        }
    }
}

/// The message for any C error code; "Unknown error" for codes that are not errors.
pub fn error_string(code: i32) -> &'static str {
    Error::from_code(code).map_or("Unknown error", Error::message)
}

const ALL: [Error; 37] = [
    Error::Failure,
    Error::Stream,
    Error::Data,
    Error::MemoryAlloc,
    Error::ReadBuffer,
    Error::WriteBuffer,
    Error::CodecSupport,
    Error::CodecParam,
    Error::CodecDict,
    Error::VersionSupport,
    Error::InvalidHeader,
    Error::InvalidParam,
    Error::FileRead,
    Error::FileWrite,
    Error::FileOpen,
    Error::NotFound,
    Error::RunLength,
    Error::FilterPipeline,
    Error::ChunkInsert,
    Error::ChunkAppend,
    Error::ChunkUpdate,
    Error::TwoGbLimit,
    Error::SchunkCopy,
    Error::FrameType,
    Error::FileTruncate,
    Error::ThreadCreate,
    Error::Postfilter,
    Error::FrameSpecial,
    Error::SchunkSpecial,
    Error::PluginIo,
    Error::FileRemove,
    Error::NullPointer,
    Error::InvalidIndex,
    Error::MetalayerNotFound,
    Error::MaxBufsizeExceeded,
    Error::Tuner,
    Error::Lock,
];

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message(), self.code())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_messages_match_reference_table() {
        for code in -37..=-1 {
            let e = Error::from_code(code).expect("every code in -37..=-1 is known");
            assert_eq!(e.code(), code);
        }
        assert_eq!(error_string(0), "Unknown error");
        assert_eq!(error_string(-38), "Unknown error");
        assert_eq!(error_string(-11), "Invalid value in header");
        assert_eq!(error_string(-37), "Frame lock failure");
    }
}
