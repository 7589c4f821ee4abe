//! Sequences of open/read/write/truncate/size operations with hostile sizes against the I/O
//! backends, each checked against a plain in-memory model of the file after every step:
//! the C callbacks of the stdio backend (`blosc2_stdio_*`, also with a NULL `FILE*`) and of
//! the mmap backend (`blosc2_stdio_mmap_*`, modes r, r+, w+, c), and the Rust streams behind
//! frames (plain files, memory maps, memory buffers, and a user-I/O callback set registered
//! with `blosc2_register_io_cb`). A rejected operation must change nothing; an accepted one
//! must do exactly what the model does.
#![no_main]

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::Once;

use blosc2::capi::io::blosc2_register_io_cb;
use blosc2::capi::io_mmap::*;
use blosc2::capi::io_stdio::*;
use blosc2::capi::types::{blosc2_io_cb, blosc2_stdio_file, blosc2_stdio_mmap};
use blosc2::io::Io;
use blosc2::io::{MemoryStream, MmapIo, MmapMode, OpenMode, StdioIo, Stream};
use libfuzzer_sys::fuzz_target;

/// Largest file the model grows to; accepted operations stay below it.
const LIMIT: i64 = 1 << 20;
/// Id of the user-I/O callback set.
const USER_ID: u8 = 250;

/// Reads small numbers off the input.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn u16(&mut self) -> Option<i64> {
        Some(i64::from(u16::from_le_bytes([self.byte()?, self.byte()?])))
    }

    /// A size, item count or position: small, or one of the hostile values.
    fn value(&mut self) -> Option<i64> {
        let tag = self.byte()?;
        Some(match tag % 16 {
            0 => i64::MAX,
            1 => i64::MAX - i64::from(self.byte()?),
            2 => i64::MIN,
            3 => -1 - i64::from(self.byte()?),
            4 => i64::MAX / 2 + 1,
            5 => 1 << 40,
            6 => 0,
            7 => 1,
            8..=11 => self.u16()? % 64,
            _ => self.u16()? * 16,
        })
    }
}

/// The model: the bytes of the file.
#[derive(Default)]
struct Model(Vec<u8>);

impl Model {
    fn write(&mut self, pos: usize, data: &[u8]) {
        if self.0.len() < pos + data.len() {
            self.0.resize(pos + data.len(), 0);
        }
        self.0[pos..pos + data.len()].copy_from_slice(data);
    }

    fn truncate(&mut self, len: usize) {
        self.0.resize(len, 0);
    }
}

/// `size * nitems` and `position + size * nitems`, when the request is valid.
fn request(size: i64, nitems: i64, position: i64) -> Option<(i64, i64)> {
    if size < 0 || nitems < 0 || position < 0 {
        return None;
    }
    let n = size.checked_mul(nitems)?;
    Some((n, position.checked_add(n)?))
}

fn payload(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("io_backends_{}_{tag}", std::process::id()))
}

fn cpath(p: &Path) -> CString {
    CString::new(p.to_str().expect("utf-8 path")).expect("no NUL")
}

// ---- the C stdio callbacks ----------------------------------------------------------------

fn c_stdio(input: &mut Input) {
    let path = scratch("stdio");
    let cp = cpath(&path);
    // SAFETY: valid strings; the stream is used only through the backend's callbacks.
    let s = unsafe { blosc2_stdio_open(cp.as_ptr(), c"wb+".as_ptr(), std::ptr::null_mut()) };
    assert!(!s.is_null());
    let mut model = Model::default();
    let mut null = blosc2_stdio_file {
        file: std::ptr::null_mut(),
    };
    let nullp = (&mut null as *mut blosc2_stdio_file).cast::<c_void>();
    while let Some(op) = input.byte() {
        let (Some(size), Some(nitems), Some(pos)) = (input.value(), input.value(), input.value())
        else {
            break;
        };
        let valid = request(size, nitems, pos);
        // SAFETY (all calls below): the stream is open; buffers hold the bytes the request
        // names whenever the request is valid (oversized valid requests are skipped).
        match op % 5 {
            0 => {
                if matches!(valid, Some((_, end)) if end > LIMIT) {
                    continue;
                }
                let n = valid.map_or(8, |(n, _)| n as usize);
                let data = payload(op, n.max(1));
                let got = unsafe { blosc2_stdio_write(data.as_ptr().cast(), size, nitems, pos, s) };
                match valid {
                    Some((n, _)) if size > 0 && n > 0 => {
                        assert_eq!(got, nitems);
                        model.write(pos as usize, &data[..n as usize]);
                    }
                    _ => assert_eq!(got, 0),
                }
            }
            1 => {
                if matches!(valid, Some((n, _)) if n > LIMIT) {
                    continue;
                }
                let n = valid.map_or(8, |(n, _)| n as usize);
                let mut buf = vec![0xA5u8; n.max(1)];
                let mut p = buf.as_mut_ptr().cast::<c_void>();
                let got = unsafe { blosc2_stdio_read(&mut p, size, nitems, pos, s) };
                assert_eq!(p, buf.as_mut_ptr().cast::<c_void>());
                match valid {
                    Some((_, _)) if size > 0 => {
                        let avail = (model.0.len() as i64 - pos).max(0);
                        let want = (avail / size).min(nitems);
                        assert_eq!(got, want);
                        let k = (want * size) as usize;
                        if k > 0 {
                            assert!(buf[..k] == model.0[pos as usize..pos as usize + k]);
                        }
                    }
                    _ => assert_eq!(got, 0),
                }
            }
            2 => {
                let len = if size <= LIMIT { size } else { i64::MAX };
                let rc = unsafe { blosc2_stdio_truncate(s, len) };
                if len < 0 {
                    assert_eq!(rc, -1);
                } else if len <= LIMIT {
                    assert_eq!(rc, 0);
                    model.truncate(len as usize);
                } else if rc == 0 {
                    assert_eq!(unsafe { blosc2_stdio_truncate(s, model.0.len() as i64) }, 0);
                }
            }
            3 => assert_eq!(unsafe { blosc2_stdio_size(s) }, model.0.len() as i64),
            _ => {
                let mut p = nullp;
                unsafe {
                    assert_eq!(blosc2_stdio_size(nullp), -1);
                    assert_eq!(blosc2_stdio_truncate(nullp, pos), -1);
                    assert_eq!(blosc2_stdio_write(c"x".as_ptr().cast(), 1, 1, 0, nullp), 0);
                    assert_eq!(blosc2_stdio_read(&mut p, 1, 1, 0, nullp), 0);
                    assert_eq!(blosc2_stdio_close(nullp), -1);
                }
                assert_eq!(p, nullp);
            }
        }
    }
    // SAFETY: the stream is open and closed once.
    assert_eq!(unsafe { blosc2_stdio_size(s) }, model.0.len() as i64);
    assert_eq!(unsafe { blosc2_stdio_close(s) }, 0);
    assert!(std::fs::read(&path).expect("stdio file") == model.0);
    let _ = std::fs::remove_file(&path);
}

// ---- the C mmap callbacks -----------------------------------------------------------------

fn c_mmap(input: &mut Input) {
    let (Some(cfg), Some(init_len)) = (input.byte(), input.u16()) else {
        return;
    };
    let modes: [&std::ffi::CStr; 4] = [c"r", c"r+", c"w+", c"c"];
    let mode = modes[usize::from(cfg % 4)];
    let initial = [1usize, 4096, 65536, 1 << 20][usize::from((cfg >> 2) % 4)];
    let path = scratch("mmap");
    let initial_bytes = payload(cfg, (init_len % 4096) as usize);
    std::fs::write(&path, &initial_bytes).expect("mmap file");
    let mut model = Model(if mode == c"w+" {
        Vec::new()
    } else {
        initial_bytes.clone()
    });
    let writable = mode != c"r";
    let memory_only = mode == c"c";
    let mut m = blosc2_stdio_mmap::DEFAULTS;
    m.mode = mode.as_ptr();
    m.initial_mapping_size = initial;
    let cp = cpath(&path);
    let mp = (&mut m as *mut blosc2_stdio_mmap).cast::<c_void>();
    // SAFETY: valid path and block; the block is used only through the callbacks.
    let s = unsafe { blosc2_stdio_mmap_open(cp.as_ptr(), c"".as_ptr(), mp) };
    assert_eq!(s, mp);
    while let Some(op) = input.byte() {
        let (Some(size), Some(nitems), Some(pos)) = (input.value(), input.value(), input.value())
        else {
            break;
        };
        let valid = request(size, nitems, pos);
        // SAFETY (all calls below): the block is open; buffers hold the bytes the request
        // names whenever the request is valid (oversized valid requests are skipped).
        match op % 4 {
            0 => {
                if matches!(valid, Some((_, end)) if end > LIMIT) {
                    continue;
                }
                let n = valid.map_or(8, |(n, _)| n as usize);
                let data = payload(op, n.max(1));
                let got =
                    unsafe { blosc2_stdio_mmap_write(data.as_ptr().cast(), size, nitems, pos, s) };
                match valid {
                    Some((n, _)) if n > 0 && writable => {
                        assert_eq!(got, nitems);
                        model.write(pos as usize, &data[..n as usize]);
                    }
                    _ => assert_eq!(got, 0),
                }
            }
            1 => {
                let mut p = 1usize as *mut c_void;
                let got = unsafe { blosc2_stdio_mmap_read(&mut p, size, nitems, pos, s) };
                match valid {
                    Some((n, end)) if end <= model.0.len() as i64 => {
                        assert_eq!(got, nitems);
                        // SAFETY: the backend points into its mapping, `n` bytes long.
                        let got = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n as usize) };
                        assert!(got == &model.0[pos as usize..end as usize]);
                    }
                    _ => {
                        assert_eq!(got, 0);
                        assert!(p.is_null());
                    }
                }
                assert_eq!(
                    unsafe { blosc2_stdio_mmap_read(std::ptr::null_mut(), 1, 1, 0, s) },
                    0
                );
            }
            2 => {
                let len = if size <= LIMIT { size } else { i64::MAX };
                if len == i64::MAX && memory_only {
                    continue;
                }
                let rc = unsafe { blosc2_stdio_mmap_truncate(s, len) };
                if len < 0 || (!writable && len != model.0.len() as i64) {
                    assert_eq!(rc, -1);
                } else if len <= LIMIT {
                    assert_eq!(rc, 0);
                    model.truncate(len as usize);
                } else {
                    // Disk file systems refuse a file of 8 EiB; tmpfs takes it, so the
                    // campaign keeps TMPDIR on disk.
                    assert_eq!(rc, -1, "an 8 EiB file");
                }
            }
            _ => assert_eq!(unsafe { blosc2_stdio_mmap_size(s) }, model.0.len() as i64),
        }
        assert!(!m.addr.is_null(), "the mapping went away");
        assert_eq!(m.file_size, model.0.len());
    }
    // SAFETY: the block is open and destroyed once (it is not heap-allocated).
    assert_eq!(unsafe { blosc2_stdio_mmap_destroy(mp) }, 0);
    assert!(m.addr.is_null() && m.urlpath.is_null());
    let on_disk = std::fs::read(&path).expect("mmap file");
    if memory_only {
        assert!(on_disk == initial_bytes, "copy-on-write changed the file");
    } else {
        assert!(on_disk == model.0);
    }
    let _ = std::fs::remove_file(&path);
}

// ---- a user-I/O callback set: an in-memory file ------------------------------------------

/// A user backend's stream: the bytes of one in-memory file.
struct UserFile(Vec<u8>);

extern "C" fn user_open(
    _path: *const c_char,
    _mode: *const c_char,
    _p: *mut c_void,
) -> *mut c_void {
    Box::into_raw(Box::new(UserFile(Vec::new()))).cast()
}

extern "C" fn user_close(stream: *mut c_void) -> c_int {
    // SAFETY: the stream came from `user_open` and is closed once.
    drop(unsafe { Box::from_raw(stream.cast::<UserFile>()) });
    0
}

fn user_file<'a>(stream: *mut c_void) -> &'a mut UserFile {
    // SAFETY: the stream came from `user_open` and is used by one caller at a time.
    unsafe { &mut *stream.cast::<UserFile>() }
}

extern "C" fn user_size(stream: *mut c_void) -> i64 {
    user_file(stream).0.len() as i64
}

extern "C" fn user_write(
    ptr: *const c_void,
    size: i64,
    nitems: i64,
    pos: i64,
    stream: *mut c_void,
) -> i64 {
    let f = user_file(stream);
    match request(size, nitems, pos) {
        Some((n, end)) if n > 0 && end <= 4 * LIMIT => {
            // SAFETY: the caller hands `n` readable bytes.
            let data = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), n as usize) };
            let mut m = Model(std::mem::take(&mut f.0));
            m.write(pos as usize, data);
            f.0 = m.0;
            nitems
        }
        _ => 0,
    }
}

extern "C" fn user_read(
    ptr: *mut *mut c_void,
    size: i64,
    nitems: i64,
    pos: i64,
    stream: *mut c_void,
) -> i64 {
    let f = user_file(stream);
    let Some((_, _)) = request(size, nitems, pos).filter(|_| size > 0) else {
        return 0;
    };
    let avail = (f.0.len() as i64 - pos).max(0);
    let items = (avail / size).min(nitems);
    let k = (items * size) as usize;
    if k == 0 {
        return 0;
    }
    // SAFETY: `*ptr` is the caller's buffer of `size * nitems` bytes (allocation needed).
    unsafe {
        std::ptr::copy_nonoverlapping(f.0.as_ptr().add(pos as usize), (*ptr).cast::<u8>(), k)
    };
    items
}

extern "C" fn user_truncate(stream: *mut c_void, size: i64) -> c_int {
    if !(0..=4 * LIMIT).contains(&size) {
        return -1;
    }
    user_file(stream).0.resize(size as usize, 0);
    0
}

extern "C" fn user_destroy(_params: *mut c_void) -> c_int {
    0
}

fn register_user_io() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        blosc2::global::init();
        let cb = blosc2_io_cb {
            id: USER_ID,
            name: c"fuzz-memory".as_ptr().cast_mut(),
            is_allocation_necessary: true,
            open: Some(user_open),
            close: Some(user_close),
            size: Some(user_size),
            write: Some(user_write),
            read: Some(user_read),
            truncate: Some(user_truncate),
            destroy: Some(user_destroy),
        };
        // SAFETY: a complete callback table with a static name.
        assert_eq!(unsafe { blosc2_register_io_cb(&cb) }, 0);
    });
}

// ---- the Rust streams --------------------------------------------------------------------

fn rust_stream(input: &mut Input, kind: u8) {
    let Some(cfg) = input.byte() else {
        return;
    };
    let path = scratch("stream");
    let initial_bytes = payload(cfg, usize::from(cfg) * 13);
    std::fs::write(&path, &initial_bytes).expect("stream file");
    let (mut stream, mut model, writable): (Box<dyn Stream>, Model, bool) = match kind % 4 {
        0 => (
            StdioIo.open(&path, OpenMode::Create).expect("stdio stream"),
            Model::default(),
            true,
        ),
        1 => {
            let mode = [
                MmapMode::Read,
                MmapMode::ReadWrite,
                MmapMode::Create,
                MmapMode::CopyOnWrite,
            ][usize::from(cfg % 4)];
            let io = MmapIo {
                mode: Some(mode),
                initial_mapping_size: 4096,
            };
            let s = io.open(&path, OpenMode::ReadWrite).expect("mmap stream");
            let model = if mode == MmapMode::Create {
                Vec::new()
            } else {
                initial_bytes.clone()
            };
            (s, Model(model), mode != MmapMode::Read)
        }
        2 => (
            Box::new(MemoryStream::new(Box::new(initial_bytes.clone()))),
            Model(initial_bytes.clone()),
            true,
        ),
        _ => {
            register_user_io();
            let io = blosc2::io::get(USER_ID).expect("user backend registered");
            (
                io.open(&path, OpenMode::Create).expect("user stream"),
                Model::default(),
                true,
            )
        }
    };
    while let Some(op) = input.byte() {
        let (Some(a), Some(b)) = (input.value(), input.value()) else {
            break;
        };
        // Positions as the frame layer passes them: u64, hostile ones past i64::MAX.
        let pos = a as u64;
        let len = (b.unsigned_abs() % 4096) as usize;
        let end = pos.checked_add(len as u64);
        match op % 4 {
            0 => {
                // A far but representable end is a real (huge) request the model cannot
                // follow: skipped, hostile ends are those past i64::MAX or overflowing.
                if matches!(end, Some(e) if e > LIMIT as u64 && pos <= i64::MAX as u64) {
                    continue;
                }
                let data = payload(op, len);
                let r = stream.write_at(pos, &data);
                match end {
                    // Writing nothing may succeed anywhere; the size check below holds.
                    _ if len == 0 => {}
                    Some(e) if writable && e <= LIMIT as u64 => {
                        assert!(r.is_ok(), "write_at({pos}, {len}) = {r:?}");
                        model.write(pos as usize, &data);
                    }
                    Some(e) if e <= LIMIT as u64 => assert!(r.is_err()),
                    _ => assert!(r.is_err()),
                }
            }
            1 => {
                let mut buf = vec![0u8; len];
                let r = stream.read_at(pos, &mut buf);
                match end {
                    _ if len == 0 => {}
                    Some(e) if e <= model.0.len() as u64 => {
                        assert!(r.is_ok(), "read_at({pos}, {len}) = {r:?}");
                        assert!(buf[..] == model.0[pos as usize..e as usize]);
                    }
                    _ => assert!(r.is_err()),
                }
            }
            2 => {
                let target = if b < 0 {
                    b as u64
                } else {
                    (b as u64) % (LIMIT as u64 + 1)
                };
                let r = stream.truncate(target);
                if writable && target <= LIMIT as u64 {
                    assert!(r.is_ok(), "truncate({target}) = {r:?}");
                    model.truncate(target as usize);
                } else {
                    assert!(r.is_err(), "truncate({target}) accepted");
                }
            }
            _ => {}
        }
        assert_eq!(stream.size().ok(), Some(model.0.len() as u64));
    }
    finish_stream(stream, &path, (kind % 4 == 0).then_some(model));
}

/// Closes the stream and checks the file a plain-file stream leaves behind.
fn finish_stream(stream: Box<dyn Stream>, path: &Path, model: Option<Model>) {
    drop(stream);
    if let Some(m) = model {
        assert!(std::fs::read(path).expect("stream file") == m.0);
    }
    let _ = std::fs::remove_file(path);
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let Some(which) = input.byte() else {
        return;
    };
    match which % 6 {
        0 => c_stdio(&mut input),
        1 => c_mmap(&mut input),
        k => rust_stream(&mut input, k - 2),
    }
});
