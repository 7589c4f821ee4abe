//! The N-dimensional plugins (NDLZ, ZFP, NDCELL, NDMEAN) against the reference: the same
//! parameters and `b2nd` metalayer on a super-chunk of each library, chunk bytes compared at
//! nthreads=1, and each library decoding the other's chunks.

use std::ffi::{c_char, c_int, c_void};

use crate::b2nd::meta::Meta;
use crate::capi::types::{
    blosc2_context, blosc2_cparams, blosc2_dparams, blosc2_schunk, blosc2_storage,
};
use crate::testref;

type Sc = *mut blosc2_schunk;
type Ctx = *mut blosc2_context;

/// One library's entry points.
#[derive(Clone, Copy)]
struct Api {
    schunk_new: unsafe extern "C" fn(*mut blosc2_storage) -> Sc,
    schunk_free: unsafe extern "C" fn(Sc) -> c_int,
    meta_add: unsafe extern "C" fn(Sc, *const c_char, *mut u8, i32) -> c_int,
    create_cctx: unsafe extern "C" fn(blosc2_cparams) -> Ctx,
    create_dctx: unsafe extern "C" fn(blosc2_dparams) -> Ctx,
    free_ctx: unsafe extern "C" fn(Ctx),
    compress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    decompress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    getitem_ctx:
        unsafe extern "C" fn(Ctx, *const c_void, i32, c_int, c_int, *mut c_void, i32) -> c_int,
}

fn ours() -> Api {
    use crate::capi::context::*;
    use crate::capi::meta::blosc2_meta_add;
    use crate::capi::schunk::{blosc2_schunk_free, blosc2_schunk_new};
    Api {
        schunk_new: blosc2_schunk_new,
        schunk_free: blosc2_schunk_free,
        meta_add: blosc2_meta_add,
        create_cctx: blosc2_create_cctx,
        create_dctx: blosc2_create_dctx,
        free_ctx: blosc2_free_ctx,
        compress_ctx: blosc2_compress_ctx,
        decompress_ctx: blosc2_decompress_ctx,
        getitem_ctx: blosc2_getitem_ctx,
    }
}

fn reference() -> Api {
    let lib = testref::library().expect("reference library");
    // SAFETY: each symbol has the C signature of its declaration in blosc2.h; the structs
    // are our layout-checked mirrors.
    unsafe {
        Api {
            schunk_new: lib.sym("blosc2_schunk_new"),
            schunk_free: lib.sym("blosc2_schunk_free"),
            meta_add: lib.sym("blosc2_meta_add"),
            create_cctx: lib.sym("blosc2_create_cctx"),
            create_dctx: lib.sym("blosc2_create_dctx"),
            free_ctx: lib.sym("blosc2_free_ctx"),
            compress_ctx: lib.sym("blosc2_compress_ctx"),
            decompress_ctx: lib.sym("blosc2_decompress_ctx"),
            getitem_ctx: lib.sym("blosc2_getitem_ctx"),
        }
    }
}

/// One case: parameters, array geometry and data.
#[derive(Clone)]
pub(super) struct Case {
    pub compcode: u8,
    pub compcode_meta: u8,
    pub filters: [u8; 6],
    pub filters_meta: [u8; 6],
    pub typesize: i32,
    pub splitmode: i32,
    pub chunkshape: Vec<i32>,
    pub blockshape: Vec<i32>,
    pub clevel: u8,
}

impl Case {
    fn cparams(&self) -> blosc2_cparams {
        let mut cp = blosc2_cparams::DEFAULTS;
        cp.compcode = self.compcode;
        cp.compcode_meta = self.compcode_meta;
        cp.filters = self.filters;
        cp.filters_meta = self.filters_meta;
        cp.typesize = self.typesize;
        cp.splitmode = self.splitmode;
        cp.clevel = self.clevel;
        cp.nthreads = 1;
        cp.blocksize = self.blockshape.iter().product::<i32>() * self.typesize;
        cp
    }

    fn meta(&self) -> Vec<u8> {
        Meta {
            shape: self.chunkshape.iter().map(|&c| i64::from(c) * 2).collect(),
            chunkshape: self.chunkshape.clone(),
            blockshape: self.blockshape.clone(),
            dtype: if self.typesize == 4 {
                Some("<f4".into())
            } else {
                Some("<f8".into())
            },
            dtype_format: 0,
        }
        .serialize()
        .expect("meta")
    }

    /// Bytes of one chunk.
    pub fn nbytes(&self) -> usize {
        self.chunkshape.iter().product::<i32>() as usize * self.typesize as usize
    }
}

/// A super-chunk of one library with the case's parameters and metalayer, and its contexts.
struct Side {
    api: Api,
    sc: Sc,
    cctx: Ctx,
    dctx: Ctx,
    _cp: Box<blosc2_cparams>,
    _dp: Box<blosc2_dparams>,
}

impl Side {
    fn new(api: Api, case: &Case) -> Side {
        let mut cp = Box::new(case.cparams());
        let mut dp = Box::new(blosc2_dparams::DEFAULTS);
        dp.nthreads = 1;
        let mut storage = blosc2_storage::DEFAULTS;
        storage.cparams = &mut *cp;
        storage.dparams = &mut *dp;
        let mut meta = case.meta();
        // SAFETY: valid storage and parameters; the metalayer content is copied.
        unsafe {
            let sc = (api.schunk_new)(&mut storage);
            assert!(!sc.is_null());
            let rc = (api.meta_add)(sc, c"b2nd".as_ptr(), meta.as_mut_ptr(), meta.len() as i32);
            assert!(rc >= 0, "meta_add {rc}");
            let mut c = *cp;
            c.schunk = sc.cast();
            let mut d = *dp;
            d.schunk = sc.cast();
            let cctx = (api.create_cctx)(c);
            let dctx = (api.create_dctx)(d);
            assert!(!cctx.is_null() && !dctx.is_null());
            Side {
                api,
                sc,
                cctx,
                dctx,
                _cp: cp,
                _dp: dp,
            }
        }
    }

    fn compress(&self, src: &[u8]) -> Result<Vec<u8>, i32> {
        let mut out = vec![0u8; src.len() + 64 * 1024];
        // SAFETY: buffers valid for the sizes given.
        let n = unsafe {
            (self.api.compress_ctx)(
                self.cctx,
                src.as_ptr().cast(),
                src.len() as i32,
                out.as_mut_ptr().cast(),
                out.len() as i32,
            )
        };
        if n <= 0 {
            return Err(n);
        }
        out.truncate(n as usize);
        Ok(out)
    }

    fn decompress(&self, chunk: &[u8], nbytes: usize) -> Result<Vec<u8>, i32> {
        let mut out = vec![0u8; nbytes];
        // SAFETY: buffers valid for the sizes given.
        let n = unsafe {
            (self.api.decompress_ctx)(
                self.dctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                out.as_mut_ptr().cast(),
                out.len() as i32,
            )
        };
        if n < 0 {
            return Err(n);
        }
        out.truncate(n as usize);
        Ok(out)
    }

    fn getitem(
        &self,
        chunk: &[u8],
        start: i32,
        nitems: i32,
        typesize: usize,
    ) -> Result<Vec<u8>, i32> {
        let mut out = vec![0u8; nitems as usize * typesize];
        // SAFETY: buffers valid for the sizes given.
        let n = unsafe {
            (self.api.getitem_ctx)(
                self.dctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                start,
                nitems,
                out.as_mut_ptr().cast(),
                out.len() as i32,
            )
        };
        if n < 0 {
            return Err(n);
        }
        Ok(out)
    }
}

impl Drop for Side {
    fn drop(&mut self) {
        // SAFETY: objects made in `new`, freed once.
        unsafe {
            (self.api.free_ctx)(self.cctx);
            (self.api.free_ctx)(self.dctx);
            (self.api.schunk_free)(self.sc);
        }
    }
}

/// Compresses `data` with both libraries and checks: the same result (chunk bytes or error
/// code), the same decoded bytes from both decoders on both chunks, and `lossless` round
/// trips. Returns the chunk.
pub(super) fn check(case: &Case, data: &[u8], lossless: bool) -> Option<Vec<u8>> {
    testref::library()?;
    crate::global::init();
    let r = Side::new(reference(), case);
    let o = Side::new(ours(), case);
    let rc = r.compress(data);
    let oc = o.compress(data);
    let what = format!(
        "codec {} meta {} filters {:?}/{:?} ts {} chunk {:?} block {:?}",
        case.compcode,
        case.compcode_meta,
        case.filters,
        case.filters_meta,
        case.typesize,
        case.chunkshape,
        case.blockshape
    );
    match (&rc, &oc) {
        (Ok(a), Ok(b)) => {
            if a != b {
                let at = a.iter().zip(b.iter()).position(|(x, y)| x != y);
                panic!(
                    "{what}: chunks differ ({} vs {} bytes, first at {at:?})",
                    a.len(),
                    b.len()
                );
            }
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{what}: error codes");
            return None;
        }
        _ => panic!(
            "{what}: reference {rc:?} ours {oc:?}",
            rc = rc.as_ref().map(Vec::len),
            oc = oc.as_ref().map(Vec::len)
        ),
    }
    let chunk = oc.expect("chunk");
    let n = data.len();
    let (rd, od) = match (r.decompress(&chunk, n), o.decompress(&chunk, n)) {
        (Ok(a), Ok(b)) => (a, b),
        // The reference cannot read some chunks it writes (NDMEAN cells cut in one
        // dimension but not the first): neither may ours.
        (Err(a), b) => {
            assert_eq!(
                Err(a),
                b.map(|_| ()),
                "{what}: decoding a chunk the reference refuses"
            );
            return Some(chunk);
        }
        (a, b) => panic!(
            "{what}: reference {:?} ours {:?}",
            a.map(|v| v.len()),
            b.map(|v| v.len())
        ),
    };
    assert_eq!(rd, od, "{what}: decoded bytes");
    if lossless {
        assert_eq!(od, data, "{what}: round trip");
    }
    // Items inside one block through getitem, from both libraries.
    let ts = case.typesize as usize;
    let items = (n / ts) as i32;
    for (start, len) in [
        (0, items.min(7)),
        (items / 3, items.min(33) / 2),
        (items - 1, 1),
    ] {
        let og = o.getitem(&chunk, start, len, ts).expect("ours getitem");
        let want = &od[start as usize * ts..(start + len) as usize * ts];
        assert_eq!(og, want, "{what}: getitem {start}+{len}");
    }
    Some(chunk)
}

/// Data of `n` items of `ts` bytes: 0 smooth, 1 random, 2 runs of one byte with noise,
/// 3 four-item groups drawn from three patterns (rows of cells that repeat).
pub(super) fn data(kind: u8, n: usize, ts: usize, seed: u64) -> Vec<u8> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    let mut out = Vec::with_capacity(n * ts);
    for i in 0..n {
        match (kind, ts) {
            (0, 4) => out.extend_from_slice(&((i as f32 * 0.01).sin() * 100.0).to_le_bytes()),
            (0, 8) => {
                out.extend_from_slice(&((i as f64 * 0.003).cos() * 1e3 + i as f64).to_le_bytes())
            }
            (0, _) => out.extend((0..ts).map(|k| ((i / 7 + k) % 251) as u8)),
            (1, _) => out.extend((0..ts).map(|_| next() as u8)),
            (3, _) => {
                let sel = ((i / 4).wrapping_mul(2654435761) >> 7) % 3;
                out.extend((0..ts).map(|k| (sel * 40 + (i % 4) * 3 + k) as u8));
            }
            _ => {
                let v = if next() % 5 == 0 {
                    next() as u8
                } else {
                    ((i / 4) % 3) as u8 * 17
                };
                out.extend((0..ts).map(|_| v));
            }
        }
    }
    out
}
