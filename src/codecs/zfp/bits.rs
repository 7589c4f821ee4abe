//! A reader of a zfp bit stream: bits in order of increasing significance within
//! little-endian 64-bit words, with zeroes past the end of the bytes (as zfp reads the
//! zero padding behind a stream).
#![forbid(unsafe_code)]

/// Bits a [`Bits::peek`] always holds valid.
pub(super) const PEEK_BITS: usize = 56;

/// A bit position in a byte slice.
pub(super) struct Bits<'a> {
    data: &'a [u8],
    /// Bits consumed from the start of `data` (may pass its end).
    pub(super) pos: usize,
}

impl<'a> Bits<'a> {
    /// A reader at the first bit of `data`.
    pub(super) fn new(data: &'a [u8]) -> Bits<'a> {
        Bits { data, pos: 0 }
    }

    /// The eight bytes from byte `at` as a little-endian word, zeroes past the end.
    #[inline(always)]
    fn word_at(&self, at: usize) -> u64 {
        match self.data.get(at..at.wrapping_add(8)) {
            Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => self.tail_word(at),
        }
    }

    /// [`Bits::word_at`] near or past the end.
    #[cold]
    fn tail_word(&self, at: usize) -> u64 {
        let mut w = [0u8; 8];
        if let Some(rest) = self.data.get(at..) {
            let n = rest.len().min(8);
            w[..n].copy_from_slice(&rest[..n]);
        }
        u64::from_le_bytes(w)
    }

    /// The next bits, the next one lowest; the low [`PEEK_BITS`] + 1 of them are valid.
    #[inline(always)]
    pub(super) fn peek(&self) -> u64 {
        self.word_at(self.pos >> 3) >> (self.pos & 7)
    }

    /// Reads one bit.
    #[inline(always)]
    pub(super) fn bit(&mut self) -> bool {
        let b = self.peek() & 1 != 0;
        self.pos += 1;
        b
    }

    /// Reads `n` (at most 64) bits, the first one lowest.
    #[inline(always)]
    pub(super) fn read(&mut self, n: usize) -> u64 {
        if n <= PEEK_BITS {
            let v = self.peek() & low_mask(n);
            self.pos += n;
            v
        } else {
            let lo = self.peek() & low_mask(32);
            self.pos += 32;
            let hi = self.peek() & low_mask(n - 32);
            self.pos += n - 32;
            lo | hi << 32
        }
    }
}

/// The `n` (at most 64) lowest bits set.
#[inline(always)]
pub(super) fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
