//! Delta filter: XOR of each element with a reference element.
//!
//! Elements are XORed as words of 1, 2, 4 or 8 bytes: typesizes 1, 2, 4 and 8 use their own
//! size, other multiples of 8 use 8-byte words and every other typesize single bytes. In the
//! chunk's first block (offset 0) each word is XORed with the word before it and the first
//! word is kept; every later block is XORed word by word with the first block. Bytes after
//! the last whole word of a block are copied unchanged.

#[cfg(test)]
mod tests;

/// The size of the words the filter XORs for elements of `typesize` bytes.
fn word_size(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// Writes `src[i] ^ key[i]` to `dst[i]` where `key` has a byte, and `src[i]` elsewhere.
fn xor_into(dst: &mut [u8], src: &[u8], key: &[u8]) {
    let keyed = key.len().min(src.len());
    for ((out, byte), k) in dst[..keyed]
        .iter_mut()
        .zip(&src[..keyed])
        .zip(&key[..keyed])
    {
        *out = byte ^ k;
    }
    dst[keyed..].copy_from_slice(&src[keyed..]);
}

/// Encodes the block `src` (which starts at byte `offset` of the chunk) into `dst`, using
/// `dref`, the start of the chunk's unfiltered data, as reference.
///
/// `dref` should cover the block's length; bytes whose reference byte lies beyond `dref` are
/// copied unchanged.
///
/// # Panics
/// If `src` and `dst` differ in length.
pub fn encode(dref: &[u8], offset: usize, typesize: usize, src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "delta: source and destination lengths differ"
    );
    let word = word_size(typesize);
    let body = src.len() - src.len() % word;
    if offset == 0 {
        let head = word.min(body);
        let given = head.min(dref.len());
        dst[..given].copy_from_slice(&dref[..given]);
        dst[given..head].copy_from_slice(&src[given..head]);
        xor_into(&mut dst[head..body], &src[head..body], dref);
    } else {
        xor_into(&mut dst[..body], &src[..body], dref);
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// Decodes the block `buf` in place; `dref` is the chunk's already decoded first block
/// (ignored when `offset` is 0, where the block is its own reference).
///
/// Bytes whose reference byte lies beyond `dref` are left unchanged.
pub fn decode(dref: &[u8], offset: usize, typesize: usize, buf: &mut [u8]) {
    let word = word_size(typesize);
    let body = buf.len() - buf.len() % word;
    if offset == 0 {
        prefix_xor(&mut buf[..body], word);
    } else {
        for (byte, k) in buf[..body].iter_mut().zip(dref) {
            *byte ^= k;
        }
    }
}

/// Replaces every `word`-byte word of `buf` (whose length is a multiple of `word`) by the XOR
/// of itself and all the words before it.
fn prefix_xor(buf: &mut [u8], word: usize) {
    match word {
        1 => prefix_xor_words::<1>(buf),
        2 => prefix_xor_words::<2>(buf),
        4 => prefix_xor_words::<4>(buf),
        _ => prefix_xor_words::<8>(buf),
    }
}

/// [`prefix_xor`] for words of `W` bytes (1, 2, 4 or 8).
fn prefix_xor_words<const W: usize>(buf: &mut [u8]) {
    // Eight bytes at a time: the words inside a 64-bit lane are prefix-XORed with shifts,
    // independently of the other lanes; the running value of the last word (`carry`) is the
    // only serial dependency, one XOR per lane, and is spread over the lane's words after.
    let spread: u64 = match W {
        1 => 0x0101_0101_0101_0101,
        2 => 0x0001_0001_0001_0001,
        4 => 0x0000_0001_0000_0001,
        _ => 1,
    };
    let top = 64 - 8 * W as u32;
    let local = |lane: &[u8]| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(lane);
        let mut x = u64::from_le_bytes(bytes);
        let mut shift = 8 * W as u32;
        while shift < 64 {
            x ^= x << shift;
            shift *= 2;
        }
        x
    };
    let mut carry = 0u64;
    let quads = buf.len() - buf.len() % 32;
    for quad in buf[..quads].chunks_exact_mut(32) {
        let l = [
            local(&quad[..8]),
            local(&quad[8..16]),
            local(&quad[16..24]),
            local(&quad[24..]),
        ];
        let t = [l[0] >> top, l[1] >> top, l[2] >> top, l[3] >> top];
        let c = [
            carry,
            carry ^ t[0],
            carry ^ t[0] ^ t[1],
            carry ^ t[0] ^ t[1] ^ t[2],
        ];
        carry = c[3] ^ t[3];
        for (k, lane) in quad.chunks_exact_mut(8).enumerate() {
            lane.copy_from_slice(&(l[k] ^ c[k].wrapping_mul(spread)).to_le_bytes());
        }
    }
    let done = buf.len() - buf.len() % 8;
    for lane in buf[quads..done].chunks_exact_mut(8) {
        let l = local(lane);
        lane.copy_from_slice(&(l ^ carry.wrapping_mul(spread)).to_le_bytes());
        carry ^= l >> top;
    }
    for at in done.max(W)..buf.len() {
        buf[at] ^= buf[at - W];
    }
}
