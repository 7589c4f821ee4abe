//! The reference library loaded with `dlopen`, for differential tests.

use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use crate::context::CParams;

/// Where the reference `libblosc2.so.9` is looked for: this checkout's `target/reference/`
/// first, then the main worktree's.
fn path() -> Option<String> {
    [
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/target/reference/blosc2/lib/libblosc2.so.9"
        ),
        "/work/main/target/reference/blosc2/lib/libblosc2.so.9",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).exists())
    .map(str::to_owned)
}

/// `blosc2_cparams` as laid out by the reference (x86-64).
#[repr(C)]
struct RawCParams {
    compcode: u8,
    compcode_meta: u8,
    clevel: u8,
    use_dict: c_int,
    typesize: i32,
    nthreads: i16,
    blocksize: i32,
    splitmode: i32,
    schunk: *mut c_void,
    filters: [u8; 6],
    filters_meta: [u8; 6],
    prefilter: *mut c_void,
    preparams: *mut c_void,
    tuner_params: *mut c_void,
    tuner_id: c_int,
    instr_codec: bool,
    codec_params: *mut c_void,
    filter_params: [*mut c_void; 6],
}

/// `blosc2_dparams` as laid out by the reference.
#[repr(C)]
struct RawDParams {
    nthreads: i16,
    schunk: *mut c_void,
    postfilter: *mut c_void,
    postparams: *mut c_void,
    typesize: i32,
}

type Ctx = *mut c_void;

/// Entry points of the reference library.
pub struct Reference {
    create_cctx: unsafe extern "C" fn(RawCParams) -> Ctx,
    create_dctx: unsafe extern "C" fn(RawDParams) -> Ctx,
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
    lock: Mutex<()>,
}

// SAFETY: only function pointers into a library that stays loaded for the whole process;
// the global-state entry points are serialised through `lock`.
unsafe impl Sync for Reference {}
// SAFETY: see above.
unsafe impl Send for Reference {}

fn sym<T: Copy>(handle: *mut c_void, name: &str) -> T {
    let c = CString::new(name).expect("symbol name");
    // SAFETY: `handle` is a live dlopen handle and `c` a NUL-terminated name.
    let p = unsafe { libc::dlsym(handle, c.as_ptr()) };
    assert!(!p.is_null(), "reference symbol {name} missing");
    assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: `T` is the C function pointer type of `name` as declared in blosc2.h and has
    // the size of a pointer (checked above).
    unsafe { std::mem::transmute_copy(&p) }
}

/// The loaded reference, or `None` (after a loud message) when the file is absent.
pub fn get() -> Option<&'static Reference> {
    static REF: OnceLock<Option<Reference>> = OnceLock::new();
    REF.get_or_init(|| {
        let Some(found) = path() else {
            eprintln!("SKIPPED: reference library libblosc2.so.9 is absent (target/reference)");
            return None;
        };
        let path = CString::new(found.clone()).expect("path");
        // SAFETY: plain dlopen of a shared library; RTLD_DEEPBIND keeps its internal calls
        // inside itself even if this process exports symbols of the same names.
        let h = unsafe {
            libc::dlopen(
                path.as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
            )
        };
        assert!(!h.is_null(), "dlopen of {found} failed");
        let init: unsafe extern "C" fn() = sym(h, "blosc2_init");
        // SAFETY: idempotent library initialisation without arguments.
        unsafe { init() };
        Some(Reference {
            create_cctx: sym(h, "blosc2_create_cctx"),
            create_dctx: sym(h, "blosc2_create_dctx"),
            free_ctx: sym(h, "blosc2_free_ctx"),
            compress_ctx: sym(h, "blosc2_compress_ctx"),
            vlcompress_ctx: sym(h, "blosc2_vlcompress_ctx"),
            decompress_ctx: sym(h, "blosc2_decompress_ctx"),
            getitem_ctx: sym(h, "blosc2_getitem_ctx"),
            compress: sym(h, "blosc2_compress"),
            set_compressor: sym(h, "blosc1_set_compressor"),
            set_splitmode: sym(h, "blosc1_set_splitmode"),
            set_blocksize: sym(h, "blosc1_set_blocksize"),
            set_delta: sym(h, "blosc2_set_delta"),
            lock: Mutex::new(()),
        })
    })
    .as_ref()
}

/// The reference's `blosc2_cparams` for `cp` (no callbacks).
fn raw_cparams(cp: &CParams) -> RawCParams {
    RawCParams {
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
        prefilter: std::ptr::null_mut(),
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
        let name = CString::new(g.compname).expect("name");
        // SAFETY: the reference's global API is serialised by the guard; all buffers are
        // live slices whose lengths are passed as their sizes.
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
        std::env::set_var("BLOSC_BLOSC1_COMPAT", "1");
        let name = CString::new(g.compname).expect("name");
        // SAFETY: as in `compress_global`; the variable is only read by the reference's
        // global compressor, which the guard serialises.
        let r = unsafe {
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
        };
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
        let raw = RawDParams {
            nthreads: 1,
            schunk: std::ptr::null_mut(),
            postfilter: std::ptr::null_mut(),
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
}
