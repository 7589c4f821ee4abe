//! Deterministic test data and helpers shared by the engine tests.

use crate::constants::*;

/// A small deterministic generator (64-bit LCG).
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }

    /// The next 32 random bits.
    pub fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    /// A value in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n.max(1)
    }

    /// One element of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Kinds of synthetic data.
pub const KINDS: [&str; 6] = ["zeros", "arange", "blocky", "noise", "text", "floats"];

/// `n` bytes of data of the given kind.
pub fn make(kind: &str, n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    match kind {
        "zeros" => vec![0; n],
        "arange" => (0..n)
            .map(|i| ((i / 4) as u32).to_le_bytes()[i % 4])
            .collect(),
        "blocky" => {
            let mut v = Vec::with_capacity(n);
            while v.len() < n {
                let b = r.next() as u8;
                let len = 1 + r.below(300);
                v.extend(std::iter::repeat_n(b, len));
            }
            v.truncate(n);
            v
        }
        "noise" => (0..n).map(|_| r.next() as u8).collect(),
        "text" => {
            let words = [
                &b"blosc "[..],
                b"chunk ",
                b"stream ",
                b"the ",
                b"of ",
                b"data\n",
            ];
            let mut v = Vec::with_capacity(n + 8);
            while v.len() < n {
                v.extend_from_slice(r.pick(&words));
            }
            v.truncate(n);
            v
        }
        _ => {
            let mut v = Vec::with_capacity(n + 8);
            let mut x = 1.0f64;
            while v.len() < n {
                x += f64::from(r.next() % 1000) / 997.0;
                v.extend_from_slice(&x.to_le_bytes());
            }
            v.truncate(n);
            v
        }
    }
}

/// The filter slots `blosc2_compress` builds for `doshuffle` and the delta flag.
pub fn build_filters(doshuffle: i32, delta: bool, typesize: i32) -> [u8; 6] {
    let mut f = [0u8; 6];
    if doshuffle == 1 && typesize > 1 {
        f[5] = SHUFFLE;
    }
    if doshuffle == 2 {
        f[5] = BITSHUFFLE;
    }
    if delta {
        f[4] = DELTA;
    }
    f
}
