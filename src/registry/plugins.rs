//! Codecs, filters and tuners registered at run time: the plugins the library installs at
//! init (ids 32..=159) and the caller's own (ids 160..=255).
//!
//! Callbacks are closures, so a host layer (the C API) can wrap foreign functions in them;
//! they receive what the reference hands to its plugin functions: the parameters of the
//! running operation, the whole source (compression) or chunk (decompression), and the
//! context's host data.

use std::any::Any;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use crate::constants::USER_REGISTERED_START;
use crate::context::{CParams, DParams};
use crate::error::Error;
use crate::filters::{bytedelta, int_trunc};

/// Data a host layer attaches to a context and gets back in callbacks.
pub type HostData = Arc<dyn Any + Send + Sync>;

/// The metalayers of the super-chunk a context belongs to: the content of the one named,
/// looked up when a plugin asks (the N-dimensional plugins read `b2nd`).
pub type MetaLookup = Arc<dyn Fn(&str) -> Option<Vec<u8>> + Send + Sync>;

/// What a callback learns about the compression it takes part in.
#[derive(Clone, Copy)]
pub struct CompressCall<'a> {
    /// Parameters of the compression (the blocksize in use, the stored typesize).
    pub cparams: &'a CParams,
    /// The whole source being compressed.
    pub src: &'a [u8],
    /// Typesize of the super-chunk the context belongs to, if any.
    pub schunk_typesize: Option<i32>,
    /// Metalayers of the super-chunk the context belongs to, if any.
    pub schunk_meta: Option<&'a MetaLookup>,
    /// The context's host data.
    pub host: Option<&'a (dyn Any + Send + Sync)>,
}

/// What a callback learns about the decompression it takes part in.
#[derive(Clone, Copy)]
pub struct DecompressCall<'a> {
    /// Parameters of the decompression (typesize: the chunk's).
    pub dparams: &'a DParams,
    /// The whole chunk being decompressed.
    pub chunk: &'a [u8],
    /// Typesize of the super-chunk the context belongs to, if any.
    pub schunk_typesize: Option<i32>,
    /// Metalayers of the super-chunk the context belongs to, if any.
    pub schunk_meta: Option<&'a MetaLookup>,
    /// The context's host data.
    pub host: Option<&'a (dyn Any + Send + Sync)>,
}

/// Codec encoder: (call, meta, input, output) → compressed size, 0 when it does not fit,
/// negative on error.
pub type Encoder = Arc<dyn Fn(&CompressCall<'_>, u8, &[u8], &mut [u8]) -> i32 + Send + Sync>;
/// Codec decoder: (call, meta, input, output) → decompressed size or negative error.
pub type Decoder = Arc<dyn Fn(&DecompressCall<'_>, u8, &[u8], &mut [u8]) -> i32 + Send + Sync>;
/// Filter forward function: (call, meta, id, input, output) → 0 on success.
pub type Forward = Arc<dyn Fn(&CompressCall<'_>, u8, u8, &[u8], &mut [u8]) -> i32 + Send + Sync>;
/// Filter backward function: (call, meta, id, input, output) → 0 (or positive) on success.
pub type Backward = Arc<dyn Fn(&DecompressCall<'_>, u8, u8, &[u8], &mut [u8]) -> i32 + Send + Sync>;

/// A registered codec.
#[derive(Clone)]
pub struct Codec {
    /// Codec code.
    pub code: u8,
    /// Codec name.
    pub name: String,
    /// Library code.
    pub complib: u8,
    /// Format version written in header byte 1.
    pub version: u8,
    /// Compression function (`None`: loaded on first use, see [`codec`]).
    pub encoder: Option<Encoder>,
    /// Decompression function.
    pub decoder: Option<Decoder>,
}

/// A registered filter.
#[derive(Clone)]
pub struct Filter {
    /// Filter id.
    pub id: u8,
    /// Filter name.
    pub name: String,
    /// Format version.
    pub version: u8,
    /// Function applied when compressing.
    pub forward: Option<Forward>,
    /// Function applied when decompressing.
    pub backward: Option<Backward>,
}

/// A registered tuner: its identity and the host layer's hooks (`None`: loaded on first
/// use, see [`tuner`]).
#[derive(Clone)]
pub struct Tuner {
    /// Tuner id.
    pub id: i32,
    /// Tuner name.
    pub name: String,
    /// The host layer's functions of the tuner.
    pub hooks: Option<HostData>,
}

/// What a tuner learns after a compression.
#[derive(Debug, Clone, Copy)]
pub struct Compressed {
    /// Bytes compressed.
    pub srcsize: usize,
    /// Size of the chunk written.
    pub cbytes: usize,
    /// Block size used.
    pub blocksize: i32,
    /// Seconds the compression took.
    pub ctime: f64,
}

/// A tuner attached to a compression context: asked for the parameters before each
/// compression and told how it went after it; both may change the context's parameters.
pub trait Tune: Send + Sync {
    /// Before compressing `src` into a buffer of `destsize` bytes.
    fn next(&self, cparams: &mut CParams, src: &[u8], destsize: usize) -> Result<(), Error>;
    /// After a compression.
    fn update(&self, cparams: &mut CParams, done: &Compressed) -> Result<(), Error>;
}

impl fmt::Debug for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Codec({} {:?})", self.code, self.name)
    }
}

impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Filter({} {:?})", self.id, self.name)
    }
}

impl fmt::Debug for Tuner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tuner({} {:?})", self.id, self.name)
    }
}

struct Tables {
    codecs: Vec<Arc<Codec>>,
    filters: Vec<Arc<Filter>>,
    tuners: Vec<Arc<Tuner>>,
}

static TABLES: RwLock<Tables> = RwLock::new(Tables {
    codecs: Vec::new(),
    filters: Vec::new(),
    tuners: Vec::new(),
});

/// Most entries a table holds, as in the reference.
const CAPACITY: usize = 255;

/// Identity of a table entry.
trait Entry {
    fn key(&self) -> (i32, &str);
}

impl Entry for Codec {
    fn key(&self) -> (i32, &str) {
        (i32::from(self.code), &self.name)
    }
}

impl Entry for Filter {
    fn key(&self) -> (i32, &str) {
        (i32::from(self.id), &self.name)
    }
}

impl Entry for Tuner {
    fn key(&self) -> (i32, &str) {
        (self.id, &self.name)
    }
}

/// Adds `item` unless an entry with its id exists: the same name is a silent success,
/// another name fails with `clash`.
fn insert<T: Entry>(table: &mut Vec<Arc<T>>, item: T, clash: Error) -> Result<(), Error> {
    let (id, name) = item.key();
    if let Some(old) = table.iter().find(|e| e.key().0 == id) {
        return if old.key().1 == name {
            Ok(())
        } else {
            Err(clash)
        };
    }
    if table.len() >= CAPACITY {
        return Err(Error::CodecSupport);
    }
    table.push(Arc::new(item));
    Ok(())
}

fn write() -> std::sync::RwLockWriteGuard<'static, Tables> {
    TABLES.write().unwrap_or_else(PoisonError::into_inner)
}

fn read() -> std::sync::RwLockReadGuard<'static, Tables> {
    TABLES.read().unwrap_or_else(PoisonError::into_inner)
}

/// Registers a user codec (code ≥ 160); errors as `blosc2_register_codec`.
pub fn register_codec(codec: Codec) -> Result<(), Error> {
    if codec.code < USER_REGISTERED_START {
        return Err(Error::CodecParam);
    }
    insert(&mut write().codecs, codec, Error::CodecParam)
}

/// Registers a user filter (id ≥ 160); errors as `blosc2_register_filter`.
pub fn register_filter(filter: Filter) -> Result<(), Error> {
    if filter.id < USER_REGISTERED_START {
        return Err(Error::Failure);
    }
    insert(&mut write().filters, filter, Error::Failure)
}

/// Registers a user tuner (id ≥ 160); errors as `blosc2_register_tuner`.
pub fn register_tuner(tuner: Tuner) -> Result<(), Error> {
    if tuner.id < i32::from(USER_REGISTERED_START) {
        return Err(Error::Failure);
    }
    insert(&mut write().tuners, tuner, Error::Failure)
}

/// Finds the functions of a plugin registered without them (by its name), as the reference
/// does when such a plugin is first used; installed by a host layer.
#[derive(Clone, Copy)]
pub struct Loaders {
    /// Loads a codec's encoder and decoder.
    pub codec: fn(&str) -> Option<(Encoder, Decoder)>,
    /// Loads a filter's forward and backward functions.
    pub filter: fn(&str) -> Option<(Forward, Backward)>,
    /// Loads a tuner's functions.
    pub tuner: fn(&str) -> Option<HostData>,
}

static LOADERS: RwLock<Option<Loaders>> = RwLock::new(None);

/// Installs the loaders of plugins registered without functions.
pub fn set_loaders(loaders: Loaders) {
    *LOADERS.write().unwrap_or_else(PoisonError::into_inner) = Some(loaders);
}

fn loaders() -> Option<Loaders> {
    *LOADERS.read().unwrap_or_else(PoisonError::into_inner)
}

/// The registered codec with this code, without loading anything.
pub fn codec_entry(code: u8) -> Option<Arc<Codec>> {
    read().codecs.iter().find(|c| c.code == code).cloned()
}

/// The registered codec with this code; a codec registered without functions (the dynamic
/// plugins 36..=40, or a user codec registered by name) is loaded first (every time until
/// loading succeeds, as in the reference).
pub fn codec(code: u8) -> Option<Arc<Codec>> {
    let c = codec_entry(code)?;
    if c.encoder.is_some() || c.decoder.is_some() {
        return Some(c);
    }
    let Some((encoder, decoder)) = loaders().and_then(|l| (l.codec)(&c.name)) else {
        return Some(c);
    };
    let mut t = write();
    let slot = t.codecs.iter_mut().find(|e| e.code == code)?;
    if slot.encoder.is_none() && slot.decoder.is_none() {
        *slot = Arc::new(Codec {
            encoder: Some(encoder),
            decoder: Some(decoder),
            ..(**slot).clone()
        });
    }
    Some(slot.clone())
}

/// The first registered codec with this name.
pub fn codec_named(name: &str) -> Option<Arc<Codec>> {
    read().codecs.iter().find(|c| c.name == name).cloned()
}

/// The first registered codec whose library code is `complib`.
pub fn codec_of_complib(complib: u8) -> Option<Arc<Codec>> {
    read().codecs.iter().find(|c| c.complib == complib).cloned()
}

/// The registered filter with this id; one registered without functions is loaded first
/// (see [`codec`]).
pub fn filter(id: u8) -> Option<Arc<Filter>> {
    let f = read().filters.iter().find(|f| f.id == id).cloned()?;
    if f.forward.is_some() || f.backward.is_some() {
        return Some(f);
    }
    let Some((forward, backward)) = loaders().and_then(|l| (l.filter)(&f.name)) else {
        return Some(f);
    };
    let mut t = write();
    let slot = t.filters.iter_mut().find(|e| e.id == id)?;
    if slot.forward.is_none() && slot.backward.is_none() {
        *slot = Arc::new(Filter {
            forward: Some(forward),
            backward: Some(backward),
            ..(**slot).clone()
        });
    }
    Some(slot.clone())
}

/// The registered tuner with this id, without loading anything.
pub fn tuner_entry(id: i32) -> Option<Arc<Tuner>> {
    read().tuners.iter().find(|t| t.id == id).cloned()
}

/// The registered tuner with this id; one registered without functions (btune, or a user
/// tuner registered by name) is loaded first (see [`codec`]).
pub fn tuner(id: i32) -> Option<Arc<Tuner>> {
    let t = tuner_entry(id)?;
    if t.hooks.is_some() {
        return Some(t);
    }
    let Some(hooks) = loaders().and_then(|l| (l.tuner)(&t.name)) else {
        return Some(t);
    };
    let mut w = write();
    let slot = w.tuners.iter_mut().find(|e| e.id == id)?;
    if slot.hooks.is_none() {
        *slot = Arc::new(Tuner {
            hooks: Some(hooks),
            ..(**slot).clone()
        });
    }
    Some(slot.clone())
}

/// Empties the tables and registers the library's plugins, as `blosc2_init` does.
pub(crate) fn reset() {
    let mut t = write();
    t.codecs = super::plugin_codecs()
        .map(|(code, name)| Arc::new(super::ndplugins::codec(code, name)))
        .collect();
    t.filters = plugin_filters().into_iter().map(Arc::new).collect();
    t.tuners = vec![Arc::new(Tuner {
        id: 32,
        name: "btune".to_owned(),
        hooks: None,
    })];
}

/// Typesize of the streams byte-delta works on: its meta, or the super-chunk's for meta 0.
fn channels(meta: u8, schunk_typesize: Option<i32>) -> Option<usize> {
    match meta {
        0 => schunk_typesize
            .and_then(|t| usize::try_from(t).ok())
            .filter(|&t| t > 0),
        m => Some(usize::from(m)),
    }
}

fn bytedelta_filter(id: u8, name: &str, legacy: bool) -> Filter {
    Filter {
        id,
        name: name.to_owned(),
        version: 1,
        forward: Some(Arc::new(move |call, meta, _, src, dst| {
            match channels(meta, call.schunk_typesize) {
                Some(n) => {
                    bytedelta::encode(n, legacy, src, dst);
                    0
                }
                None => Error::Failure.code(),
            }
        })),
        backward: Some(Arc::new(move |call, meta, _, src, dst| {
            match channels(meta, call.schunk_typesize) {
                Some(n) => {
                    bytedelta::decode(n, legacy, src, dst);
                    0
                }
                None => Error::Failure.code(),
            }
        })),
    }
}

fn plugin_filters() -> Vec<Filter> {
    vec![
        super::ndplugins::ndcell_filter(),
        super::ndplugins::ndmean_filter(),
        bytedelta_filter(34, "bytedelta_buggy", true),
        bytedelta_filter(35, "bytedelta", false),
        Filter {
            id: 36,
            name: "int_trunc".to_owned(),
            version: 1,
            forward: Some(Arc::new(|call, meta, _, src, dst| {
                let ts = usize::try_from(call.cparams.typesize).unwrap_or(0);
                match int_trunc::truncate(meta as i8, ts, src, dst) {
                    Ok(()) => 0,
                    Err(e) => e.code(),
                }
            })),
            backward: Some(Arc::new(|_, _, _, src, dst| {
                dst.copy_from_slice(src);
                0
            })),
        },
    ]
}

#[cfg(test)]
mod tests;
