//! I/O backends in the C API: the table behind `blosc2_register_io_cb`/`blosc2_get_io_cb`,
//! the adapter that runs user callbacks as a Rust backend, and path helpers.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::ffi::{c_str, guard};
use super::io_stdio::{builtin_cb, mmap_from_params};
use super::types::{blosc2_io, blosc2_io_cb};
use crate::error::{Error, Result};
use crate::io::{Io, OpenMode, Stream, IO_FILESYSTEM, IO_FILESYSTEM_MMAP};

/// A registered user backend: the caller's table entry, copied as it was given (its `name`
/// pointer included, which is only read when the same id is registered again).
struct Entry {
    cb: Box<blosc2_io_cb>,
}

// SAFETY: entries are only read after registration; the callbacks are the user's
// responsibility to make thread-safe, as in the reference.
unsafe impl Send for Entry {}

static TABLE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn table() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    TABLE.lock().unwrap_or_else(|p| p.into_inner())
}

/// A user backend run through its C callbacks.
struct CallbackIo {
    cb: blosc2_io_cb,
    params: *mut c_void,
}

// SAFETY: see `Entry`.
unsafe impl Send for CallbackIo {}
// SAFETY: see `Entry`.
unsafe impl Sync for CallbackIo {}

struct CallbackStream {
    cb: blosc2_io_cb,
    stream: *mut c_void,
}

// SAFETY: see `Entry`.
unsafe impl Send for CallbackStream {}

impl Io for CallbackIo {
    fn id(&self) -> u8 {
        self.cb.id
    }

    /// Empty: the C name stays in the caller's table entry and is not read here.
    fn name(&self) -> &str {
        ""
    }

    fn open(&self, path: &Path, mode: OpenMode) -> Result<Box<dyn Stream>> {
        let open = self.cb.open.ok_or(Error::PluginIo)?;
        let p =
            CString::new(path.to_string_lossy().into_owned()).map_err(|_| Error::InvalidParam)?;
        let m: &std::ffi::CStr = match mode {
            OpenMode::Read => c"rb",
            OpenMode::ReadWrite => c"rb+",
            OpenMode::Create => c"wb+",
        };
        // SAFETY: calling the user's callback with valid strings and its parameters.
        let stream = unsafe { open(p.as_ptr(), m.as_ptr(), self.params) };
        if stream.is_null() {
            return Err(Error::FileOpen);
        }
        Ok(Box::new(CallbackStream {
            cb: self.cb,
            stream,
        }))
    }
}

impl Stream for CallbackStream {
    fn size(&mut self) -> Result<u64> {
        let f = self.cb.size.ok_or(Error::PluginIo)?;
        // SAFETY: the stream came from the backend's open callback.
        let n = unsafe { f(self.stream) };
        u64::try_from(n).map_err(|_| Error::FileRead)
    }

    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> Result<()> {
        let f = self.cb.read.ok_or(Error::PluginIo)?;
        let pos = i64::try_from(pos).map_err(|_| Error::FileRead)?;
        let mut p: *mut c_void = buf.as_mut_ptr().cast();
        // SAFETY: `p` points to `buf.len()` writable bytes for allocating backends; others
        // replace it with a pointer to their own data, checked below.
        let n = unsafe { f(&mut p, 1, buf.len() as i64, pos, self.stream) };
        if n != buf.len() as i64 || p.is_null() {
            return Err(Error::FileRead);
        }
        if p != buf.as_mut_ptr().cast::<c_void>() {
            // SAFETY: the backend reported `buf.len()` readable bytes at `p`.
            let src = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), buf.len()) };
            buf.copy_from_slice(src);
        }
        Ok(())
    }

    fn write_at(&mut self, pos: u64, data: &[u8]) -> Result<()> {
        let f = self.cb.write.ok_or(Error::PluginIo)?;
        let pos = i64::try_from(pos).map_err(|_| Error::FileWrite)?;
        // SAFETY: `data` is readable for its length.
        let n = unsafe { f(data.as_ptr().cast(), 1, data.len() as i64, pos, self.stream) };
        if n != data.len() as i64 {
            return Err(Error::FileWrite);
        }
        Ok(())
    }

    fn truncate(&mut self, len: u64) -> Result<()> {
        let f = self.cb.truncate.ok_or(Error::PluginIo)?;
        let len = i64::try_from(len).map_err(|_| Error::FileTruncate)?;
        // SAFETY: the stream came from the backend's open callback.
        if unsafe { f(self.stream, len) } != 0 {
            return Err(Error::FileTruncate);
        }
        Ok(())
    }
}

impl Drop for CallbackStream {
    fn drop(&mut self) {
        if let Some(close) = self.cb.close {
            // SAFETY: the stream came from the backend's open callback; closed once.
            unsafe { close(self.stream) };
        }
    }
}

/// The Rust backend for a C `blosc2_io` selection; `None` when the id is unknown or the
/// built-in backends are not registered yet (no `blosc2_init`).
///
/// # Safety
/// `io.params` must be NULL or the parameter block the backend expects.
pub(crate) unsafe fn backend_for(io: &blosc2_io) -> Option<Arc<dyn Io>> {
    match io.id {
        IO_FILESYSTEM => crate::io::get(IO_FILESYSTEM),
        IO_FILESYSTEM_MMAP => {
            crate::io::get(IO_FILESYSTEM_MMAP)?;
            // SAFETY: forwarded caller guarantee on `params`.
            Some(Arc::new(unsafe { mmap_from_params(io.params) }))
        }
        id => {
            let t = table();
            let e = t.iter().find(|e| e.cb.id == id)?;
            Some(Arc::new(CallbackIo {
                cb: *e.cb,
                params: io.params,
            }))
        }
    }
}

/// Whether two C backend names are equal (NULL equals only NULL).
///
/// # Safety
/// Both pointers must be NULL or NUL-terminated strings.
unsafe fn same_name(a: *const c_char, b: *const c_char) -> bool {
    match (a.is_null(), b.is_null()) {
        (true, true) => true,
        // SAFETY: both non-NULL and NUL-terminated per the caller.
        (false, false) => unsafe { CStr::from_ptr(a) == CStr::from_ptr(b) },
        _ => false,
    }
}

/// Registers a user I/O backend (id 160..=255), keeping a copy of the struct as given;
/// 0 (also for an id registered again under the same name), `-30` for a low id, an id
/// taken under another name or a full table, `-12` for NULL. As in the reference, `name`
/// is read only when the id is already registered.
///
/// # Safety
/// `io` must be NULL or a valid `blosc2_io_cb`; its `name` must be a NUL-terminated
/// string (or NULL) when its id is already registered.
#[no_mangle]
pub unsafe extern "C" fn blosc2_register_io_cb(io: *const blosc2_io_cb) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantee.
        let Some(cb) = (unsafe { io.as_ref() }) else {
            return Error::InvalidParam.code();
        };
        if let Some(e) = table().iter().find(|e| e.cb.id == cb.id) {
            // SAFETY: forwarded caller guarantee on both names.
            return if unsafe { same_name(e.cb.name, cb.name) } {
                0
            } else {
                Error::PluginIo.code()
            };
        }
        let adapter = Arc::new(CallbackIo {
            cb: *cb,
            params: std::ptr::null_mut(),
        });
        if let Err(e) = crate::io::register(adapter) {
            return e.code();
        }
        table().push(Entry { cb: Box::new(*cb) });
        0
    })
}

/// The backend registered under `id`; NULL when unknown or before `blosc2_init`.
#[no_mangle]
pub extern "C" fn blosc2_get_io_cb(id: u8) -> *mut blosc2_io_cb {
    guard(std::ptr::null_mut(), || {
        if id == IO_FILESYSTEM || id == IO_FILESYSTEM_MMAP {
            if crate::io::get(id).is_none() {
                return std::ptr::null_mut();
            }
            return builtin_cb(id);
        }
        let mut t = table();
        t.iter_mut()
            .find(|e| e.cb.id == id)
            .map_or(std::ptr::null_mut(), |e| &mut *e.cb as *mut blosc2_io_cb)
    })
}

/// Removes a directory and everything in it; 0, `-16` when `path` is no directory, or
/// `-31`.
///
/// # Safety
/// `path` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_remove_dir(path: *const c_char) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantee.
        let Some(p) = (unsafe { c_str(path) }) else {
            return Error::InvalidParam.code();
        };
        if !Path::new(p).is_dir() {
            return Error::NotFound.code();
        }
        match std::fs::remove_dir_all(p) {
            Ok(()) => 0,
            Err(_) => Error::FileRemove.code(),
        }
    })
}

/// Removes a file or a directory tree (and its lock sidecar); 0 (also when nothing is
/// there), or `-31`.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blosc2_remove_urlpath(path: *const c_char) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantee.
        let Some(p) = (unsafe { c_str(path) }) else {
            return 0;
        };
        let p = Path::new(p);
        let lock = super::schunk_lock::sidecar(p);
        if lock.is_file() {
            let _ = std::fs::remove_file(&lock);
        }
        let r = if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else if p.exists() {
            std::fs::remove_file(p)
        } else {
            Ok(())
        };
        match r {
            Ok(()) => 0,
            Err(_) => Error::FileRemove.code(),
        }
    })
}

/// Renames a file or directory; 0 (also for NULL arguments, as in the reference), or `-1`.
///
/// # Safety
/// Both arguments must be NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn blosc2_rename_urlpath(
    old_urlpath: *mut c_char,
    new_path: *mut c_char,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantee.
        let (Some(a), Some(b)) = (unsafe { c_str(old_urlpath) }, unsafe { c_str(new_path) }) else {
            return 0;
        };
        match std::fs::rename(a, b) {
            Ok(()) => 0,
            Err(_) => Error::Failure.code(),
        }
    })
}
