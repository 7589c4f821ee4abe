//! Compression and decompression parameters and the context that carries them.

use crate::error::{Error, Result};

/// Compression parameters (the safe mirror of `blosc2_cparams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CParams {
    /// Codec code (`BLOSC_BLOSCLZ` ...).
    pub compcode: u8,
    /// Codec metadata stored in the chunk header.
    pub compcode_meta: u8,
    /// Compression level, 0..=9.
    pub clevel: u8,
    /// Whether to train and use a dictionary.
    pub use_dict: bool,
    /// Element size in bytes.
    pub typesize: i32,
    /// Number of threads.
    pub nthreads: i16,
    /// Forced blocksize, 0 for automatic.
    pub blocksize: i32,
    /// Split mode (`BLOSC_ALWAYS_SPLIT` ...).
    pub splitmode: i32,
    /// Filter pipeline, applied in slot order.
    pub filters: [u8; 6],
    /// Metadata for each filter slot.
    pub filters_meta: [u8; 6],
    /// Whether to produce instrumentation records instead of data.
    pub instr_codec: bool,
}

impl Default for CParams {
    fn default() -> Self {
        CParams {
            compcode: 0,
            compcode_meta: 0,
            clevel: 5,
            use_dict: false,
            typesize: 8,
            nthreads: 1,
            blocksize: 0,
            splitmode: 4,
            filters: [0, 0, 0, 0, 0, 1],
            filters_meta: [0; 6],
            instr_codec: false,
        }
    }
}

/// Decompression parameters (the safe mirror of `blosc2_dparams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DParams {
    /// Number of threads.
    pub nthreads: i16,
    /// Element size in bytes (informative).
    pub typesize: i32,
}

impl Default for DParams {
    fn default() -> Self {
        DParams {
            nthreads: 1,
            typesize: 8,
        }
    }
}

/// A compression or decompression context.
#[derive(Debug)]
pub struct Context {
    cparams: Option<CParams>,
    dparams: Option<DParams>,
}

impl Context {
    /// A context for compression.
    pub fn compressor(cparams: CParams) -> Context {
        Context {
            cparams: Some(cparams),
            dparams: None,
        }
    }

    /// A context for decompression.
    pub fn decompressor(dparams: DParams) -> Context {
        Context {
            cparams: None,
            dparams: Some(dparams),
        }
    }

    /// Compresses `src` into a chunk in `dst`; `Ok(0)` when it does not fit.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize> {
        let _ = (src, dst, self.cparams);
        Err(Error::Failure)
    }

    /// Whether this context compresses.
    pub fn is_compressor(&self) -> bool {
        self.cparams.is_some()
    }

    /// Compression parameters; the blocksize is the one of the last compression.
    pub fn cparams(&self) -> CParams {
        self.cparams.unwrap_or_default()
    }

    /// Decompression parameters.
    pub fn dparams(&self) -> DParams {
        self.dparams.unwrap_or_default()
    }

    /// Writes 16-byte Blosc1 headers instead of extended ones.
    pub fn set_blosc1_header(&mut self, on: bool) {
        let _ = on;
    }

    /// Changes the number of threads.
    pub fn set_nthreads(&mut self, n: i16) {
        let _ = n;
    }

    /// Extracts items `start..start + nitems` of the chunk `src` into `dst`.
    pub fn getitem(
        &mut self,
        src: &[u8],
        start: i32,
        nitems: i32,
        dst: &mut [u8],
    ) -> Result<usize> {
        let _ = (src, start, nitems, dst);
        Err(Error::Failure)
    }

    /// Decompresses the chunk `src` into `dst`; returns the number of bytes written.
    pub fn decompress(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize> {
        let _ = (src, dst, self.dparams);
        Err(Error::Failure)
    }
}
