//! Writing Bloscpack files as bloscpack 0.16 does: header, metadata section, offsets table
//! with its append reserve, then every chunk followed by its checksum.

use std::io::{Read, Seek, SeekFrom, Write};

use serde_json::Value;

use super::checksum::Checksum;
use super::chunk::{compress_into, compress_many, ChunkParams};
use super::error::{Error, Result};
use super::header::{split_in_chunks, Header, FORMAT_VERSION, HEADER_LEN};
use super::metadata::{encode_section, MetaArgs};
use super::pipeline::{self, Batch, Slot};

/// How to write a Bloscpack file (bloscpack's `blosc_args`, `bloscpack_args` and
/// `metadata_args`, with its defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackOptions {
    /// Uncompressed bytes per chunk (default 1 MiB).
    pub chunk_size: u64,
    /// How chunks are compressed.
    pub chunk: ChunkParams,
    /// Checksum after every chunk (default adler32).
    pub checksum: Checksum,
    /// Whether to store the offsets table (default yes).
    pub offsets: bool,
    /// Offset slots reserved for appends; `None` reserves ten per chunk.
    pub max_app_chunks: Option<i64>,
    /// How the metadata is stored.
    pub meta: MetaArgs,
}

impl Default for PackOptions {
    fn default() -> Self {
        PackOptions {
            chunk_size: 1 << 20,
            chunk: ChunkParams::default(),
            checksum: Checksum::Adler32,
            offsets: true,
            max_app_chunks: None,
            meta: MetaArgs::default(),
        }
    }
}

/// A Bloscpack file being written. The total size is fixed up front (the header records
/// the number of chunks); chunks are then given in order.
#[derive(Debug)]
pub struct Writer<W: Write + Seek> {
    out: W,
    header: Header,
    opts: PackOptions,
    offsets_pos: u64,
    offsets: Vec<i64>,
    pos: u64,
}

impl<W: Write + Seek> Writer<W> {
    /// Starts a file for `total_len` bytes of payload at the current position of `out`
    /// (normally 0): writes the header, the metadata section and an empty offsets table.
    pub fn new(
        mut out: W,
        total_len: u64,
        opts: &PackOptions,
        metadata: Option<&Value>,
    ) -> Result<Writer<W>> {
        let (nchunks, chunk_size, last_chunk) = split_in_chunks(total_len, opts.chunk_size)?;
        let max_app_chunks = if opts.offsets {
            opts.max_app_chunks.unwrap_or(10 * nchunks)
        } else {
            0
        };
        let header = Header {
            format_version: FORMAT_VERSION,
            offsets: opts.offsets,
            metadata: metadata.is_some(),
            checksum: opts.checksum,
            typesize: opts.chunk.typesize,
            chunk_size,
            last_chunk,
            nchunks,
            max_app_chunks,
        };
        header.check()?;
        let start = out.stream_position()?;
        out.write_all(&header.encode())?;
        let mut pos = start + HEADER_LEN as u64;
        if let Some(m) = metadata {
            let (section, _) = encode_section(m, &opts.meta)?;
            out.write_all(&section)?;
            pos += section.len() as u64;
        }
        let slots = header.offset_slots();
        write_offsets(&mut out, &vec![-1; slots as usize])?;
        let offsets_pos = pos;
        pos += slots * 8;
        Ok(Writer {
            out,
            header,
            opts: *opts,
            offsets_pos,
            offsets: Vec::new(),
            pos,
        })
    }

    /// The header being written.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Chunks written so far.
    pub fn chunks_written(&self) -> i64 {
        self.offsets.len() as i64
    }

    /// Compresses the next chunks (in parallel) and writes them in order; each part must
    /// have the chunk size the header announces for its position.
    pub fn write_chunks(&mut self, parts: &[&[u8]]) -> Result<()> {
        for (k, p) in parts.iter().enumerate() {
            let i = self.chunks_written() + k as i64;
            if i >= self.header.nchunks {
                return Err(Error::Unsupported(format!(
                    "more chunks than the {} announced",
                    self.header.nchunks
                )));
            }
            let want = self.header.chunk_nbytes(i).unwrap_or(0);
            if p.len() != want {
                return Err(Error::Unsupported(format!(
                    "chunk {i} has {} bytes where {want} are expected",
                    p.len()
                )));
            }
        }
        for c in compress_many(parts, &self.opts.chunk)? {
            self.put(&c)?;
        }
        Ok(())
    }

    /// Writes one compressed chunk and its checksum.
    fn put(&mut self, chunk: &[u8]) -> Result<()> {
        let digest = self.header.checksum.digest(chunk);
        self.put_digested(chunk, &digest)
    }

    /// Writes one compressed chunk and its already computed checksum.
    fn put_digested(&mut self, chunk: &[u8], digest: &[u8]) -> Result<()> {
        self.offsets.push(self.pos as i64);
        self.out.write_all(chunk)?;
        self.out.write_all(digest)?;
        self.pos += (chunk.len() + digest.len()) as u64;
        Ok(())
    }

    /// Fills in the offsets table; fails when fewer chunks were written than announced.
    pub fn finish(mut self) -> Result<W> {
        if self.chunks_written() != self.header.nchunks {
            return Err(Error::Unsupported(format!(
                "{} chunks written, {} announced",
                self.chunks_written(),
                self.header.nchunks
            )));
        }
        if self.header.offsets {
            self.out.seek(SeekFrom::Start(self.offsets_pos))?;
            write_offsets(&mut self.out, &self.offsets)?;
            self.out.seek(SeekFrom::Start(self.pos))?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

pub(crate) fn write_offsets(out: &mut dyn Write, offsets: &[i64]) -> Result<()> {
    let mut buf = Vec::with_capacity(offsets.len() * 8);
    for o in offsets {
        buf.extend_from_slice(&o.to_le_bytes());
    }
    out.write_all(&buf)?;
    Ok(())
}

/// Bytes read and compressed per parallel batch when packing a stream (two batches are
/// in flight).
pub const BATCH_BYTES: u64 = 32 << 20;

/// Packs `len` bytes read from `input` into `out`: batches of chunks are compressed and
/// checksummed on all cores while the next batch is read and the previous one written, so
/// memory stays bounded whatever `len` is; `progress` gets the bytes packed so far.
pub fn pack_stream<W: Write + Seek + Send>(
    input: &mut (dyn Read + Send),
    len: u64,
    out: W,
    opts: &PackOptions,
    metadata: Option<&Value>,
    progress: &mut dyn FnMut(u64),
) -> Result<W> {
    let mut w = Writer::new(out, len, opts, metadata)?;
    let header = w.header;
    let per_batch = (BATCH_BYTES / header.chunk_size.max(1) as u64).max(1) as i64;
    let mut next = 0i64;
    let fill = |b: &mut Batch| -> Result<()> {
        let end = header.nchunks.min(next + per_batch);
        for i in next..end {
            let s = b.next_slot();
            s.index = i;
            let n = header.chunk_nbytes(i).unwrap_or(0);
            input.read_exact(s.input_mut(n))?;
        }
        next = end;
        Ok(())
    };
    let params = opts.chunk;
    let work = |s: &mut Slot| -> Result<()> {
        let mut out = std::mem::take(&mut s.output);
        let r = compress_into(s.input(), &params, &mut out);
        s.output = out;
        s.output_len = r?;
        s.digest = header.checksum.digest(s.output());
        Ok(())
    };
    let drain = |b: &Batch| -> Result<u64> {
        let mut n = 0;
        for s in b.filled() {
            w.put_digested(s.output(), &s.digest)?;
            n += s.input_len as u64;
        }
        Ok(n)
    };
    pipeline::run(fill, work, drain, progress)?;
    w.finish()
}

/// Packs a buffer into a new Bloscpack file image.
pub fn pack_bytes(data: &[u8], opts: &PackOptions, metadata: Option<&Value>) -> Result<Vec<u8>> {
    let out = std::io::Cursor::new(Vec::new());
    let mut src = data;
    let out = pack_stream(
        &mut src,
        data.len() as u64,
        out,
        opts,
        metadata,
        &mut |_| {},
    )?;
    Ok(out.into_inner())
}
