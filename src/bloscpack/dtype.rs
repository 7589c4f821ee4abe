//! numpy dtypes as the containers record them: type strings (`'<f8'`, `'|S6'`), numpy
//! names (`int64`, `float32`, bcolz's spelling) and structured descriptions (the
//! `repr` of `dtype.descr`, a Python list of tuples, as bloscpack stores it).

use super::error::{Error, Result};

/// A Python literal of the kinds a dtype description holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PyLiteral {
    /// A quoted string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A list or a tuple.
    Seq(Vec<PyLiteral>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 32;

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Option<PyLiteral> {
        self.ws();
        match *self.s.get(self.i)? {
            q @ (b'\'' | b'"') => {
                let start = self.i + 1;
                let end = start + self.s.get(start..)?.iter().position(|&c| c == q)?;
                self.i = end + 1;
                Some(PyLiteral::Str(
                    String::from_utf8(self.s[start..end].to_vec()).ok()?,
                ))
            }
            open @ (b'[' | b'(') => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return None;
                }
                let close = if open == b'[' { b']' } else { b')' };
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if *self.s.get(self.i)? == close {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value()?);
                    self.ws();
                    match *self.s.get(self.i)? {
                        b',' => self.i += 1,
                        c if c == close => {}
                        _ => return None,
                    }
                }
                self.depth -= 1;
                Some(PyLiteral::Seq(items))
            }
            c if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                    self.i += 1;
                }
                std::str::from_utf8(&self.s[start..self.i])
                    .ok()?
                    .parse()
                    .ok()
                    .map(PyLiteral::Int)
            }
            _ => None,
        }
    }
}

/// Parses a Python literal made of strings, integers, lists and tuples.
pub fn parse_literal(s: &str) -> Result<PyLiteral> {
    let mut p = Parser {
        s: s.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.value();
    p.ws();
    match v {
        Some(v) if p.i == s.len() => Ok(v),
        _ => Err(Error::format(format!("malformed dtype literal {s:?}"))),
    }
}

/// Item size of a numpy type string or name (`'<f8'`, `'|S6'`, `'<U3'`, `'int64'`,
/// `'float32'`, `'bool'`, `'<M8[ns]'`, ...).
pub fn typestr_itemsize(s: &str) -> Option<usize> {
    let named = match s {
        "bool" | "bool_" | "?" | "b" | "B" => Some(1),
        "int8" | "uint8" => Some(1),
        "int16" | "uint16" | "float16" | "half" => Some(2),
        "int32" | "uint32" | "float32" | "single" => Some(4),
        "int64" | "uint64" | "float64" | "double" | "complex64" | "int" | "float" => Some(8),
        "complex128" | "complex" | "float128" | "longdouble" => Some(16),
        "complex256" | "clongdouble" => Some(32),
        _ => None,
    };
    if named.is_some() {
        return named;
    }
    if let Some(unit) = s
        .strip_prefix("datetime64")
        .or(s.strip_prefix("timedelta64"))
    {
        return (unit.is_empty() || unit.starts_with('[')).then_some(8);
    }
    let body = s.trim_start_matches(['<', '>', '|', '=']);
    let body = body.split('[').next()?;
    let kind = body.chars().next()?;
    let digits = &body[kind.len_utf8()..];
    let n: usize = if digits.is_empty() {
        match kind {
            '?' | 'b' | 'B' => 1,
            _ => return None,
        }
    } else {
        digits.parse().ok()?
    };
    match kind {
        'U' => n.checked_mul(4),
        'b' | 'i' | 'u' | 'f' | 'c' | 'S' | 'a' | 'V' | 'M' | 'm' | '?' => Some(n),
        _ => None,
    }
}

/// Item size of a dtype description: a type string or a list of
/// `(name, dtype[, shape])` fields.
pub fn descr_itemsize(d: &PyLiteral) -> Option<usize> {
    match d {
        PyLiteral::Str(s) => typestr_itemsize(s),
        PyLiteral::Int(_) => None,
        PyLiteral::Seq(fields) => fields.iter().try_fold(0usize, |acc, f| {
            let PyLiteral::Seq(parts) = f else {
                return None;
            };
            let size = descr_itemsize(parts.get(1)?)?;
            let count = match parts.get(2) {
                None => 1,
                Some(PyLiteral::Int(n)) => usize::try_from(*n).ok()?,
                Some(PyLiteral::Seq(dims)) => dims.iter().try_fold(1usize, |a, d| match d {
                    PyLiteral::Int(n) => a.checked_mul(usize::try_from(*n).ok()?),
                    _ => None,
                })?,
                Some(PyLiteral::Str(_)) => return None,
            };
            acc.checked_add(size.checked_mul(count)?)
        }),
    }
}

/// Item size of a dtype as a container stores it: a type string or name, or the `repr`
/// of a type string or of a structured description.
pub fn dtype_itemsize(s: &str) -> Option<usize> {
    let t = s.trim();
    if t.starts_with(['\'', '"', '[', '(']) {
        descr_itemsize(&parse_literal(t).ok()?)
    } else {
        typestr_itemsize(t)
    }
}

/// The dtype without the quotes of its `repr` (`'<f8'` → `<f8`); structured descriptions
/// are returned as they are.
pub fn dtype_display(s: &str) -> String {
    match parse_literal(s.trim()) {
        Ok(PyLiteral::Str(t)) => t,
        _ => s.to_string(),
    }
}

/// Converts an array stored in Fortran order to C order.
pub fn fortran_to_c(data: &[u8], shape: &[usize], itemsize: usize) -> Vec<u8> {
    let n: usize = shape.iter().product();
    let mut out = vec![0u8; data.len()];
    if shape.len() < 2 || n == 0 || itemsize == 0 || data.len() != n * itemsize {
        out.copy_from_slice(data);
        return out;
    }
    // Fortran strides (in items): the first axis varies fastest.
    let mut fstride = vec![1usize; shape.len()];
    for k in 1..shape.len() {
        fstride[k] = fstride[k - 1] * shape[k - 1];
    }
    let last = shape.len() - 1;
    let inner = shape[last];
    let mut idx = vec![0usize; shape.len()];
    let mut dst = 0usize;
    for _ in 0..n / inner {
        let base: usize = (0..last).map(|k| idx[k] * fstride[k]).sum();
        for j in 0..inner {
            let s = (base + j * fstride[last]) * itemsize;
            out[dst..dst + itemsize].copy_from_slice(&data[s..s + itemsize]);
            dst += itemsize;
        }
        for k in (0..last).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}
