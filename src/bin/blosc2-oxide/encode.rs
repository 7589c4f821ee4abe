//! Compressing a byte stream into a container: a frame (file or sparse directory), a b2nd
//! array, a Bloscpack file or a bcolz carray.

use std::fs::File;
use std::io::{BufWriter, Read};
use std::path::Path;

use blosc2::b2nd::{Array, Geometry, Params};
use blosc2::bcolz::{self, CArray};
use blosc2::bloscpack::{self, dtype::dtype_itemsize, Checksum, NumpyMeta, PackOptions};
use blosc2::constants::{BITSHUFFLE, SHUFFLE};
use blosc2::schunk::{Storage, SuperChunk};
use blosc2::CParams;
use serde_json::Value;

use crate::blosc_err;
use crate::progress::Progress;

/// Output containers of `compress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    /// Contiguous frame file (.b2frame).
    B2frame,
    /// Sparse frame directory.
    Sframe,
    /// b2nd array in a frame file (.b2nd); needs --shape for more than one dimension.
    B2nd,
    /// Bloscpack file (.blp).
    Blp,
    /// bcolz carray directory (.bcolz).
    Bcolz,
}

impl OutFormat {
    /// The format an output name implies.
    pub fn from_extension(path: &Path) -> Option<OutFormat> {
        match path.extension()?.to_str()? {
            "b2frame" | "b2f" => Some(OutFormat::B2frame),
            "b2nd" => Some(OutFormat::B2nd),
            "blp" => Some(OutFormat::Blp),
            "bcolz" => Some(OutFormat::Bcolz),
            _ => None,
        }
    }
}

/// Parameters of `compress` (each format fills what is unset with its own defaults).
#[derive(Debug, Clone, Default)]
pub struct EncodeOpts {
    /// Codec code.
    pub codec: Option<u8>,
    /// Compression level.
    pub clevel: Option<u8>,
    /// Filter codes (empty: the format's default).
    pub filters: Option<Vec<u8>>,
    /// Item size.
    pub typesize: Option<usize>,
    /// Uncompressed bytes per chunk.
    pub chunk_size: Option<u64>,
    /// Threads of the chunk engine.
    pub nthreads: i16,
    /// Array shape (b2nd, Bloscpack numpy metadata, bcolz row shape).
    pub shape: Option<Vec<i64>>,
    /// b2nd chunk shape.
    pub chunkshape: Option<Vec<i32>>,
    /// b2nd block shape.
    pub blockshape: Option<Vec<i32>>,
    /// numpy dtype (type string or structured description).
    pub dtype: Option<String>,
    /// Bloscpack chunk checksum.
    pub checksum: Option<Checksum>,
    /// Bloscpack: no offsets table.
    pub no_offsets: bool,
    /// Bloscpack: offset slots reserved for appends.
    pub max_app_chunks: Option<i64>,
    /// Bloscpack: JSON metadata.
    pub meta: Option<Value>,
}

impl EncodeOpts {
    fn itemsize(&self) -> Result<Option<usize>, String> {
        match (&self.dtype, self.typesize) {
            (Some(d), _) => dtype_itemsize(d)
                .map(Some)
                .ok_or_else(|| format!("unknown dtype {d:?}")),
            (None, t) => Ok(t),
        }
    }

    fn shuffle(&self, default: u8) -> u8 {
        match &self.filters {
            None => default,
            Some(f) if f.contains(&BITSHUFFLE) => 2,
            Some(f) if f.contains(&SHUFFLE) => 1,
            Some(_) => 0,
        }
    }

    fn cparams(&self, typesize: usize) -> Result<CParams, String> {
        let mut filters = [0u8; 6];
        match &self.filters {
            None => filters[5] = SHUFFLE,
            Some(f) if f.len() > 6 => return Err("at most 6 filters".into()),
            Some(f) => filters[6 - f.len()..].copy_from_slice(f),
        }
        Ok(CParams {
            compcode: self.codec.unwrap_or(blosc2::constants::BLOSCLZ),
            clevel: self.clevel.unwrap_or(5),
            typesize: i32::try_from(typesize).map_err(|_| "typesize too large")?,
            nthreads: self.nthreads,
            filters,
            ..CParams::default()
        })
    }

    fn chunk_size(&self, default: u64) -> Result<u64, String> {
        match self.chunk_size.unwrap_or(default) {
            0 => Err("the chunk size must be positive".into()),
            c if c > bloscpack::MAX_CHUNK_SIZE as u64 => Err(format!(
                "the chunk size must be at most {}",
                bloscpack::MAX_CHUNK_SIZE
            )),
            c => Ok(c),
        }
    }
}

/// Compresses `len` bytes of `input` into `out`.
pub fn encode(
    input: &mut (dyn Read + Send),
    len: u64,
    out: &Path,
    fmt: OutFormat,
    o: &EncodeOpts,
    bar: &Progress,
) -> Result<(), String> {
    let mut progress = |n: u64| bar.set(n);
    match fmt {
        OutFormat::B2frame | OutFormat::Sframe => {
            let ts = o.itemsize()?.unwrap_or(8);
            let storage = Storage {
                contiguous: fmt == OutFormat::B2frame,
                urlpath: Some(out.to_path_buf()),
                cparams: o.cparams(ts)?,
                ..Storage::default()
            };
            let mut sc = SuperChunk::new(storage).map_err(|e| blosc_err("create", e))?;
            let cs = o.chunk_size(1 << 20)?;
            let mut buf = vec![0u8; cs.min(len.max(1)) as usize];
            let mut done = 0u64;
            while done < len {
                let n = cs.min(len - done) as usize;
                input.read_exact(&mut buf[..n]).map_err(|e| e.to_string())?;
                sc.append_buffer(&buf[..n])
                    .map_err(|e| blosc_err("append", e))?;
                done += n as u64;
                progress(done);
            }
            Ok(())
        }
        OutFormat::B2nd => encode_b2nd(input, len, out, o, &mut progress),
        OutFormat::Blp => {
            let itemsize = o.itemsize()?;
            let mut opts = PackOptions {
                chunk_size: o.chunk_size(1 << 20)?,
                checksum: o.checksum.unwrap_or(Checksum::Adler32),
                offsets: !o.no_offsets,
                max_app_chunks: o.max_app_chunks,
                ..PackOptions::default()
            };
            opts.chunk.codec = o.codec.unwrap_or(opts.chunk.codec);
            opts.chunk.clevel = o.clevel.unwrap_or(opts.chunk.clevel);
            opts.chunk.shuffle = o.shuffle(1);
            let mut meta = o.meta.clone();
            if o.shape.is_some() || o.dtype.is_some() {
                let size = itemsize.ok_or("--shape needs --dtype or --typesize")?;
                let dtype = o.dtype.clone().unwrap_or(format!("|V{size}"));
                let shape = match &o.shape {
                    Some(s) => s.iter().map(|&d| d as usize).collect(),
                    None => vec![(len / size as u64) as usize],
                };
                let np = NumpyMeta::new(&dtype, &shape, false);
                if np.len().and_then(|n| n.checked_mul(size)) != Some(len as usize) {
                    return Err(format!(
                        "{len} bytes do not hold shape {shape:?} of {dtype}"
                    ));
                }
                meta = Some(np.to_metadata());
                opts.chunk_size = (opts.chunk_size / size as u64).max(1) * size as u64;
            }
            opts.chunk.typesize = match itemsize {
                Some(s) => u8::try_from(s).map_err(|_| format!("typesize {s} above 255"))?,
                None => opts.chunk.typesize,
            };
            let f = BufWriter::new(File::create(out).map_err(|e| e.to_string())?);
            let mut w = bloscpack::pack_stream(input, len, f, &opts, meta.as_ref(), &mut progress)
                .map_err(|e| e.to_string())?;
            std::io::Write::flush(&mut w).map_err(|e| e.to_string())
        }
        OutFormat::Bcolz => {
            let size = o.itemsize()?.unwrap_or(1);
            let dtype = o.dtype.clone().unwrap_or(if size == 1 {
                "|u1".to_string()
            } else {
                format!("|V{size}")
            });
            let row_shape: Vec<usize> = match &o.shape {
                Some(s) => s.iter().skip(1).map(|&d| d as usize).collect(),
                None => Vec::new(),
            };
            let atom = size * row_shape.iter().product::<usize>();
            let rows = len / atom.max(1) as u64;
            let cp = bcolz::CParams {
                clevel: o.clevel.unwrap_or(5),
                shuffle: o.shuffle(1),
                cname: blosc2::registry::codec_name(i32::from(o.codec.unwrap_or(1)))
                    .unwrap_or("lz4")
                    .to_string(),
                quantize: 0,
            };
            let chunklen = o.chunk_size.map(|c| (c as usize / atom.max(1)).max(1));
            let mut a = CArray::create(out, &dtype, &row_shape, &cp, chunklen, rows)
                .map_err(|e| e.to_string())?;
            a.append_from(input, len, &mut progress)
                .map_err(|e| e.to_string())
        }
    }
}

fn encode_b2nd(
    input: &mut dyn Read,
    len: u64,
    out: &Path,
    o: &EncodeOpts,
    progress: &mut dyn FnMut(u64),
) -> Result<(), String> {
    let ts = o.itemsize()?.unwrap_or(1);
    let shape = o
        .shape
        .clone()
        .unwrap_or_else(|| vec![(len / ts as u64) as i64]);
    let nitems = shape.iter().try_fold(1i64, |a, &d| a.checked_mul(d));
    if nitems.and_then(|n| n.checked_mul(ts as i64)) != Some(len as i64) {
        return Err(format!(
            "{len} bytes do not hold shape {shape:?} of {ts}-byte items"
        ));
    }
    let row_items: i64 = shape.iter().skip(1).product::<i64>().max(1);
    let row_bytes = row_items * ts as i64;
    let cs = o.chunk_size(1 << 20)? as i64;
    let chunkshape = o.chunkshape.clone().unwrap_or_else(|| {
        let mut c: Vec<i32> = shape
            .iter()
            .map(|&d| d.clamp(1, i32::MAX as i64) as i32)
            .collect();
        if let Some(first) = c.first_mut() {
            *first = (cs / row_bytes).clamp(1, shape[0].max(1)) as i32;
        }
        c
    });
    let blockshape = o.blockshape.clone().unwrap_or_else(|| {
        let mut b = chunkshape.clone();
        if let Some(first) = b.first_mut() {
            *first = ((32 * 1024) / row_bytes).clamp(1, i64::from(*first)) as i32;
        }
        b
    });
    let geometry =
        Geometry::new(&shape, &chunkshape, &blockshape).map_err(|e| blosc_err("b2nd shapes", e))?;
    let storage = Storage {
        contiguous: true,
        urlpath: Some(out.to_path_buf()),
        cparams: o.cparams(ts)?,
        ..Storage::default()
    };
    let mut params = Params::new(storage, geometry);
    if let Some(d) = &o.dtype {
        params.dtype = Some(bloscpack::dtype::dtype_display(d));
    }
    let mut a = Array::uninit(&params).map_err(|e| blosc_err("b2nd create", e))?;
    if shape.is_empty() || shape.contains(&0) {
        let mut buf = vec![0u8; len as usize];
        input.read_exact(&mut buf).map_err(|e| e.to_string())?;
        if !buf.is_empty() {
            a.set_buffer(&buf).map_err(|e| blosc_err("b2nd", e))?;
        }
        return Ok(());
    }
    let band = i64::from(chunkshape[0]).max(1);
    let mut r0 = 0;
    let mut done = 0u64;
    while r0 < shape[0] {
        let r1 = (r0 + band).min(shape[0]);
        let mut start = vec![0i64; shape.len()];
        start[0] = r0;
        let mut stop = shape.clone();
        stop[0] = r1;
        let bufshape: Vec<i64> = start.iter().zip(&stop).map(|(s, e)| e - s).collect();
        let mut buf = vec![0u8; ((r1 - r0) * row_bytes) as usize];
        input.read_exact(&mut buf).map_err(|e| e.to_string())?;
        a.set_slice_buffer(&start, &stop, &buf, &bufshape)
            .map_err(|e| blosc_err("b2nd write", e))?;
        done += buf.len() as u64;
        progress(done);
        r0 = r1;
    }
    Ok(())
}
