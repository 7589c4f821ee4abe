use super::{compress, decompress, FAILURE};

fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut x = seed;
    move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    }
}

#[test]
fn round_trips_every_geometry() {
    let mut next = lcg(3);
    for cell in [4u8, 8] {
        for (b0, b1) in [(8, 8), (9, 13), (16, 17), (33, 8), (64, 64), (5, 40)] {
            let data: Vec<u8> = (0..(b0 * b1) as usize)
                .map(|i| {
                    if next().is_multiple_of(4) {
                        next() as u8
                    } else {
                        (i / 4 % 3) as u8
                    }
                })
                .collect();
            let mut out = vec![0u8; data.len() + 128];
            let n = compress(cell, &[b0, b1], &data, &mut out);
            assert!(n >= 0);
            if n > 0 {
                let mut back = vec![0u8; data.len()];
                let m = decompress(cell, &out[..n as usize], &mut back);
                assert_eq!(m as usize, data.len(), "cell {cell} {b0}x{b1}");
                assert_eq!(back, data);
            }
        }
    }
}

#[test]
fn refuses_bad_parameters() {
    let data = vec![0u8; 64];
    let mut out = vec![0u8; 256];
    assert_eq!(compress(5, &[8, 8], &data, &mut out), FAILURE);
    assert_eq!(compress(4, &[8, 8, 1], &data, &mut out), FAILURE);
    assert_eq!(compress(4, &[8, 7], &data, &mut out), FAILURE);
    assert_eq!(compress(4, &[8, 8], &data, &mut out[..8]), FAILURE);
    assert_eq!(decompress(3, &out, &mut [0u8; 64]), FAILURE);
}

#[test]
fn arbitrary_and_corrupted_streams_never_panic() {
    let mut next = lcg(11);
    let data: Vec<u8> = (0..32 * 24).map(|i| (i / 4 % 5) as u8).collect();
    for cell in [4u8, 8] {
        let mut good = vec![0u8; data.len() + 64];
        let n = compress(cell, &[32, 24], &data, &mut good) as usize;
        assert!(n > 9);
        good.truncate(n);
        for _ in 0..3000 {
            let mut s = good.clone();
            for _ in 0..1 + next() % 4 {
                let at = next() as usize % s.len();
                s[at] = next() as u8;
            }
            s.truncate(next() as usize % (s.len() + 1));
            let mut out = vec![0u8; next() as usize % 1024];
            let r = decompress(cell, &s, &mut out);
            assert!(r == FAILURE || (0..=out.len() as i32).contains(&r));
        }
        for _ in 0..2000 {
            let len = next() as usize % 200;
            let s: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let mut out = vec![0u8; 4096];
            let _ = decompress(cell, &s, &mut out);
        }
    }
}

#[test]
fn round_trips_either_side_of_the_16_bit_tables() {
    // Streams below 64 KiB less two cells use 16-bit hash tables, larger ones 32-bit.
    let mut next = lcg(5);
    for cell in [4u8, 8] {
        for (b0, b1) in [(255, 256), (256, 255), (256, 256), (300, 260)] {
            let data: Vec<u8> = (0..(b0 * b1) as usize)
                .map(|i| {
                    if next().is_multiple_of(16) {
                        next() as u8
                    } else {
                        (i / 8 % 7) as u8
                    }
                })
                .collect();
            let mut out = vec![0u8; data.len() + 128];
            let n = compress(cell, &[b0, b1], &data, &mut out);
            assert!(n > 0, "cell {cell} {b0}x{b1}");
            let mut back = vec![0u8; data.len()];
            let m = decompress(cell, &out[..n as usize], &mut back);
            assert_eq!(m as usize, data.len(), "cell {cell} {b0}x{b1}");
            assert_eq!(back, data);
        }
    }
}
