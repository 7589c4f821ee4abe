//! The reference c-blosc2 3.3.5, loaded with `dlopen` from `$BLOSC2_REFERENCE_LIB`, else
//! from `target/reference/blosc2/lib/libblosc2.so.9` of this checkout (filled by
//! `tools/fetch-reference.sh`); a missing library is a failure.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

use blosc2::capi::types::{blosc2_dparams, blosc2_schunk};

/// `blosc2_dparams blosc2_get_blosc2_dparams_defaults(void)`.
type DparamsFn = unsafe extern "C" fn() -> blosc2_dparams;
/// `blosc2_context *blosc2_create_dctx(blosc2_dparams dparams)`.
type CreateDctxFn = unsafe extern "C" fn(blosc2_dparams) -> *mut c_void;
/// `int blosc2_decompress_ctx(blosc2_context *, const void *, int32_t, void *, int32_t)`.
type DecompressCtxFn =
    unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> c_int;
/// `void blosc2_free_ctx(blosc2_context *context)`.
type FreeCtxFn = unsafe extern "C" fn(*mut c_void);
/// `blosc2_schunk *blosc2_schunk_from_buffer(uint8_t *cframe, int64_t len, bool copy)`.
type FromBufferFn = unsafe extern "C" fn(*mut u8, i64, bool) -> *mut blosc2_schunk;
/// `int blosc2_schunk_free(blosc2_schunk *schunk)`.
type FreeFn = unsafe extern "C" fn(*mut blosc2_schunk) -> c_int;
/// `int blosc2_schunk_decompress_chunk(blosc2_schunk *, int64_t, void *, int32_t)`.
type ChunkFn = unsafe extern "C" fn(*mut blosc2_schunk, i64, *mut c_void, i32) -> c_int;
/// `int blosc2_vlmeta_get(blosc2_schunk *, const char *, uint8_t **, int32_t *)`.
type VlmetaFn =
    unsafe extern "C" fn(*mut blosc2_schunk, *const c_char, *mut *mut u8, *mut i32) -> c_int;

/// Entry points of the reference.
pub struct Reference {
    dparams: DparamsFn,
    create_dctx: CreateDctxFn,
    decompress_ctx: DecompressCtxFn,
    free_ctx: FreeCtxFn,
    from_buffer: FromBufferFn,
    free: FreeFn,
    decompress_chunk: ChunkFn,
    vlmeta_get: VlmetaFn,
}

/// The loaded reference (panics when it cannot be loaded).
pub fn get() -> &'static Reference {
    static REF: OnceLock<Reference> = OnceLock::new();
    REF.get_or_init(|| {
        let path = std::env::var("BLOSC2_REFERENCE_LIB").unwrap_or_else(|_| {
            // The fuzz crate lives in fuzz/ of the checkout, the regression test at its root.
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let root = if dir.ends_with("fuzz") {
                dir.parent().unwrap_or(dir)
            } else {
                dir
            };
            let lib = root.join("target/reference/blosc2/lib/libblosc2.so.9");
            lib.to_string_lossy().into_owned()
        });
        let cpath = CString::new(path.clone()).expect("path without NUL");
        // SAFETY: dlopen of a shared library by a NUL-terminated path; the handle is kept
        // for the whole process.
        let handle = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(
            !handle.is_null(),
            "cannot load the reference library {path}"
        );
        let sym = |name: &str| {
            let cname = CString::new(name).expect("name without NUL");
            // SAFETY: dlsym on a live handle with a NUL-terminated name.
            let p = unsafe { libc::dlsym(handle, cname.as_ptr()) };
            assert!(!p.is_null(), "{path} does not export {name}");
            p
        };
        // SAFETY: each symbol has the C signature of the type it is cast to (blosc2.h).
        unsafe {
            std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(sym("blosc2_init"))();
            Reference {
                dparams: std::mem::transmute::<*mut c_void, DparamsFn>(sym(
                    "blosc2_get_blosc2_dparams_defaults",
                )),
                create_dctx: std::mem::transmute::<*mut c_void, CreateDctxFn>(sym(
                    "blosc2_create_dctx",
                )),
                decompress_ctx: std::mem::transmute::<*mut c_void, DecompressCtxFn>(sym(
                    "blosc2_decompress_ctx",
                )),
                free_ctx: std::mem::transmute::<*mut c_void, FreeCtxFn>(sym("blosc2_free_ctx")),
                from_buffer: std::mem::transmute::<*mut c_void, FromBufferFn>(sym(
                    "blosc2_schunk_from_buffer",
                )),
                free: std::mem::transmute::<*mut c_void, FreeFn>(sym("blosc2_schunk_free")),
                decompress_chunk: std::mem::transmute::<*mut c_void, ChunkFn>(sym(
                    "blosc2_schunk_decompress_chunk",
                )),
                vlmeta_get: std::mem::transmute::<*mut c_void, VlmetaFn>(sym("blosc2_vlmeta_get")),
            }
        }
    })
}

impl Reference {
    /// `blosc2_decompress_ctx` of `src` (passing `srcsize`) into `dst`, with a new context
    /// of default parameters: the reference's global context keeps state from a refused
    /// chunk that changes how the next chunk decodes (SECURITY.md), which a fresh context
    /// per call leaves out of the comparison.
    pub fn decompress(&self, src: &[u8], srcsize: i32, dst: &mut [u8]) -> i32 {
        // SAFETY: the reference's own defaults and a context freed after its one use; live
        // buffers; srcsize never exceeds src.len() (the callers pass it).
        unsafe {
            let ctx = (self.create_dctx)((self.dparams)());
            assert!(!ctx.is_null(), "the reference created no context");
            let rc = (self.decompress_ctx)(
                ctx,
                src.as_ptr().cast(),
                srcsize.min(src.len() as i32),
                dst.as_mut_ptr().cast(),
                dst.len() as i32,
            );
            (self.free_ctx)(ctx);
            rc
        }
    }

    /// A super-chunk over a copy of the frame `bytes` (`None` when the reference refuses it).
    pub fn open_frame(&self, bytes: &[u8]) -> Option<Frame<'_>> {
        let mut copy = bytes.to_vec();
        // SAFETY: a live buffer of the given length, copied by the callee (copy = true).
        let sc = unsafe { (self.from_buffer)(copy.as_mut_ptr(), copy.len() as i64, true) };
        (!sc.is_null()).then(|| Frame { r: self, sc })
    }
}

impl Reference {
    /// Whether the reference opens the frame `bytes`, tried in a child process: its error
    /// paths crash on some hostile frames (an invalid free in `blosc2_schunk_free` called by
    /// `blosc2_schunk_from_buffer`; SECURITY.md), which count as refusing. The child's exit
    /// status says "opened" only as 42 (a sanitizer's own exit status is 1).
    pub fn opens_frame_in_child(&self, bytes: &[u8]) -> bool {
        const OPENED: i32 = 42;
        const REFUSED: i32 = 43;
        // SAFETY: the child only opens and frees the frame through the reference, then
        // leaves with _exit (no destructors, no atexit handlers of the parent).
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                quiet_crashes();
                let opened = self.open_frame(bytes).is_some();
                libc::_exit(if opened { OPENED } else { REFUSED });
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == OPENED
        }
    }
}

/// Makes a crash of this (child) process plain: default signal dispositions, and no
/// sanitizer death callback (under libFuzzer it would save the input as a finding of ours).
///
/// # Safety
/// Only for a forked child about to call the reference and leave with `_exit`.
unsafe fn quiet_crashes() {
    for sig in [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGABRT,
        libc::SIGFPE,
        libc::SIGILL,
    ] {
        // SAFETY: restoring a default disposition.
        unsafe { libc::signal(sig, libc::SIG_DFL) };
    }
    let name = c"__sanitizer_set_death_callback";
    // SAFETY: dlsym in the global scope with a NUL-terminated name.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if !f.is_null() {
        // SAFETY: the sanitizer runtime's `void __sanitizer_set_death_callback(void (*)(void))`.
        type SetFn = unsafe extern "C" fn(Option<extern "C" fn()>);
        let set = unsafe { std::mem::transmute::<*mut libc::c_void, SetFn>(f) };
        // SAFETY: clearing the callback.
        unsafe { set(None) };
    }
}

/// A super-chunk opened by the reference, freed on drop.
pub struct Frame<'a> {
    r: &'a Reference,
    sc: *mut blosc2_schunk,
}

impl Frame<'_> {
    /// The content of fixed-length metalayer `name` (what the header's static inline
    /// `blosc2_meta_get` reads from the struct).
    pub fn meta(&self, name: &str) -> Option<Vec<u8>> {
        // SAFETY: sc is a live super-chunk of the reference, whose struct layout is the one
        // of our mirror (checked by the ABI layout tests); its metalayer entries below
        // nmetalayers are live.
        unsafe {
            let sc = &*self.sc;
            let n = usize::from(sc.nmetalayers).min(sc.metalayers.len());
            sc.metalayers[..n].iter().find_map(|&m| {
                let m = m.as_ref()?;
                if CStr::from_ptr(m.name).to_bytes() != name.as_bytes() {
                    return None;
                }
                let len = usize::try_from(m.content_len).ok()?;
                Some(std::slice::from_raw_parts(m.content, len).to_vec())
            })
        }
    }

    /// The content of variable-length metalayer `name`.
    pub fn vlmeta(&self, name: &str) -> Option<Vec<u8>> {
        let cname = CString::new(name).ok()?;
        let mut content: *mut u8 = std::ptr::null_mut();
        let mut len = 0i32;
        // SAFETY: live super-chunk, NUL-terminated name, writable out-parameters; the
        // content is malloc'ed by the reference and freed here.
        unsafe {
            if (self.r.vlmeta_get)(self.sc, cname.as_ptr(), &mut content, &mut len) < 0 {
                return None;
            }
            let v = std::slice::from_raw_parts(content, usize::try_from(len).ok()?).to_vec();
            libc::free(content.cast());
            Some(v)
        }
    }

    /// `blosc2_schunk_decompress_chunk` of chunk `n` into `dst`.
    pub fn decompress_chunk(&self, n: i64, dst: &mut [u8]) -> i32 {
        // SAFETY: live super-chunk and destination buffer of the given size.
        unsafe { (self.r.decompress_chunk)(self.sc, n, dst.as_mut_ptr().cast(), dst.len() as i32) }
    }
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        // SAFETY: sc came from blosc2_schunk_from_buffer and is freed once.
        unsafe { (self.r.free)(self.sc) };
    }
}
