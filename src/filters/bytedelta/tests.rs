use super::*;

#[test]
fn streams_hold_differences_of_neighbours() {
    let src: Vec<u8> = (0..10u8).map(|i| i * i).collect();
    let mut dst = vec![0; 10];
    encode(2, false, &src, &mut dst);
    // Streams [0 1 4 9 16] and [25 36 49 64 81].
    assert_eq!(dst, [0, 1, 3, 5, 7, 25, 11, 13, 15, 17]);
    let mut back = vec![0; 10];
    decode(2, false, &dst, &mut back);
    assert_eq!(back, src);
}

#[test]
fn trailing_bytes_are_copied() {
    let src = [5u8, 7, 9, 11, 200];
    let mut dst = [0u8; 5];
    encode(2, false, &src, &mut dst);
    assert_eq!(dst, [5, 2, 9, 2, 200]);
}

#[test]
fn legacy_variant_restarts_before_the_last_partial_16_bytes() {
    let src: Vec<u8> = (1..=20u8).collect();
    let mut fixed = vec![0; 20];
    let mut legacy = vec![0; 20];
    encode(1, false, &src, &mut fixed);
    encode(1, true, &src, &mut legacy);
    assert!(fixed[1..].iter().all(|&d| d == 1));
    assert_eq!(legacy[16], 17, "difference restarts at byte 16");
    assert_eq!(&legacy[..16], &fixed[..16]);
    assert_eq!(&legacy[17..], &fixed[17..]);
    let mut back = vec![0; 20];
    decode(1, true, &legacy, &mut back);
    assert_eq!(back, src);
    // Streams whose length is a multiple of 16 are the same in both variants.
    let src: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
    let (mut a, mut b) = (vec![0; 64], vec![0; 64]);
    encode(2, false, &src, &mut a);
    encode(2, true, &src, &mut b);
    assert_eq!(a, b);
}
