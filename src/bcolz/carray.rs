//! bcolz carray directories: `meta/sizes`, `meta/storage`, `__attrs__` and one
//! `data/__N.blp` file per chunk of `chunklen` rows, the last one holding the leftover
//! rows.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::pyjson::{dumps_line, numpy_name, typestr};
use crate::bloscpack::dtype::typestr_itemsize;
use crate::bloscpack::pipeline::{self, Batch, Slot};
use crate::bloscpack::{compress_into, decompress_into, ChunkParams, Error, Result};
use crate::constants::MIN_HEADER_LENGTH;

/// Largest metadata file read (bcolz writes a few hundred bytes).
const MAX_META_FILE: u64 = 1 << 20;
/// Uncompressed bytes decoded or encoded per parallel batch.
const BATCH_BYTES: usize = 32 << 20;
/// Header of a chunk file: `blpk`, format version 1, three reserved bytes, nchunks (1).
const CHUNK_FILE_HEADER: [u8; 16] = *b"blpk\x01\0\0\0\x01\0\0\0\0\0\0\0";

/// Compression parameters of a carray (bcolz's `cparams`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CParams {
    /// Compression level 0..=9 (bcolz default 5).
    pub clevel: u8,
    /// 0 none, 1 byte shuffle (default), 2 bit shuffle.
    pub shuffle: u8,
    /// Codec name (default `lz4`).
    pub cname: String,
    /// Significant digits kept by bcolz's lossy quantization (0: off).
    pub quantize: i64,
}

impl Default for CParams {
    fn default() -> Self {
        CParams {
            clevel: 5,
            shuffle: 1,
            cname: "lz4".into(),
            quantize: 0,
        }
    }
}

/// Reads a small file of a bcolz directory as JSON.
pub(crate) fn read_json(path: &Path) -> Result<Value> {
    let f = File::open(path)
        .map_err(|e| Error::format(format!("cannot open {}: {e}", path.display())))?;
    let mut buf = Vec::new();
    f.take(MAX_META_FILE + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > MAX_META_FILE {
        return Err(Error::format(format!("{} is too large", path.display())));
    }
    serde_json::from_slice(&buf)
        .map_err(|e| Error::format(format!("{} is not valid JSON: {e}", path.display())))
}

fn field<'a>(v: &'a Value, key: &str, file: &str) -> Result<&'a Value> {
    v.get(key)
        .ok_or_else(|| Error::format(format!("{file}: missing \"{key}\"")))
}

fn uint(v: &Value, key: &str, file: &str) -> Result<u64> {
    field(v, key, file)?
        .as_u64()
        .ok_or_else(|| Error::format(format!("{file}: \"{key}\" is not a non-negative integer")))
}

/// A carray directory.
#[derive(Debug, Clone)]
pub struct CArray {
    root: PathBuf,
    dtype: String,
    shape: Vec<usize>,
    cparams: CParams,
    chunklen: usize,
    expectedlen: u64,
    dflt: Value,
    attrs: Value,
    atomsize: usize,
    itemsize: usize,
    full_cbytes: u64,
}

impl CArray {
    /// Opens a carray directory, checking its metadata.
    pub fn open(root: &Path) -> Result<CArray> {
        if !root.join("meta").is_dir() || !root.join("data").is_dir() {
            return Err(Error::format(format!(
                "{} is not a bcolz carray (no meta/ and data/ directories)",
                root.display()
            )));
        }
        let sizes = read_json(&root.join("meta/sizes"))?;
        let storage = read_json(&root.join("meta/storage"))?;
        let attrs = match root.join("__attrs__") {
            p if p.exists() => read_json(&p)?,
            _ => json!({}),
        };
        CArray::from_meta(root, &sizes, &storage, attrs)
    }

    /// A carray at `root` described by the parsed `meta/sizes` and `meta/storage` files,
    /// checked for consistency (nothing is read from `root`).
    pub fn from_meta(root: &Path, sizes: &Value, storage: &Value, attrs: Value) -> Result<CArray> {
        let shape = field(sizes, "shape", "meta/sizes")?
            .as_array()
            .filter(|s| !s.is_empty())
            .and_then(|s| {
                s.iter()
                    .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                    .collect::<Option<Vec<usize>>>()
            })
            .ok_or_else(|| Error::format("meta/sizes: bad \"shape\""))?;
        let dtype = field(storage, "dtype", "meta/storage")?
            .as_str()
            .ok_or_else(|| Error::format("meta/storage: \"dtype\" is not a string"))?
            .to_string();
        let cp = field(storage, "cparams", "meta/storage")?;
        let small = |k: &str, max: u64| -> Result<u8> {
            let v = uint(cp, k, "meta/storage cparams")?;
            u8::try_from(v)
                .ok()
                .filter(|&v| u64::from(v) <= max)
                .ok_or_else(|| Error::format(format!("meta/storage: {k} {v} out of range")))
        };
        let cparams = CParams {
            clevel: small("clevel", 9)?,
            shuffle: small("shuffle", 2)?,
            cname: cp
                .get("cname")
                .and_then(Value::as_str)
                .unwrap_or("blosclz")
                .to_string(),
            quantize: cp.get("quantize").and_then(Value::as_i64).unwrap_or(0),
        };
        let chunklen = usize::try_from(uint(storage, "chunklen", "meta/storage")?)
            .ok()
            .filter(|&c| c > 0)
            .ok_or_else(|| Error::format("meta/storage: chunklen must be positive"))?;
        let itemsize = typestr_itemsize(&dtype)
            .filter(|&s| s > 0)
            .ok_or_else(|| Error::Unsupported(format!("bcolz dtype {dtype:?}")))?;
        let atomsize = shape[1..]
            .iter()
            .try_fold(itemsize, |a, &d| a.checked_mul(d))
            .filter(|&a| a > 0)
            .ok_or_else(|| Error::format("meta/sizes: shape gives no row size"))?;
        let chunk_bytes = chunklen
            .checked_mul(atomsize)
            .filter(|&b| b <= crate::bloscpack::MAX_CHUNK_SIZE as usize)
            .ok_or_else(|| Error::format("chunklen × row size exceeds a Blosc chunk"))?;
        let nbytes = (shape[0] as u64).checked_mul(atomsize as u64);
        if nbytes != Some(uint(sizes, "nbytes", "meta/sizes")?) {
            return Err(Error::format(
                "meta/sizes: nbytes does not match shape × row size",
            ));
        }
        let cbytes = sizes.get("cbytes").and_then(Value::as_u64).unwrap_or(0);
        Ok(CArray {
            root: root.to_path_buf(),
            dtype,
            shape,
            cparams,
            chunklen,
            expectedlen: storage
                .get("expectedlen")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            dflt: storage.get("dflt").cloned().unwrap_or(Value::Null),
            attrs,
            atomsize,
            itemsize,
            full_cbytes: cbytes.saturating_sub(chunk_bytes as u64),
        })
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The dtype as bcolz stores it (`int64`, `|S10`, ...).
    pub fn dtype(&self) -> &str {
        &self.dtype
    }

    /// The dtype as a numpy type string (`<i8`, `|S10`, ...).
    pub fn typestr(&self) -> String {
        typestr(&self.dtype)
    }

    /// The shape (rows first).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.shape[0]
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rows per chunk.
    pub fn chunklen(&self) -> usize {
        self.chunklen
    }

    /// Bytes per row.
    pub fn atomsize(&self) -> usize {
        self.atomsize
    }

    /// Bytes per element of the base dtype.
    pub fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// Compression parameters.
    pub fn cparams(&self) -> &CParams {
        &self.cparams
    }

    /// The expected length recorded at creation.
    pub fn expectedlen(&self) -> u64 {
        self.expectedlen
    }

    /// The default value.
    pub fn dflt(&self) -> &Value {
        &self.dflt
    }

    /// User attributes (`__attrs__`).
    pub fn attrs(&self) -> &Value {
        &self.attrs
    }

    /// Uncompressed size.
    pub fn nbytes(&self) -> u64 {
        self.len() as u64 * self.atomsize as u64
    }

    /// Number of full chunks.
    pub fn nchunks(&self) -> usize {
        self.len() / self.chunklen
    }

    /// Rows in the leftover chunk (after the full ones).
    pub fn leftover_rows(&self) -> usize {
        self.len() % self.chunklen
    }

    /// Chunk files in use (full chunks and the leftover one).
    pub fn nfiles(&self) -> usize {
        self.nchunks() + usize::from(self.leftover_rows() > 0)
    }

    fn chunk_path(&self, i: usize) -> PathBuf {
        self.root.join(format!("data/__{i}.blp"))
    }

    fn file_nbytes(&self, i: usize) -> usize {
        if i < self.nchunks() {
            self.chunklen * self.atomsize
        } else {
            self.leftover_rows() * self.atomsize
        }
    }

    /// The compressed Blosc chunk of file `i` (checked against its file).
    pub fn raw_chunk(&self, i: usize) -> Result<Vec<u8>> {
        let mut chunk = Vec::new();
        let n = self.raw_chunk_into(i, &mut chunk)?;
        chunk.truncate(n);
        Ok(chunk)
    }

    /// [`CArray::raw_chunk`] into the start of `buf` (grown when too small, not zeroed
    /// otherwise); returns the chunk length.
    fn raw_chunk_into(&self, i: usize, buf: &mut Vec<u8>) -> Result<usize> {
        let path = self.chunk_path(i);
        let mut f = File::open(&path)
            .map_err(|e| Error::format(format!("missing chunk file {}: {e}", path.display())))?;
        let len = f.metadata()?.len();
        let what = || format!("chunk file {}", path.display());
        let mut head = [0u8; 16 + MIN_HEADER_LENGTH];
        if len < head.len() as u64 {
            return Err(Error::format(format!("{} is truncated", what())));
        }
        f.read_exact(&mut head)?;
        if &head[..4] != b"blpk" || head[4] != 1 {
            return Err(Error::format(format!(
                "{} does not start with a bloscpack version 1 header",
                what()
            )));
        }
        let info = crate::cbuffer::basic_info(&head[16..])
            .map_err(|_| Error::format(format!("{} has an invalid Blosc header", what())))?;
        let cbytes = info.cbytes as usize;
        if cbytes as u64 > len - 16 {
            return Err(Error::format(format!("{} is truncated", what())));
        }
        if buf.len() < cbytes {
            buf.resize(cbytes, 0);
        }
        buf[..MIN_HEADER_LENGTH].copy_from_slice(&head[16..]);
        f.read_exact(&mut buf[MIN_HEADER_LENGTH..cbytes])?;
        Ok(cbytes)
    }

    /// Decodes every row in order into `out`: batches of chunks are decoded on all cores
    /// while the next batch is read and the previous one written; `progress` gets the
    /// bytes written so far. Returns the total.
    pub fn decode_to(
        &self,
        out: &mut (dyn Write + Send),
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64> {
        let n = self.nfiles();
        let per_batch = (BATCH_BYTES / (self.chunklen * self.atomsize).max(1)).max(1);
        let mut next = 0;
        let fill = |b: &mut Batch| -> Result<()> {
            let end = (next + per_batch).min(n);
            for k in next..end {
                let s = b.next_slot();
                s.input_len = self.raw_chunk_into(k, &mut s.input)?;
                s.index = k as i64;
                s.expected = self.file_nbytes(k);
            }
            next = end;
            Ok(())
        };
        let work = |s: &mut Slot| -> Result<()> {
            let mut buf = std::mem::take(&mut s.output);
            let r = decompress_into(s.input(), s.expected, &mut buf);
            s.output_len = buf.len();
            s.output = buf;
            r
        };
        let drain = |b: &Batch| -> Result<u64> {
            let mut n = 0;
            for s in b.filled() {
                out.write_all(s.output())?;
                n += s.output_len as u64;
            }
            Ok(n)
        };
        pipeline::run(fill, work, drain, progress)
    }

    /// Creates an empty carray directory (which must not exist) for rows of
    /// `row_shape` elements of `dtype` (a numpy type string or name). `chunklen` defaults
    /// to bcolz's choice for `expectedlen` rows.
    pub fn create(
        root: &Path,
        dtype: &str,
        row_shape: &[usize],
        cparams: &CParams,
        chunklen: Option<usize>,
        expectedlen: u64,
    ) -> Result<CArray> {
        let name = numpy_name(dtype);
        let itemsize = typestr_itemsize(&name)
            .filter(|&s| s > 0)
            .ok_or_else(|| Error::Unsupported(format!("dtype {dtype:?}")))?;
        if cparams.quantize != 0 {
            return Err(Error::Unsupported("bcolz quantize (lossy) on write".into()));
        }
        codec_code(&cparams.cname)?;
        let atomsize = row_shape
            .iter()
            .try_fold(itemsize, |a, &d| a.checked_mul(d))
            .filter(|&a| a > 0)
            .ok_or_else(|| Error::Unsupported("empty row shape".into()))?;
        let chunklen = chunklen.unwrap_or_else(|| default_chunklen(expectedlen, atomsize));
        if chunklen == 0 {
            return Err(Error::Unsupported("chunklen 0".into()));
        }
        if root.exists() {
            return Err(Error::Unsupported(format!(
                "{} already exists",
                root.display()
            )));
        }
        fs::create_dir_all(root.join("data"))?;
        fs::create_dir_all(root.join("meta"))?;
        let mut shape = vec![0];
        shape.extend_from_slice(row_shape);
        let a = CArray {
            root: root.to_path_buf(),
            dflt: default_value(&name),
            dtype: name,
            shape,
            cparams: cparams.clone(),
            chunklen,
            expectedlen,
            attrs: json!({}),
            atomsize,
            itemsize,
            full_cbytes: 0,
        };
        a.write_storage()?;
        a.write_sizes()?;
        fs::write(root.join("__attrs__"), dumps_line(&a.attrs))?;
        Ok(a)
    }

    fn write_storage(&self) -> Result<()> {
        let storage = json!({
            "dtype": self.dtype,
            "cparams": {
                "clevel": self.cparams.clevel,
                "shuffle": self.cparams.shuffle,
                "cname": self.cparams.cname,
                "quantize": self.cparams.quantize,
            },
            "chunklen": self.chunklen,
            "expectedlen": self.expectedlen,
            "dflt": self.dflt,
        });
        fs::write(self.root.join("meta/storage"), dumps_line(&storage))?;
        Ok(())
    }

    fn write_sizes(&self) -> Result<()> {
        let sizes = json!({
            "shape": self.shape,
            "nbytes": self.nbytes(),
            "cbytes": self.full_cbytes + (self.chunklen * self.atomsize) as u64,
        });
        fs::write(self.root.join("meta/sizes"), dumps_line(&sizes))?;
        Ok(())
    }

    /// Replaces the user attributes.
    pub fn set_attrs(&mut self, attrs: Value) -> Result<()> {
        fs::write(self.root.join("__attrs__"), dumps_line(&attrs))?;
        self.attrs = attrs;
        Ok(())
    }

    fn chunk_params(&self) -> Result<ChunkParams> {
        let kind = self
            .typestr()
            .trim_start_matches(['<', '>', '|', '='])
            .chars()
            .next();
        let typesize = match kind {
            Some('S') => 1,
            Some('U') => 4,
            Some('V') if self.itemsize > 255 => 1,
            _ => self.itemsize,
        };
        Ok(ChunkParams {
            codec: codec_code(&self.cparams.cname)?,
            clevel: self.cparams.clevel,
            shuffle: self.cparams.shuffle,
            typesize: u8::try_from(typesize)
                .map_err(|_| Error::Unsupported(format!("typesize {typesize} above 255")))?,
        })
    }

    fn write_chunk_file(&self, i: usize, chunk: &[u8]) -> Result<()> {
        let mut f = File::create(self.chunk_path(i))?;
        f.write_all(&CHUNK_FILE_HEADER)?;
        f.write_all(chunk)?;
        Ok(())
    }

    /// Appends `len` bytes of whole rows read from `input` (as bcolz's `append` followed
    /// by `flush`): the leftover chunk is filled, full chunks are compressed on all cores
    /// while the next ones are read and the previous ones written, and the new leftover
    /// rows go to the last file.
    pub fn append_from(
        &mut self,
        input: &mut (dyn Read + Send),
        len: u64,
        progress: &mut dyn FnMut(u64),
    ) -> Result<()> {
        if !len.is_multiple_of(self.atomsize as u64) {
            return Err(Error::Unsupported(format!(
                "{len} bytes are not whole rows of {} bytes",
                self.atomsize
            )));
        }
        let params = self.chunk_params()?;
        let chunk_bytes = self.chunklen * self.atomsize;
        if chunk_bytes == 0 {
            return Err(Error::Unsupported("rows of zero bytes".into()));
        }
        let mut pending = if self.leftover_rows() > 0 {
            let raw = self.raw_chunk(self.nchunks())?;
            crate::bloscpack::decompress_chunk(&raw, self.file_nbytes(self.nchunks()))?
        } else {
            Vec::new()
        };
        let old_pending = pending.len() as u64;
        let mut left = len;
        let per_batch = (BATCH_BYTES / chunk_bytes).max(1);
        let first = self.nchunks();
        let mut next = first;
        let fill = |b: &mut Batch| -> Result<()> {
            while b.used < per_batch && pending.len() as u64 + left >= chunk_bytes as u64 {
                let s = b.next_slot();
                let buf = s.input_mut(chunk_bytes);
                let p = pending.len();
                buf[..p].copy_from_slice(&pending);
                pending.clear();
                input.read_exact(&mut buf[p..])?;
                left -= (chunk_bytes - p) as u64;
                s.index = next as i64;
                next += 1;
            }
            Ok(())
        };
        let work = |s: &mut Slot| -> Result<()> {
            let mut out = std::mem::take(&mut s.output);
            let r = compress_into(s.input(), &params, &mut out);
            s.output = out;
            s.output_len = r?;
            Ok(())
        };
        let mut written = 0u64;
        let mut full_cbytes = self.full_cbytes;
        let this = &*self;
        let drain = |b: &Batch| -> Result<u64> {
            for s in b.filled() {
                this.write_chunk_file(s.index as usize, s.output())?;
                full_cbytes += s.output_len as u64;
                written += chunk_bytes as u64;
            }
            Ok(chunk_bytes as u64 * b.used as u64)
        };
        let mut report = |n: u64| progress(n.saturating_sub(old_pending).min(len));
        pipeline::run(fill, work, drain, &mut report)?;
        let start = pending.len();
        pending.resize(start + left as usize, 0);
        input.read_exact(&mut pending[start..])?;
        progress(len);
        self.full_cbytes = full_cbytes;
        let full = written as usize / chunk_bytes;
        self.shape[0] = (first + full) * self.chunklen + pending.len() / self.atomsize;
        let last = self.chunk_path(self.nchunks());
        if pending.is_empty() {
            if last.exists() {
                fs::remove_file(last)?;
            }
        } else {
            let c = crate::bloscpack::compress_chunk(&pending, &params)?;
            self.write_chunk_file(self.nchunks(), &c)?;
        }
        self.write_sizes()
    }

    /// Appends whole rows from a buffer.
    pub fn append(&mut self, rows: &[u8]) -> Result<()> {
        let mut src = rows;
        self.append_from(&mut src, rows.len() as u64, &mut |_| {})
    }
}

/// The codec code of a bcolz codec name.
fn codec_code(cname: &str) -> Result<u8> {
    crate::registry::codec_code(cname)
        .filter(|&c| c <= crate::constants::ZSTD && c != 3)
        .ok_or_else(|| Error::Unsupported(format!("codec {cname:?}")))
}

/// bcolz's chunk length for `expectedlen` rows of `atomsize` bytes.
pub fn default_chunklen(expectedlen: u64, atomsize: usize) -> usize {
    let mb = (expectedlen as f64 * atomsize as f64 / (1024.0 * 1024.0)).clamp(1e-4, 1e4);
    let zone = mb.log10().trunc();
    let chunksize = 4096usize << (zone as i32 + 6).max(0);
    (chunksize / atomsize).max(1)
}

fn default_value(name: &str) -> Value {
    let body = name.trim_start_matches(['<', '>', '|', '=']);
    match body.chars().next() {
        Some('S' | 'U') => json!(""),
        Some('f') => json!(0.0),
        Some('b') if name == "bool" => json!(false),
        _ => json!(0),
    }
}
