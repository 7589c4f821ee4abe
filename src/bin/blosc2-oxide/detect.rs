//! What a path holds, from its content (not its name).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use blosc2::bcolz;

/// The containers the tool knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One Blosc1/Blosc2 chunk in a file.
    Chunk,
    /// A contiguous frame file (super-chunk).
    CFrame,
    /// A sparse frame directory.
    SFrame,
    /// A b2nd array (a frame, contiguous or sparse, with the "b2nd" metalayer).
    B2nd,
    /// A Bloscpack file.
    Bloscpack,
    /// A bcolz carray directory.
    BcolzCArray,
    /// A bcolz ctable directory.
    BcolzCTable,
}

impl Format {
    /// Short name used in messages and `info`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Chunk => "chunk",
            Format::CFrame => "cframe",
            Format::SFrame => "sframe",
            Format::B2nd => "b2nd",
            Format::Bloscpack => "bloscpack",
            Format::BcolzCArray => "bcolz-carray",
            Format::BcolzCTable => "bcolz-ctable",
        }
    }
}

fn frame_is_b2nd(path: &Path) -> bool {
    blosc2::schunk::SuperChunk::open(path, 0, None)
        .map(|sc| {
            sc.metalayers()
                .iter()
                .any(|m| m.name == "b2nd" || m.name == "caterva")
        })
        .unwrap_or(false)
}

/// Detects the format of `path`.
pub fn detect(path: &Path) -> Result<Format, String> {
    if path.is_dir() {
        return match bcolz::detect(path) {
            Some(bcolz::Kind::CArray) => Ok(Format::BcolzCArray),
            Some(bcolz::Kind::CTable) => Ok(Format::BcolzCTable),
            None if path.join("chunks.b2frame").is_file() => Ok(if frame_is_b2nd(path) {
                Format::B2nd
            } else {
                Format::SFrame
            }),
            None => Err(format!(
                "{}: a directory that is neither a sparse frame (no chunks.b2frame) nor a \
                 bcolz carray (no meta/storage) or ctable (no __rootdirs__)",
                path.display()
            )),
        };
    }
    let mut head = [0u8; 16];
    let mut f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let n = f
        .read(&mut head)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if n >= 4 && &head[..4] == b"blpk" {
        return Ok(Format::Bloscpack);
    }
    if n >= 10 && &head[2..10] == b"b2frame\0" {
        return Ok(if frame_is_b2nd(path) {
            Format::B2nd
        } else {
            Format::CFrame
        });
    }
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if n == 16 && blosc2::cbuffer::basic_info(&head).is_ok_and(|i| i.cbytes as u64 == len) {
        return Ok(Format::Chunk);
    }
    Err(format!(
        "{}: not a Blosc container (no Bloscpack or frame magic, no valid chunk header)",
        path.display()
    ))
}
