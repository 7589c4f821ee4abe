//! Test access to the reference c-blosc2 library (its exported shuffle functions and a
//! compression context), loaded with `dlopen` so that its symbols cannot clash with ours.
//!
//! The library is looked up at `$BLOSC2_REFERENCE_LIB`, then under this crate's
//! `target/reference/`, then in the main checkout of the project. Tests call [`get`] and
//! skip, saying so on stderr, when none of these files exists.

use std::ffi::{c_void, CStr, CString};
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::capi::types::{blosc2_cparams, BLOSC_BLOSCLZ, BLOSC_DELTA, BLOSC_NEVER_SPLIT};

/// `int32_t f(int32_t typesize, int32_t blocksize, const void *src, void *dest)`.
type ShuffleFn = unsafe extern "C" fn(i32, i32, *const c_void, *mut c_void) -> i32;
/// `blosc2_context *blosc2_create_cctx(blosc2_cparams cparams)`.
type CreateCctxFn = unsafe extern "C" fn(blosc2_cparams) -> *mut c_void;
/// `int blosc2_compress_ctx(blosc2_context *context, const void *src, int32_t srcsize,
/// void *dest, int32_t destsize)`.
type CompressCtxFn = unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> i32;

/// The reference's `blosc2_shuffle` family, and the context compressor used to observe its
/// delta filter.
pub(crate) struct Reference {
    shuffle: ShuffleFn,
    unshuffle: ShuffleFn,
    bitshuffle: ShuffleFn,
    bitunshuffle: ShuffleFn,
    create_cctx: CreateCctxFn,
    compress_ctx: CompressCtxFn,
    free_ctx: unsafe extern "C" fn(*mut c_void),
}

/// One of the four exported functions.
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

fn candidates() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(path) = std::env::var_os("BLOSC2_REFERENCE_LIB") {
        paths.push(PathBuf::from(path));
    }
    let tail = "target/reference/blosc2/lib/libblosc2.so.9";
    paths.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(tail));
    paths.push(PathBuf::from("/work/main").join(tail));
    paths
}

/// The loaded reference, or `None` (after a loud notice on stderr) when it is not installed.
pub(crate) fn get(test: &str) -> Option<&'static Reference> {
    static REFERENCE: OnceLock<Option<Reference>> = OnceLock::new();
    let found = REFERENCE.get_or_init(open).as_ref();
    if found.is_none() {
        eprintln!(
            "SKIPPED {test}: reference libblosc2.so.9 not found (looked at {:?}; set \
             BLOSC2_REFERENCE_LIB)",
            candidates()
        );
    }
    found
}

fn open() -> Option<Reference> {
    let path = candidates().into_iter().find(|p| p.exists())?;
    let cpath = CString::new(path.to_str()?).ok()?;
    // SAFETY: `cpath` is a NUL-terminated path; loading runs the library's own initialisers.
    let handle = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(
        !handle.is_null(),
        "reference library {path:?} exists but dlopen failed"
    );
    let address = |name: &CStr| {
        // SAFETY: `handle` is a live library handle (never closed) and `name` NUL-terminated.
        let address = unsafe { libc::dlsym(handle, name.as_ptr()) };
        assert!(!address.is_null(), "reference library lacks {name:?}");
        address
    };
    let shuffle_fn = |name: &CStr| {
        // SAFETY: the four shuffle symbols are functions with exactly the `ShuffleFn`
        // signature (blosc2.h of c-blosc2 3.3.5).
        unsafe { std::mem::transmute::<*mut c_void, ShuffleFn>(address(name)) }
    };
    // SAFETY: each symbol is a function with the signature it is transmuted to (blosc2.h of
    // c-blosc2 3.3.5: blosc2_init, blosc2_create_cctx, blosc2_compress_ctx, blosc2_free_ctx),
    // and blosc2_init takes no arguments and may run more than once.
    let (create_cctx, compress_ctx, free_ctx) = unsafe {
        std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(address(c"blosc2_init"))();
        (
            std::mem::transmute::<*mut c_void, CreateCctxFn>(address(c"blosc2_create_cctx")),
            std::mem::transmute::<*mut c_void, CompressCtxFn>(address(c"blosc2_compress_ctx")),
            std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*mut c_void)>(address(
                c"blosc2_free_ctx",
            )),
        )
    };
    Some(Reference {
        shuffle: shuffle_fn(c"blosc2_shuffle"),
        unshuffle: shuffle_fn(c"blosc2_unshuffle"),
        bitshuffle: shuffle_fn(c"blosc2_bitshuffle"),
        bitunshuffle: shuffle_fn(c"blosc2_bitunshuffle"),
        create_cctx,
        compress_ctx,
        free_ctx,
    })
}

impl Reference {
    /// Runs `op` of the reference on `src`; returns its return code and output.
    pub(crate) fn run(&self, op: Op, typesize: usize, src: &[u8]) -> (i32, Vec<u8>) {
        let mut dst = vec![0xA5u8; src.len()];
        let rc = self.run_into(op, typesize, src, &mut dst);
        (rc, dst)
    }

    /// Runs `op` of the reference from `src` into `dst` (same length); returns its return
    /// code.
    pub(crate) fn run_into(&self, op: Op, typesize: usize, src: &[u8], dst: &mut [u8]) -> i32 {
        assert_eq!(src.len(), dst.len());
        let f = match op {
            Op::Shuffle => self.shuffle,
            Op::Unshuffle => self.unshuffle,
            Op::Bitshuffle => self.bitshuffle,
            Op::Bitunshuffle => self.bitunshuffle,
        };
        let typesize = i32::try_from(typesize).expect("typesize fits i32");
        let len = i32::try_from(src.len()).expect("length fits i32");
        // SAFETY: `src` and `dst` are valid for `len` bytes each and do not overlap, which is
        // all the reference function reads and writes.
        unsafe { f(typesize, len, src.as_ptr().cast(), dst.as_mut_ptr().cast()) }
    }

    /// Compresses `src` with a compression context of the reference (BloscLZ, clevel 1,
    /// blocks of `blocksize` bytes not split into streams, DELTA as the only filter, in slot
    /// 4 as the global API puts it); returns the chunk.
    pub(crate) fn compress_with_delta(
        &self,
        typesize: usize,
        blocksize: usize,
        src: &[u8],
    ) -> Vec<u8> {
        let mut filters = [0; 6];
        filters[4] = BLOSC_DELTA as u8;
        let cparams = blosc2_cparams {
            compcode: BLOSC_BLOSCLZ as u8,
            compcode_meta: 0,
            clevel: 1,
            use_dict: 0,
            typesize: i32::try_from(typesize).expect("typesize fits i32"),
            nthreads: 1,
            blocksize: i32::try_from(blocksize).expect("blocksize fits i32"),
            splitmode: BLOSC_NEVER_SPLIT,
            schunk: std::ptr::null_mut(),
            filters,
            filters_meta: [0; 6],
            prefilter: None,
            preparams: std::ptr::null_mut(),
            tuner_params: std::ptr::null_mut(),
            tuner_id: 0,
            instr_codec: false,
            codec_params: std::ptr::null_mut(),
            filter_params: [std::ptr::null_mut(); 6],
        };
        let mut chunk = vec![0u8; src.len() + 4096];
        let len = i32::try_from(src.len()).expect("length fits i32");
        let room = i32::try_from(chunk.len()).expect("room fits i32");
        // SAFETY: the context is created from plain parameters (no callbacks or pointers),
        // used once with `src` valid for `len` bytes and `chunk` for `room` bytes, and freed.
        let written = unsafe {
            let context = (self.create_cctx)(cparams);
            assert!(!context.is_null(), "reference refused the parameters");
            let written = (self.compress_ctx)(
                context,
                src.as_ptr().cast(),
                len,
                chunk.as_mut_ptr().cast(),
                room,
            );
            (self.free_ctx)(context);
            written
        };
        let written = usize::try_from(written).expect("reference compression succeeded");
        chunk.truncate(written);
        chunk
    }
}
