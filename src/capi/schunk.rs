//! `blosc2_schunk`: creation, opening, serialisation and release. The C struct is the
//! first field of a private box that also holds the Rust super-chunk; every entry point
//! brings the C fields up to date before returning.

use std::ffi::{c_char, c_int, CString};
use std::mem::MaybeUninit;
use std::path::Path;

use super::context::{
    blosc2_create_cctx, blosc2_create_dctx, blosc2_free_ctx, core_cparams, handle_ctx,
};
use super::ffi::{c_str, guard};
use super::io::backend_for;
use super::schunk_lock::{self, FrameLock};
use super::schunk_mem::{ChunkArray, MallocBuf, MetaMirror};
use super::types::{
    blosc2_cparams, blosc2_dparams, blosc2_frame, blosc2_io, blosc2_metalayer, blosc2_schunk,
    blosc2_storage, BLOSC2_MAX_METALAYERS,
};
use crate::context::DParams;
use crate::error::{Error, Result};
use crate::schunk::{Storage, Store, SuperChunk};

/// What a `blosc2_schunk*` points to.
#[repr(C)]
pub(crate) struct SchunkBox {
    pub(crate) c: blosc2_schunk,
    pub(crate) core: SuperChunk,
    storage: blosc2_storage,
    cparams: blosc2_cparams,
    dparams: blosc2_dparams,
    io: blosc2_io,
    urlpath: Option<CString>,
    metas: Vec<MetaMirror>,
    vlmetas: Vec<MetaMirror>,
    pub(crate) lock: FrameLock,
    generation: u64,
    pub(crate) chunk_array: ChunkArray,
}

/// The C parameter structs of a core super-chunk.
fn c_params(core: &SuperChunk, io: blosc2_io) -> (blosc2_cparams, blosc2_dparams, blosc2_io) {
    let cp = core.cparams();
    let mut c = blosc2_cparams::DEFAULTS;
    c.compcode = cp.compcode;
    c.compcode_meta = cp.compcode_meta;
    c.clevel = cp.clevel;
    c.use_dict = c_int::from(cp.use_dict);
    c.typesize = cp.typesize;
    c.nthreads = cp.nthreads;
    c.blocksize = cp.blocksize;
    c.splitmode = cp.splitmode;
    c.filters = cp.filters;
    c.filters_meta = cp.filters_meta;
    let mut d = blosc2_dparams::DEFAULTS;
    d.nthreads = core.dparams().nthreads;
    d.typesize = cp.typesize;
    (c, d, io)
}

/// The callback and plug-in fields of the caller's storage parameters, which a new
/// super-chunk keeps in its own parameter structs and contexts.
#[derive(Clone, Copy)]
pub(crate) struct UserParams {
    cparams: blosc2_cparams,
    dparams: blosc2_dparams,
}

impl UserParams {
    /// Copies the caller's callback and plug-in fields into the super-chunk's structs.
    fn apply(&self, c: &mut blosc2_cparams, d: &mut blosc2_dparams) {
        c.prefilter = self.cparams.prefilter;
        c.preparams = self.cparams.preparams;
        c.tuner_id = self.cparams.tuner_id;
        c.tuner_params = self.cparams.tuner_params;
        c.codec_params = self.cparams.codec_params;
        c.filter_params = self.cparams.filter_params;
        d.postfilter = self.dparams.postfilter;
        d.postparams = self.dparams.postparams;
    }
}

impl SchunkBox {
    /// Boxes a core super-chunk and returns the C pointer; `user` carries the callbacks of
    /// the storage it was created with, which its compression and decompression then run.
    pub(crate) fn into_c(
        core: SuperChunk,
        io: blosc2_io,
        lock: FrameLock,
        user: Option<UserParams>,
    ) -> *mut blosc2_schunk {
        let (mut cparams, mut dparams, io) = c_params(&core, io);
        if let Some(u) = user {
            u.apply(&mut cparams, &mut dparams);
        }
        let urlpath = core
            .storage()
            .urlpath
            .as_ref()
            .and_then(|p| CString::new(p.to_string_lossy().into_owned()).ok());
        // Built in place: the C struct holds 8192 vlmetalayer slots (64 KiB), too big to
        // assemble on the stack and move into the box. Zeroed allocation (calloc) leaves
        // those slots' pages untouched until used, as the reference's calloc does.
        let layout = std::alloc::Layout::new::<SchunkBox>();
        // SAFETY: the layout is that of `SchunkBox`, whose size is not zero.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        if raw.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // SAFETY: `raw` is a fresh allocation with the layout of `SchunkBox`, owned here.
        let mut uninit = unsafe { Box::from_raw(raw.cast::<MaybeUninit<SchunkBox>>()) };
        let p = uninit.as_mut_ptr();
        // SAFETY: `p` points to the box's zeroed memory; every field other than `c` is
        // written exactly once through raw places before `assume_init`. All-zero bytes are
        // a valid `blosc2_schunk` (integers, bools and null pointers); the two fields whose
        // "unset" value is -1 are then set.
        let mut b = unsafe {
            (*p).c.chunksize = -1;
            (*p).c.current_nchunk = 0;
            std::ptr::addr_of_mut!((*p).core).write(core);
            std::ptr::addr_of_mut!((*p).storage).write(blosc2_storage::DEFAULTS);
            std::ptr::addr_of_mut!((*p).cparams).write(cparams);
            std::ptr::addr_of_mut!((*p).dparams).write(dparams);
            std::ptr::addr_of_mut!((*p).io).write(io);
            std::ptr::addr_of_mut!((*p).urlpath).write(urlpath);
            std::ptr::addr_of_mut!((*p).metas).write(Vec::new());
            std::ptr::addr_of_mut!((*p).vlmetas).write(Vec::new());
            std::ptr::addr_of_mut!((*p).lock).write(lock);
            std::ptr::addr_of_mut!((*p).generation).write(0);
            std::ptr::addr_of_mut!((*p).chunk_array).write(ChunkArray::new());
            uninit.assume_init()
        };
        let me: *mut SchunkBox = &mut *b;
        // The contexts read the struct's typesize when they are made.
        b.sync();
        b.cparams.schunk = me.cast();
        b.dparams.schunk = me.cast();
        // SAFETY: the parameter structs are valid; their pointer fields are NULL or owned by
        // the caller as for any context creation.
        b.c.cctx = unsafe { blosc2_create_cctx(b.cparams) };
        // SAFETY: as above.
        b.c.dctx = unsafe { blosc2_create_dctx(b.dparams) };
        if b.c.cctx.is_null() {
            // As in the reference: no super-chunk when its tuner cannot be loaded or set up.
            // SAFETY: the context was just made here and is not shared.
            unsafe { blosc2_free_ctx(b.c.dctx) };
            return std::ptr::null_mut();
        }
        // SAFETY: both handles were just created here and are not borrowed elsewhere.
        if let (Some(c), Some(d)) = unsafe { (handle_ctx(b.c.cctx), handle_ctx(b.c.dctx)) } {
            b.core.share_callbacks(&c.ctx, &d.ctx);
        }
        b.storage = blosc2_storage {
            contiguous: b.core.storage().contiguous,
            urlpath: b
                .urlpath
                .as_ref()
                .map_or(std::ptr::null_mut(), |s| s.as_ptr() as *mut c_char),
            cparams: &mut b.cparams,
            dparams: &mut b.dparams,
            io: &mut b.io,
        };
        b.c.storage = &mut b.storage;
        b.sync_meta();
        b.sync();
        Box::into_raw(b).cast()
    }

    /// Sets the block size of the parameters `storage->cparams` shows.
    pub(crate) fn set_storage_blocksize(&mut self, blocksize: i32) {
        self.cparams.blocksize = blocksize;
    }

    /// Refreshes the counters and parameters of the C struct (and the metalayer mirrors
    /// when the state was re-read from the file).
    pub(crate) fn sync(&mut self) {
        if self.generation != self.core.generation() {
            self.generation = self.core.generation();
            self.sync_meta();
        }
        let cp = self.core.cparams();
        let frame = if self.core.has_frame() {
            (self as *mut SchunkBox).cast::<blosc2_frame>()
        } else {
            std::ptr::null_mut()
        };
        let c = &mut self.c;
        c.compcode = cp.compcode;
        c.compcode_meta = cp.compcode_meta;
        c.clevel = cp.clevel;
        c.splitmode = u8::try_from(cp.splitmode).unwrap_or(0);
        c.typesize = cp.typesize;
        c.blocksize = cp.blocksize;
        c.chunksize = self.core.chunksize();
        c.use_dict = u8::from(cp.use_dict);
        c.flags2 = if self.core.has_vl_blocks() {
            crate::constants::VL_BLOCKS
        } else {
            0
        };
        c.filters = cp.filters;
        c.filters_meta = cp.filters_meta;
        c.nchunks = self.core.nchunks();
        c.nbytes = self.core.nbytes();
        c.cbytes = self.core.cbytes();
        c.frame = frame;
        c.change_tick = self.core.change_tick();
        let chunks = match &mut self.core.store {
            Store::Memory(v) => Some(v.as_mut_slice()),
            Store::Frame(..) => None,
        };
        (self.c.data, self.c.data_len) = self.chunk_array.sync(chunks, self.c.change_tick);
    }

    /// Makes `storage->urlpath` read `urlpath`: an opened super-chunk reports the path as
    /// the caller spelled it (a `file:///` prefix included), as in the reference.
    pub(crate) fn set_c_urlpath(&mut self, urlpath: &str) {
        if let Ok(s) = CString::new(urlpath) {
            self.storage.urlpath = s.as_ptr() as *mut c_char;
            self.urlpath = Some(s);
        }
    }

    /// Rebuilds the metalayer mirrors when the core's metalayers changed since.
    pub(crate) fn sync_meta_if_changed(&mut self) {
        let same = |mirrors: &[MetaMirror], metas: &[crate::frame::Meta]| {
            mirrors.len() == metas.len() && mirrors.iter().zip(metas).all(|(a, m)| a.mirrors(m))
        };
        if !same(&self.metas, self.core.metalayers())
            || !same(&self.vlmetas, self.core.vlmetalayers())
        {
            self.sync_meta();
        }
    }

    /// Rebuilds the metalayer mirrors.
    pub(crate) fn sync_meta(&mut self) {
        let old_vlmetas = self.vlmetas.len();
        self.metas = self.core.metalayers().iter().map(MetaMirror::new).collect();
        self.vlmetas = self
            .core
            .vlmetalayers()
            .iter()
            .map(MetaMirror::new)
            .collect();
        self.c.metalayers = [std::ptr::null_mut(); BLOSC2_MAX_METALAYERS as usize];
        for (slot, m) in self.c.metalayers.iter_mut().zip(self.metas.iter_mut()) {
            *slot = &mut m.c as *mut blosc2_metalayer;
        }
        self.c.nmetalayers = self.metas.len() as u16;
        // Only the slots set last time can be non-null (the array has 8192 of them).
        for slot in self.c.vlmetalayers.iter_mut().take(old_vlmetas) {
            *slot = std::ptr::null_mut();
        }
        for (slot, m) in self.c.vlmetalayers.iter_mut().zip(self.vlmetas.iter_mut()) {
            *slot = &mut m.c as *mut blosc2_metalayer;
        }
        self.c.nvlmetalayers = self.vlmetas.len() as i16;
    }
}

/// Borrows the box behind a schunk pointer.
///
/// # Safety
/// `schunk` must be NULL or a live pointer from this library, not borrowed elsewhere.
pub(crate) unsafe fn schunk_box<'a>(schunk: *mut blosc2_schunk) -> Option<&'a mut SchunkBox> {
    // SAFETY: the caller guarantees the pointer came from `SchunkBox::into_c`.
    unsafe { schunk.cast::<SchunkBox>().as_mut() }
}

/// Runs `f` on the box and syncs the C fields afterwards; `Error::NullPointer` for NULL.
///
/// # Safety
/// As for [`schunk_box`].
pub(crate) unsafe fn with_schunk<T>(
    schunk: *mut blosc2_schunk,
    f: impl FnOnce(&mut SchunkBox) -> Result<T>,
) -> Result<T> {
    // SAFETY: forwarded caller guarantees.
    let b = unsafe { schunk_box(schunk) }.ok_or(Error::NullPointer)?;
    let r = {
        let mut out = LockTakenOut::new(b);
        let out = &mut out;
        out.lock.bracket(|| {
            // Catch up with other handles' changes first, C mirrors included (the operation
            // reports errors of its own).
            out.schunk.core.synced = false;
            if out.schunk.core.resync().unwrap_or(false) {
                out.schunk.sync();
            }
            // Programs (python-blosc2) swap in contexts with a prefilter or postfilter.
            // SAFETY: the contexts are NULL or live handles of this library.
            let (c, d) = unsafe { (handle_ctx(out.schunk.c.cctx), handle_ctx(out.schunk.c.dctx)) };
            if let (Some(c), Some(d)) = (c, d) {
                out.schunk.core.share_callbacks(&c.ctx, &d.ctx);
            }
            out.schunk.core.synced = true;
            let r = f(out.schunk);
            out.schunk.core.synced = false;
            r
        })
    };
    b.sync();
    r
}

/// A super-chunk whose file lock is taken out for the length of one operation (which needs
/// the box and the lock at once), and put back when this is dropped, even by a panic.
struct LockTakenOut<'a> {
    schunk: &'a mut SchunkBox,
    lock: FrameLock,
}

impl<'a> LockTakenOut<'a> {
    fn new(schunk: &'a mut SchunkBox) -> Self {
        let lock = std::mem::replace(&mut schunk.lock, FrameLock::none());
        LockTakenOut { schunk, lock }
    }
}

impl Drop for LockTakenOut<'_> {
    fn drop(&mut self) {
        self.schunk.lock = std::mem::replace(&mut self.lock, FrameLock::none());
    }
}

/// The core storage described by a C `blosc2_storage` (NULL fields take the defaults).
///
/// # Safety
/// `storage` must be NULL or readable, with its pointer fields NULL or valid.
pub(crate) unsafe fn core_storage(
    storage: *const blosc2_storage,
) -> Result<(Storage, blosc2_io, UserParams)> {
    // SAFETY: caller guarantees.
    let s = unsafe { storage.as_ref() }
        .copied()
        .unwrap_or(blosc2_storage::DEFAULTS);
    // SAFETY: caller guarantees the nested pointers.
    let mut cp = unsafe { s.cparams.as_ref() }
        .copied()
        .unwrap_or(blosc2_cparams::DEFAULTS);
    super::tuners::tuner_from_env(&mut cp);
    // SAFETY: as above.
    let dp = unsafe { s.dparams.as_ref() }
        .copied()
        .unwrap_or(blosc2_dparams::DEFAULTS);
    // SAFETY: as above.
    let io = unsafe { s.io.as_ref() }
        .copied()
        .unwrap_or(blosc2_io::DEFAULTS);
    // SAFETY: as above.
    let urlpath =
        unsafe { c_str(s.urlpath) }.map(|p| crate::io::local_path(Path::new(p)).to_path_buf());
    if !s.urlpath.is_null() && urlpath.is_none() {
        return Err(Error::InvalidParam);
    }
    // SAFETY: `io.params` is the caller's backend parameter block.
    let backend = unsafe { backend_for(&io) };
    if backend.is_none() && (s.contiguous || urlpath.is_some()) {
        return Err(Error::PluginIo);
    }
    let mut cparams = core_cparams(&cp);
    cparams.nthreads = cparams.nthreads.max(1);
    let storage = Storage {
        contiguous: s.contiguous,
        urlpath,
        cparams,
        dparams: DParams {
            nthreads: dp.nthreads.max(1),
            typesize: cparams.typesize,
        },
        io: backend,
        buffer: Some(MallocBuf::empty),
    };
    Ok((
        storage,
        io,
        UserParams {
            cparams: cp,
            dparams: dp,
        },
    ))
}

/// The lock a new handle on `core` gets for the I/O selection `io`.
pub(crate) fn locking_for(core: &SuperChunk, io: &blosc2_io) -> Result<FrameLock> {
    let Some(p) = &core.storage().urlpath else {
        return Ok(FrameLock::none());
    };
    // SAFETY: `io` comes from the caller's storage, whose parameter block matches its id.
    if unsafe { schunk_lock::wanted(io) } {
        FrameLock::on(p)
    } else {
        Ok(FrameLock::none())
    }
}

pub(crate) fn ptr_of(r: Result<*mut blosc2_schunk>) -> *mut blosc2_schunk {
    r.unwrap_or(std::ptr::null_mut())
}

/// Creates a super-chunk; NULL on error.
///
/// # Safety
/// `storage` must be NULL or a valid `blosc2_storage`.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_new(storage: *mut blosc2_storage) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        ptr_of((|| {
            // SAFETY: forwarded caller guarantees.
            let (st, io, user) = unsafe { core_storage(storage) }?;
            let core = SuperChunk::new(st)?;
            let lock = locking_for(&core, &io)?;
            let p = SchunkBox::into_c(core, io, lock, Some(user));
            if p.is_null() {
                // SAFETY: forwarded caller guarantees (`storage` NULL or valid).
                unsafe { forget_created(storage) };
            }
            Ok(p)
        })())
    })
}

/// Removes what a super-chunk that could not be set up (its tuner failed) left at the
/// storage's urlpath: the reference fails before it writes anything, and the path did not
/// exist before (creation refuses existing paths).
///
/// # Safety
/// `storage` must be NULL or valid, its urlpath NULL or a C string.
unsafe fn forget_created(storage: *const blosc2_storage) {
    // SAFETY: caller guarantees.
    if let Some(s) = unsafe { storage.as_ref() } {
        // SAFETY: as above.
        unsafe { super::io::blosc2_remove_urlpath(s.urlpath) };
    }
}

/// A deep copy of `schunk` into new storage; NULL on error.
///
/// # Safety
/// `schunk` must be a live super-chunk and `storage` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_copy(
    schunk: *mut blosc2_schunk,
    storage: *mut blosc2_storage,
) -> *mut blosc2_schunk {
    guard(std::ptr::null_mut(), || {
        ptr_of((|| {
            // SAFETY: forwarded caller guarantees.
            let (st, io, user) = unsafe { core_storage(storage) }?;
            // SAFETY: forwarded caller guarantees (`storage` NULL or valid).
            let given = unsafe { storage.as_ref() }.is_some_and(|s| !s.cparams.is_null());
            // SAFETY: forwarded caller guarantees.
            let core = unsafe {
                with_schunk(schunk, |b| {
                    let copied = if given {
                        let cp = st.cparams;
                        b.core.copy_with(st, cp)
                    } else {
                        b.core.copy(st)
                    }?;
                    // The reference reads every chunk of the source, the last one last.
                    if b.core.nchunks() > 0 {
                        b.c.current_nchunk = b.core.nchunks() - 1;
                    }
                    Ok(copied)
                })
            }?;
            let lock = locking_for(&core, &io)?;
            let last = (core.nchunks() - 1).max(0);
            let p = SchunkBox::into_c(core, io, lock, Some(user));
            if p.is_null() {
                // SAFETY: forwarded caller guarantees (`storage` NULL or valid).
                unsafe { forget_created(storage) };
            }
            // SAFETY: `p` was just created and is not shared yet.
            if let Some(b) = unsafe { schunk_box(p) } {
                // The reference appends every chunk to the copy.
                b.c.current_nchunk = last;
            }
            Ok(p)
        })())
    })
}

/// Chooses whether freeing the super-chunk leaves its in-memory frame buffer alive.
///
/// # Safety
/// `schunk` must be a live super-chunk.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_avoid_cframe_free(
    schunk: *mut blosc2_schunk,
    avoid_cframe_free: bool,
) {
    guard((), || {
        // SAFETY: forwarded caller guarantees.
        let _ = unsafe {
            with_schunk(schunk, |b| {
                b.core.keep_frame_buffer(avoid_cframe_free);
                Ok(())
            })
        };
    })
}

/// Frees a super-chunk (data on disk stays) and releases the I/O backend parameters
/// through its destroy callback; 0, or 1 when that callback failed.
///
/// # Safety
/// `schunk` must be NULL or a live super-chunk, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn blosc2_schunk_free(schunk: *mut blosc2_schunk) -> c_int {
    guard(Error::Failure.code(), || {
        if schunk.is_null() {
            return 0;
        }
        // SAFETY: the pointer came from `Box::into_raw` in `into_c`.
        let b = unsafe { Box::from_raw(schunk.cast::<SchunkBox>()) };
        // SAFETY: the contexts were created by `into_c` and are freed once here.
        unsafe {
            blosc2_free_ctx(b.c.cctx);
            blosc2_free_ctx(b.c.dctx);
        }
        let io = b.io;
        drop(b);
        if io.id == crate::io::IO_FILESYSTEM_MMAP {
            // SAFETY: the caller's mmap parameter block, released once here.
            return if unsafe { super::io_mmap::release_params(io.params) } < 0 {
                1
            } else {
                0
            };
        }
        let cb = super::io::blosc2_get_io_cb(io.id);
        // SAFETY: the table entry is live; its destroy callback takes the backend
        // parameters the caller supplied with the storage.
        let rc = unsafe {
            cb.as_ref()
                .and_then(|cb| cb.destroy)
                .map_or(0, |d| d(io.params))
        };
        if rc < 0 {
            return 1;
        }
        0
    })
}
