use super::*;
use crate::filters::testutil::random_bytes;

/// The reference's arithmetic spelled out word by word (native-endian words, as in the
/// reference): `dst[w] = src[w] ^ dref[w - 1]` in block 0 (first word copied from `dref`),
/// `dst[w] = src[w] ^ dref[w]` elsewhere, for whole words only.
fn naive_encode(dref: &[u8], offset: usize, typesize: usize, src: &[u8]) -> Vec<u8> {
    let word = match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    };
    let read = |buf: &[u8], i: usize| {
        let mut bytes = [0u8; 8];
        bytes[..word].copy_from_slice(&buf[i * word..(i + 1) * word]);
        u64::from_ne_bytes(bytes)
    };
    let mut out = src.to_vec();
    for i in 0..src.len() / word {
        let value = match (offset, i) {
            (0, 0) => read(dref, 0),
            (0, _) => read(src, i) ^ read(dref, i - 1),
            _ => read(src, i) ^ read(dref, i),
        };
        out[i * word..(i + 1) * word].copy_from_slice(&value.to_ne_bytes()[..word]);
    }
    out
}

#[test]
fn first_block_xors_each_element_with_the_previous_one() {
    let src = [1u8, 3, 7, 15, 31];
    let mut dst = [0u8; 5];
    encode(&src, 0, 1, &src, &mut dst);
    assert_eq!(dst, [1, 2, 4, 8, 16]);
    // 2-byte words: word 1 ^= word 0; the odd trailing byte is copied.
    encode(&src, 0, 2, &src, &mut dst);
    assert_eq!(dst, [1, 3, 6, 12, 31]);
    decode(&[], 0, 2, &mut dst);
    assert_eq!(dst, src);
}

#[test]
fn later_blocks_xor_with_the_first_block() {
    let dref = [0xF0u8, 0x0F, 0xAA, 0x55];
    let src = [0xFFu8, 0xFF, 0xFF, 0xFF, 0x12];
    let mut dst = [0u8; 5];
    encode(&dref, 64, 4, &src, &mut dst);
    assert_eq!(dst, [0x0F, 0xF0, 0x55, 0xAA, 0x12]);
    decode(&dref, 64, 4, &mut dst);
    assert_eq!(dst, src);
}

#[test]
fn matches_the_reference_arithmetic_and_round_trips() {
    for typesize in [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 255] {
        for len in [0, 1, 2, 7, 8, 9, 15, 16, 17, 100, 1001, 4096] {
            let chunk = random_bytes(2 * len, (typesize * 10_000 + len) as u64);
            let (first, second) = chunk.split_at(len);
            for (offset, block) in [(0, first), (len.max(1), second)] {
                let expected = naive_encode(&chunk, offset, typesize, block);
                let mut encoded = vec![0; block.len()];
                encode(&chunk, offset, typesize, block, &mut encoded);
                assert_eq!(
                    encoded, expected,
                    "typesize {typesize} len {len} offset {offset}"
                );
                decode(first, offset, typesize, &mut encoded);
                assert_eq!(encoded, block, "round trip typesize {typesize} len {len}");
            }
        }
    }
}

#[test]
fn short_reference_leaves_unreferenced_bytes_alone() {
    let src = [9u8; 6];
    let mut dst = [0u8; 6];
    encode(&[1, 2], 8, 1, &src, &mut dst);
    assert_eq!(dst, [8, 11, 9, 9, 9, 9]);
    decode(&[1, 2], 8, 1, &mut dst);
    assert_eq!(dst, src);
}

/// The delta-encoded blocks of a reference chunk made of raw (incompressible) streams, one
/// stream per block; `None` if the chunk is laid out otherwise.
fn raw_blocks(chunk: &[u8]) -> Option<(usize, Vec<Vec<u8>>)> {
    let word = |at: usize| i32::from_le_bytes(chunk[at..at + 4].try_into().unwrap()) as usize;
    let (flags, nbytes, blocksize) = (chunk[2], word(4), word(8));
    let filters = &chunk[16..22];
    if flags & 0x12 != 0x10 || filters != [0, 0, 0, 0, 3, 0] {
        return None;
    }
    let blocks = (0..nbytes.div_ceil(blocksize))
        .map(|k| {
            let len = blocksize.min(nbytes - k * blocksize);
            let start = word(32 + 4 * k);
            (word(start) == len).then(|| chunk[start + 4..start + 4 + len].to_vec())
        })
        .collect::<Option<Vec<_>>>()?;
    Some((blocksize, blocks))
}

#[test]
fn matches_reference_library() {
    let Some(reference) = crate::testref::chunk::get() else {
        return;
    };
    for typesize in [1, 2, 3, 4, 5, 7, 8, 12, 16, 24] {
        // The reference only handles blocks holding whole elements.
        let blocksize = 128 * typesize;
        for nbytes in [
            3 * blocksize + 5 * typesize,
            3 * blocksize + 5 * typesize + 3,
        ] {
            let src = random_bytes(nbytes, (typesize * 7 + nbytes) as u64);
            let chunk = reference.compress_with_delta(typesize, blocksize, &src);
            let (blocksize, blocks) = raw_blocks(&chunk).expect("raw single-stream chunk");
            assert!(blocks.len() > 1, "several blocks");
            for (k, expected) in blocks.iter().enumerate() {
                let block = &src[k * blocksize..k * blocksize + expected.len()];
                let mut encoded = vec![0; block.len()];
                encode(&src, k * blocksize, typesize, block, &mut encoded);
                // Bytes after the last whole word are left unwritten by the reference (its
                // chunk holds stale scratch bytes there and loses the data); ours keeps them.
                let body = block.len() - block.len() % word_size(typesize);
                assert!(
                    encoded[..body] == expected[..body],
                    "typesize {typesize} nbytes {nbytes} block {k}"
                );
                assert_eq!(encoded[body..], block[body..]);
                decode(&src[..blocksize], k * blocksize, typesize, &mut encoded);
                assert!(encoded == block, "round trip typesize {typesize} block {k}");
            }
        }
    }
}
