//! Metalayer names as the frame stores them: bytes, not necessarily UTF-8 (the reference
//! keeps them as C strings and opens frames whatever bytes they hold).

use std::fmt;

/// The name of a metalayer or variable-length metalayer, byte for byte as in the frame.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MetaName(Vec<u8>);

impl MetaName {
    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The name as text (`None` when its bytes are not UTF-8).
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the name is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl AsRef<[u8]> for MetaName {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<&str> for MetaName {
    fn from(s: &str) -> MetaName {
        MetaName(s.as_bytes().to_vec())
    }
}

impl From<String> for MetaName {
    fn from(s: String) -> MetaName {
        MetaName(s.into_bytes())
    }
}

impl From<&[u8]> for MetaName {
    fn from(b: &[u8]) -> MetaName {
        MetaName(b.to_vec())
    }
}

impl PartialEq<str> for MetaName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for MetaName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for MetaName {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<[u8]> for MetaName {
    fn eq(&self, other: &[u8]) -> bool {
        self.0 == other
    }
}

/// Shows the name as text, bytes that are not UTF-8 replaced.
impl fmt::Display for MetaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0))
    }
}
