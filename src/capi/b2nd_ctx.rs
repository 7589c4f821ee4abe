//! `b2nd_context_t`: the parameters arrays are created with (`b2nd_create_ctx`,
//! `b2nd_free_ctx`). The C type is opaque; it points to a private `Ctx`.

use std::ffi::{c_char, c_int, CString};

use super::ffi::{c_str, guard};
use super::schunk::{core_storage, UserParams};
use super::types::{
    b2nd_context_t, blosc2_cparams, blosc2_dparams, blosc2_io, blosc2_metalayer, blosc2_storage,
    B2ND_MAX_METALAYERS, BLOSC_BITSHUFFLE, BLOSC_CODEC_ZFP_FIXED_ACCURACY,
    BLOSC_CODEC_ZFP_FIXED_RATE, BLOSC_SHUFFLE,
};
use crate::b2nd::meta::MAX_DIM;
use crate::b2nd::{Geometry, Params};
use crate::error::{Error, Result};

/// What a `b2nd_context_t*` points to: copies of everything the caller passed.
pub(crate) struct Ctx {
    contiguous: bool,
    urlpath: Option<CString>,
    pub(crate) cparams: blosc2_cparams,
    dparams: Option<blosc2_dparams>,
    io: Option<blosc2_io>,
    pub(crate) geometry: Geometry,
    pub(crate) dtype: Option<String>,
    pub(crate) dtype_format: i8,
    metalayers: Vec<(String, Vec<u8>)>,
}

impl Ctx {
    /// The C storage description of this context; its pointers borrow `self`.
    pub(crate) fn c_storage(&mut self) -> blosc2_storage {
        blosc2_storage {
            contiguous: self.contiguous,
            urlpath: self
                .urlpath
                .as_ref()
                .map_or(std::ptr::null_mut(), |s| s.as_ptr() as *mut c_char),
            cparams: &mut self.cparams,
            dparams: self
                .dparams
                .as_mut()
                .map_or(std::ptr::null_mut(), |d| d as *mut _),
            io: self
                .io
                .as_mut()
                .map_or(std::ptr::null_mut(), |i| i as *mut _),
        }
    }

    /// The core creation parameters, with the I/O selection and user callbacks the new
    /// super-chunk gets in C.
    pub(crate) fn params(&mut self) -> Result<(Params, blosc2_io, UserParams)> {
        let storage = self.c_storage();
        // SAFETY: `storage` points into `self`, whose fields are valid C parameter structs.
        let (storage, io, user) = unsafe { core_storage(&storage) }?;
        let params = Params {
            storage,
            geometry: self.geometry.clone(),
            dtype: self.dtype.clone(),
            dtype_format: self.dtype_format,
            metalayers: self.metalayers.clone(),
        };
        Ok((params, io, user))
    }

    /// Replaces the shape (as `b2nd_get_slice` and `b2nd_copy` do with the caller's
    /// context).
    pub(crate) fn set_shape(&mut self, shape: &[i64]) -> Result<()> {
        self.geometry = self.geometry.with_shape(shape)?;
        Ok(())
    }
}

/// Borrows the context behind a C pointer.
///
/// # Safety
/// `ctx` must be NULL or a live pointer from `b2nd_create_ctx`.
pub(crate) unsafe fn ctx_mut<'a>(ctx: *mut b2nd_context_t) -> Option<&'a mut Ctx> {
    // SAFETY: the caller guarantees the pointer came from `b2nd_create_ctx`.
    unsafe { ctx.cast::<Ctx>().as_mut() }
}

/// Copies `n` values from a C array.
///
/// # Safety
/// `ptr` must be NULL or readable for `n` values.
pub(crate) unsafe fn read_values<T: Copy>(ptr: *const T, n: usize) -> Option<Vec<T>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller guarantees `n` readable values.
    Some(unsafe { std::slice::from_raw_parts(ptr, n) }.to_vec())
}

/// Copies the caller's metalayers.
///
/// # Safety
/// `metalayers` must be NULL or readable for `n` entries whose pointers are valid.
unsafe fn read_metalayers(
    metalayers: *const blosc2_metalayer,
    n: i32,
) -> Option<Vec<(String, Vec<u8>)>> {
    let n = usize::try_from(n).ok()?;
    if n > B2ND_MAX_METALAYERS as usize {
        return None;
    }
    // SAFETY: forwarded caller guarantee.
    let list = unsafe { read_values(metalayers, n) }?;
    list.iter()
        .map(|m| {
            // SAFETY: the caller guarantees each name is a C string.
            let name = unsafe { c_str(m.name) }?.to_owned();
            let len = usize::try_from(m.content_len).ok()?;
            // SAFETY: the caller guarantees `content_len` readable bytes.
            let content = unsafe { read_values(m.content, len) }?;
            Some((name, content))
        })
        .collect()
}

/// Whether the codec is ZFP while a shuffle filter is on (the reference refuses that).
fn zfp_with_shuffle(cp: &blosc2_cparams) -> bool {
    let zfp = (BLOSC_CODEC_ZFP_FIXED_ACCURACY..=BLOSC_CODEC_ZFP_FIXED_RATE)
        .contains(&c_int::from(cp.compcode));
    let shuffles = cp
        .filters
        .iter()
        .any(|&f| c_int::from(f) == BLOSC_SHUFFLE || c_int::from(f) == BLOSC_BITSHUFFLE);
    zfp && shuffles
}

/// The caller's creation arguments, borrowed.
struct Args {
    b2_storage: *const blosc2_storage,
    ndim: i8,
    shape: *const i64,
    chunkshape: *const i32,
    blockshape: *const i32,
    dtype: *const c_char,
    dtype_format: i8,
    metalayers: *const blosc2_metalayer,
    nmetalayers: i32,
}

/// Builds a context; `None` on bad arguments.
///
/// # Safety
/// Pointers must be NULL or valid for `ndim` values (`metalayers` for `nmetalayers`).
unsafe fn create_ctx(args: Args) -> Option<Box<Ctx>> {
    let Args {
        b2_storage,
        ndim,
        shape,
        chunkshape,
        blockshape,
        dtype,
        dtype_format,
        metalayers,
        nmetalayers,
    } = args;
    let n = usize::try_from(ndim).ok().filter(|&n| n <= MAX_DIM)?;
    // SAFETY: forwarded caller guarantees.
    let (shape, chunkshape, blockshape) = unsafe {
        (
            read_values(shape, n)?,
            read_values(chunkshape, n)?,
            read_values(blockshape, n)?,
        )
    };
    let geometry = Geometry::new(&shape, &chunkshape, &blockshape).ok()?;
    // SAFETY: the caller guarantees a valid storage and nested parameter structs.
    let s = unsafe { b2_storage.as_ref() }
        .copied()
        .unwrap_or(blosc2_storage::DEFAULTS);
    // SAFETY: as above.
    let mut cparams = unsafe { s.cparams.as_ref() }
        .copied()
        .unwrap_or(blosc2_cparams::DEFAULTS);
    if cparams.typesize <= 0 || zfp_with_shuffle(&cparams) {
        return None;
    }
    cparams.blocksize = geometry.block_nbytes(cparams.typesize).ok()?;
    // SAFETY: as above.
    let dparams = unsafe { s.dparams.as_ref() }.copied();
    // SAFETY: as above.
    let io = unsafe { s.io.as_ref() }.copied();
    let urlpath = if s.urlpath.is_null() {
        None
    } else {
        // SAFETY: the caller guarantees a NUL-terminated path.
        Some(unsafe { std::ffi::CStr::from_ptr(s.urlpath) }.to_owned())
    };
    let dtype = if dtype.is_null() {
        format!("|S{}", cparams.typesize)
    } else {
        // SAFETY: the caller guarantees a NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(dtype) }
            .to_string_lossy()
            .into_owned()
    };
    // SAFETY: forwarded caller guarantees.
    let metalayers = unsafe { read_metalayers(metalayers, nmetalayers) }?;
    Some(Box::new(Ctx {
        contiguous: s.contiguous,
        urlpath,
        cparams,
        dparams,
        io,
        geometry,
        dtype: Some(dtype),
        dtype_format,
        metalayers,
    }))
}

/// Creates the parameters of new arrays (storage, shapes, dtype, extra metalayers); the
/// block size of the compression parameters becomes the block shape's. NULL on invalid
/// arguments.
///
/// # Safety
/// `b2_storage` NULL or valid; shape pointers valid for `ndim` values; `dtype` NULL or a C
/// string; `metalayers` valid for `nmetalayers` entries.
#[no_mangle]
pub unsafe extern "C" fn b2nd_create_ctx(
    b2_storage: *const blosc2_storage,
    ndim: i8,
    shape: *const i64,
    chunkshape: *const i32,
    blockshape: *const i32,
    dtype: *const c_char,
    dtype_format: i8,
    metalayers: *const blosc2_metalayer,
    nmetalayers: i32,
) -> *mut b2nd_context_t {
    guard(std::ptr::null_mut(), || {
        // SAFETY: forwarded caller guarantees.
        let ctx = unsafe {
            create_ctx(Args {
                b2_storage,
                ndim,
                shape,
                chunkshape,
                blockshape,
                dtype,
                dtype_format,
                metalayers,
                nmetalayers,
            })
        };
        ctx.map_or(std::ptr::null_mut(), |c| Box::into_raw(c).cast())
    })
}

/// Frees a context; 0 (also for NULL).
///
/// # Safety
/// `ctx` must be NULL or a live context, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn b2nd_free_ctx(ctx: *mut b2nd_context_t) -> c_int {
    guard(Error::Failure.code(), || {
        if !ctx.is_null() {
            // SAFETY: the pointer came from `Box::into_raw` in `b2nd_create_ctx`.
            drop(unsafe { Box::from_raw(ctx.cast::<Ctx>()) });
        }
        0
    })
}
