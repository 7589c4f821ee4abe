//! bcolz on-disk containers: carray directories (one compressed column of fixed-size rows,
//! kept in `data/__N.blp` chunk files with JSON metadata in `meta/`) and ctable
//! directories (one carray per column), read and written as bcolz 1.x does.
//!
//! ```
//! use blosc2::bcolz::{CArray, CParams};
//!
//! let dir = std::env::temp_dir().join(format!("bcolz-doc-{}", std::process::id()));
//! let mut a = CArray::create(&dir, "<i8", &[], &CParams::default(), Some(1000), 2500)?;
//! let rows: Vec<u8> = (0..2500i64).flat_map(i64::to_le_bytes).collect();
//! a.append(&rows)?;
//!
//! let b = CArray::open(&dir)?;
//! assert_eq!((b.len(), b.nchunks(), b.leftover_rows()), (2500, 2, 500));
//! let mut out = Vec::new();
//! b.decode_to(&mut out, &mut |_| {})?;
//! assert_eq!(out, rows);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), blosc2::bloscpack::Error>(())
//! ```

mod carray;
mod ctable;
mod pyjson;

#[cfg(test)]
mod tests;

pub use carray::{default_chunklen, CArray, CParams};
pub use ctable::CTable;
pub use pyjson::{dumps_line, numpy_name, typestr};

/// What a directory holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A carray (`meta/storage` present).
    CArray,
    /// A ctable (`__rootdirs__` present).
    CTable,
}

/// Whether `dir` is a bcolz carray or ctable directory.
pub fn detect(dir: &std::path::Path) -> Option<Kind> {
    if dir.join("__rootdirs__").is_file() {
        Some(Kind::CTable)
    } else if dir.join("meta/storage").is_file() {
        Some(Kind::CArray)
    } else {
        None
    }
}
