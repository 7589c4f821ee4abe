use super::*;
use crate::filters::testutil::{assert_levels_match_scalar, kernel_levels, random_bytes};
use crate::testref::chunk::{self as reference, Op};

/// The definition, written independently of the kernels: byte `j` of element `i` goes to
/// `j * n + i`, trailing bytes stay where they are.
fn naive_shuffle(typesize: usize, src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let n = src.len() / typesize;
    for i in 0..n {
        for j in 0..typesize {
            out[j * n + i] = src[i * typesize + j];
        }
    }
    out
}

#[test]
fn small_examples_follow_the_definition() {
    let src: Vec<u8> = (0..7).collect();
    let mut dst = vec![0; 7];
    shuffle(2, &src, &mut dst);
    assert_eq!(dst, [0, 2, 4, 1, 3, 5, 6]);
    shuffle(3, &src, &mut dst);
    assert_eq!(dst, [0, 3, 1, 4, 2, 5, 6]);
    let mut back = vec![0; 7];
    unshuffle(3, &dst, &mut back);
    assert_eq!(back, src);
    for typesize in [0, 1, 8] {
        shuffle(typesize, &src, &mut dst);
        assert_eq!(dst, src, "typesize {typesize} copies");
    }
}

/// Typesizes and element counts that hit every kernel, their step boundaries and the
/// scalar tails.
fn kernel_cases() -> Vec<(usize, usize)> {
    let counts = [0, 1, 7, 15, 16, 17, 31, 32, 33, 64, 95, 257, 1000];
    let mut cases = Vec::new();
    for typesize in (1..=40).chain([48, 63, 64, 65, 100, 255, 256, 300, 1031]) {
        for count in counts {
            cases.push((
                typesize,
                count * typesize + (count * 7 + typesize) % typesize,
            ));
        }
    }
    cases
}

#[test]
fn every_isa_matches_the_definition() {
    for isa in kernel_levels("shuffle::every_isa_matches_the_definition") {
        for (seed, (typesize, len)) in kernel_cases().into_iter().enumerate() {
            let src = random_bytes(len, seed as u64);
            let expected = naive_shuffle(typesize, &src);
            let mut dst = vec![0; len];
            shuffle_with(isa, typesize, &src, &mut dst);
            assert_eq!(
                dst, expected,
                "{isa:?} shuffle typesize {typesize} len {len}"
            );
            let mut back = vec![0; len];
            unshuffle_with(isa, typesize, &expected, &mut back);
            assert_eq!(back, src, "{isa:?} unshuffle typesize {typesize} len {len}");
        }
    }
}

#[test]
fn strided_rows_leave_the_gaps_alone() {
    let (typesize, count, stride) = (4, 100, 130);
    let src = random_bytes(count * typesize, 7);
    for isa in kernel_levels("shuffle::strided_rows_leave_the_gaps_alone") {
        let mut planes = vec![0xEEu8; typesize * stride];
        shuffle_rows_with(isa, typesize, &src, &mut planes, stride, count);
        for (j, plane) in planes.chunks(stride).enumerate() {
            for i in 0..count {
                assert_eq!(plane[i], src[i * typesize + j], "{isa:?}");
            }
            assert!(
                plane[count..].iter().all(|&b| b == 0xEE),
                "{isa:?} wrote a gap"
            );
        }
        let mut back = vec![0; src.len()];
        unshuffle_rows_with(isa, typesize, &planes, &mut back, stride, count);
        assert_eq!(back, src, "{isa:?}");
    }
}

#[test]
fn matches_reference_library() {
    let Some(reference) = reference::get() else {
        return;
    };
    let levels = kernel_levels("shuffle::matches_reference_library");
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
        4096 + 64 * 7 + 5,
        65536 + 13,
    ];
    type Ours = fn(Isa, usize, &[u8], &mut [u8]);
    let ops: [(Op, Ours); 2] = [(Op::Shuffle, shuffle_with), (Op::Unshuffle, unshuffle_with)];
    for (seed, (typesize, size)) in typesizes
        .flat_map(|t| sizes.iter().map(move |&s| (t, s)))
        .enumerate()
    {
        let src = random_bytes(size, 1000 + seed as u64);
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
fn matches_reference_library_for_typesize_256() {
    let Some(reference) = reference::get() else {
        return;
    };
    let src = random_bytes(256 * 37 + 100, 5);
    let (_, expected) = reference.run(Op::Shuffle, 256, &src);
    let mut dst = vec![0; src.len()];
    shuffle(256, &src, &mut dst);
    assert!(dst == expected);
    let (_, expected) = reference.run(Op::Unshuffle, 256, &src);
    unshuffle(256, &src, &mut dst);
    assert!(dst == expected);
}

#[test]
fn every_isa_handles_every_buffer_alignment() {
    for isa in kernel_levels("shuffle::every_isa_handles_every_buffer_alignment") {
        for typesize in [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 32, 40] {
            let len = 300 * typesize + 1;
            let expected_src = random_bytes(len, typesize as u64);
            let expected = naive_shuffle(typesize, &expected_src);
            let mut src_area = vec![0u8; len + 64];
            let mut dst_area = vec![0u8; len + 64];
            for offset in 0..64 {
                let (src_at, dst_at) = (offset, (offset * 7 + 3) % 64);
                let src = &mut src_area[src_at..src_at + len];
                src.copy_from_slice(&expected_src);
                let dst = &mut dst_area[dst_at..dst_at + len];
                shuffle_with(isa, typesize, src, dst);
                assert!(
                    *dst == expected[..],
                    "{isa:?} shuffle typesize {typesize} src +{src_at} dst +{dst_at}"
                );
                unshuffle_with(isa, typesize, dst, src);
                assert!(
                    *src == expected_src[..],
                    "{isa:?} unshuffle typesize {typesize} src +{dst_at} dst +{src_at}"
                );
            }
        }
    }
}

/// Typesizes from 1 to 300, every one up to 70 (which covers every kernel of every level).
fn all_typesizes() -> impl Iterator<Item = usize> {
    (1..=70)
        .chain((71..=300).step_by(13))
        .chain([128, 255, 256, 257, 300])
}

#[test]
fn every_isa_matches_scalar_for_every_typesize() {
    let levels = kernel_levels("shuffle::every_isa_matches_scalar_for_every_typesize");
    let counts = [1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 250, 319];
    assert_levels_match_scalar(
        &levels,
        all_typesizes(),
        &counts,
        (shuffle_with, unshuffle_with),
        ("shuffle", "unshuffle"),
    );
}
