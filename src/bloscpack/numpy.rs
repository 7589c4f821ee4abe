//! numpy arrays as bloscpack stores them: the array bytes in memory order, with
//! `{"dtype": repr(dtype), "shape": [...], "order": "C"|"F", "container": "numpy"}` as
//! metadata.

use serde_json::{json, Value};

use super::dtype::{dtype_display, dtype_itemsize, fortran_to_c};
use super::error::{Error, Result};

/// The array description of a numpy pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumpyMeta {
    /// The dtype as stored: the `repr` of a type string (`'<f8'`) or of a structured
    /// description (`[('x', '<i4'), ('y', '<f4')]`).
    pub dtype: String,
    /// The shape.
    pub shape: Vec<usize>,
    /// Whether the bytes are in Fortran order.
    pub fortran: bool,
}

impl NumpyMeta {
    /// The description in `metadata`; `None` when the metadata is not a numpy container's.
    pub fn from_metadata(metadata: &Value) -> Option<Result<NumpyMeta>> {
        if metadata.get("container")?.as_str()? != "numpy" {
            return None;
        }
        Some(Self::parse(metadata))
    }

    fn parse(m: &Value) -> Result<NumpyMeta> {
        let bad = |what: &str| Error::format(format!("numpy metadata: bad or missing {what}"));
        let dtype = m
            .get("dtype")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("dtype"))?
            .to_string();
        let shape = m
            .get("shape")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("shape"))?
            .iter()
            .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| bad("shape"))?;
        let fortran = match m.get("order").and_then(Value::as_str) {
            Some("C") => false,
            Some("F") => true,
            _ => return Err(bad("order")),
        };
        Ok(NumpyMeta {
            dtype,
            shape,
            fortran,
        })
    }

    /// A description for a C- or Fortran-ordered array of a type string or structured
    /// description (written as its `repr`, as bloscpack does).
    pub fn new(dtype: &str, shape: &[usize], fortran: bool) -> NumpyMeta {
        let t = dtype.trim();
        let dtype = if t.starts_with(['[', '\'']) {
            t.to_string()
        } else {
            format!("'{t}'")
        };
        NumpyMeta {
            dtype,
            shape: shape.to_vec(),
            fortran,
        }
    }

    /// The metadata value bloscpack writes.
    pub fn to_metadata(&self) -> Value {
        json!({
            "dtype": self.dtype,
            "shape": self.shape,
            "order": if self.fortran { "F" } else { "C" },
            "container": "numpy",
        })
    }

    /// The dtype without the quotes of its `repr`.
    pub fn dtype_str(&self) -> String {
        dtype_display(&self.dtype)
    }

    /// Number of elements.
    pub fn len(&self) -> Option<usize> {
        self.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Item size in bytes, from the dtype.
    pub fn itemsize(&self) -> Result<usize> {
        dtype_itemsize(&self.dtype)
            .filter(|&s| s > 0)
            .ok_or_else(|| Error::Unsupported(format!("dtype {}", self.dtype)))
    }

    /// The array bytes in C order, given the bytes as stored.
    pub fn to_c_order(&self, data: &[u8]) -> Result<Vec<u8>> {
        let n = self.len().ok_or_else(|| Error::format("shape overflows"))?;
        let itemsize = if n == 0 {
            self.itemsize()?
        } else if data.len().is_multiple_of(n) {
            data.len() / n
        } else {
            0
        };
        if itemsize == 0 || n.checked_mul(itemsize) != Some(data.len()) {
            return Err(Error::format(format!(
                "{} bytes do not hold an array of shape {:?}",
                data.len(),
                self.shape
            )));
        }
        Ok(if self.fortran {
            fortran_to_c(data, &self.shape, itemsize)
        } else {
            data.to_vec()
        })
    }
}
