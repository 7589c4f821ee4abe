//! Loading of plugins registered without functions (the dynamic codecs 36..=40 and codecs
//! or filters a caller registered by name), the way the reference loads them:
//! `dlopen("libblosc2_<name>.so")`, else the library path printed by
//! `python -c "import blosc2_<name>; blosc2_<name>.print_libpath()"` (then `python3`), its
//! first line taken as `fgets` reads it; the library's exported `info` struct names the
//! functions (two for codecs and filters, five for tuners), looked up with `dlsym`.

use std::ffi::{c_char, c_void, CStr, CString};
use std::process::{Command, Stdio};

use super::{wrap_backward, wrap_decoder, wrap_encoder, wrap_forward};
use crate::capi::tuners::Hooks;
use crate::registry::plugins::{self, Backward, Decoder, Encoder, Forward, HostData, Loaders};

/// Longest path `fgets` reads (`PATH_MAX`).
const PATH_MAX: usize = 4096;

/// Makes the registry load plugins through this module.
pub(crate) fn install() {
    plugins::set_loaders(Loaders {
        codec: load_codec,
        filter: load_filter,
        tuner: load_tuner,
    });
}

/// The first line (with its newline) of what the Python lookup prints, or `None` when it
/// prints nothing or cannot run.
fn libpath(name: &str, python: &str) -> Option<Vec<u8>> {
    let cmd = format!("python{python} -c \"import blosc2_{name}; blosc2_{name}.print_libpath()\"");
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    let bytes = out.stdout;
    if bytes.is_empty() {
        return None;
    }
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1)
        .min(PATH_MAX - 1);
    let line = &bytes[..end];
    // A NUL ends the C string the reference would use.
    let line = line.split(|&b| b == 0).next().unwrap_or(&[]);
    Some(line.to_vec())
}

fn dlopen(path: &[u8]) -> Option<*mut c_void> {
    let c = CString::new(path).ok()?;
    // SAFETY: dlopen of a NUL-terminated path; a library's initialisers are the plugin's.
    let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_LAZY) };
    (!h.is_null()).then_some(h)
}

/// The plugin's library handle, found as the reference finds it.
fn load_lib(name: &str) -> Option<*mut c_void> {
    if let Some(h) = dlopen(format!("libblosc2_{name}.so").as_bytes()) {
        return Some(h);
    }
    let path = libpath(name, "").or_else(|| libpath(name, "3"))?;
    if path.is_empty() {
        return None;
    }
    dlopen(&path)
}

/// Looks up `name` in the library `h`.
fn sym(h: *mut c_void, name: &CStr) -> Option<*mut c_void> {
    // SAFETY: a live handle and a NUL-terminated name.
    let p = unsafe { libc::dlsym(h, name.as_ptr()) };
    (!p.is_null()).then_some(p)
}

/// The `N` functions named by the library's `info` struct (a struct of `N` C string
/// pointers); the library is closed when any is missing.
fn functions<const N: usize>(name: &str) -> Option<[*mut c_void; N]> {
    let h = load_lib(name)?;
    let found = (|| {
        let info = sym(h, c"info")?.cast::<[*const c_char; N]>();
        // SAFETY: a plugin's `info` is a struct of `N` C string pointers.
        let names = unsafe { info.read() };
        let mut out = [std::ptr::null_mut(); N];
        for (slot, n) in out.iter_mut().zip(names) {
            if n.is_null() {
                return None;
            }
            // SAFETY: the names are NUL-terminated strings inside the plugin.
            *slot = sym(h, unsafe { CStr::from_ptr(n) })?;
        }
        Some(out)
    })();
    if found.is_none() {
        // SAFETY: the handle came from dlopen and nothing of it is kept.
        unsafe { libc::dlclose(h) };
    }
    found
}

fn load_codec(name: &str) -> Option<(Encoder, Decoder)> {
    let [enc, dec] = functions(name)?;
    // SAFETY: a codec plugin's `info` names an encoder and a decoder of the C signatures of
    // `blosc2_codec`; the library stays loaded for the life of the process.
    unsafe {
        Some((
            wrap_encoder(std::mem::transmute::<*mut c_void, super::CodecEncoder>(enc)),
            wrap_decoder(std::mem::transmute::<*mut c_void, super::CodecDecoder>(dec)),
        ))
    }
}

fn load_filter(name: &str) -> Option<(Forward, Backward)> {
    let [fw, bw] = functions(name)?;
    // SAFETY: a filter plugin's `info` names a forward and a backward function of the C
    // signatures of `blosc2_filter`; the library stays loaded.
    unsafe {
        Some((
            wrap_forward(std::mem::transmute::<*mut c_void, super::FilterForward>(fw)),
            wrap_backward(std::mem::transmute::<*mut c_void, super::FilterBackward>(
                bw,
            )),
        ))
    }
}

fn load_tuner(name: &str) -> Option<HostData> {
    let [init, next_blocksize, next_cparams, update, free] = functions(name)?;
    // SAFETY: a tuner plugin's `info` (`tuner_info`) names the five functions of
    // `blosc2_tuner`, of its C signatures; the library stays loaded.
    let hooks = unsafe {
        Hooks {
            init: std::mem::transmute::<*mut c_void, crate::capi::tuners::InitFn>(init),
            next_blocksize: std::mem::transmute::<*mut c_void, crate::capi::tuners::CtxFn>(
                next_blocksize,
            ),
            next_cparams: std::mem::transmute::<*mut c_void, crate::capi::tuners::CtxFn>(
                next_cparams,
            ),
            update: std::mem::transmute::<*mut c_void, crate::capi::tuners::UpdateFn>(update),
            free: std::mem::transmute::<*mut c_void, crate::capi::tuners::CtxFn>(free),
        }
    };
    Some(std::sync::Arc::new(hooks))
}
