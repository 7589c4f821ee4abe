//! The global state behind the non-context API (`blosc1_*`, `blosc2_compress` ...).
//!
//! One mutex protects the global settings (compressor, delta, forced blocksize, split mode,
//! thread count) and the global compression and decompression contexts. Settings survive
//! [`destroy`], as in the reference; the contexts do not.

use std::sync::{Mutex, MutexGuard};

use crate::constants::{
    ALWAYS_SPLIT, AUTO_SPLIT, BITSHUFFLE, BLOSCLZ, DELTA, FORWARD_COMPAT_SPLIT, MAXTYPESIZE,
    MAX_BUFFERSIZE, MAX_OVERHEAD, NEVER_SPLIT, SHUFFLE,
};
use crate::context::{CParams, Context, DParams};
use crate::error::{Error, Result};
use crate::registry::{self, plugins};

/// Settings shared by every call of the global API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Global codec code; -1 after `blosc1_set_compressor` was given an unknown name.
    pub compcode: i32,
    /// Whether the DELTA filter is added in slot 4.
    pub delta: bool,
    /// Forced blocksize, 0 for automatic.
    pub blocksize: i32,
    /// Split mode.
    pub splitmode: i32,
    /// Number of threads.
    pub nthreads: i16,
}

const DEFAULT_SETTINGS: Settings = Settings {
    compcode: BLOSCLZ as i32,
    delta: false,
    blocksize: 0,
    splitmode: FORWARD_COMPAT_SPLIT,
    nthreads: 1,
};

struct State {
    initialized: bool,
    settings: Settings,
    cctx: Option<(CParams, Context)>,
    dctx: Option<Context>,
}

static STATE: Mutex<State> = Mutex::new(State {
    initialized: false,
    settings: DEFAULT_SETTINGS,
    cctx: None,
    dctx: None,
});

fn lock() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn locked_init() -> MutexGuard<'static, State> {
    let mut state = lock();
    if !state.initialized {
        state.initialized = true;
        plugins::reset();
    }
    state
}

/// Initialises the global state and (re)registers the library's plugins, dropping codecs,
/// filters and tuners registered before; calling it again before [`destroy`] does nothing.
pub fn init() {
    drop(locked_init());
}

/// Whether [`init`] ran since the last [`destroy`].
pub fn is_initialized() -> bool {
    lock().initialized
}

/// Releases the global contexts and their threads; the settings are kept.
pub fn destroy() {
    let mut state = lock();
    state.initialized = false;
    state.cctx = None;
    state.dctx = None;
}

/// Releases the threads of the global contexts; -1 when not initialised.
pub fn free_resources() -> i32 {
    let mut state = lock();
    if !state.initialized {
        return -1;
    }
    state.cctx = None;
    state.dctx = None;
    0
}

/// A copy of the current settings (initialising the library if needed).
pub fn settings() -> Settings {
    locked_init().settings
}

/// Sets the global compressor by name; returns its code. Names of registered (plugin or
/// user) codecs return -7 and change nothing; unknown names return -1 and make the global compressor invalid, as in the
/// reference.
pub fn set_compressor(name: &str) -> i32 {
    let mut state = locked_init();
    match registry::codec_code(name) {
        Some(code) => {
            state.settings.compcode = i32::from(code);
            i32::from(code)
        }
        None if registry::registered_codec_code(name).is_some() => Error::CodecSupport.code(),
        None => {
            state.settings.compcode = -1;
            -1
        }
    }
}

/// Name of the global compressor, `None` when it was invalidated.
pub fn compressor_name() -> Option<&'static str> {
    registry::codec_name(settings().compcode)
}

/// Sets the global thread count; returns the previous one, or -12 when `n` ≤ 0.
pub fn set_nthreads(n: i16) -> i16 {
    if n <= 0 {
        return Error::InvalidParam.code() as i16;
    }
    let mut state = locked_init();
    let old = state.settings.nthreads;
    state.settings.nthreads = n;
    old
}

/// Global thread count.
pub fn nthreads() -> i16 {
    settings().nthreads
}

/// Turns the global DELTA filter on or off.
pub fn set_delta(dodelta: bool) {
    locked_init().settings.delta = dodelta;
}

/// Forces the global blocksize (0 = automatic).
pub fn set_blocksize(blocksize: i32) {
    locked_init().settings.blocksize = blocksize;
}

/// Sets the global split mode.
pub fn set_splitmode(splitmode: i32) {
    locked_init().settings.splitmode = splitmode;
}

/// C `strtol` on an environment value: leading blanks, optional sign, decimal digits; 0 when
/// there are no digits.
fn strtol(s: &str) -> i64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut value: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    if neg {
        -value
    } else {
        value
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

/// The thread count `BLOSC_NTHREADS` imposes on new contexts (a positive value, truncated
/// to 16 bits like the reference's cast, so 40000 becomes negative), if any.
pub fn env_nthreads() -> Option<i16> {
    let n = strtol(&env("BLOSC_NTHREADS")?);
    (n > 0).then_some(n as i16)
}

/// Parses a split-mode name as `BLOSC_SPLITMODE` accepts it.
pub fn splitmode_from_name(name: &str) -> Option<i32> {
    match name {
        "ALWAYS" => Some(ALWAYS_SPLIT),
        "NEVER" => Some(NEVER_SPLIT),
        "AUTO" => Some(AUTO_SPLIT),
        "FORWARD_COMPAT" => Some(FORWARD_COMPAT_SPLIT),
        _ => None,
    }
}

/// Parses a shuffle name as `BLOSC_SHUFFLE` accepts it.
pub fn shuffle_from_name(name: &str) -> Option<i32> {
    match name {
        "NOSHUFFLE" => Some(0),
        "SHUFFLE" => Some(1),
        "BITSHUFFLE" => Some(2),
        _ => None,
    }
}

/// Why `blosc2_create_cctx` refuses its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvRefusal {
    /// `BLOSC_COMPRESSOR` names a plugin codec.
    PluginCodec,
}

/// Applies the `BLOSC_*` environment variables to context parameters, as
/// `blosc2_create_cctx` does. An unknown `BLOSC_COMPRESSOR` name makes the codec invalid
/// (reported as code 255); the result tells so, and compression must then fail with "codec
/// not supported".
pub fn apply_env_to_cparams(cparams: &mut CParams) -> std::result::Result<bool, EnvRefusal> {
    let mut unknown_codec = false;
    if let Some(v) = env("BLOSC_CLEVEL") {
        let level = strtol(&v);
        if level >= 0 {
            cparams.clevel = u8::try_from(level).unwrap_or(u8::MAX);
        }
    }
    if let Some(v) = env("BLOSC_TYPESIZE") {
        let ts = strtol(&v);
        if ts > 0 {
            cparams.typesize = i32::try_from(ts).unwrap_or(i32::MAX);
        }
    }
    if let Some(mode) = env("BLOSC_SHUFFLE").as_deref().and_then(shuffle_from_name) {
        if !(mode == 1 && cparams.typesize <= 1) {
            cparams.filters[5] = mode as u8;
        }
    }
    match env("BLOSC_DELTA").as_deref() {
        Some("1") => cparams.filters[4] = DELTA,
        Some("0") => cparams.filters[4] = 0,
        _ => {}
    }
    if let Some(name) = env("BLOSC_COMPRESSOR") {
        match registry::codec_code(&name) {
            Some(code) => cparams.compcode = code,
            None if registry::registered_codec_code(&name).is_some() => {
                return Err(EnvRefusal::PluginCodec)
            }
            None => {
                cparams.compcode = u8::MAX;
                unknown_codec = true;
            }
        }
    }
    if let Some(v) = env("BLOSC_BLOCKSIZE") {
        let bs = strtol(&v);
        if bs > 0 {
            cparams.blocksize = i32::try_from(bs).unwrap_or(i32::MAX);
        }
    }
    if let Some(n) = env_nthreads() {
        cparams.nthreads = n;
    }
    if let Some(mode) = env("BLOSC_SPLITMODE")
        .as_deref()
        .and_then(splitmode_from_name)
    {
        cparams.splitmode = mode;
    }
    Ok(unknown_codec)
}

/// Applies `BLOSC_NTHREADS` to decompression parameters, as `blosc2_create_dctx` does.
pub fn apply_env_to_dparams(dparams: &mut DParams) {
    if let Some(n) = env_nthreads() {
        // A count below 1 decompresses serially.
        dparams.nthreads = n;
    }
}

/// The compression parameters the global API uses for one call.
fn global_cparams(
    settings: &Settings,
    clevel: i32,
    doshuffle: i32,
    typesize: i32,
) -> Result<CParams> {
    if !(0..=9).contains(&clevel) {
        return Err(Error::CodecParam);
    }
    if typesize <= 0 || typesize > MAXTYPESIZE {
        return Err(Error::InvalidParam);
    }
    let compcode = u8::try_from(settings.compcode).map_err(|_| Error::CodecSupport)?;
    let mut filters = [0u8; 6];
    if doshuffle == 1 && typesize > 1 {
        filters[5] = SHUFFLE;
    } else if doshuffle == 2 {
        filters[5] = BITSHUFFLE;
    }
    if settings.delta {
        filters[4] = DELTA;
    }
    Ok(CParams {
        compcode,
        clevel: clevel as u8,
        typesize,
        nthreads: settings.nthreads,
        blocksize: settings.blocksize,
        splitmode: settings.splitmode,
        filters,
        ..CParams::default()
    })
}

/// Compresses with the global settings, honouring the `BLOSC_*` environment variables as
/// `blosc2_compress` does; `Ok(0)` when the result does not fit in `dst`.
pub fn compress(
    mut clevel: i32,
    mut doshuffle: i32,
    mut typesize: i32,
    src: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    if let Some(v) = env("BLOSC_CLEVEL") {
        let level = strtol(&v);
        if level >= 0 {
            clevel = i32::try_from(level).unwrap_or(i32::MAX);
        }
    }
    if let Some(mode) = env("BLOSC_SHUFFLE").as_deref().and_then(shuffle_from_name) {
        doshuffle = mode;
    }
    match env("BLOSC_DELTA").as_deref() {
        Some("1") => set_delta(true),
        Some("0") => set_delta(false),
        _ => {}
    }
    if let Some(v) = env("BLOSC_TYPESIZE") {
        let ts = strtol(&v);
        if ts > 0 {
            typesize = i32::try_from(ts).unwrap_or(i32::MAX);
        }
    }
    if let Some(name) = env("BLOSC_COMPRESSOR") {
        set_compressor(&name);
    }
    if let Some(v) = env("BLOSC_BLOCKSIZE") {
        let bs = strtol(&v);
        if bs > 0 {
            set_blocksize(i32::try_from(bs).unwrap_or(i32::MAX));
        }
    }
    if let Some(n) = env_nthreads() {
        // A negative count is refused there.
        set_nthreads(n);
    }
    if let Some(mode) = env("BLOSC_SPLITMODE")
        .as_deref()
        .and_then(splitmode_from_name)
    {
        set_splitmode(mode);
    }
    if dst.len() < MAX_OVERHEAD || src.len() as i64 > MAX_BUFFERSIZE {
        return Err(Error::MaxBufsizeExceeded);
    }
    let mut state = locked_init();
    let cparams = global_cparams(&state.settings, clevel, doshuffle, typesize)?;
    if env("BLOSC_NOLOCK").is_some() {
        drop(state);
        return Context::compressor(cparams).compress(src, dst);
    }
    let blosc1_header = env("BLOSC_BLOSC1_COMPAT").is_some();
    let reuse = matches!(&state.cctx, Some((requested, _)) if *requested == cparams);
    if !reuse {
        state.cctx = Some((cparams, Context::compressor(cparams)));
    }
    let (_, ctx) = state
        .cctx
        .get_or_insert_with(|| (cparams, Context::compressor(cparams)));
    ctx.set_blosc1_header(blosc1_header);
    // The global settings give every call its parameters anew: nothing carries over
    // from the last compression (unlike a context's own parameters).
    ctx.set_cparams(cparams);
    ctx.compress(src, dst)
}

/// Decompresses with the global context, honouring `BLOSC_NTHREADS` and `BLOSC_NOLOCK` as
/// `blosc2_decompress` does.
pub fn decompress(src: &[u8], dst: &mut [u8]) -> Result<usize> {
    if let Some(v) = env("BLOSC_NTHREADS") {
        let n = strtol(&v);
        if n <= 0 || n > i64::from(i16::MAX) {
            return Err(Error::InvalidParam);
        }
        set_nthreads(n as i16);
    }
    let mut state = locked_init();
    let dparams = DParams {
        nthreads: state.settings.nthreads,
        ..DParams::default()
    };
    if env("BLOSC_NOLOCK").is_some() {
        drop(state);
        return Context::decompressor(dparams).decompress(src, dst);
    }
    let ctx = state
        .dctx
        .get_or_insert_with(|| Context::decompressor(dparams));
    ctx.set_nthreads(dparams.nthreads);
    ctx.decompress(src, dst)
}

/// Extracts `nitems` items starting at `start` with a temporary serial context.
pub fn getitem(src: &[u8], start: i32, nitems: i32, dst: &mut [u8]) -> Result<usize> {
    Context::decompressor(DParams::default()).getitem(src, start, nitems, dst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtol_follows_c_rules() {
        assert_eq!(strtol("  42abc"), 42);
        assert_eq!(strtol("-7"), -7);
        assert_eq!(strtol("+3"), 3);
        assert_eq!(strtol("abc"), 0);
        assert_eq!(strtol(""), 0);
    }

    #[test]
    fn cparams_follow_the_doshuffle_and_delta_rules() {
        let mut s = DEFAULT_SETTINGS;
        let p = global_cparams(&s, 5, 1, 1).unwrap();
        assert_eq!(p.filters, [0; 6], "SHUFFLE dropped for typesize 1");
        let p = global_cparams(&s, 5, 2, 1).unwrap();
        assert_eq!(p.filters[5], BITSHUFFLE);
        let p = global_cparams(&s, 5, 7, 4).unwrap();
        assert_eq!(p.filters, [0; 6], "unknown doshuffle means no filter");
        s.delta = true;
        let p = global_cparams(&s, 5, 1, 4).unwrap();
        assert_eq!(p.filters, [0, 0, 0, 0, DELTA, SHUFFLE]);
        assert_eq!(global_cparams(&s, 10, 1, 4), Err(Error::CodecParam));
        assert_eq!(global_cparams(&s, -1, 1, 4), Err(Error::CodecParam));
        s.compcode = -1;
        assert_eq!(global_cparams(&s, 5, 1, 4), Err(Error::CodecSupport));
    }
}
