//! The reference's chunk-level entry points: contexts, the global compression API and the
//! exported shuffle family.

use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use crate::capi::types::{blosc2_cparams, blosc2_dparams};
use crate::context::CParams;

type Ctx = *mut c_void;
/// `int32_t f(int32_t typesize, int32_t blocksize, const void *src, void *dest)`.
type ShuffleFn = unsafe extern "C" fn(i32, i32, *const c_void, *mut c_void) -> i32;

/// One of the reference's exported shuffle functions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// `blosc2_shuffle`.
    Shuffle,
    /// `blosc2_unshuffle`.
    Unshuffle,
    /// `blosc2_bitshuffle`.
    Bitshuffle,
    /// `blosc2_bitunshuffle`.
    Bitunshuffle,
}

/// Entry points of the reference library.
pub struct Reference {
    create_cctx: unsafe extern "C" fn(blosc2_cparams) -> Ctx,
    create_dctx: unsafe extern "C" fn(blosc2_dparams) -> Ctx,
    free_ctx: unsafe extern "C" fn(Ctx),
    compress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    vlcompress_ctx:
        unsafe extern "C" fn(Ctx, *const *const c_void, *const i32, i32, *mut c_void, i32) -> c_int,
    decompress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    getitem_ctx:
        unsafe extern "C" fn(Ctx, *const c_void, i32, c_int, c_int, *mut c_void, i32) -> c_int,
    compress:
        unsafe extern "C" fn(c_int, c_int, i32, *const c_void, i32, *mut c_void, i32) -> c_int,
    set_compressor: unsafe extern "C" fn(*const c_char) -> c_int,
    set_splitmode: unsafe extern "C" fn(c_int),
    set_blocksize: unsafe extern "C" fn(usize),
    set_delta: unsafe extern "C" fn(c_int),
    shuffle: [ShuffleFn; 4],
    lock: Mutex<()>,
}

// SAFETY: only function pointers into a library that stays loaded for the whole process;
// the global-state entry points are serialised through `lock`.
unsafe impl Sync for Reference {}
// SAFETY: see above.
unsafe impl Send for Reference {}

/// The loaded reference; `None` only when the reference is opted out (see
/// [`super::library`]), which otherwise panics when it is missing.
pub fn get() -> Option<&'static Reference> {
    static REF: OnceLock<Option<Reference>> = OnceLock::new();
    REF.get_or_init(|| {
        let lib = super::library()?;
        // SAFETY: each symbol has the C signature declared for it in the reference's
        // blosc2.h, and the parameter structs are our layout-checked mirrors.
        unsafe {
            Some(Reference {
                create_cctx: lib.sym("blosc2_create_cctx"),
                create_dctx: lib.sym("blosc2_create_dctx"),
                free_ctx: lib.sym("blosc2_free_ctx"),
                compress_ctx: lib.sym("blosc2_compress_ctx"),
                vlcompress_ctx: lib.sym("blosc2_vlcompress_ctx"),
                decompress_ctx: lib.sym("blosc2_decompress_ctx"),
                getitem_ctx: lib.sym("blosc2_getitem_ctx"),
                compress: lib.sym("blosc2_compress"),
                set_compressor: lib.sym("blosc1_set_compressor"),
                set_splitmode: lib.sym("blosc1_set_splitmode"),
                set_blocksize: lib.sym("blosc1_set_blocksize"),
                set_delta: lib.sym("blosc2_set_delta"),
                shuffle: [
                    lib.sym("blosc2_shuffle"),
                    lib.sym("blosc2_unshuffle"),
                    lib.sym("blosc2_bitshuffle"),
                    lib.sym("blosc2_bitunshuffle"),
                ],
                lock: Mutex::new(()),
            })
        }
    })
    .as_ref()
}

/// The reference's `blosc2_cparams` for `cp` (no callbacks).
fn raw_cparams(cp: &CParams) -> blosc2_cparams {
    blosc2_cparams {
        compcode: cp.compcode,
        compcode_meta: cp.compcode_meta,
        clevel: cp.clevel,
        use_dict: c_int::from(cp.use_dict),
        typesize: cp.typesize,
        nthreads: cp.nthreads,
        blocksize: cp.blocksize,
        splitmode: cp.splitmode,
        schunk: std::ptr::null_mut(),
        filters: cp.filters,
        filters_meta: cp.filters_meta,
        prefilter: None,
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: cp.instr_codec,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    }
}

fn rc(n: c_int) -> Result<usize, i32> {
    usize::try_from(n).map_err(|_| n)
}

/// Settings of the reference's global compression API.
#[derive(Debug, Clone, Copy)]
pub struct Global<'a> {
    /// Codec name.
    pub compname: &'a str,
    /// Split mode.
    pub splitmode: i32,
    /// Forced blocksize (0 = automatic).
    pub blocksize: usize,
    /// DELTA on/off.
    pub delta: bool,
}

impl Reference {
    fn guard(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `blosc2_compress` with the given global settings; `Err(code)` for negative returns.
    pub fn compress_global(
        &self,
        g: &Global,
        clevel: i32,
        doshuffle: i32,
        typesize: i32,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<usize, i32> {
        let _l = self.guard();
        self.compress_global_locked(g, clevel, doshuffle, typesize, src, dst)
    }

    /// `compress_global` for a caller that holds the guard.
    fn compress_global_locked(
        &self,
        g: &Global,
        clevel: i32,
        doshuffle: i32,
        typesize: i32,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<usize, i32> {
        let name = CString::new(g.compname).expect("name");
        // SAFETY: the reference's global API is serialised by the caller's guard; all buffers
        // are live slices whose lengths are passed as their sizes.
        unsafe {
            (self.set_compressor)(name.as_ptr());
            (self.set_splitmode)(g.splitmode);
            (self.set_blocksize)(g.blocksize);
            (self.set_delta)(c_int::from(g.delta));
            let n = (self.compress)(
                clevel,
                doshuffle,
                typesize,
                src.as_ptr().cast(),
                src.len() as i32,
                dst.as_mut_ptr().cast(),
                dst.len() as i32,
            );
            (self.set_blocksize)(0);
            (self.set_delta)(0);
            rc(n)
        }
    }

    /// `blosc2_compress` in the Blosc1-header mode (`BLOSC_BLOSC1_COMPAT` set for the call).
    pub fn compress_global_blosc1(
        &self,
        g: &Global,
        clevel: i32,
        doshuffle: i32,
        typesize: i32,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<usize, i32> {
        let _l = self.guard();
        // The variable is only read by the reference's global compressor, which the guard
        // serialises.
        std::env::set_var("BLOSC_BLOSC1_COMPAT", "1");
        let r = self.compress_global_locked(g, clevel, doshuffle, typesize, src, dst);
        std::env::remove_var("BLOSC_BLOSC1_COMPAT");
        r
    }

    /// `blosc2_compress_ctx` with a fresh context made from `cp`.
    pub fn compress_ctx(&self, cp: &CParams, src: &[u8], dst: &mut [u8]) -> Result<usize, i32> {
        let raw = raw_cparams(cp);
        // The reference writes into its "const" source with three or more filters, so it
        // gets a private copy.
        let mut copy = src.to_vec();
        // SAFETY: the context is created, used once on live buffers and freed.
        unsafe {
            let ctx = (self.create_cctx)(raw);
            assert!(!ctx.is_null());
            let n = (self.compress_ctx)(
                ctx,
                copy.as_mut_ptr().cast(),
                src.len() as i32,
                dst.as_mut_ptr().cast(),
                dst.len() as i32,
            );
            (self.free_ctx)(ctx);
            rc(n)
        }
    }

    /// `blosc2_vlcompress_ctx` with a fresh context made from `cp`.
    pub fn vlcompress_ctx(
        &self,
        cp: &CParams,
        blocks: &[&[u8]],
        dst: &mut [u8],
    ) -> Result<usize, i32> {
        let ptrs: Vec<*const c_void> = blocks.iter().map(|b| b.as_ptr().cast()).collect();
        let sizes: Vec<i32> = blocks.iter().map(|b| b.len() as i32).collect();
        // SAFETY: the context is created, used once on live buffers and freed.
        unsafe {
            let ctx = (self.create_cctx)(raw_cparams(cp));
            assert!(!ctx.is_null());
            let n = (self.vlcompress_ctx)(
                ctx,
                ptrs.as_ptr(),
                sizes.as_ptr(),
                blocks.len() as i32,
                dst.as_mut_ptr().cast(),
                dst.len() as i32,
            );
            (self.free_ctx)(ctx);
            rc(n)
        }
    }

    fn with_dctx<R>(&self, f: impl FnOnce(Ctx) -> R) -> R {
        let raw = blosc2_dparams {
            nthreads: 1,
            schunk: std::ptr::null_mut(),
            postfilter: None,
            postparams: std::ptr::null_mut(),
            typesize: 8,
        };
        // SAFETY: the context is created, handed to `f` and freed afterwards.
        unsafe {
            let ctx = (self.create_dctx)(raw);
            assert!(!ctx.is_null());
            let r = f(ctx);
            (self.free_ctx)(ctx);
            r
        }
    }

    /// `blosc2_decompress_ctx` (source size `src.len()`, destination size `dst.len()`).
    pub fn decompress(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, i32> {
        self.with_dctx(|ctx| {
            // SAFETY: live slices with their own lengths.
            rc(unsafe {
                (self.decompress_ctx)(
                    ctx,
                    src.as_ptr().cast(),
                    src.len() as i32,
                    dst.as_mut_ptr().cast(),
                    dst.len() as i32,
                )
            })
        })
    }

    /// `blosc2_getitem_ctx`.
    pub fn getitem(
        &self,
        src: &[u8],
        start: i32,
        nitems: i32,
        dst: &mut [u8],
    ) -> Result<usize, i32> {
        self.with_dctx(|ctx| {
            // SAFETY: live slices with their own lengths.
            rc(unsafe {
                (self.getitem_ctx)(
                    ctx,
                    src.as_ptr().cast(),
                    src.len() as i32,
                    start,
                    nitems,
                    dst.as_mut_ptr().cast(),
                    dst.len() as i32,
                )
            })
        })
    }

    /// Runs the exported shuffle function `op` on `src`; returns its return code and output.
    pub(crate) fn run(&self, op: Op, typesize: usize, src: &[u8]) -> (i32, Vec<u8>) {
        let mut dst = vec![0xA5u8; src.len()];
        let rc = self.run_into(op, typesize, src, &mut dst);
        (rc, dst)
    }

    /// Runs the exported shuffle function `op` from `src` into `dst` (same length); returns
    /// its return code.
    pub(crate) fn run_into(&self, op: Op, typesize: usize, src: &[u8], dst: &mut [u8]) -> i32 {
        assert_eq!(src.len(), dst.len());
        let f = self.shuffle[op as usize];
        let typesize = i32::try_from(typesize).expect("typesize fits i32");
        let len = i32::try_from(src.len()).expect("length fits i32");
        // SAFETY: `src` and `dst` are valid for `len` bytes each and do not overlap, which is
        // all the reference function reads and writes.
        unsafe { f(typesize, len, src.as_ptr().cast(), dst.as_mut_ptr().cast()) }
    }

    /// Compresses `src` with a reference context (BloscLZ, clevel 1, blocks of `blocksize`
    /// bytes not split into streams, DELTA as the only filter, in slot 4 as the global API
    /// puts it); returns the chunk.
    pub(crate) fn compress_with_delta(
        &self,
        typesize: usize,
        blocksize: usize,
        src: &[u8],
    ) -> Vec<u8> {
        let mut filters = [0; 6];
        filters[4] = crate::constants::DELTA;
        let cp = CParams {
            compcode: crate::constants::BLOSCLZ,
            clevel: 1,
            typesize: i32::try_from(typesize).expect("typesize fits i32"),
            nthreads: 1,
            blocksize: i32::try_from(blocksize).expect("blocksize fits i32"),
            splitmode: crate::constants::NEVER_SPLIT,
            filters,
            ..CParams::default()
        };
        let mut chunk = vec![0u8; src.len() + 4096];
        let n = self
            .compress_ctx(&cp, src, &mut chunk)
            .expect("reference compression succeeded");
        chunk.truncate(n);
        chunk
    }
}
