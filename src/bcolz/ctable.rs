//! bcolz ctable directories: `__rootdirs__` (`{"names": [...]}`, the column order),
//! `__attrs__`, and one carray directory per column, named after it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::carray::{read_json, CArray, CParams};
use super::pyjson::dumps_line;
use crate::bloscpack::{Error, Result};

/// A ctable directory.
#[derive(Debug, Clone)]
pub struct CTable {
    root: PathBuf,
    names: Vec<String>,
    attrs: Value,
}

/// Whether a column name is usable as a directory name inside the table.
fn safe_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

impl CTable {
    /// Opens a ctable directory; every column must open as a carray of the same length.
    pub fn open(root: &Path) -> Result<CTable> {
        let dirs = read_json(&root.join("__rootdirs__"))?;
        let names = dirs
            .get("names")
            .and_then(Value::as_array)
            .and_then(|n| {
                n.iter()
                    .map(|s| s.as_str().map(str::to_string))
                    .collect::<Option<Vec<String>>>()
            })
            .ok_or_else(|| Error::format("__rootdirs__: bad \"names\""))?;
        if let Some(bad) = names.iter().find(|n| !safe_name(n)) {
            return Err(Error::format(format!(
                "__rootdirs__: bad column name {bad:?}"
            )));
        }
        let attrs = match root.join("__attrs__") {
            p if p.exists() => read_json(&p)?,
            _ => json!({}),
        };
        let t = CTable {
            root: root.to_path_buf(),
            names,
            attrs,
        };
        let mut len = None;
        for name in &t.names {
            let c = t.column(name)?;
            if *len.get_or_insert(c.len()) != c.len() {
                return Err(Error::format(format!(
                    "column {name:?} has {} rows, the others {}",
                    c.len(),
                    len.unwrap_or(0)
                )));
            }
        }
        Ok(t)
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Column names in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// User attributes.
    pub fn attrs(&self) -> &Value {
        &self.attrs
    }

    /// The carray of a column.
    pub fn column(&self, name: &str) -> Result<CArray> {
        if !self.names.iter().any(|n| n == name) {
            return Err(Error::format(format!("no column {name:?}")));
        }
        CArray::open(&self.root.join(name))
    }

    /// Number of rows (0 without columns).
    pub fn len(&self) -> Result<usize> {
        match self.names.first() {
            Some(n) => Ok(self.column(n)?.len()),
            None => Ok(0),
        }
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Creates an empty ctable directory (which must not exist) with columns of the given
    /// names and dtypes.
    pub fn create(
        root: &Path,
        columns: &[(&str, &str)],
        cparams: &CParams,
        chunklen: Option<usize>,
        expectedlen: u64,
    ) -> Result<CTable> {
        if let Some((bad, _)) = columns.iter().find(|(n, _)| !safe_name(n)) {
            return Err(Error::Unsupported(format!("column name {bad:?}")));
        }
        if root.exists() {
            return Err(Error::Unsupported(format!(
                "{} already exists",
                root.display()
            )));
        }
        fs::create_dir_all(root)?;
        for (name, dtype) in columns {
            CArray::create(&root.join(name), dtype, &[], cparams, chunklen, expectedlen)?;
        }
        let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
        fs::write(
            root.join("__rootdirs__"),
            dumps_line(&json!({ "names": names })),
        )?;
        fs::write(root.join("__attrs__"), dumps_line(&json!({})))?;
        CTable::open(root)
    }

    /// Appends the same number of rows to every column (`columns[i]` holds column i's
    /// bytes).
    pub fn append(&mut self, columns: &[&[u8]]) -> Result<()> {
        if columns.len() != self.names.len() {
            return Err(Error::Unsupported(format!(
                "{} columns given for a table of {}",
                columns.len(),
                self.names.len()
            )));
        }
        let mut cols = Vec::new();
        let mut rows = None;
        for (name, data) in self.names.iter().zip(columns) {
            let c = self.column(name)?;
            let n = data.len() / c.atomsize();
            if data.len() % c.atomsize() != 0 || *rows.get_or_insert(n) != n {
                return Err(Error::Unsupported(format!(
                    "column {name:?}: {} bytes are not the same number of whole rows",
                    data.len()
                )));
            }
            cols.push(c);
        }
        for (c, data) in cols.iter_mut().zip(columns) {
            c.append(data)?;
        }
        Ok(())
    }
}
