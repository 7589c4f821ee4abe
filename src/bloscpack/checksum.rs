//! The checksums Bloscpack stores after each chunk and after the metadata.

use sha2::Digest;

/// A Bloscpack checksum (its code is the index in this list, as bloscpack numbers them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Checksum {
    /// No checksum (code 0).
    None,
    /// zlib's adler32, 4 bytes little-endian (code 1).
    Adler32,
    /// zlib's crc32, 4 bytes little-endian (code 2).
    Crc32,
    /// MD5 digest (code 3).
    Md5,
    /// SHA-1 digest (code 4).
    Sha1,
    /// SHA-224 digest (code 5).
    Sha224,
    /// SHA-256 digest (code 6).
    Sha256,
    /// SHA-384 digest (code 7).
    Sha384,
    /// SHA-512 digest (code 8).
    Sha512,
}

impl Checksum {
    /// Every checksum, in code order.
    pub const ALL: [Checksum; 9] = [
        Checksum::None,
        Checksum::Adler32,
        Checksum::Crc32,
        Checksum::Md5,
        Checksum::Sha1,
        Checksum::Sha224,
        Checksum::Sha256,
        Checksum::Sha384,
        Checksum::Sha512,
    ];

    /// The checksum stored under `code`.
    pub fn from_code(code: u8) -> Option<Checksum> {
        Checksum::ALL.get(usize::from(code)).copied()
    }

    /// The code stored in the headers.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// bloscpack's name (`"None"`, `"adler32"`, ... `"sha512"`).
    pub fn name(self) -> &'static str {
        match self {
            Checksum::None => "None",
            Checksum::Adler32 => "adler32",
            Checksum::Crc32 => "crc32",
            Checksum::Md5 => "md5",
            Checksum::Sha1 => "sha1",
            Checksum::Sha224 => "sha224",
            Checksum::Sha256 => "sha256",
            Checksum::Sha384 => "sha384",
            Checksum::Sha512 => "sha512",
        }
    }

    /// The checksum of a name (case-insensitive; `"none"` is [`Checksum::None`]).
    pub fn from_name(name: &str) -> Option<Checksum> {
        Checksum::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// Digest length in bytes.
    pub fn size(self) -> usize {
        match self {
            Checksum::None => 0,
            Checksum::Adler32 | Checksum::Crc32 => 4,
            Checksum::Md5 => 16,
            Checksum::Sha1 => 20,
            Checksum::Sha224 => 28,
            Checksum::Sha256 => 32,
            Checksum::Sha384 => 48,
            Checksum::Sha512 => 64,
        }
    }

    /// The digest of `data` as bloscpack stores it.
    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        match self {
            Checksum::None => Vec::new(),
            Checksum::Adler32 => adler2::adler32_slice(data).to_le_bytes().to_vec(),
            Checksum::Crc32 => crc32fast::hash(data).to_le_bytes().to_vec(),
            Checksum::Md5 => md5::Md5::digest(data).to_vec(),
            Checksum::Sha1 => sha1::Sha1::digest(data).to_vec(),
            Checksum::Sha224 => sha2::Sha224::digest(data).to_vec(),
            Checksum::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Checksum::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Checksum::Sha512 => sha2::Sha512::digest(data).to_vec(),
        }
    }
}

impl std::fmt::Display for Checksum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
