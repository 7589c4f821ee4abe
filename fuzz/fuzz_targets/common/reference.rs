//! The reference c-blosc2 3.3.5, loaded with `dlopen` from `$BLOSC2_REFERENCE_LIB`, else
//! from `target/reference/blosc2/lib/libblosc2.so.9` of this checkout (filled by
//! `tools/fetch-reference.sh`); a missing library is a failure.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::{Mutex, OnceLock};

use blosc2::capi::types::{blosc2_dparams, blosc2_schunk};

/// `blosc2_dparams blosc2_get_blosc2_dparams_defaults(void)`.
type DparamsFn = unsafe extern "C" fn() -> blosc2_dparams;
/// `blosc2_context *blosc2_create_dctx(blosc2_dparams dparams)`.
type CreateDctxFn = unsafe extern "C" fn(blosc2_dparams) -> *mut c_void;
/// `int blosc2_decompress_ctx(blosc2_context *, const void *, int32_t, void *, int32_t)`.
type DecompressCtxFn =
    unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> c_int;
/// `void blosc2_free_ctx(blosc2_context *context)`.
type FreeCtxFn = unsafe extern "C" fn(*mut c_void);
/// `blosc2_schunk *blosc2_schunk_from_buffer(uint8_t *cframe, int64_t len, bool copy)`.
type FromBufferFn = unsafe extern "C" fn(*mut u8, i64, bool) -> *mut blosc2_schunk;
/// `int blosc2_schunk_free(blosc2_schunk *schunk)`.
type FreeFn = unsafe extern "C" fn(*mut blosc2_schunk) -> c_int;
/// `int blosc2_schunk_decompress_chunk(blosc2_schunk *, int64_t, void *, int32_t)`.
type ChunkFn = unsafe extern "C" fn(*mut blosc2_schunk, i64, *mut c_void, i32) -> c_int;
/// `int blosc2_vlmeta_get(blosc2_schunk *, const char *, uint8_t **, int32_t *)`.
type VlmetaFn =
    unsafe extern "C" fn(*mut blosc2_schunk, *const c_char, *mut *mut u8, *mut i32) -> c_int;

/// Entry points of the reference.
pub struct Reference {
    dparams: DparamsFn,
    create_dctx: CreateDctxFn,
    decompress_ctx: DecompressCtxFn,
    free_ctx: FreeCtxFn,
    from_buffer: FromBufferFn,
    free: FreeFn,
    decompress_chunk: ChunkFn,
    vlmeta_get: VlmetaFn,
}

/// The loaded reference (panics when it cannot be loaded).
pub fn get() -> &'static Reference {
    static REF: OnceLock<Reference> = OnceLock::new();
    REF.get_or_init(|| {
        let path = std::env::var("BLOSC2_REFERENCE_LIB").unwrap_or_else(|_| {
            // The fuzz crate lives in fuzz/ of the checkout, the regression test at its root.
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let root = if dir.ends_with("fuzz") {
                dir.parent().unwrap_or(dir)
            } else {
                dir
            };
            let lib = root.join("target/reference/blosc2/lib/libblosc2.so.9");
            lib.to_string_lossy().into_owned()
        });
        let cpath = CString::new(path.clone()).expect("path without NUL");
        // SAFETY: dlopen of a shared library by a NUL-terminated path; the handle is kept
        // for the whole process.
        let handle = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(
            !handle.is_null(),
            "cannot load the reference library {path}"
        );
        let sym = |name: &str| {
            let cname = CString::new(name).expect("name without NUL");
            // SAFETY: dlsym on a live handle with a NUL-terminated name.
            let p = unsafe { libc::dlsym(handle, cname.as_ptr()) };
            assert!(!p.is_null(), "{path} does not export {name}");
            p
        };
        // SAFETY: each symbol has the C signature of the type it is cast to (blosc2.h).
        unsafe {
            std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(sym("blosc2_init"))();
            Reference {
                dparams: std::mem::transmute::<*mut c_void, DparamsFn>(sym(
                    "blosc2_get_blosc2_dparams_defaults",
                )),
                create_dctx: std::mem::transmute::<*mut c_void, CreateDctxFn>(sym(
                    "blosc2_create_dctx",
                )),
                decompress_ctx: std::mem::transmute::<*mut c_void, DecompressCtxFn>(sym(
                    "blosc2_decompress_ctx",
                )),
                free_ctx: std::mem::transmute::<*mut c_void, FreeCtxFn>(sym("blosc2_free_ctx")),
                from_buffer: std::mem::transmute::<*mut c_void, FromBufferFn>(sym(
                    "blosc2_schunk_from_buffer",
                )),
                free: std::mem::transmute::<*mut c_void, FreeFn>(sym("blosc2_schunk_free")),
                decompress_chunk: std::mem::transmute::<*mut c_void, ChunkFn>(sym(
                    "blosc2_schunk_decompress_chunk",
                )),
                vlmeta_get: std::mem::transmute::<*mut c_void, VlmetaFn>(sym("blosc2_vlmeta_get")),
            }
        }
    })
}

impl Reference {
    /// `blosc2_decompress_ctx` of `src` (passing `srcsize`) into `dst`, with a new context
    /// of default parameters: the reference's global context keeps state from a refused
    /// chunk that changes how the next chunk decodes (SECURITY.md), which a fresh context
    /// per call leaves out of the comparison.
    pub fn decompress(&self, src: &[u8], srcsize: i32, dst: &mut [u8]) -> i32 {
        // SAFETY: the reference's own defaults and a context freed after its one use; live
        // buffers; srcsize never exceeds src.len() (the callers pass it).
        unsafe {
            let ctx = (self.create_dctx)((self.dparams)());
            assert!(!ctx.is_null(), "the reference created no context");
            let rc = (self.decompress_ctx)(
                ctx,
                src.as_ptr().cast(),
                srcsize.min(src.len() as i32),
                dst.as_mut_ptr().cast(),
                dst.len() as i32,
            );
            (self.free_ctx)(ctx);
            rc
        }
    }

    /// A super-chunk over a copy of the frame `bytes` (`None` when the reference refuses it).
    pub fn open_frame(&self, bytes: &[u8]) -> Option<Frame<'_>> {
        let mut copy = bytes.to_vec();
        // SAFETY: a live buffer of the given length, copied by the callee (copy = true).
        let sc = unsafe { (self.from_buffer)(copy.as_mut_ptr(), copy.len() as i64, true) };
        (!sc.is_null()).then(|| Frame { r: self, sc })
    }
}

impl Reference {
    /// Whether the reference opens the frame `bytes`, tried in a child process: its error
    /// paths crash on some hostile frames (an invalid free in `blosc2_schunk_free` called by
    /// `blosc2_schunk_from_buffer`; SECURITY.md), which count as refusing. The child serves
    /// frame after frame over a socket; after a crash the next call takes a new one from
    /// the [`Zygote`] (forking this process anew each time cost most of the target's time:
    /// under AddressSanitizer it is large).
    pub fn opens_frame_in_child(&'static self, bytes: &[u8]) -> bool {
        static OPENER: Mutex<Option<c_int>> = Mutex::new(None);
        let mut slot = OPENER.lock().unwrap_or_else(|e| e.into_inner());
        let fd = *slot.get_or_insert_with(|| Zygote::get(self).opener());
        let len = (bytes.len() as u64).to_le_bytes();
        let mut answer = [0u8; 1];
        if send_all(fd, &len) && send_all(fd, bytes) && recv_all(fd, &mut answer) {
            return answer[0] == 1;
        }
        // The child died on this frame: the reference crashed, which counts as refusing.
        // SAFETY: closing our end of the socket (the zygote reaps the child).
        unsafe { libc::close(fd) };
        *slot = None;
        false
    }

    /// Serves frames on socket `fd` in a forked child: reads a 64-bit length and the frame,
    /// answers one byte (1 opened, 0 refused), and leaves when the socket closes.
    ///
    /// # Safety
    /// Only in a child forked for it, which it ends with `_exit`.
    unsafe fn serve_frames(&self, fd: c_int) -> ! {
        // SAFETY: this is such a child.
        unsafe { quiet_crashes() };
        let mut frame = Vec::new();
        loop {
            let mut len = [0u8; 8];
            if !recv_all(fd, &mut len) {
                break;
            }
            frame.resize(u64::from_le_bytes(len) as usize, 0);
            if !recv_all(fd, &mut frame) {
                break;
            }
            let opened = self.open_frame(&frame).is_some();
            if !send_all(fd, &[u8::from(opened)]) {
                break;
            }
        }
        // SAFETY: leaving the child without the parent's destructors or atexit handlers.
        unsafe { libc::_exit(0) }
    }
}

/// A small process forked once, early, that forks the children serving frames (see
/// [`Reference::opens_frame_in_child`]) and hands their sockets over.
struct Zygote {
    fd: c_int,
}

impl Zygote {
    /// The zygote of this process, forked at the first call.
    fn get(r: &'static Reference) -> std::sync::MutexGuard<'static, Zygote> {
        static Z: OnceLock<Mutex<Zygote>> = OnceLock::new();
        Z.get_or_init(|| Mutex::new(Zygote::spawn(r)))
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn spawn(r: &'static Reference) -> Zygote {
        let fds = socket_pair();
        // SAFETY: the child only forks servers, passes descriptors and reaps children (with
        // SIGCHLD ignored, the kernel reaps them), then leaves with _exit.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                libc::close(fds[0]);
                libc::signal(libc::SIGCHLD, libc::SIG_IGN);
                let mut req = [0u8; 1];
                while recv_all(fds[1], &mut req) {
                    let pair = socket_pair();
                    let child = libc::fork();
                    if child == 0 {
                        libc::close(fds[1]);
                        libc::close(pair[0]);
                        r.serve_frames(pair[1]);
                    }
                    libc::close(pair[1]);
                    let sent = child > 0 && send_fd(fds[1], pair[0]);
                    libc::close(pair[0]);
                    if !sent {
                        break;
                    }
                }
                libc::_exit(0);
            }
            libc::close(fds[1]);
        }
        Zygote { fd: fds[0] }
    }

    /// A socket to a new child serving frames.
    fn opener(&self) -> c_int {
        assert!(send_all(self.fd, &[1]), "the zygote is gone");
        recv_fd(self.fd).expect("the zygote sent no socket")
    }
}

/// A connected pair of Unix stream sockets.
fn socket_pair() -> [c_int; 2] {
    let mut fds: [c_int; 2] = [0; 2];
    // SAFETY: socketpair into a 2-element array.
    let rc = unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr()) };
    assert_eq!(rc, 0, "socketpair failed");
    fds
}

/// Space for one descriptor's control message, aligned for `cmsghdr`.
#[repr(C, align(8))]
struct FdControl([u8; 32]);

/// Runs `f` on a message of one data byte with room for one descriptor's control message.
fn with_fd_message<R>(f: impl FnOnce(&mut libc::msghdr) -> R) -> R {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = FdControl([0; 32]);
    // SAFETY: msghdr is plain data (zeroed is an empty message); it points at the live
    // buffers above, and the control buffer holds one descriptor's message (CMSG_SPACE(4)
    // is 24 on 64-bit Linux).
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.0.as_mut_ptr().cast();
    // SAFETY: CMSG_SPACE only computes a size.
    msg.msg_controllen = unsafe { libc::CMSG_SPACE(4) } as usize;
    f(&mut msg)
}

/// Sends descriptor `fd` over socket `sock` (with one data byte).
fn send_fd(sock: c_int, fd: c_int) -> bool {
    with_fd_message(|msg| {
        // SAFETY: the message's control buffer has room for the header and the descriptor.
        unsafe {
            let c = libc::CMSG_FIRSTHDR(msg);
            (*c).cmsg_level = libc::SOL_SOCKET;
            (*c).cmsg_type = libc::SCM_RIGHTS;
            (*c).cmsg_len = libc::CMSG_LEN(4) as usize;
            std::ptr::write_unaligned(libc::CMSG_DATA(c).cast::<c_int>(), fd);
            libc::sendmsg(sock, msg, libc::MSG_NOSIGNAL) == 1
        }
    })
}

/// Receives a descriptor sent by [`send_fd`] over socket `sock`.
fn recv_fd(sock: c_int) -> Option<c_int> {
    with_fd_message(|msg| {
        // SAFETY: a live message; the descriptor is read only from a message of its kind.
        unsafe {
            if libc::recvmsg(sock, msg, 0) != 1 {
                return None;
            }
            let c = libc::CMSG_FIRSTHDR(msg);
            if c.is_null()
                || (*c).cmsg_level != libc::SOL_SOCKET
                || (*c).cmsg_type != libc::SCM_RIGHTS
            {
                return None;
            }
            Some(std::ptr::read_unaligned(libc::CMSG_DATA(c).cast::<c_int>()))
        }
    })
}

/// Writes all of `buf` to the socket `fd` (false once the peer is gone; no SIGPIPE).
fn send_all(fd: c_int, mut buf: &[u8]) -> bool {
    while !buf.is_empty() {
        // SAFETY: a live buffer of the given length.
        let n = unsafe { libc::send(fd, buf.as_ptr().cast(), buf.len(), libc::MSG_NOSIGNAL) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        buf = &buf[n as usize..];
    }
    true
}

/// Fills `buf` from the socket `fd` (false at end of stream or on error).
fn recv_all(fd: c_int, mut buf: &mut [u8]) -> bool {
    while !buf.is_empty() {
        // SAFETY: a live writable buffer of the given length.
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        buf = &mut buf[n as usize..];
    }
    true
}

/// Makes a crash of this (child) process plain: default signal dispositions, no sanitizer
/// death callback (under libFuzzer it would save the input as a finding of ours), and no
/// libFuzzer timer or interrupt handling.
///
/// # Safety
/// Only for a forked child about to call the reference and leave with `_exit`.
unsafe fn quiet_crashes() {
    for sig in [
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGABRT,
        libc::SIGFPE,
        libc::SIGILL,
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGALRM,
        libc::SIGUSR1,
        libc::SIGUSR2,
    ] {
        // SAFETY: restoring a default disposition.
        unsafe { libc::signal(sig, libc::SIG_DFL) };
    }
    let name = c"__sanitizer_set_death_callback";
    // SAFETY: dlsym in the global scope with a NUL-terminated name.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) };
    if !f.is_null() {
        // SAFETY: the sanitizer runtime's `void __sanitizer_set_death_callback(void (*)(void))`.
        type SetFn = unsafe extern "C" fn(Option<extern "C" fn()>);
        let set = unsafe { std::mem::transmute::<*mut libc::c_void, SetFn>(f) };
        // SAFETY: clearing the callback.
        unsafe { set(None) };
    }
}

/// A super-chunk opened by the reference, freed on drop.
pub struct Frame<'a> {
    r: &'a Reference,
    sc: *mut blosc2_schunk,
}

impl Frame<'_> {
    /// The names and contents of the fixed-length metalayers, in order (what the header's
    /// static inline `blosc2_meta_get` reads from the struct).
    pub fn metas(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        // SAFETY: sc is a live super-chunk of the reference, whose struct layout is the one
        // of our mirror (checked by the ABI layout tests); its metalayer entries below
        // nmetalayers are live, with NUL-terminated names.
        unsafe {
            let sc = &*self.sc;
            let n = usize::from(sc.nmetalayers).min(sc.metalayers.len());
            sc.metalayers[..n]
                .iter()
                .filter_map(|&m| {
                    let m = m.as_ref()?;
                    let len = usize::try_from(m.content_len).ok()?;
                    Some((
                        CStr::from_ptr(m.name).to_bytes().to_vec(),
                        std::slice::from_raw_parts(m.content, len).to_vec(),
                    ))
                })
                .collect()
        }
    }

    /// The content of variable-length metalayer `name`.
    pub fn vlmeta(&self, name: &[u8]) -> Option<Vec<u8>> {
        let cname = CString::new(name).ok()?;
        let mut content: *mut u8 = std::ptr::null_mut();
        let mut len = 0i32;
        // SAFETY: live super-chunk, NUL-terminated name, writable out-parameters; the
        // content is malloc'ed by the reference and freed here.
        unsafe {
            if (self.r.vlmeta_get)(self.sc, cname.as_ptr(), &mut content, &mut len) < 0 {
                return None;
            }
            let v = std::slice::from_raw_parts(content, usize::try_from(len).ok()?).to_vec();
            libc::free(content.cast());
            Some(v)
        }
    }

    /// `blosc2_schunk_decompress_chunk` of chunk `n` into `dst`.
    pub fn decompress_chunk(&self, n: i64, dst: &mut [u8]) -> i32 {
        // SAFETY: live super-chunk and destination buffer of the given size.
        unsafe { (self.r.decompress_chunk)(self.sc, n, dst.as_mut_ptr().cast(), dst.len() as i32) }
    }
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        // SAFETY: sc came from blosc2_schunk_from_buffer and is freed once.
        unsafe { (self.r.free)(self.sc) };
    }
}
