//! Side-by-side timing of the shuffle filters against the reference library, ignored by
//! default: `cargo test --release --lib timing -- --ignored --nocapture`. The buffer size
//! comes from `$BLOSC2_TIMING_BYTES` (default 4 MiB) and the typesizes from
//! `$BLOSC2_TIMING_TYPESIZES` (default `4,8`). Both libraries write into the same buffers,
//! placed once 64-byte aligned and once 16 bytes past a 64-byte boundary; the test asserts
//! that they produce the same bytes.

use std::time::{Duration, Instant};

use super::reference::{self, Op};
use super::testutil::random_bytes;
use super::{bitshuffle, shuffle};

/// Wall time of one call of `f`.
fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn gib_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / time.as_secs_f64() / f64::from(1u32 << 30)
}

/// The `len` bytes of `buf` starting `offset` bytes past its first 64-byte boundary.
fn placed(buf: &mut [u8], offset: usize, len: usize) -> &mut [u8] {
    let start = (64 - buf.as_ptr() as usize % 64) % 64 + offset;
    &mut buf[start..start + len]
}

#[test]
#[ignore = "timing, run explicitly with --release"]
fn timing_vs_reference() {
    let Some(reference) = reference::get("timing::timing_vs_reference") else {
        return;
    };
    type Ours = fn(usize, &[u8], &mut [u8]);
    let ops: [(Op, Ours); 4] = [
        (Op::Shuffle, shuffle::shuffle),
        (Op::Unshuffle, shuffle::unshuffle),
        (Op::Bitshuffle, bitshuffle::bitshuffle),
        (Op::Bitunshuffle, bitshuffle::bitunshuffle),
    ];
    let size: usize = std::env::var("BLOSC2_TIMING_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4 << 20);
    let typesizes: Vec<usize> = std::env::var("BLOSC2_TIMING_TYPESIZES")
        .unwrap_or_else(|_| "4,8".into())
        .split(',')
        .filter_map(|t| t.trim().parse().ok())
        .collect();
    let runs = ((1 << 27) / size.max(1 << 10)).clamp(5, 2000);
    println!("{size} bytes, best of {runs} alternating runs (times in us):");
    let mut src_buf = random_bytes(size + 128, 42);
    let mut out_buf = vec![0u8; size + 128];
    for offset in [0, 16] {
        let src: &[u8] = placed(&mut src_buf, offset, size);
        let out = placed(&mut out_buf, offset, size);
        for &typesize in &typesizes {
            for (op, ours) in ops {
                let (mut ours_time, mut ref_time) = (Duration::MAX, Duration::MAX);
                for _ in 0..runs {
                    ours_time = ours_time.min(time(|| ours(typesize, src, out)));
                    ref_time = ref_time.min(time(|| {
                        reference.run_into(op, typesize, src, out);
                    }));
                }
                let expected = out.to_vec();
                ours(typesize, src, out);
                assert!(out == expected, "{op:?} typesize {typesize} differs");
                println!(
                    "align+{offset:<2} typesize {typesize:<3} {op:<12?} ours {:>8.1} ({:>5.2} GiB/s) \
                     reference {:>8.1} ({:>5.2} GiB/s)  speed-up x{:.2}",
                    ours_time.as_secs_f64() * 1e6,
                    gib_per_s(size, ours_time),
                    ref_time.as_secs_f64() * 1e6,
                    gib_per_s(size, ref_time),
                    ref_time.as_secs_f64() / ours_time.as_secs_f64()
                );
            }
        }
    }
}
