//! Any bytes as a contiguous frame: opening it, reading its metalayers and variable-length
//! metalayers, decompressing its chunks and slicing it must return a result or an error,
//! never panic or read out of bounds.
#![no_main]

use blosc2::schunk::SuperChunk;
use libfuzzer_sys::fuzz_target;

/// Largest output buffer a run allocates.
const MAX_OUT: i64 = 1 << 22;

fuzz_target!(|data: &[u8]| {
    let Ok(mut sc) = SuperChunk::from_cframe(data) else {
        return;
    };
    for m in sc.metalayers() {
        let _ = sc.meta_exists(&m.name);
    }
    let names: Vec<String> = sc.vlmeta_names().into_iter().map(str::to_owned).collect();
    for name in names {
        let _ = sc.vlmeta_get(&name);
    }
    let chunksize = i64::from(sc.chunksize()).clamp(0, MAX_OUT) as usize;
    let mut out = vec![0u8; chunksize];
    for n in 0..sc.nchunks().min(16) {
        let _ = sc.decompress_chunk(n, &mut out);
    }
    let stop = sc.nbytes().clamp(0, MAX_OUT);
    let mut buf = vec![0u8; stop as usize];
    let _ = sc.get_slice(0, stop, &mut buf);
});
