//! The Rust decoder against zfp's C decoder: the same bytes for streams zfp wrote (every
//! mode, both types, 1 to 4 dimensions, partial blocks, rough and smooth data, special
//! values) and for garbage.

use super::decode::Params;
use super::{codec, compress, decompress, decompress_by_zfp, Mode};

const MODES: [Mode; 3] = [Mode::Accuracy, Mode::Precision, Mode::Rate];

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 ^ (self.0 >> 29)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 32) as u8).collect()
    }
}

/// Items of one of several kinds: smooth, rough, mostly zero, huge/tiny magnitudes,
/// special values, raw random bits.
fn data(rng: &mut Rng, kind: u32, items: usize, typesize: i32) -> Vec<u8> {
    let value = |rng: &mut Rng, i: usize| -> f64 {
        let t = i as f64;
        match kind {
            0 => (t * 0.07).sin() * 100.0 + (t * 0.013).cos(),
            1 => (rng.next() % 2001) as f64 - 1000.0,
            2 => {
                if rng.next().is_multiple_of(13) {
                    (rng.next() % 100) as f64 * 1e-3
                } else {
                    0.0
                }
            }
            3 => {
                let e = (rng.next() % 80) as i32 - 40;
                ((rng.next() % 1000) as f64 - 500.0) * 10f64.powi(e)
            }
            4 => [f64::MAX, f64::MIN_POSITIVE, 1e-310, -0.0, 3.5, 1e38, 1e-45][i % 7],
            _ => f64::NAN,
        }
    };
    if kind == 6 {
        return rng.bytes(items * typesize as usize);
    }
    let mut out = Vec::with_capacity(items * typesize as usize);
    for i in 0..items {
        let v = value(rng, i);
        if typesize == 4 {
            out.extend_from_slice(&(v as f32).to_le_bytes());
        } else {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// Both decoders on `stream`; panics if they differ.
fn same_decode(mode: Mode, meta: u8, shape: &[i32], ts: i32, stream: &[u8], what: &str) {
    let items: usize = shape.iter().map(|&d| d as usize).product();
    let mut ours = vec![0x55u8; items * ts as usize];
    let mut theirs = vec![0x55u8; items * ts as usize];
    let r = decompress(mode, meta, shape, ts, stream, &mut ours);
    let c = decompress_by_zfp(mode, meta, shape, ts, stream, &mut theirs);
    assert_eq!(r, c, "{what}: status");
    if c > 0 {
        if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
            panic!("{what}: first difference at byte {i} of {}", ours.len());
        }
    }
    // The stream at an odd address decodes the same.
    let mut shifted = vec![0u8; stream.len() + 1];
    shifted[1..].copy_from_slice(stream);
    let mut again = vec![0x55u8; ours.len()];
    decompress(mode, meta, shape, ts, &shifted[1..], &mut again);
    assert!(again == ours, "{what}: at an odd address");
}

const SHAPES: [&[i32]; 14] = [
    &[4],
    &[37],
    &[256],
    &[4, 4],
    &[5, 13],
    &[16, 16],
    &[4, 4, 4],
    &[6, 4, 9],
    &[16, 16, 32],
    &[7, 5, 6],
    &[4, 4, 4, 4],
    &[5, 4, 7, 6],
    &[8, 8, 8, 4],
    &[4, 9, 4, 5],
];

#[test]
fn parameters_are_zfps() {
    for mode in MODES {
        for meta in 0..=255u8 {
            for ndim in 1..=4 {
                for ts in [4, 8] {
                    let shape = vec![4; ndim];
                    let c = codec(mode, meta, &shape, ts).unwrap();
                    let (minbits, maxbits, maxprec, minexp) = c.params();
                    let want = Params {
                        minbits,
                        maxbits,
                        maxprec,
                        minexp,
                    };
                    assert_eq!(
                        Params::new(mode, meta, ndim, ts),
                        want,
                        "{mode:?} {meta} {ndim} {ts}"
                    );
                }
            }
        }
    }
}

#[test]
fn streams_zfp_wrote_decode_bit_for_bit() {
    let mut rng = Rng(5);
    let metas = |mode| match mode {
        Mode::Accuracy => vec![0u8, 253, 250, 240, 5, 128],
        Mode::Precision => vec![0u8, 7, 20, 40, 61, 255],
        Mode::Rate => vec![1u8, 9, 37, 50, 100, 180],
    };
    for shape in SHAPES {
        let items: usize = shape.iter().map(|&d| d as usize).product();
        for ts in [4, 8] {
            for kind in 0..7 {
                let input = data(&mut rng, kind, items, ts);
                for mode in MODES {
                    for meta in metas(mode) {
                        let mut enc = vec![0u8; input.len() * 3 + 4096];
                        let n = compress(mode, meta, shape, ts, &input, &mut enc);
                        let what = format!("{shape:?} ts {ts} kind {kind} {mode:?} {meta}");
                        if n > 0 {
                            same_decode(mode, meta, shape, ts, &enc[..n as usize], &what);
                        }
                        // The stream (or the input, as blosc2 would store it) truncated.
                        let cut = if n > 0 {
                            n as usize / 2
                        } else {
                            input.len() / 3
                        };
                        same_decode(mode, meta, shape, ts, &enc[..cut], &what);
                    }
                }
            }
        }
    }
}

#[test]
fn garbage_decodes_as_zfp_decodes_it() {
    let mut rng = Rng(9);
    for shape in SHAPES {
        for ts in [4, 8] {
            for mode in MODES {
                for round in 0..6 {
                    let meta = (rng.next() >> 24) as u8;
                    let len = [0usize, 3, 8, 100, 1000, 40000][round];
                    let mut stream = rng.bytes(len);
                    if round % 2 == 1 {
                        // Mostly ones: long bit planes and group runs.
                        for b in stream.iter_mut() {
                            *b |= (rng.next() >> 40) as u8 | 0xbf;
                        }
                    }
                    let what = format!("{shape:?} ts {ts} {mode:?} {meta} len {len}");
                    same_decode(mode, meta, shape, ts, &stream, &what);
                }
            }
        }
    }
}

#[test]
fn refusals_match_zfps() {
    let stream = [0xffu8; 64];
    for (shape, ts, out_len) in [
        (&[4, 4][..], 2, 64),
        (&[4, 4], 4, 63),
        (&[4, 4, 4, 4, 4], 4, 1 << 12),
        (&[0, 4], 4, 64),
        (&[-4, 4], 4, 64),
        (&[][..], 4, 64),
    ] {
        for mode in MODES {
            let mut a = vec![0u8; out_len];
            let mut b = vec![0u8; out_len];
            assert_eq!(
                decompress(mode, 50, shape, ts, &stream, &mut a),
                decompress_by_zfp(mode, 50, shape, ts, &stream, &mut b),
                "{shape:?} {ts} {out_len}"
            );
        }
    }
}
