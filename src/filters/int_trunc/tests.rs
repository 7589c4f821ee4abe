use super::*;

#[test]
fn keeps_high_bits_or_clears_low_bits() {
    let src = 0x1234_5678u32.to_le_bytes();
    let mut dst = [0u8; 4];
    truncate(8, 4, &src, &mut dst).unwrap();
    assert_eq!(u32::from_le_bytes(dst), 0x1200_0000);
    truncate(-12, 4, &src, &mut dst).unwrap();
    assert_eq!(u32::from_le_bytes(dst), 0x1234_5000);
    let src = [0xffu8, 0xff, 0xab];
    let mut dst = [0u8; 3];
    truncate(3, 2, &src, &mut dst).unwrap();
    assert_eq!(dst, [0x00, 0xe0, 0xab], "trailing byte copied");
}

#[test]
fn refuses_what_the_reference_refuses() {
    let src = [1u8; 8];
    let mut dst = [9u8; 8];
    for (ts, prec) in [(4, 0), (4, 40), (2, 17), (3, 8), (8, 0), (1, -12), (2, -16)] {
        assert_eq!(
            truncate(prec, ts, &src, &mut dst),
            Err(Error::Failure),
            "{ts} {prec}"
        );
    }
    assert_eq!(dst, [9; 8], "untouched on failure");
    assert!(truncate(64, 8, &src, &mut dst).is_ok());
    assert_eq!(dst, src);
}
