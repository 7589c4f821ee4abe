//! Cross-checks of frames against the reference library (loaded with `dlopen`): frames we
//! write must read back in the reference and the other way round, and the C struct
//! fields must follow every operation.

use std::ffi::{c_char, c_int, c_void, CString};

use super::io::blosc2_get_io_cb;
use super::meta::{blosc2_meta_add, blosc2_vlmeta_add, blosc2_vlmeta_get};
use super::schunk::{blosc2_schunk_free, blosc2_schunk_new};
use super::schunk_io::blosc2_schunk_to_buffer;
use super::schunk_open::blosc2_schunk_open;
use super::schunk_ops::{
    blosc2_schunk_append_buffer, blosc2_schunk_decompress_chunk, blosc2_schunk_delete_chunk,
    blosc2_schunk_fill_special,
};
use super::types::{blosc2_cparams, blosc2_schunk, blosc2_storage};
use crate::testref::TempPath;

type Sc = *mut blosc2_schunk;

fn chunk_data(i: u32) -> Vec<u8> {
    (0..2000u32)
        .flat_map(|k| (k * (i + 3) / 5).to_le_bytes())
        .collect()
}

fn tmp(name: &str) -> TempPath {
    TempPath::new(&format!("capi-{name}"))
}

fn cparams() -> blosc2_cparams {
    let mut c = blosc2_cparams::DEFAULTS;
    c.typesize = 4;
    c.compcode = 1;
    c
}

/// Builds a super-chunk through `new`/`append`/`meta_add`/`vlmeta_add` function pointers
/// (ours or the reference's) at `path` (NULL: in memory).
unsafe fn build(
    new: unsafe extern "C" fn(*mut blosc2_storage) -> Sc,
    append: unsafe extern "C" fn(Sc, *const c_void, i32) -> i64,
    meta_add: unsafe extern "C" fn(Sc, *const c_char, *mut u8, i32) -> c_int,
    vlmeta_add: unsafe extern "C" fn(Sc, *const c_char, *mut u8, i32, *mut blosc2_cparams) -> c_int,
    path: Option<&CString>,
    contiguous: bool,
) -> Sc {
    let mut cp = cparams();
    let mut st = blosc2_storage::DEFAULTS;
    st.contiguous = contiguous;
    st.cparams = &mut cp;
    st.urlpath = path.map_or(std::ptr::null_mut(), |p| p.as_ptr().cast_mut());
    // SAFETY: valid storage for the duration of the call.
    let sc = unsafe { new(&mut st) };
    assert!(!sc.is_null());
    let mut meta = *b"\x93\x01\x02\x03";
    // SAFETY: live schunk and buffers.
    unsafe {
        assert_eq!(meta_add(sc, c"shape".as_ptr(), meta.as_mut_ptr(), 4), 0);
        for i in 0..4 {
            let d = chunk_data(i);
            assert_eq!(
                append(sc, d.as_ptr().cast(), d.len() as i32),
                i64::from(i) + 1
            );
        }
        let mut vl = *b"hello vlmeta";
        assert_eq!(
            vlmeta_add(
                sc,
                c"note".as_ptr(),
                vl.as_mut_ptr(),
                12,
                std::ptr::null_mut()
            ),
            0
        );
    }
    sc
}

/// Checks a super-chunk made by `build` through `decompress`/`vlmeta_get` and its struct.
unsafe fn check(
    sc: Sc,
    decompress: unsafe extern "C" fn(Sc, i64, *mut c_void, i32) -> c_int,
    vlmeta_get: unsafe extern "C" fn(Sc, *const c_char, *mut *mut u8, *mut i32) -> c_int,
) {
    assert!(!sc.is_null());
    // SAFETY: live schunk with the public layout.
    unsafe {
        let s = &*sc;
        assert_eq!(
            (s.nchunks, s.nbytes, s.typesize, s.chunksize),
            (4, 32000, 4, 8000)
        );
        assert_eq!(s.nmetalayers, 1);
        let m = &*s.metalayers[0];
        assert_eq!(std::ffi::CStr::from_ptr(m.name).to_bytes(), b"shape");
        assert_eq!(
            std::slice::from_raw_parts(m.content, m.content_len as usize),
            b"\x93\x01\x02\x03"
        );
        for i in 0..4 {
            let mut out = vec![0u8; 8000];
            assert_eq!(
                decompress(sc, i64::from(i), out.as_mut_ptr().cast(), 8000),
                8000
            );
            assert_eq!(out, chunk_data(i), "chunk {i}");
        }
        let mut p: *mut u8 = std::ptr::null_mut();
        let mut n = 0i32;
        assert_eq!(vlmeta_get(sc, c"note".as_ptr(), &mut p, &mut n), 0);
        assert_eq!(std::slice::from_raw_parts(p, n as usize), b"hello vlmeta");
        libc::free(p.cast());
    }
}

#[test]
fn our_frames_read_in_the_reference() {
    let Some(r) = crate::testref::schunk::get() else {
        return;
    };
    super::global::blosc2_init();
    for (name, contiguous) in [("ours.b2frame", true), ("ours-sparse.b2frame", false)] {
        let path = tmp(name);
        // SAFETY: our own entry points with valid arguments.
        unsafe {
            let sc = build(
                blosc2_schunk_new,
                blosc2_schunk_append_buffer,
                blosc2_meta_add,
                blosc2_vlmeta_add,
                Some(&path),
                contiguous,
            );
            check(sc, blosc2_schunk_decompress_chunk, blosc2_vlmeta_get);
            blosc2_schunk_free(sc);
            let theirs = (r.open)(path.as_ptr());
            check(theirs, r.decompress_chunk, r.vlmeta_get);
            (r.free)(theirs);
        }
    }
    // In memory: our to_buffer handed to the reference's from_buffer.
    // SAFETY: as above.
    unsafe {
        let sc = build(
            blosc2_schunk_new,
            blosc2_schunk_append_buffer,
            blosc2_meta_add,
            blosc2_vlmeta_add,
            None,
            true,
        );
        let mut buf: *mut u8 = std::ptr::null_mut();
        let mut needs_free = true;
        let len = blosc2_schunk_to_buffer(sc, &mut buf, &mut needs_free);
        assert!(len > 0 && !needs_free);
        let theirs = (r.from_buffer)(buf, len, true);
        check(theirs, r.decompress_chunk, r.vlmeta_get);
        (r.free)(theirs);
        blosc2_schunk_free(sc);
    }
}

#[test]
fn reference_frames_read_and_grow_in_ours() {
    let Some(r) = crate::testref::schunk::get() else {
        return;
    };
    super::global::blosc2_init();
    for (name, contiguous) in [("theirs.b2frame", true), ("theirs-sparse.b2frame", false)] {
        let path = tmp(name);
        // SAFETY: reference and our entry points with valid arguments.
        unsafe {
            let theirs = build(
                r.new,
                r.append_buffer,
                r.meta_add,
                r.vlmeta_add,
                Some(&path),
                contiguous,
            );
            (r.free)(theirs);
            let sc = blosc2_schunk_open(path.as_ptr());
            check(sc, blosc2_schunk_decompress_chunk, blosc2_vlmeta_get);
            // Grow and shrink the reference's frame in place, then read it back there.
            assert_eq!(blosc2_schunk_delete_chunk(sc, 3), 3);
            let d = chunk_data(3);
            assert_eq!(blosc2_schunk_append_buffer(sc, d.as_ptr().cast(), 8000), 4);
            assert_eq!((*sc).nchunks, 4);
            blosc2_schunk_free(sc);
            let again = (r.open)(path.as_ptr());
            check(again, r.decompress_chunk, r.vlmeta_get);
            (r.free)(again);
        }
    }
}

#[test]
fn special_fills_agree_with_the_reference() {
    let Some(r) = crate::testref::schunk::get() else {
        return;
    };
    super::global::blosc2_init();
    let path = tmp("zeros.b2frame");
    // SAFETY: reference and our entry points with valid arguments.
    unsafe {
        let mut cp = cparams();
        let mut st = blosc2_storage::DEFAULTS;
        st.contiguous = true;
        st.cparams = &mut cp;
        st.urlpath = path.as_ptr().cast_mut();
        let ours = blosc2_schunk_new(&mut st);
        assert_eq!(blosc2_schunk_fill_special(ours, 5000, 1, 8000), 3);
        assert_eq!(
            ((*ours).nchunks, (*ours).nbytes, (*ours).cbytes),
            (3, 20000, 0)
        );
        blosc2_schunk_free(ours);
        let theirs = (r.open)(path.as_ptr());
        assert!(!theirs.is_null());
        let mut out = vec![1u8; 4000];
        assert_eq!(
            (r.decompress_chunk)(theirs, 2, out.as_mut_ptr().cast(), 4000),
            4000
        );
        assert!(out.iter().all(|&b| b == 0));
        (r.free)(theirs);
        let mut st2 = blosc2_storage::DEFAULTS;
        st2.contiguous = true;
        st2.cparams = &mut cp;
        let theirs = (r.new)(&mut st2);
        assert_eq!((r.fill_special)(theirs, 5000, 2, 8000), 3);
        let mut buf: *mut u8 = std::ptr::null_mut();
        let mut nf = false;
        let len = (r.to_buffer)(theirs, &mut buf, &mut nf);
        let ours = super::schunk_open::blosc2_schunk_from_buffer(buf, len, true);
        assert_eq!((*ours).nchunks, 3);
        let mut out = vec![0u8; 8000];
        assert_eq!(
            blosc2_schunk_decompress_chunk(ours, 0, out.as_mut_ptr().cast(), 8000),
            8000
        );
        assert!(out
            .chunks(4)
            .all(|f| f32::from_le_bytes([f[0], f[1], f[2], f[3]]).is_nan()));
        blosc2_schunk_free(ours);
        (r.free)(theirs);
    }
    assert!(!blosc2_get_io_cb(0).is_null());
}

/// A "b2nd" metalayer for a 10x7 array of 4x4 chunks and 2x2 blocks of "<f8".
fn b2nd_meta() -> Vec<u8> {
    let mut m = vec![0x97, 0x00, 0x02, 0x92];
    for s in [10i64, 7] {
        m.push(0xd3);
        m.extend_from_slice(&s.to_be_bytes());
    }
    for shape in [[4i32, 4], [2, 2]] {
        m.push(0x92);
        for s in shape {
            m.push(0xd2);
            m.extend_from_slice(&s.to_be_bytes());
        }
    }
    m.push(0x00);
    m.push(0xdb);
    m.extend_from_slice(&3i32.to_be_bytes());
    m.extend_from_slice(b"<f8");
    m
}

#[test]
fn slice_chunk_indices_agree_with_the_reference() {
    let Some(r) = crate::testref::schunk::get() else {
        return;
    };
    super::global::blosc2_init();
    // SAFETY: valid arguments to both libraries.
    unsafe {
        let mut cp = blosc2_cparams::DEFAULTS;
        cp.blocksize = 32;
        let mut st = blosc2_storage::DEFAULTS;
        st.cparams = &mut cp;
        let ours = blosc2_schunk_new(&mut st);
        let theirs = (r.new)(&mut st);
        let mut meta = b2nd_meta();
        assert_eq!(
            blosc2_meta_add(ours, c"b2nd".as_ptr(), meta.as_mut_ptr(), meta.len() as i32),
            0
        );
        assert_eq!(
            (r.meta_add)(
                theirs,
                c"b2nd".as_ptr(),
                meta.as_mut_ptr(),
                meta.len() as i32
            ),
            0
        );
        let chunk = [0u8; 128];
        for _ in 0..6 {
            assert!(blosc2_schunk_append_buffer(ours, chunk.as_ptr().cast(), 128) > 0);
            assert!((r.append_buffer)(theirs, chunk.as_ptr().cast(), 128) > 0);
        }
        for (a, b) in [
            ([0i64, 0], [10i64, 7]),
            ([3, 3], [5, 5]),
            ([4, 4], [4, 4]),
            ([9, 6], [10, 7]),
            ([0, 5], [1, 6]),
            ([3, 3], [3, 3]),
            ([5, 0], [6, 7]),
            ([0, 0], [0, 7]),
            ([2, 1], [9, 2]),
        ] {
            let (mut s1, mut e1, mut s2, mut e2) = (a, b, a, b);
            let mut i1: *mut i64 = std::ptr::null_mut();
            let mut i2: *mut i64 = std::ptr::null_mut();
            let n1 = super::frame::blosc2_get_slice_nchunks(
                ours,
                s1.as_mut_ptr(),
                e1.as_mut_ptr(),
                &mut i1,
            );
            let n2 = (r.get_slice_nchunks)(theirs, s2.as_mut_ptr(), e2.as_mut_ptr(), &mut i2);
            assert_eq!(n1, n2, "count for {a:?}..{b:?}");
            if n1 > 0 {
                let v1 = std::slice::from_raw_parts(i1, n1 as usize).to_vec();
                let v2 = std::slice::from_raw_parts(i2, n2 as usize).to_vec();
                assert_eq!(v1, v2, "indices for {a:?}..{b:?}");
            }
            libc::free(i1.cast());
            libc::free(i2.cast());
        }
        blosc2_schunk_free(ours);
        (r.free)(theirs);
    }
}
