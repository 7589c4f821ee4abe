//! Per-thread working memory: filter buffers and reusable codec contexts.

use crate::codecs::{lz4, zstd};
use crate::error::{Error, Result};

/// Reusable codec contexts of one thread.
#[derive(Debug, Default)]
pub struct Codecs {
    zc: Option<zstd::CCtx>,
    zd: Option<zstd::DCtx>,
    lz4: Option<lz4::State>,
    lz4hc: Option<lz4::StateHc>,
}

impl Codecs {
    /// The LZ4 compression state, created on first use.
    pub fn lz4_state(&mut self) -> Result<&mut lz4::State> {
        if self.lz4.is_none() {
            self.lz4 = Some(lz4::State::new().ok_or(Error::MemoryAlloc)?);
        }
        self.lz4.as_mut().ok_or(Error::MemoryAlloc)
    }

    /// The LZ4HC compression state, created on first use.
    pub fn lz4hc_state(&mut self) -> Result<&mut lz4::StateHc> {
        if self.lz4hc.is_none() {
            self.lz4hc = Some(lz4::StateHc::new().ok_or(Error::MemoryAlloc)?);
        }
        self.lz4hc.as_mut().ok_or(Error::MemoryAlloc)
    }

    /// The zstd compression context, created on first use.
    pub fn zstd_cctx(&mut self) -> Result<&mut zstd::CCtx> {
        if self.zc.is_none() {
            self.zc = Some(zstd::CCtx::new().ok_or(Error::MemoryAlloc)?);
        }
        self.zc.as_mut().ok_or(Error::MemoryAlloc)
    }

    /// The zstd decompression context, created on first use.
    pub fn zstd_dctx(&mut self) -> Result<&mut zstd::DCtx> {
        if self.zd.is_none() {
            self.zd = Some(zstd::DCtx::new().ok_or(Error::MemoryAlloc)?);
        }
        self.zd.as_mut().ok_or(Error::MemoryAlloc)
    }
}

/// Working memory of one thread: filter and block buffers, the callbacks' scratch buffer and
/// codec contexts.
#[derive(Debug, Default)]
pub struct Scratch {
    /// First filter buffer.
    pub a: Buf,
    /// Second filter buffer.
    pub b: Buf,
    /// Block buffer (the reference block of DELTA chunks in getitem).
    pub block: Buf,
    /// Partial block buffer (getitem).
    pub part: Buf,
    /// The buffer prefilters and postfilters see as the thread's scratch (`ttmp`).
    pub ttmp: Buf,
    /// Codec contexts.
    pub codecs: Codecs,
}

/// Size from which a scratch buffer is an anonymous memory map instead of a heap vector.
const MAP_FROM: usize = 64 * 1024;

/// A zero-filled scratch buffer whose pages cost memory only once written: large sizes are
/// anonymous memory maps (the kernel hands out zero pages on first write, whatever the
/// allocator's thresholds), small ones heap vectors.
#[derive(Debug, Default)]
pub struct Buf {
    heap: Vec<u8>,
    map: Option<memmap2::MmapMut>,
}

impl Buf {
    /// A zero-filled buffer of `n` bytes.
    pub fn zeroed(n: usize) -> Buf {
        if n >= MAP_FROM {
            if let Ok(map) = memmap2::MmapMut::map_anon(n) {
                return Buf {
                    heap: Vec::new(),
                    map: Some(map),
                };
            }
        }
        Buf {
            heap: vec![0u8; n],
            map: None,
        }
    }
}

impl std::ops::Deref for Buf {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.map {
            Some(m) => m,
            None => &self.heap,
        }
    }
}

impl std::ops::DerefMut for Buf {
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.map {
            Some(m) => m,
            None => &mut self.heap,
        }
    }
}

/// Grows `v` to at least `n` bytes; contents are scratch and carry no meaning. A fresh
/// zero-filled buffer is used, whose pages cost nothing until written, so that a hostile
/// header announcing huge blocks costs no memory until data is written.
pub(crate) fn ensure(v: &mut Buf, n: usize) {
    if v.len() < n {
        *v = Buf::zeroed(n);
    }
}

impl Scratch {
    /// Makes both filter buffers at least `n` bytes long.
    pub fn ensure_filters(&mut self, n: usize) {
        ensure(&mut self.a, n);
        ensure(&mut self.b, n);
    }
}
