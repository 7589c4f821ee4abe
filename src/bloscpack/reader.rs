//! Reading Bloscpack files: header, metadata, offsets, then the chunks in order, every
//! checksum and size checked before a chunk is handed out.

use std::io::{Read, Seek, Write};

use rayon::prelude::*;
use serde_json::Value;

use super::checksum::Checksum;

use super::chunk::decompress_into;
use super::error::{Error, Result};
use super::fortran::CBand;
use super::header::{Header, HEADER_LEN};
use super::metadata::{read_section, MetaHeader};
use super::numpy::NumpyMeta;
use super::pipeline::{self, Batch, Slot};
use super::source::Source;
use crate::constants::MIN_HEADER_LENGTH;

/// One compressed chunk of a file, its checksum verified.
#[derive(Debug, Clone)]
pub struct RawChunk {
    /// Chunk number.
    pub index: i64,
    /// Where the chunk starts in the file.
    pub offset: u64,
    /// The Blosc chunk (header included, checksum excluded).
    pub data: Vec<u8>,
    /// Its uncompressed size.
    pub nbytes: usize,
}

/// A Bloscpack file open for reading.
#[derive(Debug)]
pub struct Reader<R> {
    src: Source<R>,
    header: Header,
    meta: Option<(MetaHeader, Value)>,
    offsets: Vec<i64>,
    offsets_pos: u64,
    data_start: u64,
    next: i64,
}

impl<R: Read + Seek> Reader<R> {
    /// Reads and checks the header, the metadata section and the offsets table.
    pub fn new(inner: R) -> Result<Reader<R>> {
        let mut src = Source::new(inner)?;
        let header = Header::decode(&src.take(HEADER_LEN as u64, "the Bloscpack header")?)?;
        if header.nchunks < 0 {
            return Err(Error::Unsupported(
                "a file whose number of chunks is unknown (-1)".into(),
            ));
        }
        let meta = if header.metadata {
            Some(read_section(&mut src)?)
        } else {
            None
        };
        let offsets_pos = src.pos;
        let table = header
            .offset_slots()
            .checked_mul(8)
            .filter(|&n| n <= src.remaining())
            .ok_or_else(|| {
                Error::format(format!(
                    "truncated: the offsets table of {} entries does not fit in the file",
                    header.offset_slots()
                ))
            })?;
        let used = if header.offsets {
            header.nchunks as u64
        } else {
            0
        };
        let raw = src.take(used * 8, "the offsets table")?;
        let offsets = raw
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        src.seek_to(offsets_pos + table, "the first chunk")?;
        let min_chunk = (MIN_HEADER_LENGTH + header.checksum.size()) as u64;
        if (header.nchunks as u64).saturating_mul(min_chunk) > src.remaining() {
            return Err(Error::format(format!(
                "truncated: {} chunks cannot fit in the {} bytes left",
                header.nchunks,
                src.remaining()
            )));
        }
        let data_start = src.pos;
        Ok(Reader {
            src,
            header,
            meta,
            offsets,
            offsets_pos,
            data_start,
            next: 0,
        })
    }

    /// The Bloscpack header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The metadata header, when the file has metadata.
    pub fn meta_header(&self) -> Option<&MetaHeader> {
        self.meta.as_ref().map(|m| &m.0)
    }

    /// The metadata, when the file has some.
    pub fn metadata(&self) -> Option<&Value> {
        self.meta.as_ref().map(|m| &m.1)
    }

    /// The numpy description of the array, when the file holds one.
    pub fn numpy(&self) -> Option<Result<NumpyMeta>> {
        self.metadata().and_then(NumpyMeta::from_metadata)
    }

    /// The offsets of the chunks in use (empty when the file stores none).
    pub fn offsets(&self) -> &[i64] {
        &self.offsets
    }

    /// Where the offsets table starts.
    pub fn offsets_pos(&self) -> u64 {
        self.offsets_pos
    }

    /// Where the first chunk starts.
    pub fn data_start(&self) -> u64 {
        self.data_start
    }

    /// Length of the file.
    pub fn file_len(&self) -> u64 {
        self.src.len
    }

    /// Total uncompressed size announced by the header.
    pub fn nbytes(&self) -> Result<u64> {
        self.header
            .total_nbytes()
            .ok_or_else(|| Error::Unsupported("chunk sizes unknown (-1)".into()))
    }

    /// Puts the reading position back at the first chunk.
    pub fn rewind(&mut self) -> Result<()> {
        self.src.seek_to(self.data_start, "the first chunk")?;
        self.next = 0;
        Ok(())
    }

    /// The next chunk in file order (its checksum verified), `None` after the last.
    pub fn next_chunk(&mut self) -> Result<Option<RawChunk>> {
        match self.next_unverified()? {
            Some((c, digest)) => {
                verify(&c, &digest, self.header.checksum)?;
                Ok(Some(c))
            }
            None => Ok(None),
        }
    }

    /// The next chunk and its stored digest, sizes checked but not the digest.
    fn next_unverified(&mut self) -> Result<Option<(RawChunk, Vec<u8>)>> {
        let mut s = Slot::default();
        if !self.next_into(&mut s)? {
            return Ok(None);
        }
        s.input.truncate(s.input_len);
        Ok(Some((
            RawChunk {
                index: s.index,
                offset: s.offset,
                data: s.input,
                nbytes: s.expected,
            },
            s.digest,
        )))
    }

    /// Reads the next chunk into `s` (input, digest, index, offset and uncompressed size),
    /// sizes checked but not the digest; `false` after the last.
    fn next_into(&mut self, s: &mut Slot) -> Result<bool> {
        let i = self.next;
        if i >= self.header.nchunks {
            return Ok(false);
        }
        let offset = self.src.pos;
        if let Some(&o) = self.offsets.get(i as usize) {
            if o != -1 && u64::try_from(o).ok() != Some(offset) {
                return Err(Error::format(format!(
                    "the offsets table puts chunk {i} at {o}, but it starts at {offset}"
                )));
            }
        }
        let head = MIN_HEADER_LENGTH;
        self.src
            .take_into(head as u64, "a chunk header", &mut s.input, 0)?;
        let info = crate::cbuffer::basic_info(&s.input[..head])
            .map_err(|_| Error::format(format!("chunk {i} has an invalid Blosc header")))?;
        let nbytes = usize::try_from(info.nbytes)
            .map_err(|_| Error::format(format!("chunk {i} claims a negative size")))?;
        if let Some(want) = self.header.chunk_nbytes(i) {
            if want != nbytes {
                return Err(Error::format(format!(
                    "chunk {i} holds {nbytes} bytes, the header announces {want}"
                )));
            }
        }
        let rest = (info.cbytes as u64).saturating_sub(head as u64);
        self.src.take_into(rest, "a chunk", &mut s.input, head)?;
        s.input_len = head + rest as usize;
        let size = self.header.checksum.size();
        s.digest.clear();
        self.src
            .take_into(size as u64, "a chunk checksum", &mut s.digest, 0)?;
        s.index = i;
        s.offset = offset;
        s.expected = nbytes;
        self.next += 1;
        Ok(true)
    }

    /// Reads up to `max_bytes` of uncompressed data worth of chunks (at least one),
    /// verifying their checksums in parallel.
    pub fn next_batch(&mut self, max_bytes: usize) -> Result<Vec<RawChunk>> {
        let mut batch = Vec::new();
        let mut total = 0usize;
        while total < max_bytes.max(1) {
            match self.next_unverified()? {
                Some(c) => {
                    total += c.0.nbytes.max(1);
                    batch.push(c);
                }
                None => break,
            }
        }
        let checksum = self.header.checksum;
        batch
            .into_par_iter()
            .map(|(c, digest)| verify(&c, &digest, checksum).map(|()| c))
            .collect()
    }

    /// Decodes every chunk in order into `out` (the payload as stored): batches of chunks
    /// are checked and decoded on all cores while the next batch is read and the previous
    /// one written; `progress` gets the bytes written so far. Returns the total.
    pub fn unpack_to(
        &mut self,
        out: &mut (dyn Write + Send),
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64>
    where
        R: Send,
    {
        let checksum = self.header.checksum;
        let fill = |b: &mut Batch| -> Result<()> {
            let mut bytes = 0;
            while bytes < BATCH_BYTES {
                let s = b.next_slot();
                if !self.next_into(s)? {
                    b.used -= 1;
                    break;
                }
                bytes += s.expected.max(1);
            }
            Ok(())
        };
        let work = |s: &mut Slot| -> Result<()> {
            if checksum.digest(s.input()) != s.digest {
                return Err(Error::Checksum(format!(
                    "chunk {} at offset {} ({checksum})",
                    s.index, s.offset
                )));
            }
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

    /// The decoded content in C order: the payload, or for a numpy array stored in
    /// Fortran order its elements reordered, at most [`FORTRAN_BAND_BYTES`] of them held
    /// at a time (see [`Reader::decode_c_order_bounded`]).
    pub fn decode_c_order(
        &mut self,
        out: &mut (dyn Write + Send),
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64>
    where
        R: Send,
    {
        self.decode_c_order_bounded(out, FORTRAN_BAND_BYTES, progress)
    }

    /// [`Reader::decode_c_order`] holding at most `band_bytes` (at least one item) of a
    /// Fortran-ordered array in memory: the C-order output is produced one band at a time,
    /// each band taking one pass over the chunks, so an array of `N` bytes is decoded
    /// `ceil(N / band_bytes)` times.
    pub fn decode_c_order_bounded(
        &mut self,
        out: &mut (dyn Write + Send),
        band_bytes: usize,
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64>
    where
        R: Send,
    {
        let np = match self.numpy().transpose()? {
            Some(np) if np.fortran && np.shape.len() > 1 => np,
            _ => return self.unpack_to(out, progress),
        };
        let n = np.len().ok_or_else(|| Error::format("shape overflows"))?;
        let nbytes = usize::try_from(self.nbytes()?)
            .map_err(|_| Error::format("the array does not fit in memory addresses"))?;
        if n == 0 {
            return self.unpack_to(out, progress);
        }
        if !nbytes.is_multiple_of(n) || nbytes == 0 || np.shape.len() > 33 {
            return Err(Error::format(format!(
                "{nbytes} bytes do not hold an array of shape {:?}",
                np.shape
            )));
        }
        let itemsize = nbytes / n;
        let per_band = (band_bytes / itemsize).max(1);
        let mut first = 0;
        while first < n {
            let count = per_band.min(n - first);
            let mut band = CBand::new(&np.shape, itemsize, first, count);
            self.rewind()?;
            let got = self.unpack_to(&mut band, &mut |_| {})?;
            if got != nbytes as u64 {
                return Err(Error::format(format!(
                    "the chunks hold {got} bytes, the header announces {nbytes}"
                )));
            }
            out.write_all(band.bytes())?;
            first += count;
            progress((first * itemsize) as u64);
        }
        Ok(nbytes as u64)
    }
}

/// Bytes of a Fortran-ordered array reordered in memory at a time by
/// [`Reader::decode_c_order`] (larger arrays take one pass over the file per band).
pub const FORTRAN_BAND_BYTES: usize = 1 << 30;

fn verify(c: &RawChunk, digest: &[u8], checksum: Checksum) -> Result<()> {
    if checksum.digest(&c.data) != digest {
        return Err(Error::Checksum(format!(
            "chunk {} at offset {} ({checksum})",
            c.index, c.offset
        )));
    }
    Ok(())
}

/// Uncompressed bytes decoded per parallel batch (two batches are in flight).
pub const BATCH_BYTES: usize = 32 << 20;

/// Reads a whole Bloscpack buffer: the payload (as stored) and the metadata.
pub fn unpack_bytes(bytes: &[u8]) -> Result<(Vec<u8>, Option<Value>)> {
    let mut r = Reader::new(std::io::Cursor::new(bytes))?;
    let mut out = Vec::new();
    r.unpack_to(&mut out, &mut |_| {})?;
    Ok((out, r.metadata().cloned()))
}

impl<R: Read + Seek> Reader<R> {
    /// Moves to chunk `i` through the offsets table, so that [`Reader::next_chunk`] reads
    /// it next.
    pub fn seek_chunk(&mut self, i: i64) -> Result<()> {
        let o = usize::try_from(i)
            .ok()
            .and_then(|i| self.offsets.get(i))
            .copied()
            .ok_or_else(|| Error::Unsupported(format!("no offset for chunk {i}")))?;
        let o = u64::try_from(o)
            .ok()
            .filter(|&o| o >= self.data_start)
            .ok_or_else(|| Error::format(format!("chunk {i} has offset {o}")))?;
        self.src.seek_to(o, "a chunk")?;
        self.next = i;
        Ok(())
    }
}
