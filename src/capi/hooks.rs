//! What C callbacks see: the per-context host data (the caller's parameter structs), the
//! `blosc2_cparams`/`blosc2_dparams` built for codec and filter callbacks, and the wrappers
//! that turn C prefilters and postfilters into core closures.

use std::any::Any;
use std::ffi::c_void;
use std::sync::Arc;

use super::types::{
    blosc2_context, blosc2_cparams, blosc2_dparams, blosc2_postfilter_params,
    blosc2_prefilter_params,
};
use crate::chunk::hooks::{Output, PostfilterArgs, PostfilterFn, Prefilter, PrefilterArgs};
use crate::registry::plugins::{CompressCall, DecompressCall};

/// A raw pointer that may be moved to other threads: the C caller vouches for what it
/// points to for as long as it hands it to the library.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SendPtr<T>(pub(crate) *mut T);

impl<T> SendPtr<T> {
    /// The pointer (a method, so closures capture the whole wrapper).
    pub(crate) fn get(&self) -> *mut T {
        self.0
    }
}

// SAFETY: the pointer is only handed back to the C caller (never dereferenced by the
// library without the caller's guarantee), so sharing it between threads is what the C API
// already promises.
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: see above.
unsafe impl<T> Sync for SendPtr<T> {}

/// The C side of a context: the caller's parameter structs as given (with the pre/postfilter
/// parameters copied), and the context pointer callbacks are told.
#[derive(Debug)]
pub(crate) struct CHost {
    /// The context pointer handed to callbacks.
    pub(crate) ctx: *mut blosc2_context,
    /// The compression parameters given at creation (`preparams` points to `preparams`).
    pub(crate) cparams: Option<blosc2_cparams>,
    /// The decompression parameters given at creation (`postparams` points to `postparams`).
    pub(crate) dparams: Option<blosc2_dparams>,
    /// Copy of the prefilter parameters.
    preparams: Option<Box<blosc2_prefilter_params>>,
    /// Copy of the postfilter parameters.
    postparams: Option<Box<blosc2_postfilter_params>>,
}

// SAFETY: the raw pointers inside are the caller's (schunk, user data, callbacks) or point
// into the boxes owned here; the library only reads them and passes them back to C.
unsafe impl Send for CHost {}
// SAFETY: see above; nothing here is mutated after creation.
unsafe impl Sync for CHost {}

impl CHost {
    /// Host data for a compression context made from `cparams`; the prefilter parameters
    /// are copied (zeroes when `preparams` is NULL).
    ///
    /// # Safety
    /// `cparams.preparams` must be NULL or readable.
    pub(crate) unsafe fn for_cparams(ctx: *mut blosc2_context, cparams: blosc2_cparams) -> CHost {
        let mut cparams = cparams;
        let preparams = cparams.prefilter.map(|_| {
            // SAFETY: the caller guarantees `preparams` is NULL or readable.
            Box::new(
                unsafe { cparams.preparams.as_ref() }
                    .copied()
                    .unwrap_or(ZERO_PRE),
            )
        });
        if let Some(b) = &preparams {
            cparams.preparams = std::ptr::from_ref::<blosc2_prefilter_params>(b).cast_mut();
        }
        CHost {
            ctx,
            cparams: Some(cparams),
            dparams: None,
            preparams,
            postparams: None,
        }
    }

    /// Host data for a decompression context made from `dparams`.
    ///
    /// # Safety
    /// `dparams.postparams` must be NULL or readable.
    pub(crate) unsafe fn for_dparams(ctx: *mut blosc2_context, dparams: blosc2_dparams) -> CHost {
        let mut dparams = dparams;
        let postparams = dparams.postfilter.map(|_| {
            // SAFETY: the caller guarantees `postparams` is NULL or readable.
            Box::new(
                unsafe { dparams.postparams.as_ref() }
                    .copied()
                    .unwrap_or(ZERO_POST),
            )
        });
        if let Some(b) = &postparams {
            dparams.postparams = std::ptr::from_ref::<blosc2_postfilter_params>(b).cast_mut();
        }
        CHost {
            ctx,
            cparams: None,
            dparams: Some(dparams),
            preparams: None,
            postparams,
        }
    }

    /// The core prefilter calling the C prefilter of these parameters, if any.
    pub(crate) fn prefilter(&self) -> Option<Prefilter> {
        let f = self.cparams?.prefilter?;
        let template = *self.preparams.as_deref()?;
        let ctx = SendPtr(self.ctx);
        let tmpl = SendParams(template);
        Some(Prefilter {
            disposable: template.output_is_disposable,
            run: Arc::new(move |args: &mut PrefilterArgs<'_>| {
                let mut p = tmpl.get();
                let ttmp = args.ttmp.as_mut_ptr();
                p.input = args.input.as_ptr();
                p.output = match &mut args.output {
                    // SAFETY: the core keeps output places inside `ttmp`.
                    Output::Scratch(at) => unsafe { ttmp.add(*at) },
                    Output::Buffer(b) => b.as_mut_ptr(),
                };
                p.output_size = args.size as i32;
                p.output_typesize = args.typesize;
                p.output_offset = args.offset as i32;
                p.nchunk = args.nchunk;
                p.nblock = args.nblock as i32;
                p.tid = args.tid as i32;
                p.ttmp = ttmp;
                p.ttmp_nbytes = args.ttmp.len();
                p.ctx = ctx.get();
                // SAFETY: a C prefilter given by the caller; every pointer in `p` is valid
                // for the sizes it announces during the call.
                unsafe { f(&mut p) }
            }),
        })
    }

    /// The core postfilter calling the C postfilter of these parameters, if any.
    pub(crate) fn postfilter(&self) -> Option<PostfilterFn> {
        let f = self.dparams?.postfilter?;
        let tmpl = SendPost(*self.postparams.as_deref()?);
        let ctx = SendPtr(self.ctx);
        Some(Arc::new(move |args: &mut PostfilterArgs<'_>| {
            let mut p = tmpl.get();
            let ttmp = args.ttmp.as_mut_ptr();
            // SAFETY: the core keeps input and output places inside `ttmp`.
            p.input = unsafe { ttmp.add(args.input) };
            p.output = match &mut args.output {
                // SAFETY: as above.
                Output::Scratch(at) => unsafe { ttmp.add(*at) },
                Output::Buffer(b) => b.as_mut_ptr(),
            };
            p.size = args.size as i32;
            p.typesize = args.typesize;
            p.offset = args.offset as i32;
            p.nchunk = args.nchunk;
            p.nblock = args.nblock as i32;
            p.tid = args.tid as i32;
            p.ttmp = ttmp;
            p.ttmp_nbytes = args.ttmp.len();
            p.ctx = ctx.get();
            // SAFETY: a C postfilter given by the caller; every pointer in `p` is valid for
            // the sizes it announces during the call.
            unsafe { f(&mut p) }
        }))
    }
}

/// Prefilter parameters moved into a closure (their pointers are the caller's user data).
#[derive(Clone, Copy)]
struct SendParams(blosc2_prefilter_params);

impl SendParams {
    fn get(&self) -> blosc2_prefilter_params {
        self.0
    }
}
// SAFETY: only the caller's `user_data` pointer travels, which the caller shares with its
// own prefilter on whatever thread runs it.
unsafe impl Send for SendParams {}
// SAFETY: see above.
unsafe impl Sync for SendParams {}

/// Postfilter parameters moved into a closure.
#[derive(Clone, Copy)]
struct SendPost(blosc2_postfilter_params);

impl SendPost {
    fn get(&self) -> blosc2_postfilter_params {
        self.0
    }
}
// SAFETY: as for `SendParams`.
unsafe impl Send for SendPost {}
// SAFETY: see above.
unsafe impl Sync for SendPost {}

const ZERO_PRE: blosc2_prefilter_params = blosc2_prefilter_params {
    user_data: std::ptr::null_mut(),
    input: std::ptr::null(),
    output: std::ptr::null_mut(),
    output_size: 0,
    output_typesize: 0,
    output_offset: 0,
    nchunk: 0,
    nblock: 0,
    tid: 0,
    ttmp: std::ptr::null_mut(),
    ttmp_nbytes: 0,
    ctx: std::ptr::null_mut(),
    output_is_disposable: false,
};

const ZERO_POST: blosc2_postfilter_params = blosc2_postfilter_params {
    user_data: std::ptr::null_mut(),
    input: std::ptr::null(),
    output: std::ptr::null_mut(),
    size: 0,
    typesize: 0,
    offset: 0,
    nchunk: 0,
    nblock: 0,
    tid: 0,
    ttmp: std::ptr::null_mut(),
    ttmp_nbytes: 0,
    ctx: std::ptr::null_mut(),
};

fn chost(host: Option<&(dyn Any + Send + Sync)>) -> Option<&CHost> {
    host.and_then(|h| h.downcast_ref::<CHost>())
}

/// The `blosc2_cparams` a codec or filter callback receives, as the reference's
/// `blosc2_ctx_get_cparams` fills it during a compression.
pub(crate) fn call_cparams(call: &CompressCall) -> blosc2_cparams {
    let host = chost(call.host);
    let mut out = host
        .and_then(|h| h.cparams)
        .unwrap_or(blosc2_cparams::DEFAULTS);
    let c = call.cparams;
    out.compcode = c.compcode;
    out.compcode_meta = c.compcode_meta;
    out.clevel = c.clevel;
    out.use_dict = i32::from(c.use_dict);
    out.instr_codec = c.instr_codec;
    out.typesize = c.typesize;
    out.nthreads = c.nthreads;
    out.blocksize = c.blocksize;
    out.splitmode = c.splitmode;
    out.filters = c.filters;
    out.filters_meta = c.filters_meta;
    out
}

/// The `blosc2_dparams` a codec or filter callback receives during a decompression.
pub(crate) fn call_dparams(call: &DecompressCall) -> blosc2_dparams {
    let host = chost(call.host);
    let mut out = host
        .and_then(|h| h.dparams)
        .unwrap_or(blosc2_dparams::DEFAULTS);
    out.nthreads = call.dparams.nthreads;
    out.typesize = call.dparams.typesize;
    out
}

/// The source pointer handed to codec encoders (`const void* chunk`).
pub(crate) fn chunk_ptr(data: &[u8]) -> *const c_void {
    data.as_ptr().cast()
}
