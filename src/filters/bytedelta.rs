//! Byte-delta filter (plugin filter 35, and its legacy variant 34).
//!
//! A block is seen as `channels` consecutive byte streams of `len / channels` bytes each (the
//! layout SHUFFLE leaves behind). Every byte of a stream is replaced by its difference
//! (wrapping) with the byte before it in the same stream; the first byte of each stream is
//! kept. The legacy variant restarts the difference at the last `len % 16` bytes of every
//! stream longer than 16 bytes, as the original SIMD code did, and is kept to read old data.
//! Bytes after the last whole stream are copied unchanged.

#[cfg(test)]
mod tests;

/// Where the legacy variant restarts the running difference in a stream of `n` bytes.
fn restart_at(n: usize, legacy: bool) -> usize {
    if legacy && n >= 16 {
        n - n % 16
    } else {
        usize::MAX
    }
}

/// Encodes `src` into `dst` with `channels` streams; `legacy` selects the variant of filter
/// 34.
///
/// # Panics
/// If `src` and `dst` differ in length or `channels` is 0.
pub fn encode(channels: usize, legacy: bool, src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "bytedelta: lengths differ");
    let n = src.len() / channels;
    let restart = restart_at(n, legacy);
    let body = n * channels;
    if n > 0 {
        for (s, d) in src[..body]
            .chunks_exact(n)
            .zip(dst[..body].chunks_exact_mut(n))
        {
            d[0] = s[0];
            for i in 1..n {
                let prev = if i == restart { 0 } else { s[i - 1] };
                d[i] = s[i].wrapping_sub(prev);
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// Reverses [`encode`].
///
/// # Panics
/// If `src` and `dst` differ in length or `channels` is 0.
pub fn decode(channels: usize, legacy: bool, src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "bytedelta: lengths differ");
    let n = src.len() / channels;
    let restart = restart_at(n, legacy);
    let body = n * channels;
    if n > 0 {
        for (s, d) in src[..body]
            .chunks_exact(n)
            .zip(dst[..body].chunks_exact_mut(n))
        {
            let mut acc = 0u8;
            for (i, (&x, out)) in s.iter().zip(d.iter_mut()).enumerate() {
                if i == restart {
                    acc = 0;
                }
                acc = acc.wrapping_add(x);
                *out = acc;
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}
