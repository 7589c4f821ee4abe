//! The table of I/O backends by id. The built-in backends (0 and 1) are available once the
//! library is initialised (`blosc2_init`), as in the reference; user backends (ids 160 and
//! up) are registered explicitly.

use std::sync::{Arc, Mutex, MutexGuard};

use super::{Io, MmapIo, StdioIo};
use crate::error::{Error, Result};
use crate::global;

/// Id of the file-system backend.
pub const IO_FILESYSTEM: u8 = 0;
/// Id of the memory-mapped file backend.
pub const IO_FILESYSTEM_MMAP: u8 = 1;
/// First id available to user backends.
const USER_START: u8 = 160;
/// Most user backends the table holds.
const MAX_USER: usize = 256 - USER_START as usize;

static USER: Mutex<Vec<Arc<dyn Io>>> = Mutex::new(Vec::new());

fn user() -> MutexGuard<'static, Vec<Arc<dyn Io>>> {
    USER.lock().unwrap_or_else(|p| p.into_inner())
}

/// Registers a user backend; `PluginIo` for ids below 160, a taken id, or a full table.
/// Names need not be unique (as in the reference).
pub fn register(io: Arc<dyn Io>) -> Result<()> {
    if io.id() < USER_START {
        return Err(Error::PluginIo);
    }
    let mut table = user();
    if table.len() >= MAX_USER || table.iter().any(|other| other.id() == io.id()) {
        return Err(Error::PluginIo);
    }
    table.push(io);
    Ok(())
}

/// The backend with `id`; the built-in ones only after initialisation.
pub fn get(id: u8) -> Option<Arc<dyn Io>> {
    match id {
        IO_FILESYSTEM | IO_FILESYSTEM_MMAP if !global::is_initialized() => None,
        IO_FILESYSTEM => Some(Arc::new(StdioIo)),
        IO_FILESYSTEM_MMAP => Some(Arc::new(MmapIo::default())),
        _ => user().iter().find(|io| io.id() == id).cloned(),
    }
}

/// The ids of the registered user backends.
pub fn registered_ids() -> Vec<u8> {
    user().iter().map(|io| io.id()).collect()
}
