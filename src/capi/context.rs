//! Contexts: `blosc2_create_cctx`/`dctx`, `*_ctx` compression functions, parameter getters.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use super::ffi::{bytes, bytes_mut, c_str, code, guard, size};
use super::hooks::{CHost, SendPtr};
use super::schunk_ops::resolve_lazy;
use super::tuners::view::ContextView;
use super::tuners::{self, CTuner};
use super::types::{blosc2_context, blosc2_cparams, blosc2_dparams, blosc2_schunk};
use crate::context::{CParams, Context, DParams};
use crate::error::Error;
use crate::global;
use crate::registry::plugins::MetaLookup;

/// What a `blosc2_context*` points to: the fields tuner plugins address, then the
/// library's handle.
#[repr(C)]
struct Shell {
    view: ContextView,
    handle: *mut Handle,
}

/// The core context plus the caller's parameter structs, whose pointer fields are handed
/// back verbatim by the getters, and the context's tuner.
pub(crate) struct Handle {
    /// The core context.
    pub(crate) ctx: Context,
    host: Option<Arc<CHost>>,
    tuner: Option<Arc<CTuner>>,
}

impl Handle {
    fn cparams(&self) -> Option<blosc2_cparams> {
        self.host.as_ref().and_then(|h| h.cparams)
    }

    fn dparams(&self) -> Option<blosc2_dparams> {
        self.host.as_ref().and_then(|h| h.dparams)
    }
}

/// The core parameters a compression context gets from `cparams` (environment variables
/// applied) and whether `BLOSC_COMPRESSOR` named an unknown codec; `None` when
/// `blosc2_create_cctx` refuses them.
pub(crate) fn cctx_cparams(cparams: &blosc2_cparams) -> Option<(CParams, bool)> {
    if cparams
        .filters
        .iter()
        .copied()
        .any(crate::constants::filter_id_reserved)
    {
        return None;
    }
    let mut core = core_cparams(cparams);
    let unknown_codec = global::apply_env_to_cparams(&mut core).ok()?;
    Some((core, unknown_codec))
}

/// Boxes a context and attaches the C host data made by `host` (which is told the context
/// pointer): callbacks, and the parameter structs.
fn into_ptr(ctx: Context, host: impl FnOnce(*mut blosc2_context) -> CHost) -> *mut blosc2_context {
    let handle = Box::into_raw(Box::new(Handle {
        ctx,
        host: None,
        tuner: None,
    }));
    let shell = Box::into_raw(Box::new(Shell {
        view: ContextView::zeroed(),
        handle,
    }));
    let ptr: *mut blosc2_context = shell.cast();
    let host = Arc::new(host(ptr));
    // SAFETY: `handle` was just made from a box and is not shared yet.
    let h = unsafe { &mut *handle };
    h.ctx.set_prefilter(host.prefilter());
    h.ctx.set_postfilter(host.postfilter());
    h.ctx.set_host(Some(host.clone()));
    h.host = Some(host);
    ptr
}

/// Typesize of the super-chunk a parameter struct points to.
///
/// # Safety
/// `schunk` must be NULL or point to a live `blosc2_schunk`.
unsafe fn schunk_typesize(schunk: *mut c_void) -> Option<i32> {
    // SAFETY: the caller guarantees a live super-chunk or NULL.
    unsafe { schunk.cast::<blosc2_schunk>().as_ref() }.map(|s| s.typesize)
}

/// The metalayers of the super-chunk a parameter struct points to, read from its C struct
/// whenever a plugin asks (so a metalayer added after the context was made is seen, as in
/// the reference); `None` for NULL.
///
/// # Safety
/// `schunk` must be NULL or point to a `blosc2_schunk` that stays live while the context
/// is used.
pub(crate) unsafe fn schunk_meta_lookup(schunk: *mut c_void) -> Option<MetaLookup> {
    if schunk.is_null() {
        return None;
    }
    let sc = SendPtr(schunk.cast::<blosc2_schunk>());
    Some(Arc::new(move |name: &str| {
        // SAFETY: the creator of the context guarantees the super-chunk outlives it; its
        // metalayer slots below `nmetalayers` point to live metalayers.
        unsafe {
            let s = &*sc.get();
            let n = usize::from(s.nmetalayers).min(s.metalayers.len());
            s.metalayers[..n].iter().find_map(|&m| {
                let m = m.as_ref()?;
                if c_str(m.name)? != name {
                    return None;
                }
                Some(bytes(m.content.cast(), size(m.content_len))?.to_vec())
            })
        }
    }))
}

/// The core parameters of a C `blosc2_cparams`.
pub(crate) fn core_cparams(c: &blosc2_cparams) -> CParams {
    CParams {
        compcode: c.compcode,
        compcode_meta: c.compcode_meta,
        clevel: c.clevel,
        use_dict: c.use_dict != 0,
        typesize: c.typesize,
        nthreads: c.nthreads,
        blocksize: c.blocksize,
        splitmode: c.splitmode,
        filters: c.filters,
        filters_meta: c.filters_meta,
        instr_codec: c.instr_codec,
    }
}

/// Borrows the handle behind a context pointer.
///
/// # Safety
/// `ctx` must be NULL or a pointer returned by `blosc2_create_cctx`/`dctx` and not freed,
/// with no other live borrow.
pub(crate) unsafe fn handle_ctx<'a>(ctx: *mut blosc2_context) -> Option<&'a mut Handle> {
    // SAFETY: the caller guarantees `ctx` came from `into_ptr` and is exclusively ours; the
    // handle pointer of a shell is never NULL.
    unsafe { ctx.cast::<Shell>().as_ref().and_then(|s| s.handle.as_mut()) }
}

/// The handle and the source and destination buffers of a `*_ctx` entry point; `None` for a
/// NULL context or a NULL buffer with a non-zero size.
///
/// # Safety
/// As for [`handle_ctx`]; `src` readable for `srcsize` and `dest` writable for `destsize`
/// bytes, not overlapping.
unsafe fn ctx_buffers<'a>(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    dest: *mut c_void,
    destsize: i32,
) -> Option<(&'a mut Handle, &'a [u8], &'a mut [u8])> {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        Some((
            handle_ctx(context)?,
            bytes(src, size(srcsize))?,
            bytes_mut(dest, size(destsize))?,
        ))
    }
}

/// Creates a compression context; NULL for reserved filter ids or a plugin codec named by
/// `BLOSC_COMPRESSOR`. The prefilter parameters are copied.
///
/// # Safety
/// `cparams.preparams` must be NULL or readable; `cparams.schunk` NULL or a live
/// super-chunk.
#[no_mangle]
pub unsafe extern "C" fn blosc2_create_cctx(cparams: blosc2_cparams) -> *mut blosc2_context {
    guard(std::ptr::null_mut(), || {
        let Some((core, unknown_codec)) = cctx_cparams(&cparams) else {
            return std::ptr::null_mut();
        };
        let mut ctx = Context::compressor(core);
        if unknown_codec {
            ctx.set_invalid_codec();
        }
        // SAFETY: forwarded caller guarantee.
        ctx.set_schunk_typesize(unsafe { schunk_typesize(cparams.schunk) });
        // SAFETY: forwarded caller guarantee.
        ctx.set_schunk_meta(unsafe { schunk_meta_lookup(cparams.schunk) });
        // SAFETY: forwarded caller guarantee on `preparams`.
        let ptr = into_ptr(ctx, |p| unsafe { CHost::for_cparams(p, cparams) });
        // SAFETY: `ptr` was just made by `into_ptr` and is not shared yet.
        let h = unsafe { handle_ctx(ptr) }.expect("a new context");
        // SAFETY: the view of the new shell, not borrowed elsewhere.
        match unsafe { tuners::attach(ptr.cast(), &cparams, &mut h.ctx) } {
            Some(t) => {
                h.tuner = t;
                ptr
            }
            None => {
                // SAFETY: made above and not handed out.
                unsafe { blosc2_free_ctx(ptr) };
                std::ptr::null_mut()
            }
        }
    })
}

/// Creates a decompression context; the postfilter parameters are copied.
///
/// # Safety
/// `dparams.postparams` must be NULL or readable; `dparams.schunk` NULL or a live
/// super-chunk.
#[no_mangle]
pub unsafe extern "C" fn blosc2_create_dctx(dparams: blosc2_dparams) -> *mut blosc2_context {
    guard(std::ptr::null_mut(), || {
        let mut core = DParams {
            nthreads: dparams.nthreads,
            typesize: dparams.typesize,
        };
        global::apply_env_to_dparams(&mut core);
        let mut ctx = Context::decompressor(core);
        // SAFETY: forwarded caller guarantee.
        ctx.set_schunk_typesize(unsafe { schunk_typesize(dparams.schunk) });
        // SAFETY: forwarded caller guarantee.
        ctx.set_schunk_meta(unsafe { schunk_meta_lookup(dparams.schunk) });
        // SAFETY: forwarded caller guarantee on `postparams`.
        into_ptr(ctx, |p| unsafe { CHost::for_dparams(p, dparams) })
    })
}

/// Frees a context (NULL is ignored).
///
/// # Safety
/// `context` must be NULL or a live context from `blosc2_create_cctx`/`dctx`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_free_ctx(context: *mut blosc2_context) {
    guard((), || {
        if !context.is_null() {
            // SAFETY: the caller hands back a pointer made by `into_ptr`.
            let shell = unsafe { Box::from_raw(context.cast::<Shell>()) };
            // SAFETY: the shell owns its handle.
            let handle = unsafe { Box::from_raw(shell.handle) };
            if let Some(t) = &handle.tuner {
                tuners::release(t);
            }
        }
    })
}

/// Compresses `srcsize` bytes into a chunk; returns its size, 0 when it does not fit, or a
/// negative error code.
///
/// # Safety
/// `context` must be a live context; `src` readable for `srcsize` and `dest` writable for
/// `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_compress_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some(h) = (unsafe { handle_ctx(context) }) else {
            return Error::NullPointer.code();
        };
        if srcsize < 0 {
            return Error::InvalidParam.code();
        }
        // SAFETY: the caller guarantees the buffer sizes.
        let (Some(src), Some(dst)) = (unsafe { bytes(src, size(srcsize)) }, unsafe {
            bytes_mut(dest, size(destsize))
        }) else {
            return Error::NullPointer.code();
        };
        // SAFETY: a context bound to a super-chunk carries a live `blosc2_schunk` pointer.
        unsafe { tell_current_nchunk(h, h.cparams().map(|c| c.schunk.cast())) };
        code(h.ctx.compress(src, dst))
    })
}

/// Tells the filters of a context bound to `schunk` the super-chunk's `current_nchunk`
/// (which programs set before compressing or decompressing a chunk of it), as the
/// reference does.
///
/// # Safety
/// `schunk` must be `None`, NULL or a live super-chunk.
unsafe fn tell_current_nchunk(h: &mut Handle, schunk: Option<*mut blosc2_schunk>) {
    // SAFETY: forwarded caller guarantee; the field is read, not borrowed.
    if let Some(s) = schunk.and_then(|p| unsafe { p.as_ref() }) {
        h.ctx.set_nchunk(Some(s.current_nchunk));
    }
}

/// Decompresses a chunk; returns the number of bytes written or a negative error code.
///
/// # Safety
/// `context` must be a live context; `src` readable for `srcsize` and `dest` writable for
/// `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_decompress_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some((h, src, dst)) = (unsafe { ctx_buffers(context, src, srcsize, dest, destsize) })
        else {
            return Error::NullPointer.code();
        };
        // SAFETY: a context bound to a super-chunk carries a live `blosc2_schunk` pointer.
        unsafe { tell_current_nchunk(h, Some(bound_schunk(h))) };
        // SAFETY: as above.
        match unsafe { resolve_lazy(bound_schunk(h), src) } {
            Some(Ok(whole)) => code(h.ctx.decompress(&whole, dst)),
            Some(Err(e)) => e.code(),
            None => code(h.ctx.decompress(src, dst)),
        }
    })
}

/// Extracts `nitems` items from `start` (units of the chunk's typesize).
///
/// # Safety
/// `context` must be a live context; `src` readable for `srcsize` and `dest` writable for
/// `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_getitem_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    start: c_int,
    nitems: c_int,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some((h, src, dst)) = (unsafe { ctx_buffers(context, src, srcsize, dest, destsize) })
        else {
            return Error::NullPointer.code();
        };
        // SAFETY: a context bound to a super-chunk carries a live `blosc2_schunk` pointer.
        match unsafe { resolve_lazy(bound_schunk(h), src) } {
            Some(Ok(whole)) => code(h.ctx.getitem(&whole, start, nitems, dst)),
            Some(Err(e)) => e.code(),
            None => code(h.ctx.getitem(src, start, nitems, dst)),
        }
    })
}

/// The super-chunk a decompression context is bound to (`dparams.schunk`), or NULL.
pub(crate) fn bound_schunk(h: &Handle) -> *mut blosc2_schunk {
    h.dparams()
        .map_or(std::ptr::null_mut(), |d| d.schunk.cast())
}

/// Extracts `nbytes` bytes from byte `start`; both must be multiples of the typesize.
///
/// # Safety
/// `context` must be a live context; `src` readable for `srcsize` and `dest` writable for
/// `destsize` bytes.
#[no_mangle]
pub unsafe extern "C" fn blosc2_getitem_bytes_ctx(
    context: *mut blosc2_context,
    src: *const c_void,
    srcsize: i32,
    start: i32,
    nbytes: i32,
    dest: *mut c_void,
    destsize: i32,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some((h, src, dst)) = (unsafe { ctx_buffers(context, src, srcsize, dest, destsize) })
        else {
            return Error::NullPointer.code();
        };
        // SAFETY: a context bound to a super-chunk carries a live `blosc2_schunk` pointer.
        match unsafe { resolve_lazy(bound_schunk(h), src) } {
            Some(Ok(whole)) => code(h.ctx.getitem_bytes(&whole, start, nbytes, dst)),
            Some(Err(e)) => e.code(),
            None => code(h.ctx.getitem_bytes(src, start, nbytes, dst)),
        }
    })
}

/// Fills `cparams` from a context (the blocksize is the one of the last compression;
/// `tuner_params` and `filter_params` are left untouched, as in the reference).
///
/// # Safety
/// `ctx` must be a live context and `cparams` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_ctx_get_cparams(
    ctx: *mut blosc2_context,
    cparams: *mut blosc2_cparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(h), Some(out)) = (unsafe { handle_ctx(ctx) }, unsafe { cparams.as_mut() }) else {
            return Error::NullPointer.code();
        };
        let core = h.ctx.cparams();
        let given = h.cparams().unwrap_or(blosc2_cparams::DEFAULTS);
        out.compcode = core.compcode;
        out.compcode_meta = core.compcode_meta;
        out.clevel = core.clevel;
        out.use_dict = c_int::from(core.use_dict);
        out.instr_codec = core.instr_codec;
        out.typesize = core.typesize;
        out.nthreads = core.nthreads;
        out.blocksize = core.blocksize;
        out.splitmode = core.splitmode;
        out.schunk = given.schunk;
        out.filters = core.filters;
        out.filters_meta = core.filters_meta;
        out.prefilter = given.prefilter;
        out.preparams = given.preparams;
        out.tuner_id = given.tuner_id;
        out.codec_params = given.codec_params;
        0
    })
}

/// Fills `dparams` from a context (a decompression context reports typesize 0).
///
/// # Safety
/// `ctx` must be a live context and `dparams` writable.
#[no_mangle]
pub unsafe extern "C" fn blosc2_ctx_get_dparams(
    ctx: *mut blosc2_context,
    dparams: *mut blosc2_dparams,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let (Some(h), Some(out)) = (unsafe { handle_ctx(ctx) }, unsafe { dparams.as_mut() }) else {
            return Error::NullPointer.code();
        };
        let given = h.dparams().unwrap_or(blosc2_dparams::DEFAULTS);
        out.nthreads = h.ctx.dparams().nthreads;
        out.schunk = given.schunk;
        out.postfilter = given.postfilter;
        out.postparams = given.postparams;
        out.typesize = if h.dparams().is_some() {
            0
        } else {
            h.ctx.cparams().typesize
        };
        0
    })
}

/// Skips the blocks whose `maskout` entry is true in the next `blosc2_decompress_ctx` call
/// only (getitem ignores the mask). A mask of the wrong length makes that call fail.
/// Returns 0, or -4 when the mask cannot be stored.
///
/// # Safety
/// `ctx` must be a live context and `maskout` readable for `nblocks` booleans.
#[no_mangle]
pub unsafe extern "C" fn blosc2_set_maskout(
    ctx: *mut blosc2_context,
    maskout: *mut bool,
    nblocks: c_int,
) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: forwarded caller guarantees.
        let Some(h) = (unsafe { handle_ctx(ctx) }) else {
            return Error::NullPointer.code();
        };
        // SAFETY: the caller guarantees `nblocks` readable booleans.
        let Some(mask) = (unsafe { bytes(maskout.cast_const().cast(), size(nblocks)) }) else {
            return Error::MemoryAlloc.code();
        };
        let mask: Vec<bool> = mask.iter().map(|&b| b != 0).collect();
        h.ctx.set_maskout(&mask);
        0
    })
}
