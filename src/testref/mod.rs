//! Test support: the reference c-blosc2 3.3.5 library loaded with `dlopen`, and the shared
//! corpus of files made by the reference producers.
//!
//! Both are required. A missing reference or corpus fails the test that needs it, naming
//! what is missing; `BLOSC2_SKIP_REFERENCE=1` / `BLOSC2_SKIP_CORPUS=1` opt out explicitly
//! (for machines without network), and each opted-out test says so on stderr.

pub(crate) mod chunk;
pub(crate) mod schunk;

use std::ffi::{c_void, CString};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The reference library: a `dlopen` handle that is never closed.
pub(crate) struct Library {
    handle: *mut c_void,
    path: PathBuf,
}

// SAFETY: the handle is only used for `dlsym`, which is thread-safe, and stays valid for the
// whole process (never closed).
unsafe impl Sync for Library {}
// SAFETY: see above.
unsafe impl Send for Library {}

/// Where the reference `libblosc2.so.9` is: `$BLOSC2_REFERENCE_LIB`, else this checkout's
/// `target/reference/` (filled by `tools/fetch-reference.sh`).
pub(crate) fn reference_path() -> PathBuf {
    match std::env::var_os("BLOSC2_REFERENCE_LIB") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("target/reference/blosc2/lib/libblosc2.so.9"),
    }
}

fn opted_out(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The loaded reference library; panics when it is absent, unless `BLOSC2_SKIP_REFERENCE`
/// is set (then `None`, said on stderr).
pub(crate) fn library() -> Option<&'static Library> {
    static LIB: OnceLock<Option<Library>> = OnceLock::new();
    let lib = LIB.get_or_init(|| {
        let path = reference_path();
        if !path.exists() {
            assert!(
                opted_out("BLOSC2_SKIP_REFERENCE"),
                "the reference library is missing at {} (run tools/fetch-reference.sh, or set \
                 BLOSC2_SKIP_REFERENCE=1 to skip the differential tests)",
                path.display()
            );
            return None;
        }
        let cpath = CString::new(path.to_str().expect("UTF-8 path")).expect("path without NUL");
        // SAFETY: plain dlopen of a shared library by a NUL-terminated path. RTLD_DEEPBIND
        // keeps the reference's internal calls inside itself although this process defines
        // functions of the same names.
        let handle = unsafe {
            libc::dlopen(
                cpath.as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
            )
        };
        assert!(!handle.is_null(), "dlopen of {} failed", path.display());
        let lib = Library { handle, path };
        // SAFETY: blosc2_init takes no arguments and may run more than once.
        unsafe { lib.sym::<unsafe extern "C" fn()>("blosc2_init")() };
        Some(lib)
    });
    if lib.is_none() {
        eprintln!("reference library opted out (BLOSC2_SKIP_REFERENCE): differential test not run");
    }
    lib.as_ref()
}

impl Library {
    /// The address of `name` as a function pointer of type `T`; panics when the symbol is
    /// missing.
    ///
    /// # Safety
    /// `T` must be the C function pointer type that `name` has in the reference's headers.
    pub(crate) unsafe fn sym<T: Copy>(&self, name: &str) -> T {
        let c = CString::new(name).expect("symbol name");
        // SAFETY: `handle` is a live dlopen handle and `c` a NUL-terminated name.
        let p = unsafe { libc::dlsym(self.handle, c.as_ptr()) };
        assert!(
            !p.is_null(),
            "symbol {name} missing in {}",
            self.path.display()
        );
        assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut c_void>());
        // SAFETY: the caller guarantees `T` is the pointer type of `name`; sizes checked.
        unsafe { std::mem::transmute_copy(&p) }
    }
}

/// The shared corpus (`../shared/corpus` beside this checkout, or `$BLOSC2_CORPUS`); panics
/// when it is absent, unless `BLOSC2_SKIP_CORPUS` is set (then `None`, said on stderr).
pub(crate) fn corpus() -> Option<PathBuf> {
    let path = match std::env::var_os("BLOSC2_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if path.join("manifest.json").is_file() {
        return Some(path);
    }
    assert!(
        opted_out("BLOSC2_SKIP_CORPUS"),
        "the shared corpus is missing at {} (set BLOSC2_CORPUS, or BLOSC2_SKIP_CORPUS=1 to \
         skip the corpus tests)",
        path.display()
    );
    eprintln!("shared corpus opted out (BLOSC2_SKIP_CORPUS): corpus test not run");
    None
}

/// A unique temporary path for a test file or sparse-frame directory, removed (with its lock
/// file) when dropped.
pub(crate) struct TempPath(CString);

impl TempPath {
    /// `$TMPDIR/b2oxide-<pid>-<name>`, with anything already there removed.
    pub(crate) fn new(name: &str) -> TempPath {
        let p = std::env::temp_dir().join(format!("b2oxide-{}-{name}", std::process::id()));
        let t = TempPath(CString::new(p.to_str().expect("UTF-8 path")).expect("no NUL"));
        t.remove();
        t
    }

    /// The path.
    pub(crate) fn path(&self) -> &std::path::Path {
        std::path::Path::new(self.0.to_str().expect("UTF-8 path"))
    }

    fn remove(&self) {
        let p = self.path();
        let _ = std::fs::remove_dir_all(p);
        let _ = std::fs::remove_file(p);
        let _ = std::fs::remove_file(format!("{}.b2lock", p.display()));
    }
}

impl std::ops::Deref for TempPath {
    type Target = CString;
    fn deref(&self) -> &CString {
        &self.0
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        self.remove();
    }
}
