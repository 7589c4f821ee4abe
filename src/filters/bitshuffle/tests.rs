use super::*;
use crate::filters::testutil::{assert_levels_match_scalar, kernel_levels, random_bytes};
use crate::testref::chunk::{self as reference, Op};

/// The definition, written independently of the kernels: for the first `m` (a multiple of
/// 8) elements, bit `k` of byte `j` of element `i` goes to bit `i % 8` of byte
/// `(8j + k) * m / 8 + i / 8`; the other bytes stay where they are.
fn naive_bitshuffle(typesize: usize, src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let n = src.len() / typesize;
    let m = n - n % 8;
    out[..m * typesize].fill(0);
    for i in 0..m {
        for j in 0..typesize {
            for k in 0..8 {
                let bit = (src[i * typesize + j] >> k) & 1;
                out[(8 * j + k) * (m / 8) + i / 8] |= bit << (i % 8);
            }
        }
    }
    out
}

#[test]
fn small_examples_follow_the_definition() {
    let mut dst = [0u8; 9];
    bitshuffle(1, &[0xFF, 0, 0, 0, 0, 0, 0, 0, 0x77], &mut dst);
    assert_eq!(dst, [1, 1, 1, 1, 1, 1, 1, 1, 0x77]);
    bitshuffle(1, &[0, 0, 0, 1, 0, 0, 0, 0, 0x77], &mut dst);
    assert_eq!(dst, [8, 0, 0, 0, 0, 0, 0, 0, 0x77]);
    // Seven 2-byte elements: fewer than 8, so everything is copied.
    let src: Vec<u8> = (1..=14).collect();
    let mut dst = vec![0; 14];
    bitshuffle(2, &src, &mut dst);
    assert_eq!(dst, src);
    bitshuffle(0, &src, &mut dst);
    assert_eq!(dst, src);
}

fn kernel_cases() -> Vec<(usize, usize)> {
    let counts = [0, 7, 8, 9, 16, 24, 255, 256, 263, 520, 2072, 9000];
    let mut cases = Vec::new();
    for typesize in (1..=20).chain([24, 31, 32, 33, 64, 65, 100, 255, 256, 300]) {
        for count in counts {
            if count * typesize <= 300_000 {
                cases.push((typesize, count * typesize + (count + typesize) % typesize));
            }
        }
    }
    cases
}

#[test]
fn every_isa_matches_the_definition() {
    for isa in kernel_levels("bitshuffle::every_isa_matches_the_definition") {
        for (seed, (typesize, len)) in kernel_cases().into_iter().enumerate() {
            let src = random_bytes(len, seed as u64);
            let expected = naive_bitshuffle(typesize, &src);
            let mut dst = vec![0; len];
            bitshuffle_with(isa, typesize, &src, &mut dst);
            assert!(
                dst == expected,
                "{isa:?} bitshuffle typesize {typesize} len {len}"
            );
            let mut back = vec![0; len];
            bitunshuffle_with(isa, typesize, &expected, &mut back);
            assert!(
                back == src,
                "{isa:?} bitunshuffle typesize {typesize} len {len}"
            );
        }
    }
}

#[test]
fn version_2_chunks_copy_blocks_with_partial_octets() {
    let src = random_bytes(4 * 13 + 3, 3);
    let mut dst = vec![0; src.len()];
    bitunshuffle_v2(4, &src, &mut dst);
    assert_eq!(dst, src);
    let src = random_bytes(4 * 16 + 3, 4);
    let mut expected = vec![0; src.len()];
    bitunshuffle(4, &src, &mut expected);
    let mut got = vec![0; src.len()];
    bitunshuffle_v2(4, &src, &mut got);
    assert_eq!(got, expected);
    assert_ne!(got, src);
}

#[test]
fn matches_reference_library() {
    let Some(reference) = reference::get() else {
        return;
    };
    let levels = kernel_levels("bitshuffle::matches_reference_library");
    // The reference refuses typesizes above 256.
    let typesizes = (1..=33).chain([40, 48, 63, 64, 65, 100, 128, 255, 256]);
    let sizes = [
        0,
        1,
        7,
        8,
        9,
        63,
        64,
        100,
        1000,
        4096,
        4096 + 512 * 7 + 5,
        65536 + 13,
    ];
    type Ours = fn(Isa, usize, &[u8], &mut [u8]);
    let ops: [(Op, Ours); 2] = [
        (Op::Bitshuffle, bitshuffle_with),
        (Op::Bitunshuffle, bitunshuffle_with),
    ];
    for (seed, (typesize, size)) in typesizes
        .flat_map(|t| sizes.iter().map(move |&s| (t, s)))
        .enumerate()
    {
        let src = random_bytes(size, 2000 + seed as u64);
        for (op, ours) in ops {
            let (rc, expected) = reference.run(op, typesize, &src);
            assert_eq!(
                rc, size as i32,
                "{op:?} typesize {typesize} size {size}: return code"
            );
            for &isa in &levels {
                let mut dst = vec![0; size];
                ours(isa, typesize, &src, &mut dst);
                assert!(
                    dst == expected,
                    "{isa:?} {op:?} typesize {typesize} size {size}"
                );
            }
        }
    }
}

#[test]
fn every_isa_matches_scalar_for_every_typesize() {
    let levels = kernel_levels("bitshuffle::every_isa_matches_scalar_for_every_typesize");
    let typesizes = (1..=70)
        .chain((71..=300).step_by(13))
        .chain([128, 255, 256, 257]);
    let counts = [8, 16, 255, 256, 263, 504, 512, 520, 1032, 2048 + 256 + 8];
    assert_levels_match_scalar(
        &levels,
        typesizes,
        &counts,
        (bitshuffle_with, bitunshuffle_with),
        ("bitshuffle", "bitunshuffle"),
    );
}

#[test]
fn every_isa_handles_every_buffer_alignment() {
    // Long enough for the AVX-512 kernels to start their steps at aligned stores.
    let cases = [
        (1, 9000),
        (2, 9000),
        (3, 3000),
        (4, 4104),
        (8, 2056),
        (12, 1032),
    ];
    for isa in kernel_levels("bitshuffle::every_isa_handles_every_buffer_alignment") {
        for (typesize, count) in cases {
            let len = count * typesize + 5;
            let expected_src = random_bytes(len, typesize as u64);
            let expected = naive_bitshuffle(typesize, &expected_src);
            let mut src_area = vec![0u8; len + 64];
            let mut dst_area = vec![0u8; len + 64];
            for offset in 0..64 {
                let (src_at, dst_at) = (offset, (offset * 7 + 3) % 64);
                let src = &mut src_area[src_at..src_at + len];
                src.copy_from_slice(&expected_src);
                let dst = &mut dst_area[dst_at..dst_at + len];
                bitshuffle_with(isa, typesize, src, dst);
                assert!(
                    *dst == expected[..],
                    "{isa:?} bitshuffle typesize {typesize} src +{src_at} dst +{dst_at}"
                );
                bitunshuffle_with(isa, typesize, dst, src);
                assert!(
                    *src == expected_src[..],
                    "{isa:?} bitunshuffle typesize {typesize} src +{dst_at} dst +{src_at}"
                );
            }
        }
    }
}
