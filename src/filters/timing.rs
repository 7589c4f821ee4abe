//! Side-by-side timing of the shuffle filters against the reference library, ignored by
//! default: `cargo test --release --lib timing -- --ignored --nocapture`.
//!
//! Settings come from the environment: `$BLOSC2_TIMING_BYTES` is the buffer size (default
//! 4 MiB), `$BLOSC2_TIMING_TYPESIZES` the typesizes (default `4,8`) and
//! `$BLOSC2_TIMING_ISA` a comma-separated list of our kernel levels to time (`scalar`,
//! `sse2`, `avx2`, `avx512`, `avx512vbmi`; default: the one dispatch picks). Every level and
//! the reference write into the same buffers, placed once 64-byte aligned and once 16 bytes
//! past a 64-byte boundary, in interleaved runs that each start with a different contender;
//! the test asserts that they all produce the bytes of the scalar kernel.

use std::time::{Duration, Instant};

use super::cpu::{self, Isa};
use super::testutil::random_bytes;
use super::{bitshuffle, shuffle};
use crate::testref::chunk::{self as reference, Op};

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

/// The kernel levels named in `$BLOSC2_TIMING_ISA`, or the one dispatch picks.
fn isas() -> Vec<Isa> {
    match std::env::var("BLOSC2_TIMING_ISA") {
        Ok(names) => names
            .split(',')
            .map(|name| {
                *cpu::available()
                    .iter()
                    .find(|isa| format!("{isa:?}").eq_ignore_ascii_case(name.trim()))
                    .unwrap_or_else(|| panic!("this CPU does not run the {name:?} kernels"))
            })
            .collect(),
        Err(_) => vec![cpu::best()],
    }
}

#[test]
#[ignore = "timing, run explicitly with --release"]
fn timing_vs_reference() {
    let Some(reference) = reference::get() else {
        return;
    };
    type Ours = fn(Isa, usize, &[u8], &mut [u8]);
    let ops: [(Op, Ours); 4] = [
        (Op::Shuffle, shuffle::shuffle_with),
        (Op::Unshuffle, shuffle::unshuffle_with),
        (Op::Bitshuffle, bitshuffle::bitshuffle_with),
        (Op::Bitunshuffle, bitshuffle::bitunshuffle_with),
    ];
    let isas = isas();
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
    println!("{size} bytes, best of {runs} interleaved runs, GiB/s (time in us):");
    let mut src_buf = random_bytes(size + 128, 42);
    let mut out_buf = vec![0u8; size + 128];
    for offset in [0, 16] {
        let src: &[u8] = placed(&mut src_buf, offset, size);
        let out = placed(&mut out_buf, offset, size);
        for &typesize in &typesizes {
            for (op, ours) in ops {
                let mut ours_time = vec![Duration::MAX; isas.len()];
                let mut ref_time = Duration::MAX;
                for run in 0..runs {
                    // Each run starts with a different contender (the reference is the last
                    // one), so that none always follows the same one.
                    for k in 0..=isas.len() {
                        match isas.get((run + k) % (isas.len() + 1)) {
                            Some(&isa) => {
                                let best = &mut ours_time[(run + k) % (isas.len() + 1)];
                                *best = (*best).min(time(|| ours(isa, typesize, src, out)));
                            }
                            None => {
                                ref_time = ref_time.min(time(|| {
                                    reference.run_into(op, typesize, src, out);
                                }));
                            }
                        }
                    }
                }
                ours(Isa::Scalar, typesize, src, out);
                let expected = out.to_vec();
                reference.run_into(op, typesize, src, out);
                assert!(
                    out == expected,
                    "reference {op:?} typesize {typesize} differs from the scalar kernel"
                );
                let mut line = format!("align+{offset:<2} typesize {typesize:<3} {op:<12?}");
                for (best, &isa) in ours_time.iter().zip(&isas) {
                    ours(isa, typesize, src, out);
                    assert!(
                        out == expected,
                        "{isa:?} {op:?} typesize {typesize} differs"
                    );
                    line += &format!(
                        " {isa:?} {:>6.2} ({:>7.1})",
                        gib_per_s(size, *best),
                        best.as_secs_f64() * 1e6
                    );
                }
                line += &format!(
                    " reference {:>6.2} ({:>7.1})",
                    gib_per_s(size, ref_time),
                    ref_time.as_secs_f64() * 1e6
                );
                println!("{line}");
            }
        }
    }
}
