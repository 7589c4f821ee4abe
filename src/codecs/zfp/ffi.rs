//! The few zfp 1.0.1 functions the codec calls (compiled by `build.rs`, names prefixed
//! `oxzfp_`; on x86-64 also `oxzfp3_` for the copy built for x86-64-v3, whose coders are
//! used on CPUs that have it), and a safe owner of a zfp stream, bit stream and field: the
//! encoder, and the decoder the Rust one is tested against.

use std::ffi::{c_int, c_uint, c_void};

#[repr(C)]
struct ZfpStream {
    _private: [u8; 0],
}
#[repr(C)]
struct ZfpField {
    _private: [u8; 0],
}
#[repr(C)]
struct BitStream {
    _private: [u8; 0],
}

/// zfp's scalar types (`zfp_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub(super) enum ScalarType {
    /// `zfp_type_float`.
    Float = 3,
    /// `zfp_type_double`.
    Double = 4,
}

extern "C" {
    fn oxzfp_zfp_stream_open(stream: *mut BitStream) -> *mut ZfpStream;
    fn oxzfp_zfp_stream_close(zfp: *mut ZfpStream);
    fn oxzfp_zfp_stream_set_accuracy(zfp: *mut ZfpStream, tolerance: f64) -> f64;
    fn oxzfp_zfp_stream_set_precision(zfp: *mut ZfpStream, precision: c_uint) -> c_uint;
    fn oxzfp_zfp_stream_set_rate(
        zfp: *mut ZfpStream,
        rate: f64,
        kind: ScalarType,
        dims: c_uint,
        align: c_int,
    ) -> f64;
    fn oxzfp_zfp_stream_params(
        zfp: *const ZfpStream,
        minbits: *mut c_uint,
        maxbits: *mut c_uint,
        maxprec: *mut c_uint,
        minexp: *mut c_int,
    );
    fn oxzfp_zfp_field_blocks(field: *const ZfpField) -> usize;
    fn oxzfp_zfp_stream_maximum_size(zfp: *const ZfpStream, field: *const ZfpField) -> usize;
    fn oxzfp_zfp_stream_set_bit_stream(zfp: *mut ZfpStream, stream: *mut BitStream);
    fn oxzfp_zfp_stream_rewind(zfp: *mut ZfpStream);
    fn oxzfp_stream_open(buffer: *mut c_void, bytes: usize) -> *mut BitStream;
    fn oxzfp_stream_close(stream: *mut BitStream);
    fn oxzfp_zfp_field_1d(p: *mut c_void, kind: ScalarType, nx: usize) -> *mut ZfpField;
    fn oxzfp_zfp_field_2d(p: *mut c_void, kind: ScalarType, nx: usize, ny: usize) -> *mut ZfpField;
    fn oxzfp_zfp_field_3d(
        p: *mut c_void,
        kind: ScalarType,
        nx: usize,
        ny: usize,
        nz: usize,
    ) -> *mut ZfpField;
    fn oxzfp_zfp_field_4d(
        p: *mut c_void,
        kind: ScalarType,
        nx: usize,
        ny: usize,
        nz: usize,
        nw: usize,
    ) -> *mut ZfpField;
    fn oxzfp_zfp_field_free(field: *mut ZfpField);
    fn oxzfp_zfp_compress(zfp: *mut ZfpStream, field: *const ZfpField) -> usize;
    fn oxzfp_zfp_decompress(zfp: *mut ZfpStream, field: *mut ZfpField) -> usize;
}

#[cfg(target_arch = "x86_64")]
extern "C" {
    fn oxzfp3_zfp_compress(zfp: *mut ZfpStream, field: *const ZfpField) -> usize;
    fn oxzfp3_zfp_decompress(zfp: *mut ZfpStream, field: *mut ZfpField) -> usize;
}

/// `zfp_compress` and `zfp_decompress` of one copy of zfp.
#[derive(Clone, Copy)]
struct Coders {
    compress: unsafe extern "C" fn(*mut ZfpStream, *const ZfpField) -> usize,
    decompress: unsafe extern "C" fn(*mut ZfpStream, *mut ZfpField) -> usize,
}

/// The coders for this CPU: the x86-64-v3 copy when it has every feature of that level
/// (both copies write and read the same bits; the stream and field objects are shared, being
/// the same structs), else the baseline one.
fn coders() -> Coders {
    static CODERS: std::sync::OnceLock<Coders> = std::sync::OnceLock::new();
    *CODERS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            if has!("avx2")
                && has!("bmi1")
                && has!("bmi2")
                && has!("fma")
                && has!("lzcnt")
                && has!("movbe")
                && has!("f16c")
            {
                return Coders {
                    compress: oxzfp3_zfp_compress,
                    decompress: oxzfp3_zfp_decompress,
                };
            }
        }
        Coders {
            compress: oxzfp_zfp_compress,
            decompress: oxzfp_zfp_decompress,
        }
    })
}

/// How the stream trades size for accuracy.
#[derive(Debug, Clone, Copy)]
pub(super) enum Setting {
    /// Fixed accuracy: absolute error tolerance.
    Accuracy(f64),
    /// Fixed precision: bit planes kept.
    Precision(u32),
    /// Fixed rate: bits per value (for `dims` dimensions, unaligned).
    Rate(f64, u32),
}

/// A thread's zero-padded copy of the stream being decoded: `dirty` bytes at its start may
/// be non-zero.
#[derive(Default)]
struct Padded {
    buf: Vec<u8>,
    dirty: usize,
}

thread_local! {
    static PADDED: std::cell::RefCell<Padded> = std::cell::RefCell::new(Padded::default());
}

/// A zfp stream over an owned byte buffer, in one mode, with a field of one scalar type and
/// shape (`dims`: fastest-varying dimension first, 1 to 4 of them).
pub(super) struct Codec {
    zfp: *mut ZfpStream,
    bits: *mut BitStream,
    field: *mut ZfpField,
    kind: ScalarType,
    items: usize,
}

impl Codec {
    /// A stream in `setting` for fields of `kind` and shape `dims`; `None` for another
    /// number of dimensions or an empty dimension.
    pub(super) fn new(setting: Setting, kind: ScalarType, dims: &[usize]) -> Option<Codec> {
        if !(1..=4).contains(&dims.len()) || dims.contains(&0) {
            return None;
        }
        let items = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
        let null: *mut c_void = std::ptr::null_mut();
        // SAFETY: zfp allocates the stream and field metadata; a NULL data pointer is
        // replaced before every use (see `bind`), and a NULL bit stream is allowed.
        let (zfp, field) = unsafe {
            let zfp = oxzfp_zfp_stream_open(null.cast());
            let field = match *dims {
                [x] => oxzfp_zfp_field_1d(null, kind, x),
                [x, y] => oxzfp_zfp_field_2d(null, kind, x, y),
                [x, y, z] => oxzfp_zfp_field_3d(null, kind, x, y, z),
                [x, y, z, w] => oxzfp_zfp_field_4d(null, kind, x, y, z, w),
                _ => std::ptr::null_mut(),
            };
            match setting {
                Setting::Accuracy(t) => {
                    oxzfp_zfp_stream_set_accuracy(zfp, t);
                }
                Setting::Precision(p) => {
                    oxzfp_zfp_stream_set_precision(zfp, p);
                }
                Setting::Rate(r, d) => {
                    oxzfp_zfp_stream_set_rate(zfp, r, kind, d, 0);
                }
            }
            (zfp, field)
        };
        let c = Codec {
            zfp,
            bits: std::ptr::null_mut(),
            field,
            kind,
            items,
        };
        (!zfp.is_null() && !field.is_null()).then_some(c)
    }

    /// Bytes of the field's data.
    pub(super) fn field_bytes(&self) -> usize {
        self.items * if self.kind == ScalarType::Float { 4 } else { 8 }
    }

    /// Upper bound of a compressed field in this mode.
    pub(super) fn maximum_size(&self) -> usize {
        // SAFETY: both objects are live; the bound depends only on the mode and shape.
        unsafe { oxzfp_zfp_stream_maximum_size(self.zfp, self.field) }
    }

    /// The stream's `(minbits, maxbits, maxprec, minexp)`.
    #[cfg(test)]
    pub(super) fn params(&self) -> (u32, u32, u32, i32) {
        let (mut minbits, mut maxbits, mut maxprec, mut minexp) = (0, 0, 0, 0);
        // SAFETY: the stream is live; the outputs are valid for writes.
        unsafe {
            oxzfp_zfp_stream_params(
                self.zfp,
                &mut minbits,
                &mut maxbits,
                &mut maxprec,
                &mut minexp,
            )
        };
        (minbits, maxbits, maxprec, minexp)
    }

    /// Bytes a decode reads in fixed-rate mode, where every block takes the same number of
    /// bits and zfp reads no 64-bit word past the last block's; `None` in other modes.
    fn fixed_rate_bytes(&self) -> Option<usize> {
        let (mut minbits, mut maxbits): (c_uint, c_uint) = (0, 0);
        // SAFETY: both objects are live; the outputs are valid for writes or NULL.
        let blocks = unsafe {
            oxzfp_zfp_stream_params(
                self.zfp,
                &mut minbits,
                &mut maxbits,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            oxzfp_zfp_field_blocks(self.field)
        };
        if minbits != maxbits {
            return None;
        }
        let bits = blocks.checked_mul(maxbits as usize)?;
        bits.div_ceil(64).checked_mul(8)
    }

    /// Points the bit stream at the `len` bytes at `buf` (rewound).
    ///
    /// # Safety
    /// `buf` must stay valid for reads of `len` bytes (and for writes, when compressing)
    /// until the bit stream is rebound or closed.
    unsafe fn bind_raw(&mut self, buf: *mut u8, len: usize) {
        // SAFETY: the stream is live; the old bit stream (if any) is closed first; the
        // buffer's validity is the caller's guarantee.
        unsafe {
            if !self.bits.is_null() {
                oxzfp_stream_close(self.bits);
            }
            self.bits = oxzfp_stream_open(buf.cast(), len);
            oxzfp_zfp_stream_set_bit_stream(self.zfp, self.bits);
            oxzfp_zfp_stream_rewind(self.zfp);
        }
    }

    /// Points the bit stream at `buf` (rewound).
    fn bind(&mut self, buf: &mut [u8]) {
        // SAFETY: `buf` outlives the call that uses it (the callers bind right before
        // coding and unbind right after).
        unsafe { self.bind_raw(buf.as_mut_ptr(), buf.len()) }
    }

    /// Compresses `input` (at least [`Codec::field_bytes`] long) into `out` (at least
    /// [`Codec::maximum_size`] long); returns the compressed size (0 on failure).
    pub(super) fn compress(&mut self, input: &[u8], out: &mut [u8]) -> usize {
        if input.len() < self.field_bytes() || out.len() < self.maximum_size() {
            return 0;
        }
        self.bind(out);
        // SAFETY: the field reads `field_bytes()` bytes of `input` (checked above) and the
        // stream writes at most `maximum_size()` bytes into `out` (checked above).
        let n = unsafe {
            set_pointer(self.field, input.as_ptr().cast_mut().cast());
            let n = (coders().compress)(self.zfp, self.field);
            set_pointer(self.field, std::ptr::null_mut());
            n
        };
        self.unbind();
        n
    }

    /// Decompresses `input` into `out` (at least [`Codec::field_bytes`] long); returns the
    /// bytes zfp consumed (0 on failure). zfp reads its bit stream without bounds checks, so
    /// unless the input holds every byte a fixed-rate decode reads, it is copied into a
    /// zero-padded buffer twice as long as the largest stream the mode allows, beyond
    /// anything a decode can read.
    pub(super) fn decompress(&mut self, input: &[u8], out: &mut [u8]) -> usize {
        if out.len() < self.field_bytes() {
            return 0;
        }
        // zfp reads the stream in 64-bit words: in place only where unaligned loads work
        // (as the reference has it read from chunks) or the input is aligned.
        let loads_ok = cfg!(any(
            target_arch = "x86",
            target_arch = "x86_64",
            target_arch = "aarch64"
        )) || input.as_ptr().align_offset(8) == 0;
        if loads_ok && self.fixed_rate_bytes().is_some_and(|n| n <= input.len()) {
            // SAFETY: zfp only reads the bit stream while decoding, and no further than
            // `fixed_rate_bytes()`, inside `input`, with loads valid at its alignment (see
            // above). The field writes `field_bytes()` bytes into `out` (checked above).
            let n = unsafe {
                self.bind_raw(input.as_ptr().cast_mut(), input.len());
                set_pointer(self.field, out.as_mut_ptr().cast());
                let n = (coders().decompress)(self.zfp, self.field);
                set_pointer(self.field, std::ptr::null_mut());
                n
            };
            self.unbind();
            return n;
        }
        let room = self.maximum_size().saturating_mul(2).saturating_add(64);
        PADDED
            .with_borrow_mut(|p| self.decompress_padded(p, room.max(input.len() + 64), input, out))
    }

    /// [`Codec::decompress`] with `padded` (this thread's buffer) holding the stream
    /// followed by zeroes up to `room` bytes.
    fn decompress_padded(
        &mut self,
        p: &mut Padded,
        room: usize,
        input: &[u8],
        out: &mut [u8],
    ) -> usize {
        if p.buf.len() < room {
            p.buf.resize(room, 0);
        }
        let dirty = p.dirty.min(p.buf.len());
        if dirty > input.len() {
            p.buf[input.len()..dirty].fill(0);
        }
        p.buf[..input.len()].copy_from_slice(input);
        p.dirty = input.len();
        let padded = &mut p.buf[..room];
        self.bind(padded);
        // SAFETY: the field writes `field_bytes()` bytes into `out` (checked); the stream
        // reads inside `padded` (see above), which lives until the bit stream is rebound or
        // closed.
        let n = unsafe {
            set_pointer(self.field, out.as_mut_ptr().cast());
            let n = (coders().decompress)(self.zfp, self.field);
            set_pointer(self.field, std::ptr::null_mut());
            n
        };
        self.unbind();
        n
    }

    /// Closes the bit stream (its buffer may go away).
    fn unbind(&mut self) {
        // SAFETY: the bit stream was opened by `bind` and is closed once.
        unsafe {
            if !self.bits.is_null() {
                oxzfp_stream_close(self.bits);
                self.bits = std::ptr::null_mut();
                oxzfp_zfp_stream_set_bit_stream(self.zfp, std::ptr::null_mut());
            }
        }
    }
}

extern "C" {
    fn oxzfp_zfp_field_set_pointer(field: *mut ZfpField, p: *mut c_void);
}

/// Sets the data pointer of a field.
///
/// # Safety
/// `field` must be live.
unsafe fn set_pointer(field: *mut ZfpField, p: *mut c_void) {
    // SAFETY: forwarded caller guarantee.
    unsafe { oxzfp_zfp_field_set_pointer(field, p) }
}

impl Drop for Codec {
    fn drop(&mut self) {
        // SAFETY: every non-null object was made by zfp here and is freed once.
        unsafe {
            if !self.field.is_null() {
                oxzfp_zfp_field_free(self.field);
            }
            if !self.zfp.is_null() {
                oxzfp_zfp_stream_close(self.zfp);
            }
            if !self.bits.is_null() {
                oxzfp_stream_close(self.bits);
            }
        }
    }
}
