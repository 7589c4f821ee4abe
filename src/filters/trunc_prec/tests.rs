use super::*;

#[test]
fn keeps_the_requested_mantissa_bits_of_floats() {
    let values = [1.0f32 + f32::EPSILON, std::f32::consts::PI, -123.456];
    let src: Vec<u8> = values
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .chain([0xAB])
        .collect();
    let mut dst = vec![0; src.len()];
    truncate(10, 4, &src, &mut dst).unwrap();
    for (i, v) in values.iter().enumerate() {
        let got = u32::from_ne_bytes(dst[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got, v.to_bits() & !0x1FFF, "13 low bits cleared");
    }
    assert_eq!(dst[12], 0xAB, "trailing byte copied");
    truncate(-3, 4, &src, &mut dst).unwrap();
    let got = u32::from_ne_bytes(dst[4..8].try_into().unwrap());
    assert_eq!(got, std::f32::consts::PI.to_bits() & !0x7);
}

#[test]
fn keeps_the_requested_mantissa_bits_of_doubles() {
    let src = std::f64::consts::E.to_ne_bytes();
    let mut dst = [0u8; 8];
    truncate(52, 8, &src, &mut dst).unwrap();
    assert_eq!(dst, src, "all 52 bits kept");
    truncate(1, 8, &src, &mut dst).unwrap();
    assert_eq!(
        u64::from_ne_bytes(dst),
        std::f64::consts::E.to_bits() & !((1 << 51) - 1)
    );
    truncate(-51, 8, &src, &mut dst).unwrap();
    assert_eq!(
        u64::from_ne_bytes(dst),
        std::f64::consts::E.to_bits() & !((1 << 51) - 1)
    );
}

#[test]
fn rejects_what_the_reference_rejects() {
    let src = [0x55u8; 16];
    let mut dst = [0u8; 16];
    for typesize in [1, 2, 3, 16] {
        assert_eq!(
            truncate(8, typesize, &src, &mut dst),
            Err(Error::FilterPipeline)
        );
    }
    for (typesize, bad) in [
        (4, [0, 24, -23, -24, 127, -128]),
        (8, [0, 53, -52, -53, 127, -128]),
    ] {
        for prec in bad {
            assert_eq!(
                truncate(prec, typesize, &src, &mut dst),
                Err(Error::FilterPipeline)
            );
        }
    }
    assert_eq!(dst, [0u8; 16], "nothing written on error");
    assert!(truncate(23, 4, &src, &mut dst).is_ok());
    assert!(truncate(-22, 4, &src, &mut dst).is_ok());
}
