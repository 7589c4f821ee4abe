//! Round trips, output-size limits and malformed-stream handling of the BloscLZ codec.

use super::{compress, decompress};

/// The kinds of test data.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Zeros,
    Ramp,
    Text,
    Random,
    SmoothFloats,
    /// Runs, random bytes and copies of earlier data from near and far (up to 80 000 back).
    Mixed,
    /// Runs of 85 or 86 bytes, each value one above the last (the second byte of a shuffled
    /// int32 ramp).
    Stairs,
}

/// Every data kind.
pub(super) const KINDS: [Kind; 7] = [
    Kind::Zeros,
    Kind::Ramp,
    Kind::Text,
    Kind::Random,
    Kind::SmoothFloats,
    Kind::Mixed,
    Kind::Stairs,
];

/// Sizes covering the tiny, the small and the large.
pub(super) const SIZES: [usize; 9] = [0, 1, 2, 15, 16, 100, 4 << 10, 64 << 10, 1 << 20];

/// A small deterministic pseudo-random generator (splitmix64).
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `len` bytes of data of the given kind.
pub(super) fn data(kind: Kind, len: usize) -> Vec<u8> {
    let mut rng = Rng::new(len as u64 ^ 0x5EED);
    match kind {
        Kind::Zeros => vec![0; len],
        Kind::Ramp => (0..len).map(|i| (i / 3) as u8).collect(),
        Kind::Stairs => (0..len).map(|i| ((3 * i + 1) >> 8) as u8).collect(),
        Kind::Text => {
            const WORDS: [&str; 16] = [
                "the",
                "blosc",
                "codec",
                "compresses",
                "blocks",
                "of",
                "binary",
                "data",
                "quickly",
                "and",
                "with",
                "a",
                "small",
                "dictionary",
                "window",
                "lz77",
            ];
            let mut text = Vec::with_capacity(len + 16);
            while text.len() < len {
                text.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
                text.push(if rng.below(10) == 0 { b'\n' } else { b' ' });
            }
            text.truncate(len);
            text
        }
        Kind::Random => (0..len).map(|_| rng.next() as u8).collect(),
        Kind::SmoothFloats => (0..len.div_ceil(4))
            .flat_map(|i| ((i as f32 * 0.001).sin() * 1000.0).to_le_bytes())
            .take(len)
            .collect(),
        Kind::Mixed => {
            let mut out: Vec<u8> = Vec::with_capacity(len + 400);
            while out.len() < len {
                match rng.below(3) {
                    0 => {
                        let byte = [0u8, 7, 255][rng.below(3)];
                        let long = rng.below(8) == 0;
                        let run = 1 + rng.below(if long { 5000 } else { 40 });
                        out.extend(std::iter::repeat_n(byte, run));
                    }
                    1 => out.extend((0..1 + rng.below(30)).map(|_| rng.next() as u8)),
                    _ if out.len() > 16 => {
                        let distance = 1 + rng.below(out.len().min(80_000));
                        let start = out.len() - distance;
                        for i in 0..4 + rng.below(300) {
                            out.push(out[start + i]);
                        }
                    }
                    _ => out.push(rng.next() as u8),
                }
            }
            out.truncate(len);
            out
        }
    }
}

/// Compresses into a buffer as long as the input and checks the round trip; returns the
/// compressed size (0 when the encoder gave up).
fn round_trip(clevel: i32, src: &[u8]) -> usize {
    let mut packed = vec![0u8; src.len()];
    let n = compress(clevel, src, &mut packed);
    assert!(n <= src.len());
    if n > 0 {
        let mut out = vec![0u8; src.len()];
        assert_eq!(decompress(&packed[..n], &mut out), Some(src.len()));
        assert!(
            out == src,
            "round trip differs (clevel {clevel}, len {})",
            src.len()
        );
    }
    n
}

#[test]
fn round_trips_all_kinds_levels_and_sizes() {
    for kind in KINDS {
        for len in SIZES {
            let src = data(kind, len);
            for clevel in 1..=9 {
                let n = round_trip(clevel, &src);
                // The entropy probe looks at the last 1/8 of the input at clevel 1 and at more of
                // it higher up; the ramp only repeats itself every 768 bytes, the text compresses ~2.5x.
                let compressible = match kind {
                    Kind::Zeros | Kind::Mixed | Kind::Stairs => len >= 4096,
                    Kind::Text | Kind::Ramp => len >= 64 << 10 && clevel > 1,
                    Kind::Random | Kind::SmoothFloats => false,
                };
                if compressible {
                    assert!(n > 0 && n < len / 2, "{kind:?} {len} clevel {clevel}: {n}");
                }
                if len < 52 || matches!(kind, Kind::Random) {
                    assert_eq!(n, 0, "{kind:?} {len} clevel {clevel}");
                }
            }
        }
    }
}

#[test]
fn every_short_length_round_trips() {
    // Exercises the encoder's end-of-input limits (and its debug-checked unchecked reads).
    for len in 0..600 {
        for kind in [Kind::Mixed, Kind::Zeros, Kind::Text] {
            let src = data(kind, len);
            for clevel in [1, 5, 9] {
                round_trip(clevel, &src);
                let mut small = vec![0u8; len / 2];
                let n = compress(clevel, &src, &mut small);
                assert!(n <= small.len());
                if n > 0 {
                    let mut out = vec![0u8; len];
                    assert_eq!(decompress(&small[..n], &mut out), Some(len));
                    assert!(out == src);
                }
            }
        }
    }
}

#[test]
fn short_inputs_round_trip_at_every_hash_size() {
    // The small counterpart of `every_short_length_round_trips`, for Miri: the lengths
    // around the encoder's limits, where its unchecked 8-byte reads come closest to the end
    // of the input (with room for the output, which must have at least 66 bytes).
    let mut coded = 0;
    for len in 12..80 {
        for kind in [Kind::Mixed, Kind::Zeros, Kind::Text] {
            let src = data(kind, len);
            for clevel in [1, 2, 9] {
                let mut packed = vec![0u8; len + 80];
                let n = compress(clevel, &src, &mut packed);
                if n > 0 {
                    coded += 1;
                    let mut out = vec![0u8; len];
                    assert_eq!(decompress(&packed[..n], &mut out), Some(len));
                    assert!(out == src, "clevel {clevel}, len {len}");
                }
            }
        }
    }
    assert!(coded > 100);
}

#[test]
fn long_matches_and_far_distances_round_trip() {
    // A random block repeated at distances around and beyond the far-distance threshold.
    let mut rng = Rng::new(7);
    let unit: Vec<u8> = (0..4000).map(|_| rng.next() as u8).collect();
    for gap in [8190usize, 8191, 8192, 8193, 20_000, 65_000, 73_724, 73_726] {
        // A compressible head, for the entropy probe (which sees the first 16 KB at clevel 9).
        let mut src = data(Kind::Text, 16 << 10);
        src.extend_from_slice(&unit);
        src.extend((0..gap.saturating_sub(unit.len())).map(|_| rng.next() as u8));
        src.extend_from_slice(&unit);
        src.extend_from_slice(&unit);
        for clevel in [1, 5, 9] {
            let mut packed = vec![0u8; src.len()];
            let n = compress(clevel, &src, &mut packed);
            assert!(clevel < 9 || n > 0, "gap {gap}");
            if clevel == 9 {
                // The repeats are encoded as matches: far ones beyond the near-distance range.
                assert!(n < src.len() - unit.len(), "gap {gap}: {n}");
            }
            if n > 0 {
                let mut out = vec![0u8; src.len()];
                assert_eq!(decompress(&packed[..n], &mut out), Some(src.len()));
                assert!(out == src);
            }
        }
    }
}

#[test]
fn small_destination_gives_up_without_overflow() {
    for kind in [Kind::Ramp, Kind::Text, Kind::Mixed, Kind::SmoothFloats] {
        let src = data(kind, 64 << 10);
        for clevel in [1, 4, 9] {
            let mut full = vec![0u8; src.len()];
            let n = compress(clevel, &src, &mut full);
            if n == 0 {
                continue;
            }
            for room in [0, 1, 65, 66, n / 2, n - 1, n, n + 1, n + 100] {
                // Guard bytes after the allowed room must stay untouched.
                let mut dst = vec![0xA5u8; room + 64];
                let got = compress(clevel, &src, &mut dst[..room]);
                // The encoder checks for room one byte ahead, so an exact fit may give up.
                if room < n.max(66) {
                    assert_eq!(got, 0, "{kind:?} clevel {clevel} room {room}");
                } else if room > n {
                    assert_eq!(got, n, "{kind:?} clevel {clevel} room {room}");
                } else {
                    assert!(got == 0 || got == n, "{kind:?} clevel {clevel} room {room}");
                }
                assert!(dst[room..].iter().all(|&b| b == 0xA5));
                if got > 0 {
                    assert_eq!(dst[..n], full[..n]);
                }
            }
        }
    }
}

#[test]
fn decoder_refuses_too_small_destination() {
    let src = data(Kind::Text, 4096);
    let mut packed = vec![0u8; src.len()];
    let n = compress(5, &src, &mut packed);
    assert!(n > 0);
    for room in [0, 1, 100, 4095] {
        let mut out = vec![0u8; room];
        assert_eq!(decompress(&packed[..n], &mut out), None, "room {room}");
    }
}

#[test]
fn handcrafted_streams() {
    let mut out = [0u8; 16];
    // Empty stream: nothing to do.
    assert_eq!(decompress(&[], &mut out), Some(0));
    // A 3-byte literal run; the first token's top bits are a marker.
    assert_eq!(decompress(&[0x22, b'a', b'b', b'c'], &mut out), Some(3));
    assert_eq!(&out[..3], b"abc");
    // Literal "ab", then a 4-byte match at distance 2, then literal "z".
    assert_eq!(
        decompress(&[0x01, b'a', b'b', 0x40, 0x01, 0x00, b'z'], &mut out),
        Some(7)
    );
    assert_eq!(&out[..7], b"abababz");
    // Literal run longer than the stream.
    assert_eq!(decompress(&[0x05, b'a'], &mut out), None);
    // Literal run longer than the destination.
    assert_eq!(decompress(&[0x03, 1, 2, 3, 4], &mut out[..3]), None);
    // Match reaching before the start of the output.
    assert_eq!(
        decompress(&[0x00, b'a', 0x20, 0x01, 0x00, b'z'], &mut out),
        None
    );
    // Match longer than the destination.
    assert_eq!(
        decompress(&[0x00, b'a', 0xC0, 0x00, 0x00, b'z'], &mut out[..5]),
        None
    );
    // Truncated match tokens.
    assert_eq!(decompress(&[0x00, b'a', 0x20], &mut out), None);
    assert_eq!(decompress(&[0x00, b'a', 0x20, 0x00], &mut out), None);
    assert_eq!(decompress(&[0x00, b'a', 0xE0, 0xFF, 0xFF], &mut out), None);
    assert_eq!(decompress(&[0x00, b'a', 0x3F, 0xFF, 0x00], &mut out), None);
}

#[test]
fn far_match_at_stream_end_is_dropped() {
    // 8200 literal bytes, then a far match (distance 8192 + 0) that ends the stream: the
    // reference stops before copying it.
    let mut stream = Vec::new();
    for chunk in 0..(8200 / 8) {
        stream.push(7u8);
        stream.extend(std::iter::repeat_n(chunk as u8, 8));
    }
    let mut out = vec![0u8; 9000];
    assert_eq!(decompress(&stream, &mut out), Some(8200));
    stream.extend_from_slice(&[0x3F, 0xFF, 0x00, 0x00]);
    assert_eq!(decompress(&stream, &mut out), Some(8200));
    stream.push(0x00);
    assert_eq!(decompress(&stream, &mut out), None);
    *stream.last_mut().unwrap() = 0x00;
    stream.push(b'q');
    assert_eq!(decompress(&stream, &mut out), Some(8204));
    assert_eq!(out[8200..8203], out[8..11]);
    assert_eq!(out[8203], b'q');
}

#[test]
fn corrupt_streams_never_panic() {
    let mut rng = Rng::new(42);
    let mut seeds = Vec::new();
    for kind in KINDS {
        let src = data(kind, 3000);
        let mut packed = vec![0u8; src.len()];
        let n = compress(9, &src, &mut packed);
        if n > 0 {
            seeds.push(packed[..n].to_vec());
        }
    }
    assert!(seeds.len() >= 3);
    let mut out = vec![0u8; 4096];
    for round in 0..30_000 {
        let mut stream = if round % 4 == 0 {
            (0..rng.below(64)).map(|_| rng.next() as u8).collect()
        } else {
            seeds[rng.below(seeds.len())].clone()
        };
        for _ in 0..1 + rng.below(4) {
            if stream.is_empty() {
                break;
            }
            match rng.below(4) {
                0 => {
                    let at = rng.below(stream.len());
                    stream[at] = rng.next() as u8;
                }
                1 => stream.truncate(rng.below(stream.len())),
                2 => {
                    let at = rng.below(stream.len());
                    stream[at] ^= 1 << rng.below(8);
                }
                _ => stream.push(rng.next() as u8),
            }
        }
        let room = if round % 3 == 0 {
            rng.below(4097)
        } else {
            4096
        };
        if let Some(n) = decompress(&stream, &mut out[..room]) {
            assert!(n <= room);
        }
    }
}
