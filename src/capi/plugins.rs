//! Registration of user codecs, filters and tuners: the C functions are wrapped into the
//! closures the core's tables hold.

use std::ffi::{c_int, CStr};
use std::sync::Arc;

use super::ffi::status;
use super::ffi::{c_str, guard};
use super::hooks::{call_cparams, call_dparams, chunk_ptr};
use super::types::{blosc2_codec, blosc2_cparams, blosc2_dparams, blosc2_filter, blosc2_tuner};
use crate::error::Error;
use crate::registry::plugins::{self, Codec, Filter, Tuner};

/// Registers a user codec (id 160..=255); re-registering an id with the same name does
/// nothing. Returns 0, -8 for other ids or another name under a used id.
///
/// # Safety
/// `codec` must be NULL or point to a codec whose `compname` is a NUL-terminated string;
/// its functions must stay callable for the life of the process.
#[no_mangle]
pub unsafe extern "C" fn blosc2_register_codec(codec: *mut blosc2_codec) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a readable codec or NULL.
        let Some(c) = (unsafe { codec.as_ref() }).copied() else {
            return Error::InvalidParam.code();
        };
        // SAFETY: the caller guarantees a valid name.
        let Some(name) = (unsafe { c_str(c.compname) }) else {
            return Error::InvalidParam.code();
        };
        let encoder = c.encoder.map(wrap_encoder);
        let decoder = c.decoder.map(wrap_decoder);
        dynload::install();
        status(plugins::register_codec(Codec {
            code: c.compcode,
            name: name.to_owned(),
            complib: c.complib,
            version: c.version,
            encoder,
            decoder,
        }))
    })
}

/// Registers a user filter (id 160..=255); re-registering an id with the same name does
/// nothing. Returns 0, -1 for other ids or another name under a used id.
///
/// # Safety
/// `filter` must be NULL or point to a filter whose `name` is a NUL-terminated string; its
/// functions must stay callable for the life of the process.
#[no_mangle]
pub unsafe extern "C" fn blosc2_register_filter(filter: *mut blosc2_filter) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a readable filter or NULL.
        let Some(f) = (unsafe { filter.as_ref() }).copied() else {
            return Error::InvalidParam.code();
        };
        if f.name.is_null() {
            return Error::InvalidParam.code();
        }
        // SAFETY: the caller guarantees a valid name. Its bytes are taken as they are, as the
        // reference does (python-blosc2 registers filters with names that are not UTF-8).
        let name = unsafe { CStr::from_ptr(f.name) }.to_string_lossy();
        let forward = f.forward.map(wrap_forward);
        let backward = f.backward.map(wrap_backward);
        dynload::install();
        status(plugins::register_filter(Filter {
            id: f.id,
            name: name.into_owned(),
            version: f.version,
            forward,
            backward,
        }))
    })
}

/// Registers a user tuner (id 160..=255); re-registering an id with the same name does
/// nothing. Returns 0, -1 for other ids or another name under a used id.
///
/// # Safety
/// `tuner` must be NULL or point to a tuner whose `name` is a NUL-terminated string; its
/// functions must stay callable for the life of the process. A tuner missing any of its five
/// functions is loaded by name on first use.
#[no_mangle]
pub unsafe extern "C" fn blosc2_register_tuner(tuner: *mut blosc2_tuner) -> c_int {
    guard(Error::Failure.code(), || {
        // SAFETY: the caller guarantees a readable tuner or NULL.
        let Some(t) = (unsafe { tuner.as_ref() }).copied() else {
            return Error::InvalidParam.code();
        };
        // SAFETY: the caller guarantees a valid name.
        let Some(name) = (unsafe { c_str(t.name) }) else {
            return Error::InvalidParam.code();
        };
        dynload::install();
        status(plugins::register_tuner(Tuner {
            id: t.id,
            name: name.to_owned(),
            hooks: super::tuners::Hooks::of(&t),
        }))
    })
}

/// A C codec encoder as a core encoder.
pub(crate) fn wrap_encoder(enc: CodecEncoder) -> plugins::Encoder {
    Arc::new(move |call, meta, input, output| {
        let mut cp = call_cparams(call);
        // SAFETY: the encoder gets buffers valid for the lengths given.
        unsafe {
            enc(
                input.as_ptr(),
                input.len() as i32,
                output.as_mut_ptr(),
                output.len() as i32,
                meta,
                &mut cp,
                chunk_ptr(call.src),
            )
        }
    })
}

/// A C codec decoder as a core decoder.
pub(crate) fn wrap_decoder(dec: CodecDecoder) -> plugins::Decoder {
    Arc::new(move |call, meta, input, output| {
        let mut dp = call_dparams(call);
        // SAFETY: the decoder gets buffers valid for the lengths given.
        unsafe {
            dec(
                input.as_ptr(),
                input.len() as i32,
                output.as_mut_ptr(),
                output.len() as i32,
                meta,
                &mut dp,
                chunk_ptr(call.chunk),
            )
        }
    })
}

/// A C filter forward function as a core one.
pub(crate) fn wrap_forward(fw: FilterForward) -> plugins::Forward {
    Arc::new(move |call, meta, id, src, dst| {
        let mut cp = call_cparams(call);
        // SAFETY: both buffers hold `src.len()` bytes.
        unsafe {
            fw(
                src.as_ptr(),
                dst.as_mut_ptr(),
                src.len() as i32,
                meta,
                &mut cp,
                id,
            )
        }
    })
}

/// A C filter backward function as a core one.
pub(crate) fn wrap_backward(bw: FilterBackward) -> plugins::Backward {
    Arc::new(move |call, meta, id, src, dst| {
        let mut dp = call_dparams(call);
        // SAFETY: both buffers hold `src.len()` bytes.
        unsafe {
            bw(
                src.as_ptr(),
                dst.as_mut_ptr(),
                src.len() as i32,
                meta,
                &mut dp,
                id,
            )
        }
    })
}

/// The function types of the C callbacks.
pub(crate) type CodecEncoder = unsafe extern "C" fn(
    *const u8,
    i32,
    *mut u8,
    i32,
    u8,
    *mut blosc2_cparams,
    *const std::ffi::c_void,
) -> c_int;
/// See [`CodecEncoder`].
pub(crate) type CodecDecoder = unsafe extern "C" fn(
    *const u8,
    i32,
    *mut u8,
    i32,
    u8,
    *mut blosc2_dparams,
    *const std::ffi::c_void,
) -> c_int;
/// See [`CodecEncoder`].
pub(crate) type FilterForward =
    unsafe extern "C" fn(*const u8, *mut u8, i32, u8, *mut blosc2_cparams, u8) -> c_int;
/// See [`CodecEncoder`].
pub(crate) type FilterBackward =
    unsafe extern "C" fn(*const u8, *mut u8, i32, u8, *mut blosc2_dparams, u8) -> c_int;

pub(crate) mod dynload;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod dyn_tests;
#[cfg(test)]
mod nd_tests;
#[cfg(test)]
mod tests;
