//! Compression and decompression parameters and the context that carries them.

use std::sync::Arc;

use crate::chunk::compress::{self, CompressEnv, CompressState};
use crate::chunk::decompress::{self, DecompressEnv, DecompressState};
use crate::chunk::hooks::{PostfilterFn, Prefilter};
use crate::chunk::{getitem, vlblocks, vlcompress};
use crate::error::{Error, Result};
use crate::registry::plugins::{Compressed, HostData, MetaLookup, Tune};
use crate::threads::Pool;

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

/// What a context is for.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Compress(CParams),
    Decompress(DParams),
}

/// Callbacks and host data of a context.
#[derive(Default, Clone)]
struct Callbacks {
    prefilter: Option<Prefilter>,
    postfilter: Option<PostfilterFn>,
    host: Option<HostData>,
    schunk_typesize: Option<i32>,
    schunk_meta: Option<MetaLookup>,
    nchunk: Option<i64>,
    tuner: Option<std::sync::Arc<dyn Tune>>,
}

impl Callbacks {
    fn compress_env(&self) -> CompressEnv<'_> {
        CompressEnv {
            prefilter: self.prefilter.as_ref(),
            host: self.host.as_deref(),
            schunk_typesize: self.schunk_typesize,
            schunk_meta: self.schunk_meta.as_ref(),
            nchunk: self.nchunk.unwrap_or(-1),
        }
    }

    fn decompress_env(&self, nthreads: i16) -> DecompressEnv<'_> {
        DecompressEnv {
            postfilter: self.postfilter.as_ref(),
            host: self.host.as_deref(),
            schunk_typesize: self.schunk_typesize,
            schunk_meta: self.schunk_meta.as_ref(),
            nchunk: self.nchunk.unwrap_or(-1),
            nthreads,
        }
    }
}

impl std::fmt::Debug for Callbacks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Callbacks")
            .field("prefilter", &self.prefilter)
            .field("postfilter", &self.postfilter.is_some())
            .field("host", &self.host.is_some())
            .field("schunk_typesize", &self.schunk_typesize)
            .field("schunk_meta", &self.schunk_meta.is_some())
            .field("nchunk", &self.nchunk)
            .field("tuner", &self.tuner.is_some())
            .finish()
    }
}

/// Most worker threads a context's pool starts, whatever `nthreads` asks for.
pub const MAX_POOL_THREADS: usize = 64;

/// A compression or decompression context: parameters, reusable working memory and, when
/// more than one thread is asked for, a worker pool (created on first use).
#[derive(Debug)]
pub struct Context {
    mode: Mode,
    callbacks: Callbacks,
    blosc1_header: bool,
    invalid_codec: bool,
    last_blocksize: Option<i32>,
    nthreads: i16,
    pool: Option<Arc<Pool>>,
    cstate: CompressState,
    dstate: DecompressState,
}

impl Context {
    fn new(mode: Mode, nthreads: i16) -> Context {
        Context {
            mode,
            callbacks: Callbacks::default(),
            blosc1_header: false,
            invalid_codec: false,
            last_blocksize: None,
            nthreads,
            pool: None,
            cstate: CompressState::default(),
            dstate: DecompressState::default(),
        }
    }

    /// A context for compression.
    pub fn compressor(cparams: CParams) -> Context {
        Context::new(Mode::Compress(cparams), cparams.nthreads)
    }

    /// Marks the codec as unknown (a bad `BLOSC_COMPRESSOR` name): compression then fails with
    /// "codec not supported" whatever codecs are registered, and [`Context::cparams`] reports
    /// code 255, as the reference does.
    pub fn set_invalid_codec(&mut self) {
        self.invalid_codec = true;
    }

    /// A context for decompression.
    pub fn decompressor(dparams: DParams) -> Context {
        Context::new(Mode::Decompress(dparams), dparams.nthreads)
    }

    /// Makes this a compression context with new parameters, keeping its working memory
    /// and thread pool (for callers that reuse one context, like the global API).
    pub fn set_cparams(&mut self, cparams: CParams) {
        self.mode = Mode::Compress(cparams);
        self.nthreads = cparams.nthreads;
        self.last_blocksize = None;
    }

    /// Makes this a decompression context with new parameters, keeping its working memory
    /// and thread pool.
    pub fn set_dparams(&mut self, dparams: DParams) {
        self.mode = Mode::Decompress(dparams);
        self.nthreads = dparams.nthreads;
    }

    /// Whether this context was made for compression.
    pub fn is_compressor(&self) -> bool {
        matches!(self.mode, Mode::Compress(_))
    }

    /// Makes [`Context::compress`] write the 16-byte Blosc1 header instead of the extended one.
    pub fn set_blosc1_header(&mut self, on: bool) {
        self.blosc1_header = on;
    }

    /// The compression parameters; `blocksize` is the one the last compression used, and
    /// after a compression a typesize above 255 reads 1 (the data was treated as bytes).
    pub fn cparams(&self) -> CParams {
        let mut cp = match self.mode {
            Mode::Compress(cp) => cp,
            Mode::Decompress(_) => CParams::default(),
        };
        cp.nthreads = self.nthreads;
        if let Some(bs) = self.last_blocksize {
            cp.blocksize = bs;
            if cp.typesize > i32::from(u8::MAX) {
                // Compression treats wider items as bytes, and the reference reports that.
                cp.typesize = 1;
            }
        }
        cp
    }

    /// The decompression parameters.
    pub fn dparams(&self) -> DParams {
        let mut dp = match self.mode {
            Mode::Decompress(dp) => dp,
            Mode::Compress(cp) => DParams {
                nthreads: cp.nthreads,
                typesize: cp.typesize,
            },
        };
        dp.nthreads = self.nthreads;
        dp
    }

    /// Changes the number of threads used by the next calls.
    pub fn set_nthreads(&mut self, n: i16) {
        self.nthreads = n;
    }

    /// Skips the blocks marked `true` in the next [`Context::decompress`] call only.
    pub fn set_maskout(&mut self, mask: &[bool]) {
        self.dstate.maskout = Some(mask.to_vec());
    }

    /// Runs `prefilter` on every block before it is compressed.
    pub fn set_prefilter(&mut self, prefilter: Option<Prefilter>) {
        self.callbacks.prefilter = prefilter;
    }

    /// Runs `postfilter` on every block after it is decompressed.
    pub fn set_postfilter(&mut self, postfilter: Option<PostfilterFn>) {
        self.callbacks.postfilter = postfilter;
    }

    /// Attaches data that registered codecs, filters and callbacks get back.
    pub fn set_host(&mut self, host: Option<HostData>) {
        self.callbacks.host = host;
    }

    /// The host data attached with [`Context::set_host`].
    pub fn host(&self) -> Option<&HostData> {
        self.callbacks.host.as_ref()
    }

    /// Tells the context the typesize of the super-chunk it belongs to (plugin filters with
    /// meta 0 use it).
    pub fn set_schunk_typesize(&mut self, typesize: Option<i32>) {
        self.callbacks.schunk_typesize = typesize;
    }

    /// Tells the context where the metalayers of its super-chunk are (the N-dimensional
    /// plugins read the `b2nd` one).
    pub fn set_schunk_meta(&mut self, lookup: Option<MetaLookup>) {
        self.callbacks.schunk_meta = lookup;
    }

    /// Takes the prefilter, postfilter, host data and super-chunk typesize of `other` (how a
    /// super-chunk hands the callbacks of its storage parameters to its own contexts).
    pub fn share_callbacks_from(&mut self, other: &Context) {
        let nchunk = self.callbacks.nchunk;
        self.callbacks = other.callbacks.clone();
        self.callbacks.nchunk = nchunk;
    }

    /// Attaches a tuner, consulted before and told after every compression.
    pub fn set_tuner(&mut self, tuner: Option<std::sync::Arc<dyn Tune>>) {
        self.callbacks.tuner = tuner;
    }

    /// Sets the chunk number pre- and postfilters are told (`None`: -1, no super-chunk).
    pub fn set_nchunk(&mut self, nchunk: Option<i64>) {
        self.callbacks.nchunk = nchunk;
    }

    /// The worker pool when more than one thread is wanted (created or resized here). The
    /// pool never exceeds [`MAX_POOL_THREADS`] workers: output does not depend on the thread
    /// count, and thousands of OS threads would only cost time and memory.
    fn pool(pool: &mut Option<Arc<Pool>>, nthreads: i16) -> Option<&Pool> {
        let n = usize::try_from(nthreads).unwrap_or(1).min(MAX_POOL_THREADS);
        if n <= 1 {
            return None;
        }
        if !matches!(pool, Some(p) if p.len() == n) {
            *pool = Some(Pool::shared(n));
        }
        pool.as_deref()
    }

    /// The worker pool this context runs its blocks on, when it has more than one thread and
    /// no caller's parallel-for is installed (that one is handed chunk blocks only, as by the
    /// reference), for other work split the same way (gathering a chunk's blocks, say).
    pub fn worker_pool(&mut self) -> Option<Arc<Pool>> {
        if crate::threads::executor_installed() {
            return None;
        }
        Context::pool(&mut self.pool, self.nthreads)?;
        self.pool.clone()
    }

    /// Compresses `src` into a chunk in `dst` (`dst.len()` is the destination size);
    /// `Ok(0)` when it does not fit.
    pub fn compress(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize> {
        let Mode::Compress(cp) = self.mode else {
            return Err(Error::InvalidParam);
        };
        if self.invalid_codec {
            return Err(Error::CodecSupport);
        }
        if self.nthreads <= 0 {
            return Err(Error::InvalidParam);
        }
        let tuner = self.callbacks.tuner.clone();
        // The block size (and a typesize over 255 taken as 1) of the last compression stay
        // the context's parameters for the next one, as in the reference.
        let mut cp = cp;
        if let Some(bs) = self.last_blocksize {
            cp.blocksize = bs;
            if cp.typesize > i32::from(u8::MAX) {
                cp.typesize = 1;
            }
        }
        let mut run = cp;
        if let Some(t) = &tuner {
            let before = cp;
            t.next(&mut cp, src, dst.len())?;
            self.mode = Mode::Compress(cp);
            self.nthreads = cp.nthreads;
            run = cp;
            run.splitmode = split_before_tuning(&before, &cp, src.len());
        }
        let start = std::time::Instant::now();
        let env = self.callbacks.compress_env();
        let pool = Context::pool(&mut self.pool, self.nthreads);
        let (n, bs) = compress::compress(
            &run,
            self.blosc1_header,
            &mut self.cstate,
            pool,
            &env,
            src,
            dst,
        )?;
        self.last_blocksize = Some(bs as i32);
        if let Some(t) = &tuner {
            let done = Compressed {
                srcsize: src.len(),
                cbytes: n,
                blocksize: bs as i32,
                ctime: start.elapsed().as_secs_f64(),
            };
            t.update(&mut cp, &done)?;
            self.mode = Mode::Compress(cp);
            self.nthreads = cp.nthreads;
        }
        Ok(n)
    }

    /// Decompresses the chunk `src` into `dst`; returns the number of bytes written (a
    /// thread count below 1 decompresses serially, as the reference does).
    pub fn decompress(&mut self, src: &[u8], dst: &mut [u8]) -> Result<usize> {
        if self.is_compressor() {
            return Err(Error::InvalidParam);
        }
        let env = self.callbacks.decompress_env(self.nthreads);
        let pool = Context::pool(&mut self.pool, self.nthreads);
        decompress::decompress(&mut self.dstate, pool, env, src, dst)
    }

    /// Decodes items `start..start + nitems` (stored-typesize units) of the chunk `src`
    /// into `dst`; returns the number of bytes written.
    pub fn getitem(
        &mut self,
        src: &[u8],
        start: i32,
        nitems: i32,
        dst: &mut [u8],
    ) -> Result<usize> {
        let env = self.callbacks.decompress_env(self.nthreads);
        getitem::getitem(&mut self.dstate.scratch, env, src, start, nitems, dst)
    }

    /// Decodes `nbytes` bytes from byte `start` of the chunk `src` into `dst`; both must be
    /// non-negative multiples of the stored typesize.
    pub fn getitem_bytes(
        &mut self,
        src: &[u8],
        start: i32,
        nbytes: i32,
        dst: &mut [u8],
    ) -> Result<usize> {
        let h = crate::chunk::Header::parse(src)?;
        let ts = i32::from(h.typesize);
        if start < 0 || nbytes < 0 || start % ts != 0 || nbytes % ts != 0 {
            return Err(Error::InvalidParam);
        }
        self.getitem(src, start / ts, nbytes / ts, dst)
    }

    /// Compresses `blocks` into one chunk with variable-length blocks in `dst` (`dst.len()`
    /// is the destination size); `Ok(0)` when it does not fit.
    pub fn vl_compress(&mut self, blocks: &[&[u8]], dst: &mut [u8]) -> Result<usize> {
        let Mode::Compress(cp) = self.mode else {
            return Err(Error::InvalidParam);
        };
        if self.nthreads <= 0 {
            return Err(Error::InvalidParam);
        }
        let env = self.callbacks.compress_env();
        let pool = Context::pool(&mut self.pool, self.nthreads);
        vlcompress::compress(&cp, &mut self.cstate, pool, &env, blocks, dst)
    }

    /// Decompresses every block of the VL-block chunk `src` into buffers of their own;
    /// fails with [`Error::InvalidParam`] when it has more than `maxblocks` blocks.
    pub fn vl_decompress(&mut self, src: &[u8], maxblocks: usize) -> Result<Vec<Vec<u8>>> {
        if self.is_compressor() {
            return Err(Error::InvalidParam);
        }
        let env = self.callbacks.decompress_env(self.nthreads);
        let pool = Context::pool(&mut self.pool, self.nthreads);
        vlblocks::decompress_blocks(&mut self.dstate.scratch, pool, env, src, maxblocks)
    }

    /// Decompresses block `nblock` of the VL-block chunk `src` into a new buffer.
    pub fn vl_decompress_block(&mut self, src: &[u8], nblock: i32) -> Result<Vec<u8>> {
        if self.is_compressor() {
            return Err(Error::InvalidParam);
        }
        let env = self.callbacks.decompress_env(self.nthreads);
        vlblocks::decompress_block(&mut self.dstate.scratch, env, src, nblock)
    }
}

/// The split mode that makes a tuned compression split its blocks as the reference does: it
/// decides from the codec, level, filters and split mode the context had before the tuner
/// ran, with the block size and typesize it has after.
fn split_before_tuning(before: &CParams, after: &CParams, nbytes: usize) -> i32 {
    use crate::chunk::stune::{compute_blocksize, split_block, BlocksizeInput};
    use crate::constants::{ALWAYS_SPLIT, NEVER_SPLIT, SHUFFLE};
    let blocksize = compute_blocksize(&BlocksizeInput {
        nbytes: i32::try_from(nbytes).unwrap_or(i32::MAX),
        typesize: after.typesize,
        clevel: after.clevel,
        compcode: after.compcode,
        splitmode: after.splitmode,
        has_shuffle: after.filters.contains(&SHUFFLE),
        forced: after.blocksize,
    });
    let typesize = if after.typesize > i32::from(u8::MAX) {
        1
    } else {
        after.typesize
    };
    let shuffle = before.filters.contains(&SHUFFLE);
    if split_block(
        before.splitmode,
        before.compcode,
        before.clevel,
        typesize,
        blocksize,
        shuffle,
    ) {
        ALWAYS_SPLIT
    } else {
        NEVER_SPLIT
    }
}
