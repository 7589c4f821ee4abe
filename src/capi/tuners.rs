//! Tuners: the C functions of a registered tuner (`blosc2_tuner`), called as the reference
//! calls them: `init(tuner_params, cctx, NULL)` when a compression context is made,
//! `next_cparams(ctx)` (when the context's `tuner_params` is set) or `next_blocksize(ctx)`
//! before every compression, `update(ctx, ctime)` after it and `free(ctx)` when the context
//! is freed (both only with `tuner_params` set). The context pointer they get addresses a
//! [`ContextView`], whose fields the library writes before and reads back after each call.

pub(crate) mod view;

use std::ffi::{c_double, c_int, c_void};
use std::sync::{Arc, Mutex, PoisonError};

use super::hooks::SendPtr;
use super::types::{blosc2_context, blosc2_cparams, blosc2_tuner, BLOSC_BTUNE};
use crate::context::{CParams, Context};
use crate::error::Error;
use crate::registry::plugins::{self, Compressed, HostData, Tune};
use view::ContextView;

/// `init(config, cctx, dctx)`.
pub(crate) type InitFn =
    unsafe extern "C" fn(*mut c_void, *mut blosc2_context, *mut blosc2_context) -> c_int;
/// `next_blocksize(ctx)`, `next_cparams(ctx)` and `free(ctx)`.
pub(crate) type CtxFn = unsafe extern "C" fn(*mut blosc2_context) -> c_int;
/// `update(ctx, ctime)`.
pub(crate) type UpdateFn = unsafe extern "C" fn(*mut blosc2_context, c_double) -> c_int;

/// The five functions of a tuner.
#[derive(Clone, Copy)]
pub(crate) struct Hooks {
    pub(crate) init: InitFn,
    pub(crate) next_blocksize: CtxFn,
    pub(crate) next_cparams: CtxFn,
    pub(crate) update: UpdateFn,
    pub(crate) free: CtxFn,
}

impl Hooks {
    /// The functions of a registered `blosc2_tuner`; `None` unless all five are given (the
    /// tuner is then loaded by name on first use).
    pub(crate) fn of(t: &blosc2_tuner) -> Option<HostData> {
        let h = Hooks {
            init: t.init?,
            next_blocksize: t.next_blocksize?,
            next_cparams: t.next_cparams?,
            update: t.update?,
            free: t.free?,
        };
        Some(Arc::new(h))
    }
}

/// The tuner of one compression context; it outlives the context in super-chunks that share
/// it, so the context pointer is cleared when the context is freed.
pub(crate) struct CTuner {
    hooks: Hooks,
    ctx: Mutex<Option<SendPtr<ContextView>>>,
}

impl CTuner {
    /// Runs `f` on the view of the live context (nothing once it is freed).
    fn with_view(
        &self,
        f: impl FnOnce(*mut ContextView) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let guard = self.ctx.lock().unwrap_or_else(PoisonError::into_inner);
        match guard.as_ref() {
            Some(p) => f(p.get()),
            None => Ok(()),
        }
    }
}

impl Tune for CTuner {
    fn next(&self, cp: &mut CParams, src: &[u8], destsize: usize) -> Result<(), Error> {
        self.with_view(|v| {
            // SAFETY: the view belongs to the live context this tuner was attached to; the
            // lock serialises every access the library makes to it.
            let with_params = unsafe { !(*v).tuner_params.is_null() };
            // SAFETY: as above.
            unsafe {
                (*v).put(cp);
                (*v).set_source(src, destsize);
            }
            let f = if with_params {
                self.hooks.next_cparams
            } else {
                self.hooks.next_blocksize
            };
            // SAFETY: a tuner function of the C signature, given the context pointer.
            let rc = unsafe { f(v.cast()) };
            // SAFETY: as above.
            unsafe {
                (*v).src = std::ptr::null();
                (*v).take(cp);
            }
            if rc < 0 {
                return Err(Error::Tuner);
            }
            Ok(())
        })
    }

    fn update(&self, cp: &mut CParams, done: &Compressed) -> Result<(), Error> {
        self.with_view(|v| {
            // SAFETY: see `next`.
            if unsafe { (*v).tuner_params.is_null() } {
                return Ok(());
            }
            // SAFETY: see `next`.
            unsafe {
                (*v).put(cp);
                (*v).set_outcome(done.srcsize, done.cbytes, done.blocksize);
            }
            // SAFETY: a tuner function of the C signature, given the context pointer.
            let rc = unsafe { (self.hooks.update)(v.cast(), done.ctime) };
            // SAFETY: see `next`.
            unsafe { (*v).take(cp) };
            if rc < 0 {
                return Err(Error::Tuner);
            }
            Ok(())
        })
    }
}

/// Fills the view of a new compression context from its parameters and, when they name a
/// tuner other than the built-in one, loads it, calls its `init` and attaches it to `ctx`.
/// `None` when the tuner is unknown, cannot be loaded or its `init` fails (the reference
/// then gives no context).
///
/// # Safety
/// `view` must point to the view of the context being made, not otherwise borrowed.
pub(crate) unsafe fn attach(
    view: *mut ContextView,
    cparams: &blosc2_cparams,
    ctx: &mut Context,
) -> Option<Option<Arc<CTuner>>> {
    // SAFETY: the caller guarantees exclusive access to the view.
    let v = unsafe { &mut *view };
    let mut cp = ctx.cparams();
    v.put(&cp);
    v.schunk = cparams.schunk;
    v.prefilter = cparams
        .prefilter
        .map_or(std::ptr::null_mut(), |f| f as *mut c_void);
    v.preparams = cparams.preparams.cast();
    v.codec_params = cparams.codec_params;
    v.filter_params = cparams.filter_params;
    v.do_compress = 1;
    if cparams.tuner_id == 0 {
        return Some(None);
    }
    let hooks = *plugins::tuner(cparams.tuner_id)?
        .hooks
        .as_ref()?
        .downcast_ref::<Hooks>()?;
    // SAFETY: a tuner function of the C signature, given the new context and no dctx.
    let rc = unsafe { (hooks.init)(cparams.tuner_params, view.cast(), std::ptr::null_mut()) };
    if rc < 0 {
        return None;
    }
    // As in the reference, the id is set after `init`, and `tuner_params` is whatever
    // `init` stored.
    v.tuner_id = cparams.tuner_id;
    v.take(&mut cp);
    let t = Arc::new(CTuner {
        hooks,
        ctx: Mutex::new(Some(SendPtr(view))),
    });
    ctx.set_cparams(cp);
    ctx.set_tuner(Some(t.clone()));
    Some(Some(t))
}

/// Calls the tuner's `free` when the context's `tuner_params` is set, and detaches it from
/// the context being freed.
pub(crate) fn release(tuner: &CTuner) {
    let mut guard = tuner.ctx.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(p) = guard.take() {
        let v = p.get();
        // SAFETY: the view is live until the context is freed, which is happening now.
        if unsafe { !(*v).tuner_params.is_null() } {
            // SAFETY: a tuner function of the C signature, given the context pointer.
            unsafe { (tuner.hooks.free)(v.cast()) };
        }
    }
}

/// Makes a new super-chunk use the btune tuner when the environment variable
/// `BTUNE_TRADEOFF` is set to anything, as the reference's `blosc2_schunk_new` (and so
/// `blosc2_schunk_copy` and the b2nd array constructors) does; its value is for btune.
pub(crate) fn tuner_from_env(cp: &mut blosc2_cparams) {
    if std::env::var_os("BTUNE_TRADEOFF").is_some() {
        cp.tuner_id = BLOSC_BTUNE;
    }
}
