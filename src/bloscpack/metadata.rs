//! The optional metadata section: a 32-byte metadata header, the serialised (and maybe
//! zlib-compressed) metadata padded to `max_meta_size`, and its checksum.

use std::io::{Read, Seek};

use serde_json::Value;

use super::checksum::Checksum;
use super::error::{Error, Result};
use super::source::Source;

/// Length of the metadata header.
pub const META_HEADER_LEN: usize = 32;
/// The serialiser name bloscpack writes (JSON, the only one it knows).
pub const MAGIC_JSON: &[u8; 8] = b"JSON\0\0\0\0";
/// Largest expansion of a zlib stream, which bounds the metadata we inflate.
const ZLIB_MAX_RATIO: u64 = 1032;

/// How the metadata bytes are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaCodec {
    /// Stored as serialised (code 0).
    None,
    /// zlib stream (code 1).
    Zlib,
}

impl MetaCodec {
    /// bloscpack's name (`"None"`, `"zlib"`).
    pub fn name(self) -> &'static str {
        match self {
            MetaCodec::None => "None",
            MetaCodec::Zlib => "zlib",
        }
    }
}

/// The metadata header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaHeader {
    /// Serialiser name, NUL-padded (`JSON`).
    pub magic_format: [u8; 8],
    /// Option bits (none defined, 0).
    pub options: u8,
    /// Checksum of the stored metadata bytes.
    pub checksum: Checksum,
    /// Codec of the stored metadata bytes.
    pub codec: MetaCodec,
    /// Codec level.
    pub level: u8,
    /// Size of the serialised metadata.
    pub meta_size: u32,
    /// Room reserved for the stored metadata (for later rewrites).
    pub max_meta_size: u32,
    /// Size of the stored (compressed) metadata.
    pub meta_comp_size: u32,
    /// User codec name (unused, zeros).
    pub user_codec: [u8; 8],
}

/// How to write metadata (bloscpack's `MetadataArgs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaArgs {
    /// Checksum of the stored metadata (default adler32).
    pub checksum: Checksum,
    /// Codec (default zlib; dropped when it does not shrink the metadata).
    pub codec: MetaCodec,
    /// zlib level (default 6).
    pub level: u8,
    /// Room reserved for the metadata; `None` reserves ten times its serialised size.
    pub max_meta_size: Option<u32>,
}

impl Default for MetaArgs {
    fn default() -> Self {
        MetaArgs {
            checksum: Checksum::Adler32,
            codec: MetaCodec::Zlib,
            level: 6,
            max_meta_size: None,
        }
    }
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

impl MetaHeader {
    /// The header's bytes.
    pub fn encode(&self) -> [u8; META_HEADER_LEN] {
        let mut h = [0u8; META_HEADER_LEN];
        h[..8].copy_from_slice(&self.magic_format);
        h[8] = self.options;
        h[9] = self.checksum.code();
        h[10] = self.codec as u8;
        h[11] = self.level;
        h[12..16].copy_from_slice(&self.meta_size.to_le_bytes());
        h[16..20].copy_from_slice(&self.max_meta_size.to_le_bytes());
        h[20..24].copy_from_slice(&self.meta_comp_size.to_le_bytes());
        h[24..32].copy_from_slice(&self.user_codec);
        h
    }

    /// Parses and checks a metadata header.
    pub fn decode(b: &[u8]) -> Result<MetaHeader> {
        let b = b
            .get(..META_HEADER_LEN)
            .ok_or_else(|| Error::format("metadata header truncated"))?;
        let checksum = Checksum::from_code(b[9])
            .ok_or_else(|| Error::format(format!("unknown metadata checksum code {}", b[9])))?;
        let codec = match b[10] {
            0 => MetaCodec::None,
            1 => MetaCodec::Zlib,
            c => return Err(Error::format(format!("unknown metadata codec code {c}"))),
        };
        let mut magic_format = [0u8; 8];
        magic_format.copy_from_slice(&b[..8]);
        let mut user_codec = [0u8; 8];
        user_codec.copy_from_slice(&b[24..32]);
        let h = MetaHeader {
            magic_format,
            options: b[8],
            checksum,
            codec,
            level: b[11],
            meta_size: le_u32(&b[12..16]),
            max_meta_size: le_u32(&b[16..20]),
            meta_comp_size: le_u32(&b[20..24]),
            user_codec,
        };
        if h.level > 9 {
            return Err(Error::format(format!("metadata level {} above 9", h.level)));
        }
        if h.meta_comp_size > h.max_meta_size {
            return Err(Error::format(format!(
                "stored metadata ({} bytes) larger than its reserved room ({})",
                h.meta_comp_size, h.max_meta_size
            )));
        }
        Ok(h)
    }

    /// Bytes of the whole section: header, reserved room and checksum.
    pub fn section_len(&self) -> u64 {
        META_HEADER_LEN as u64 + u64::from(self.max_meta_size) + self.checksum.size() as u64
    }
}

/// JSON as Python's `json.dumps(obj, separators=(',', ':'))` writes it (compact, non-ASCII
/// escaped as `\uXXXX`).
pub fn to_python_json(value: &Value) -> Vec<u8> {
    let s = value.to_string();
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out.into_bytes()
}

/// The metadata section for `value` (header, stored bytes, padding, checksum) and its
/// header.
pub fn encode_section(value: &Value, args: &MetaArgs) -> Result<(Vec<u8>, MetaHeader)> {
    let raw = to_python_json(value);
    let meta_size = u32::try_from(raw.len())
        .map_err(|_| Error::Unsupported("metadata larger than 4 GiB".into()))?;
    let mut codec = args.codec;
    let stored = match codec {
        MetaCodec::Zlib => {
            let mut buf = vec![0u8; raw.len() + raw.len() / 1000 + 64];
            let n = crate::codecs::zlib::compress(&raw, &mut buf, i32::from(args.level));
            if n == 0 || n > raw.len() {
                codec = MetaCodec::None;
                raw.clone()
            } else {
                buf.truncate(n);
                buf
            }
        }
        MetaCodec::None => raw.clone(),
    };
    let max_meta_size = match args.max_meta_size {
        Some(m) => m,
        None => meta_size.saturating_mul(10),
    };
    let comp = stored.len() as u32;
    if comp > max_meta_size {
        return Err(Error::Unsupported(format!(
            "metadata of {comp} bytes exceeds max_meta_size {max_meta_size}"
        )));
    }
    let h = MetaHeader {
        magic_format: *MAGIC_JSON,
        options: 0,
        checksum: args.checksum,
        codec,
        level: args.level,
        meta_size,
        max_meta_size,
        meta_comp_size: comp,
        user_codec: [0; 8],
    };
    let mut out = h.encode().to_vec();
    out.extend_from_slice(&stored);
    out.resize(out.len() + (max_meta_size - comp) as usize, 0);
    out.extend_from_slice(&args.checksum.digest(&stored));
    Ok((out, h))
}

/// Reads the metadata section at the source's position: checks its checksum, inflates and
/// parses it.
pub(crate) fn read_section<R: Read + Seek>(src: &mut Source<R>) -> Result<(MetaHeader, Value)> {
    let h = MetaHeader::decode(&src.take(META_HEADER_LEN as u64, "the metadata header")?)?;
    if h.section_len() - (META_HEADER_LEN as u64) > src.remaining() {
        return Err(Error::format(format!(
            "truncated: the metadata section needs {} bytes, the file has {} left",
            h.section_len() - META_HEADER_LEN as u64,
            src.remaining()
        )));
    }
    let stored = src.take(u64::from(h.meta_comp_size), "the metadata")?;
    let after = src.pos + u64::from(h.max_meta_size - h.meta_comp_size);
    src.seek_to(after, "the metadata checksum")?;
    let digest = src.take(h.checksum.size() as u64, "the metadata checksum")?;
    if h.checksum.digest(&stored) != digest {
        return Err(Error::Checksum(format!("metadata ({})", h.checksum)));
    }
    let raw = match h.codec {
        MetaCodec::None => stored,
        MetaCodec::Zlib => {
            let bound = u64::from(h.meta_comp_size) * ZLIB_MAX_RATIO + 64;
            if u64::from(h.meta_size) > bound {
                return Err(Error::format(format!(
                    "metadata claims {} bytes, more than {} compressed bytes can hold",
                    h.meta_size, h.meta_comp_size
                )));
            }
            let mut out = vec![0u8; h.meta_size as usize];
            match crate::codecs::zlib::decompress(&stored, &mut out) {
                Some(n) if n == out.len() => out,
                _ => return Err(Error::format("the metadata zlib stream is corrupt")),
            }
        }
    };
    if h.magic_format != *MAGIC_JSON {
        return Err(Error::Unsupported(format!(
            "metadata serialiser {:?} (only JSON is known)",
            String::from_utf8_lossy(&h.magic_format).trim_end_matches('\0')
        )));
    }
    let value = serde_json::from_slice(&raw)
        .map_err(|e| Error::format(format!("metadata is not valid JSON: {e}")))?;
    Ok((h, value))
}
