//! Prefilters, postfilters, block masks, the caller's parallel-for and registered codecs
//! and filters, through the core API. Expected values follow what the reference does
//! (measured by the C suite in ctest/chunkapi).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::chunk::hooks::{Output, PostfilterFn, Prefilter, PrefilterArgs};
use crate::constants::*;
use crate::context::{CParams, Context, DParams};
use crate::error::Error;
use crate::registry::plugins::{self, Codec, Filter};

/// (nblock, size, offset, tid, ttmp length, output in ttmp) of every prefilter call.
type Calls = Arc<Mutex<Vec<(usize, usize, usize, usize, usize, bool)>>>;

fn plus_one(calls: Calls, disposable: bool) -> Prefilter {
    Prefilter {
        disposable,
        run: Arc::new(move |a: &mut PrefilterArgs| {
            let in_ttmp = matches!(a.output, Output::Scratch(0));
            calls
                .lock()
                .unwrap()
                .push((a.nblock, a.size, a.offset, a.tid, a.ttmp.len(), in_ttmp));
            let n = a.size;
            let out: &mut [u8] = match &mut a.output {
                Output::Scratch(at) => &mut a.ttmp[*at..*at + n],
                Output::Buffer(b) => b,
            };
            for (o, i) in out.iter_mut().zip(a.input) {
                *o = i.wrapping_add(1);
            }
            0
        }),
    }
}

fn times_two(count: Arc<AtomicUsize>) -> PostfilterFn {
    Arc::new(move |a| {
        count.fetch_add(1, Ordering::Relaxed);
        let input = a.ttmp[a.input..a.input + a.size].to_vec();
        let out: &mut [u8] = match &mut a.output {
            Output::Scratch(at) => &mut a.ttmp[*at..*at + input.len()],
            Output::Buffer(b) => b,
        };
        for (o, i) in out.iter_mut().zip(&input) {
            *o = i.wrapping_mul(2);
        }
        0
    })
}

fn ramp(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i / 100) as u8).collect()
}

#[test]
fn prefilter_and_postfilter_see_every_block() {
    for (nthreads, clevel) in [(1, 5), (4, 5), (1, 0)] {
        let n = 10_006;
        let src = ramp(n);
        let calls: Calls = Arc::default();
        let mut c = Context::compressor(CParams {
            typesize: 4,
            blocksize: 1000,
            clevel,
            nthreads,
            ..CParams::default()
        });
        c.set_prefilter(Some(plus_one(calls.clone(), false)));
        let mut chunk = vec![0u8; n + MAX_OVERHEAD];
        let cb = c.compress(&src, &mut chunk).unwrap();
        let mut calls = calls.lock().unwrap().clone();
        calls.sort();
        assert_eq!(calls.len(), 11, "{nthreads} {clevel}");
        for (j, &(nblock, size, offset, tid, ttmp, in_ttmp)) in calls.iter().enumerate() {
            assert_eq!((nblock, offset), (j, 1000 * j));
            assert_eq!(size, if j == 10 { 6 } else { 1000 });
            assert!(tid < nthreads as usize);
            assert_eq!(ttmp, 4 * (1000 + 16));
            assert_eq!(in_ttmp, clevel > 0, "memcpy chunks are written in place");
        }
        let count = Arc::new(AtomicUsize::new(0));
        let mut d = Context::decompressor(DParams {
            nthreads,
            ..DParams::default()
        });
        d.set_postfilter(Some(times_two(count.clone())));
        let mut out = vec![0u8; n];
        assert_eq!(d.decompress(&chunk[..cb], &mut out), Ok(n));
        assert_eq!(count.load(Ordering::Relaxed), 11);
        let want: Vec<u8> = src
            .iter()
            .map(|b| b.wrapping_add(1).wrapping_mul(2))
            .collect();
        assert_eq!(out, want);
        let mut part = [0u8; 16];
        assert_eq!(d.getitem(&chunk[..cb], 248, 4, &mut part), Ok(16));
        assert_eq!(&part[..], &want[992..1008]);
    }
}

/// A slow first block does not hold the others back for want of a slot: while it runs, the
/// other thread compresses the next blocks into its slot and two spares (it would stop after
/// two blocks without them), and the chunk is still the serial one.
#[test]
fn blocks_after_a_slow_first_one_run_ahead_in_spare_slots() {
    // Long runs: every block compresses to a few bytes, as spares are only taken then.
    let src: Vec<u8> = (0..128_000).map(|i| (i / 4000) as u8).collect();
    let started = Arc::new(AtomicUsize::new(0));
    let ahead = Arc::new(AtomicUsize::new(0));
    let (count, seen) = (started.clone(), ahead.clone());
    let slow_first = Prefilter {
        disposable: false,
        run: Arc::new(move |a: &mut PrefilterArgs| {
            if a.nblock == 0 {
                std::thread::sleep(std::time::Duration::from_millis(300));
                seen.store(count.load(Ordering::SeqCst), Ordering::SeqCst);
            } else {
                count.fetch_add(1, Ordering::SeqCst);
            }
            let n = a.size;
            match &mut a.output {
                Output::Scratch(at) => a.ttmp[*at..*at + n].copy_from_slice(a.input),
                Output::Buffer(b) => b.copy_from_slice(a.input),
            }
            0
        }),
    };
    let compress = |nthreads| {
        started.store(0, Ordering::SeqCst);
        let mut c = Context::compressor(CParams {
            typesize: 4,
            blocksize: 16_000,
            nthreads,
            ..CParams::default()
        });
        c.set_prefilter(Some(slow_first.clone()));
        let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD];
        let cb = c.compress(&src, &mut chunk).unwrap();
        chunk.truncate(cb);
        chunk
    };
    let serial = compress(1);
    assert_eq!(ahead.load(Ordering::SeqCst), 0);
    assert_eq!(compress(2), serial);
    assert_eq!(ahead.load(Ordering::SeqCst), 4);
}

/// Small blocks go to the threads in groups: every block still goes through the prefilter
/// once, on a valid thread id, the chunk is the serial one and decodes (with and without a
/// mask) as on one thread, and a failure in the middle of a group fails the chunk.
#[test]
fn grouped_small_blocks_give_the_serial_chunk_and_failures() {
    let src = ramp(400_000);
    let fail_at = Arc::new(AtomicUsize::new(usize::MAX));
    let chunk_of = |nthreads: i16| {
        let calls = Calls::default();
        let failing = fail_at.clone();
        let counted = plus_one(calls.clone(), false);
        let mut c = Context::compressor(CParams {
            typesize: 4,
            blocksize: 1024,
            nthreads,
            ..CParams::default()
        });
        c.set_prefilter(Some(Prefilter {
            disposable: false,
            run: Arc::new(move |a: &mut PrefilterArgs| {
                if a.nblock == failing.load(Ordering::Relaxed) {
                    return -1;
                }
                (counted.run)(a)
            }),
        }));
        let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD];
        let r = c.compress(&src, &mut chunk).map(|n| chunk[..n].to_vec());
        let mut blocks: Vec<usize> = calls.lock().unwrap().iter().map(|c| c.0).collect();
        assert!(calls
            .lock()
            .unwrap()
            .iter()
            .all(|c| c.3 < nthreads as usize));
        blocks.sort_unstable();
        (r, blocks)
    };
    let (serial, blocks) = chunk_of(1);
    assert_eq!(blocks, (0..391).collect::<Vec<_>>());
    for nthreads in [2, 3, 4] {
        assert_eq!(chunk_of(nthreads), (serial.clone(), blocks.clone()));
    }
    // Decoded in groups too, with a mask that skips every third block.
    let chunk = serial.unwrap();
    let mask: Vec<bool> = (0..391).map(|k| k % 3 == 1).collect();
    let decoded = |nthreads: i16| {
        let mut d = Context::decompressor(DParams {
            nthreads,
            ..DParams::default()
        });
        let mut out = vec![0xeeu8; src.len()];
        assert_eq!(d.decompress(&chunk, &mut out), Ok(src.len()));
        d.set_maskout(&mask);
        let mut masked = vec![0xeeu8; src.len()];
        assert_eq!(d.decompress(&chunk, &mut masked), Ok(src.len()));
        (out, masked)
    };
    let (out, masked) = decoded(1);
    assert!(out.iter().zip(&src).all(|(&o, &s)| o == s.wrapping_add(1)));
    for (k, block) in masked.chunks(1024).enumerate() {
        let want = if mask[k] {
            &[0xee; 1024][..block.len()]
        } else {
            &out[k * 1024..][..block.len()]
        };
        assert_eq!(block, want, "block {k}");
    }
    for nthreads in [2, 3, 4] {
        assert!(
            decoded(nthreads) == (out.clone(), masked.clone()),
            "{nthreads} threads"
        );
    }
    fail_at.store(50, Ordering::Relaxed);
    for nthreads in [1, 2, 3] {
        assert_eq!(chunk_of(nthreads).0, Err(Error::FilterPipeline));
    }
}

#[test]
fn callback_failures_and_disposable_output() {
    let src = ramp(4000);
    let mut c = Context::compressor(CParams {
        typesize: 4,
        blocksize: 1000,
        ..CParams::default()
    });
    c.set_prefilter(Some(Prefilter {
        disposable: false,
        run: Arc::new(|_| -5),
    }));
    let mut chunk = vec![0u8; 4100];
    assert_eq!(c.compress(&src, &mut chunk), Err(Error::FilterPipeline));
    c.set_prefilter(Some(plus_one(Calls::default(), true)));
    assert_eq!(
        c.compress(&src, &mut chunk),
        Ok(32),
        "all-zero special chunk"
    );
    assert_eq!(chunk[31], SPECIAL_ZERO << 4);
    // Measured on the reference: with a disposable output every block goes through the
    // prefilter and its failures are ignored, also for memcpy chunks.
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let failing = Prefilter {
        disposable: true,
        run: Arc::new(move |_| {
            seen.fetch_add(1, Ordering::Relaxed);
            -5
        }),
    };
    c.set_prefilter(Some(failing.clone()));
    assert_eq!(c.compress(&src, &mut chunk), Ok(32));
    assert_eq!(calls.load(Ordering::Relaxed), 4);
    let mut copy = Context::compressor(CParams {
        typesize: 4,
        blocksize: 1000,
        clevel: 0,
        ..CParams::default()
    });
    copy.set_prefilter(Some(failing));
    assert_eq!(copy.compress(&src, &mut chunk), Ok(4032));
    assert_eq!(calls.load(Ordering::Relaxed), 8);
    c.set_prefilter(None);
    let cb = c.compress(&src, &mut chunk).unwrap();
    let mut d = Context::decompressor(DParams::default());
    d.set_postfilter(Some(Arc::new(|_| 1)));
    let mut out = vec![0u8; 4000];
    assert_eq!(d.decompress(&chunk[..cb], &mut out), Err(Error::Postfilter));
    assert_eq!(
        d.getitem(&chunk[..cb], 0, 1, &mut out),
        Err(Error::Postfilter)
    );
}

#[test]
fn masked_blocks_are_left_alone_once() {
    let src = ramp(8000);
    let mut c = Context::compressor(CParams {
        typesize: 4,
        blocksize: 2000,
        ..CParams::default()
    });
    let mut chunk = vec![0u8; 8100];
    let cb = c.compress(&src, &mut chunk).unwrap();
    for nthreads in [1, 4] {
        let mut d = Context::decompressor(DParams {
            nthreads,
            ..DParams::default()
        });
        d.set_maskout(&[false, true, false, true]);
        let mut out = vec![0xeeu8; 8000];
        assert_eq!(d.decompress(&chunk[..cb], &mut out), Ok(8000));
        assert_eq!(&out[..2000], &src[..2000]);
        assert!(out[2000..4000].iter().all(|&b| b == 0xee));
        assert_eq!(&out[4000..6000], &src[4000..6000]);
        assert!(out[6000..].iter().all(|&b| b == 0xee));
        assert_eq!(d.decompress(&chunk[..cb], &mut out), Ok(8000));
        assert_eq!(out, src, "the mask is consumed");
        d.set_maskout(&[true; 3]);
        assert_eq!(d.decompress(&chunk[..cb], &mut out), Err(Error::Data));
    }
}

#[test]
fn a_caller_parallel_for_runs_the_jobs() {
    // Jobs counted only for this test's thread count, which no other test uses.
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    crate::threads::set_executor(Some(Arc::new(move |numjobs, job| {
        if numjobs == 7 {
            seen.fetch_add(1, Ordering::Relaxed);
        }
        std::thread::scope(|s| {
            for tid in 0..numjobs {
                s.spawn(move || job(tid));
            }
        });
    })));
    let src = ramp(1 << 20);
    let cp = CParams {
        typesize: 4,
        blocksize: 32768,
        nthreads: 7,
        ..CParams::default()
    };
    let mut chunk = vec![0u8; src.len() + MAX_OVERHEAD];
    let cb = Context::compressor(cp).compress(&src, &mut chunk).unwrap();
    let mut out = vec![0u8; src.len()];
    let mut d = Context::decompressor(DParams {
        nthreads: 7,
        ..DParams::default()
    });
    assert_eq!(d.decompress(&chunk[..cb], &mut out), Ok(src.len()));
    crate::threads::set_executor(None);
    assert_eq!(out, src);
    assert_eq!(calls.load(Ordering::Relaxed), 2);
}

#[test]
fn registered_codecs_and_filters_are_used() {
    crate::global::init();
    let seen_meta = Arc::new(AtomicUsize::new(0));
    let m = seen_meta.clone();
    plugins::register_codec(Codec {
        code: 240,
        name: "hooks-test-copy".to_owned(),
        complib: 7,
        version: 3,
        encoder: Some(Arc::new(move |call, meta, input, output| {
            m.store(usize::from(meta), Ordering::Relaxed);
            assert_eq!(call.cparams.blocksize, 4000);
            if input.len() < 2 || output.len() < input.len() / 2 {
                return 0;
            }
            // Keeps every other byte: the data below repeats each byte twice.
            for (o, pair) in output.iter_mut().zip(input.chunks(2)) {
                *o = pair[0];
            }
            (input.len() / 2) as i32
        })),
        decoder: Some(Arc::new(|_, _, input, output| {
            for (pair, &b) in output.chunks_mut(2).zip(input) {
                pair.fill(b);
            }
            output.len() as i32
        })),
    })
    .unwrap();
    plugins::register_filter(Filter {
        id: 240,
        name: "hooks-test-xor".to_owned(),
        version: 1,
        forward: Some(Arc::new(|_, meta, _, src, dst| {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = s ^ meta;
            }
            0
        })),
        backward: Some(Arc::new(|_, meta, _, src, dst| {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = s ^ meta;
            }
            0
        })),
    })
    .unwrap();
    let src: Vec<u8> = (0..10_000).map(|i| (i / 2 % 251) as u8).collect();
    let cp = CParams {
        compcode: 240,
        compcode_meta: 0x5a,
        typesize: 4,
        blocksize: 4000,
        clevel: 7,
        filters: [0, 0, 240, 0, 0, 0],
        filters_meta: [0, 0, 0x33, 0, 0, 0],
        ..CParams::default()
    };
    let mut chunk = vec![0u8; 12_000];
    let cb = Context::compressor(cp).compress(&src, &mut chunk).unwrap();
    assert_eq!(
        &chunk[..4],
        &[5, 3, 0xd5, 4],
        "versionlz = codec version, format 6"
    );
    assert_eq!(
        (chunk[18], chunk[22], chunk[23], chunk[26]),
        (240, 240, 0x5a, 0x33)
    );
    assert_eq!(seen_meta.load(Ordering::Relaxed), 0x5a);
    assert_eq!(cb, 32 + 12 + 3 * 4 + 5000);
    let mut out = vec![0u8; 10_000];
    let mut d = Context::decompressor(DParams::default());
    assert_eq!(d.decompress(&chunk[..cb], &mut out), Ok(10_000));
    assert_eq!(out, src);
    chunk[22] = 241;
    assert_eq!(
        d.decompress(&chunk[..cb], &mut out),
        Err(Error::CodecSupport)
    );
    chunk[22] = 240;
    chunk[18] = 242;
    assert_eq!(
        d.decompress(&chunk[..cb], &mut out),
        Err(Error::FilterPipeline)
    );
    let unknown = CParams {
        compcode: 243,
        ..cp
    };
    let r = Context::compressor(unknown).compress(&src, &mut chunk);
    assert_eq!(r, Err(Error::CodecSupport));
}

#[test]
fn incompressible_blocks_run_the_prefilter_again_for_the_copy() {
    // Measured on the reference with random data, 10006 bytes, blocks of 1000, destination
    // nbytes + 32: 10 calls until block 10 no longer fits, then 11 calls writing straight
    // into the memcpyed chunk.
    let mut r = super::data::Rng::new(3);
    let src: Vec<u8> = (0..10_006).map(|_| r.next() as u8).collect();
    let calls: Calls = Arc::default();
    let mut c = Context::compressor(CParams {
        typesize: 4,
        blocksize: 1000,
        ..CParams::default()
    });
    c.set_prefilter(Some(plus_one(calls.clone(), false)));
    let mut chunk = vec![0u8; 10_006 + 32];
    assert_eq!(c.compress(&src, &mut chunk), Ok(10_038));
    assert_eq!(chunk[2], 0x07);
    let calls = calls.lock().unwrap();
    let blocks: Vec<usize> = calls.iter().map(|c| c.0).collect();
    let want: Vec<usize> = (0..10).chain(0..11).collect();
    assert_eq!(blocks, want);
    assert!(calls[..10].iter().all(|c| c.5) && calls[10..].iter().all(|c| !c.5));
    assert!(chunk[32..]
        .iter()
        .zip(&src)
        .all(|(c, s)| *c == s.wrapping_add(1)));
}

#[test]
fn wide_repeated_values_read_back_from_any_byte() {
    // Typesize 300 is stored as 1, so getitem counts bytes; ours continues the value from
    // the requested byte (the reference restarts it, giving wrong data).
    let value: Vec<u8> = (0..300).map(|i| (i * 7 + 1) as u8).collect();
    let cp = CParams {
        typesize: 300,
        ..CParams::default()
    };
    let mut chunk = vec![0u8; 400];
    let n = crate::chunk::special::build(&cp, 30_000, SPECIAL_VALUE, &value, &mut chunk).unwrap();
    let mut d = Context::decompressor(DParams::default());
    for (start, len) in [
        (0usize, 300usize),
        (3, 5),
        (299, 2),
        (100, 1000),
        (29_999, 1),
    ] {
        let mut out = vec![0u8; len];
        assert_eq!(
            d.getitem(&chunk[..n], start as i32, len as i32, &mut out),
            Ok(len)
        );
        let want: Vec<u8> = (start..start + len).map(|i| value[i % 300]).collect();
        assert_eq!(out, want, "getitem({start}, {len})");
    }
    let mut all = vec![0u8; 30_000];
    assert_eq!(d.decompress(&chunk[..n], &mut all), Ok(30_000));
    assert!(all.chunks(300).all(|c| c == value));
}

#[test]
fn vl_blocks_go_through_the_prefilter_and_postfilter() {
    // Measured on the reference with blocks of 100, 50 and 300 bytes: the prefilter is told
    // block 0 at offset 0 every time; the postfilter gets block j at j * 300 (the largest
    // block), and the chunk takes 506 bytes.
    let a: Vec<u8> = (0..100).collect();
    let b = vec![7u8; 50];
    let c: Vec<u8> = (0..300).map(|i| (i / 3) as u8).collect();
    let blocks: [&[u8]; 3] = [&a, &b, &c];
    let calls: Calls = Arc::default();
    let mut comp = Context::compressor(CParams {
        typesize: 1,
        ..CParams::default()
    });
    comp.set_prefilter(Some(plus_one(calls.clone(), false)));
    let mut chunk = vec![0u8; 1000];
    let n = comp.vl_compress(&blocks, &mut chunk).unwrap();
    assert_eq!(n, 506);
    let seen: Vec<(usize, usize, usize)> = calls
        .lock()
        .unwrap()
        .iter()
        .map(|c| (c.0, c.1, c.2))
        .collect();
    assert_eq!(seen, [(0, 100, 0), (0, 50, 0), (0, 300, 0)]);
    let offsets = Arc::new(Mutex::new(Vec::new()));
    let o = offsets.clone();
    let mut d = Context::decompressor(DParams::default());
    d.set_postfilter(Some(Arc::new(move |args| {
        o.lock()
            .unwrap()
            .push((args.nblock, args.size, args.offset));
        let input = args.ttmp[args.input..args.input + args.size].to_vec();
        if let Output::Buffer(out) = &mut args.output {
            out.copy_from_slice(&input);
        }
        0
    })));
    let back = d.vl_decompress(&chunk[..n], 3).unwrap();
    assert_eq!(
        *offsets.lock().unwrap(),
        [(0, 100, 0), (1, 50, 300), (2, 300, 600)]
    );
    for (got, want) in back.iter().zip(blocks) {
        let plus: Vec<u8> = want.iter().map(|x| x.wrapping_add(1)).collect();
        assert_eq!(got, &plus);
    }
}

#[test]
fn callbacks_can_be_shared_with_a_super_chunk_context_and_get_its_chunk_number() {
    let nchunks = Arc::new(Mutex::new(Vec::new()));
    let seen = nchunks.clone();
    let mut storage = Context::compressor(CParams::default());
    storage.set_prefilter(Some(Prefilter {
        disposable: false,
        run: Arc::new(move |a| {
            seen.lock().unwrap().push(a.nchunk);
            let n = a.size;
            if let Output::Scratch(at) = a.output {
                a.ttmp[at..at + n].copy_from_slice(a.input);
            }
            0
        }),
    }));
    let mut own = Context::compressor(CParams {
        typesize: 4,
        blocksize: 2000,
        ..CParams::default()
    });
    own.share_callbacks_from(&storage);
    let src = ramp(4000);
    let mut chunk = vec![0u8; 4100];
    for k in 0..2 {
        own.set_nchunk(Some(k));
        own.compress(&src, &mut chunk).unwrap();
    }
    assert_eq!(*nchunks.lock().unwrap(), [0, 0, 1, 1]);
}
