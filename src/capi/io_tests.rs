//! Tests of the I/O side of the C API: user callbacks, the mmap backend, the frame lock
//! and refreshing a frame another handle grows.

use std::ffi::{c_char, c_void, CString};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::io::{blosc2_get_io_cb, blosc2_register_io_cb};
use super::io_stdio::{
    blosc2_stdio_close, blosc2_stdio_destroy, blosc2_stdio_open, blosc2_stdio_read,
    blosc2_stdio_size, blosc2_stdio_truncate, blosc2_stdio_write,
};
use super::schunk::{blosc2_schunk_free, blosc2_schunk_new};
use super::schunk_io::{blosc2_schunk_lock, blosc2_schunk_refresh, blosc2_schunk_unlock};
use super::schunk_open::{blosc2_schunk_open, blosc2_schunk_open_udio};
use super::schunk_ops::{blosc2_schunk_append_buffer, blosc2_schunk_decompress_chunk};
use super::types::{
    blosc2_cparams, blosc2_io, blosc2_io_cb, blosc2_schunk, blosc2_stdio_mmap, blosc2_stdio_params,
    blosc2_storage,
};
use crate::testref::TempPath;

static OPENS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn counting_open(
    urlpath: *const c_char,
    mode: *const c_char,
    params: *mut c_void,
) -> *mut c_void {
    OPENS.fetch_add(1, Ordering::SeqCst);
    // SAFETY: forwarded arguments.
    unsafe { blosc2_stdio_open(urlpath, mode, params) }
}

fn path(name: &str) -> TempPath {
    TempPath::new(&format!("io-{name}"))
}

fn payload(i: u32) -> Vec<u8> {
    (0..1000u32)
        .flat_map(|k| (k ^ (i * 77)).to_le_bytes())
        .collect()
}

/// A new file-backed contiguous super-chunk with typesize 4 through `io`.
unsafe fn create(p: &CString, io: *mut blosc2_io) -> *mut blosc2_schunk {
    let mut cp = blosc2_cparams::DEFAULTS;
    cp.typesize = 4;
    let mut st = blosc2_storage::DEFAULTS;
    st.contiguous = true;
    st.urlpath = p.as_ptr().cast_mut();
    st.cparams = &mut cp;
    st.io = io;
    // SAFETY: valid storage.
    unsafe { blosc2_schunk_new(&mut st) }
}

unsafe fn append_and_check(sc: *mut blosc2_schunk, n: u32) {
    // SAFETY: live schunk, valid buffers.
    unsafe {
        for i in 0..n {
            let d = payload(i);
            assert_eq!(
                blosc2_schunk_append_buffer(sc, d.as_ptr().cast(), 4000),
                i64::from(i) + 1
            );
        }
        check(sc, n);
    }
}

unsafe fn check(sc: *mut blosc2_schunk, n: u32) {
    assert!(!sc.is_null());
    // SAFETY: live schunk, valid buffers.
    unsafe {
        assert_eq!((*sc).nchunks, i64::from(n));
        for i in 0..n {
            let mut out = vec![0u8; 4000];
            assert_eq!(
                blosc2_schunk_decompress_chunk(sc, i64::from(i), out.as_mut_ptr().cast(), 4000),
                4000
            );
            assert_eq!(out, payload(i));
        }
    }
}

#[test]
fn user_io_callbacks_carry_frames() {
    super::global::blosc2_init();
    let mut cb = blosc2_io_cb {
        id: 201,
        name: c"counting".as_ptr().cast_mut(),
        is_allocation_necessary: true,
        open: Some(counting_open),
        close: Some(blosc2_stdio_close),
        size: Some(blosc2_stdio_size),
        write: Some(blosc2_stdio_write),
        read: Some(blosc2_stdio_read),
        truncate: Some(blosc2_stdio_truncate),
        destroy: Some(blosc2_stdio_destroy),
    };
    // SAFETY: valid callback table.
    unsafe {
        assert_eq!(blosc2_register_io_cb(&cb), 0);
        assert_eq!(blosc2_register_io_cb(&cb), 0, "same id and name again");
        cb.name = c"other".as_ptr().cast_mut();
        assert_eq!(blosc2_register_io_cb(&cb), -30, "same id, other name");
        cb.id = 20;
        assert_eq!(blosc2_register_io_cb(&cb), -30);
        assert_eq!(blosc2_register_io_cb(std::ptr::null()), -12);
    }
    // SAFETY: id 201 was registered above, so the pointer is to a live registry entry.
    let registered = unsafe { (*blosc2_get_io_cb(201)).id };
    assert_eq!(registered, 201);
    let p = path("udio.b2frame");
    let mut io = blosc2_io {
        id: 201,
        name: c"counting".as_ptr(),
        params: std::ptr::null_mut(),
    };
    // SAFETY: valid arguments.
    unsafe {
        let sc = create(&p, &mut io);
        append_and_check(sc, 3);
        assert_eq!(blosc2_schunk_free(sc), 0);
        let before = OPENS.load(Ordering::SeqCst);
        assert!(before > 0);
        let re = blosc2_schunk_open_udio(p.as_ptr(), &io);
        check(re, 3);
        assert!(OPENS.load(Ordering::SeqCst) > before);
        blosc2_schunk_free(re);
    }
}

#[test]
fn mmap_backend_writes_and_reads_frames() {
    super::global::blosc2_init();
    let p = path("mmap.b2frame");
    let mut mm = blosc2_stdio_mmap::DEFAULTS;
    mm.mode = c"w+".as_ptr();
    let mut io = blosc2_io {
        id: 1,
        name: c"filesystem_mmap".as_ptr(),
        params: (&mut mm as *mut blosc2_stdio_mmap).cast(),
    };
    // SAFETY: valid arguments; `mm` outlives the schunks.
    unsafe {
        let sc = create(&p, &mut io);
        append_and_check(sc, 4);
        assert_eq!(blosc2_schunk_free(sc), 0);
        let mut rd = blosc2_stdio_mmap::DEFAULTS;
        let rio = blosc2_io {
            id: 1,
            name: c"filesystem_mmap".as_ptr(),
            params: (&mut rd as *mut blosc2_stdio_mmap).cast(),
        };
        let re = blosc2_schunk_open_udio(p.as_ptr(), &rio);
        check(re, 4);
        blosc2_schunk_free(re);
        let plain = blosc2_schunk_open(p.as_ptr());
        check(plain, 4);
        blosc2_schunk_free(plain);
    }
}

#[test]
fn lock_is_reentrant_and_exclusive() {
    super::global::blosc2_init();
    let p = path("locked.b2frame");
    let mut params = blosc2_stdio_params { locking: true };
    let mut io = blosc2_io {
        id: 0,
        name: c"filesystem".as_ptr(),
        params: (&mut params as *mut blosc2_stdio_params).cast(),
    };
    // SAFETY: valid arguments.
    unsafe {
        let sc = create(&p, &mut io);
        assert_eq!(blosc2_schunk_lock(sc), 0);
        assert_eq!(blosc2_schunk_lock(sc), 0);
        let mut lock_name = p.as_bytes().to_vec();
        lock_name.extend_from_slice(b".b2lock\0");
        let fd = libc::open(lock_name.as_ptr().cast(), libc::O_RDWR);
        assert!(fd >= 0, "sidecar lock file exists");
        assert_ne!(
            libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB),
            0,
            "held lock excludes others"
        );
        assert_eq!(blosc2_schunk_unlock(sc), 0);
        assert_eq!(blosc2_schunk_unlock(sc), 0);
        assert_eq!(
            libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB),
            0,
            "released"
        );
        libc::close(fd);
        assert_eq!(blosc2_schunk_unlock(sc), -37);
        blosc2_schunk_free(sc);
    }
}

#[test]
fn refresh_sees_what_another_handle_appended() {
    super::global::blosc2_init();
    let p = path("shared.b2frame");
    // SAFETY: valid arguments.
    unsafe {
        let writer = create(&p, std::ptr::null_mut());
        append_and_check(writer, 1);
        let reader = blosc2_schunk_open(p.as_ptr());
        check(reader, 1);
        assert_eq!(blosc2_schunk_refresh(reader), 0);
        let d = payload(1);
        assert_eq!(
            blosc2_schunk_append_buffer(writer, d.as_ptr().cast(), 4000),
            2
        );
        assert_eq!(blosc2_schunk_refresh(reader), 1);
        check(reader, 2);
        assert_eq!(blosc2_schunk_refresh(reader), 0);
        assert_eq!(blosc2_schunk_refresh(std::ptr::null_mut()), -32);
        blosc2_schunk_free(reader);
        blosc2_schunk_free(writer);
    }
}

#[test]
fn copy_on_write_mmap_leaves_the_file_alone() {
    super::global::blosc2_init();
    let p = path("cow.b2frame");
    // SAFETY: valid arguments; the mmap blocks outlive the schunks.
    unsafe {
        let sc = create(&p, std::ptr::null_mut());
        append_and_check(sc, 2);
        blosc2_schunk_free(sc);
        let before = std::fs::read(p.to_str().expect("utf8")).expect("read");
        let mut mm = blosc2_stdio_mmap::DEFAULTS;
        mm.mode = c"c".as_ptr();
        let io = blosc2_io {
            id: 1,
            name: c"filesystem_mmap".as_ptr(),
            params: (&mut mm as *mut blosc2_stdio_mmap).cast(),
        };
        let cow = blosc2_schunk_open_udio(p.as_ptr(), &io);
        check(cow, 2);
        let d = payload(2);
        assert_eq!(blosc2_schunk_append_buffer(cow, d.as_ptr().cast(), 4000), 3);
        check(cow, 3);
        blosc2_schunk_free(cow);
        assert_eq!(
            std::fs::read(p.to_str().expect("utf8")).expect("read"),
            before
        );
    }
}

#[test]
fn mmap_callbacks_map_grow_and_trim_files() {
    use super::io_mmap::{
        blosc2_stdio_mmap_destroy, blosc2_stdio_mmap_open, blosc2_stdio_mmap_read,
        blosc2_stdio_mmap_size, blosc2_stdio_mmap_truncate, blosc2_stdio_mmap_write,
    };
    let p = path("raw.mmap");
    let mut mm = blosc2_stdio_mmap::DEFAULTS;
    mm.mode = c"w+".as_ptr();
    mm.initial_mapping_size = 16;
    let params: *mut c_void = (&mut mm as *mut blosc2_stdio_mmap).cast();
    // SAFETY: valid block, path and buffers.
    unsafe {
        let s = blosc2_stdio_mmap_open(p.as_ptr(), c"wb+".as_ptr(), params);
        assert_eq!(s, params);
        let data: Vec<u8> = (0..100u8).collect();
        assert_eq!(
            blosc2_stdio_mmap_write(data.as_ptr().cast(), 1, 100, 10, s),
            100
        );
        assert_eq!(blosc2_stdio_mmap_size(s), 110);
        let mut ptr: *mut c_void = std::ptr::null_mut();
        assert_eq!(blosc2_stdio_mmap_read(&mut ptr, 1, 50, 60, s), 50);
        assert_eq!(
            std::slice::from_raw_parts(ptr.cast::<u8>(), 50),
            &data[50..]
        );
        assert_eq!(
            blosc2_stdio_mmap_read(&mut ptr, 1, 50, 100, s),
            0,
            "no partial reads past the end"
        );
        assert!(ptr.is_null());
        assert_eq!(blosc2_stdio_mmap_truncate(s, 60), 0);
        assert_eq!(blosc2_stdio_mmap_destroy(params), 0);
    }
    let on_disk = std::fs::read(p.to_str().expect("utf8")).expect("read");
    assert_eq!(on_disk.len(), 60);
    assert_eq!(&on_disk[10..60], &(0..50u8).collect::<Vec<_>>()[..]);
}

#[test]
fn lazy_chunks_have_the_reference_layout_and_resolve() {
    use super::schunk_ops::{blosc2_schunk_get_chunk, blosc2_schunk_get_lazychunk, resolve_lazy};
    super::global::blosc2_init();
    let p = path("lazy.b2frame");
    let mut cp = blosc2_cparams::DEFAULTS;
    cp.typesize = 4;
    cp.blocksize = 1000;
    let mut st = blosc2_storage::DEFAULTS;
    st.contiguous = true;
    st.urlpath = p.as_ptr().cast_mut();
    st.cparams = &mut cp;
    // SAFETY: valid arguments; returned buffers are freed as told.
    unsafe {
        let sc = blosc2_schunk_new(&mut st);
        append_and_check(sc, 2);
        let (mut lz, mut lnf) = (std::ptr::null_mut(), false);
        let (mut full, mut fnf) = (std::ptr::null_mut(), false);
        let lrc = blosc2_schunk_get_lazychunk(sc, 1, &mut lz, &mut lnf);
        let crc = blosc2_schunk_get_chunk(sc, 1, &mut full, &mut fnf);
        assert!(lnf && fnf);
        let nblocks = 4;
        assert_eq!(lrc, 32 + 4 * nblocks + 4 + 8 + 4 * nblocks);
        let lazy = std::slice::from_raw_parts(lz, lrc as usize);
        let whole = std::slice::from_raw_parts(full, crc as usize);
        assert_eq!(lazy[31] & 0x08, 0x08);
        assert_eq!(
            &lazy[12..16],
            &whole[12..16],
            "header cbytes is the chunk's"
        );
        let at = 32 + 4 * nblocks as usize;
        assert_eq!(
            i32::from_le_bytes(lazy[at..at + 4].try_into().expect("4")),
            1
        );
        let sizes: i32 = lazy[at + 12..]
            .chunks(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("4")))
            .sum();
        assert_eq!(
            sizes as usize,
            crc as usize - at,
            "block sizes cover the streams"
        );
        let resolved = resolve_lazy(sc, lazy).expect("lazy").expect("resolved");
        assert_eq!(resolved, whole);
        assert!(resolve_lazy(sc, whole).is_none());
        libc::free(lz.cast());
        libc::free(full.cast());
        blosc2_schunk_free(sc);
    }
}
