//! Test access to the reference c-blosc2 library's exported shuffle functions, loaded with
//! `dlopen` so that its symbols cannot clash with ours.
//!
//! The library is looked up at `$BLOSC2_REFERENCE_LIB`, then under this crate's
//! `target/reference/`, then in the main checkout of the project. Tests call [`get`] and
//! skip, saying so on stderr, when none of these files exists.

use std::ffi::{c_void, CStr, CString};
use std::path::PathBuf;
use std::sync::OnceLock;

/// `int32_t f(int32_t typesize, int32_t blocksize, const void *src, void *dest)`.
type ShuffleFn = unsafe extern "C" fn(i32, i32, *const c_void, *mut c_void) -> i32;

/// The reference's `blosc2_shuffle` family.
pub(crate) struct Reference {
    shuffle: ShuffleFn,
    unshuffle: ShuffleFn,
    bitshuffle: ShuffleFn,
    bitunshuffle: ShuffleFn,
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
    let symbol = |name: &CStr| -> ShuffleFn {
        // SAFETY: `handle` is a live library handle (never closed) and `name` NUL-terminated.
        let address = unsafe { libc::dlsym(handle, name.as_ptr()) };
        assert!(!address.is_null(), "reference library lacks {name:?}");
        // SAFETY: the four symbols are functions with exactly the `ShuffleFn` signature
        // (blosc2.h of c-blosc2 3.3.5).
        unsafe { std::mem::transmute::<*mut c_void, ShuffleFn>(address) }
    };
    Some(Reference {
        shuffle: symbol(c"blosc2_shuffle"),
        unshuffle: symbol(c"blosc2_unshuffle"),
        bitshuffle: symbol(c"blosc2_bitshuffle"),
        bitunshuffle: symbol(c"blosc2_bitunshuffle"),
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
}
