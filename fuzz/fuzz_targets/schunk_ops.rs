//! Sequences of super-chunk operations (append, insert, update, delete, slices, variable-length
//! metalayers, serialising to a frame and reading it back) on in-memory super-chunks, checked
//! against a plain model: after every operation, failed or not, the super-chunk must have the
//! model's chunk count, sizes and metalayers and the chunks the operation touched; after
//! reading a frame back and at the end, every chunk. (Checking every chunk after every
//! operation made a run cost the square of its length: 200 runs per second.)
#![no_main]

use std::collections::BTreeMap;

use blosc2::schunk::{Storage, SuperChunk};
use blosc2::{CParams, Context, DParams};
use libfuzzer_sys::fuzz_target;

/// Reads small numbers off the input.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
}

fn chunk_data(seed: u8, len: usize) -> Vec<u8> {
    (0..len).map(|i| (i / 7) as u8 ^ seed).collect()
}

/// Checks the counts, the variable-length metalayers and the chunks `which` (all of them
/// for `None`) against the model.
fn check(
    sc: &mut SuperChunk,
    model: &[Vec<u8>],
    vlmeta: &BTreeMap<String, Vec<u8>>,
    len: usize,
    which: Option<std::ops::Range<usize>>,
) {
    assert_eq!(sc.nchunks(), model.len() as i64);
    assert_eq!(sc.nbytes(), (model.len() * len) as i64);
    let range = which.unwrap_or(0..model.len());
    let mut out = vec![0u8; len];
    for n in range.start..range.end.min(model.len()) {
        assert_eq!(sc.decompress_chunk(n as i64, &mut out), Ok(len));
        assert!(out == model[n], "chunk {n} differs");
    }
    for (name, content) in vlmeta {
        assert_eq!(sc.vlmeta_get(name).map(|(_, c)| c).as_ref(), Ok(content));
    }
    assert_eq!(sc.vlmeta_names().len(), vlmeta.len());
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let (Some(shape), Some(codec)) = (input.byte(), input.byte()) else {
        return;
    };
    let typesize = [1, 2, 4, 8][usize::from(shape & 3)];
    let len = (usize::from(shape >> 2) + 1) * 16 * typesize;
    let cparams = CParams {
        compcode: [0, 1, 2, 4, 5][usize::from(codec % 5)], // blosclz, lz4, lz4hc, zlib, zstd
        typesize: typesize as i32,
        nthreads: if codec & 0x80 != 0 { 2 } else { 1 },
        ..CParams::default()
    };
    let storage = Storage {
        contiguous: codec & 0x40 != 0,
        urlpath: None,
        cparams,
        dparams: DParams::default(),
        io: None,
        buffer: None,
    };
    let Ok(mut sc) = SuperChunk::new(storage) else {
        return;
    };
    let mut ctx = Context::compressor(cparams);
    let compress = |ctx: &mut Context, raw: &[u8]| {
        let mut c = vec![0u8; raw.len() + blosc2::constants::MAX_OVERHEAD];
        let n = ctx.compress(raw, &mut c).unwrap();
        c.truncate(n);
        c
    };
    let mut model: Vec<Vec<u8>> = Vec::new();
    let mut vlmeta = BTreeMap::new();
    while let (Some(op), Some(arg)) = (input.byte(), input.byte()) {
        let n = usize::from(arg) % (model.len() + 1);
        let raw = chunk_data(arg, len);
        // The chunks this operation may have changed (all of them for `None`).
        let mut touched = Some(n..n + 1);
        match op % 8 {
            0 => {
                if sc.append_buffer(&raw).is_ok() {
                    model.push(raw);
                }
                touched = Some(model.len().saturating_sub(1)..model.len());
            }
            1 => {
                let chunk = compress(&mut ctx, &raw);
                if sc.insert_chunk(n as i64, &chunk).is_ok() {
                    model.insert(n, raw);
                }
            }
            2 => {
                let chunk = compress(&mut ctx, &raw);
                if sc.update_chunk(n as i64, &chunk).is_ok() {
                    model[n] = raw;
                }
            }
            3 => {
                if sc.delete_chunk(n as i64).is_ok() {
                    model.remove(n);
                }
            }
            4 | 5 => {
                let total = model.len() * len;
                let start = usize::from(arg) * total / 256;
                let stop = (start + usize::from(op) * typesize).min(total);
                let flat: Vec<u8> = model.concat();
                if op % 8 == 4 {
                    let mut buf = vec![0u8; stop - start];
                    if sc.get_slice(start as i64, stop as i64, &mut buf).is_ok() {
                        assert!(buf == flat[start..stop], "slice {start}..{stop} differs");
                    }
                } else {
                    let patch = chunk_data(op, stop - start);
                    if sc.set_slice(start as i64, stop as i64, &patch).is_ok() {
                        let mut flat = flat;
                        flat[start..stop].copy_from_slice(&patch);
                        model = flat.chunks(len).map(<[u8]>::to_vec).collect();
                    }
                    touched = Some(start / len..stop.div_ceil(len));
                }
            }
            6 => {
                let name = format!("m{}", arg % 4);
                let content = chunk_data(op, usize::from(arg));
                let done = if vlmeta.contains_key(&name) {
                    if arg & 1 == 0 {
                        sc.vlmeta_delete(&name).map(|_| None)
                    } else {
                        sc.vlmeta_update(&name, &content, None)
                            .map(|_| Some(content))
                    }
                } else {
                    sc.vlmeta_add(&name, &content, None).map(|_| Some(content))
                };
                match done {
                    Ok(Some(c)) => {
                        vlmeta.insert(name, c);
                    }
                    Ok(None) => {
                        vlmeta.remove(&name);
                    }
                    Err(_) => {}
                }
            }
            _ => {
                let frame = sc.to_cframe().unwrap();
                sc = SuperChunk::from_cframe(&frame).unwrap();
                touched = None;
            }
        }
        check(&mut sc, &model, &vlmeta, len, touched);
    }
    check(&mut sc, &model, &vlmeta, len, None);
});
