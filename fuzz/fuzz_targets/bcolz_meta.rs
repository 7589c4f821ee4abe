//! Any bytes as the metadata of a bcolz carray (`meta/sizes` and `meta/storage`, split at
//! the first NUL byte): parsing and checking must give a carray or an error, never a
//! panic; the geometry of an accepted carray must be consistent.
#![no_main]

use std::path::Path;

use blosc2::bcolz::CArray;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (sizes, storage) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
    let (Ok(sizes), Ok(storage)) = (
        serde_json::from_slice::<Value>(sizes),
        serde_json::from_slice::<Value>(storage),
    ) else {
        return;
    };
    let Ok(a) = CArray::from_meta(Path::new("/nonexistent"), &sizes, &storage, json!({})) else {
        return;
    };
    assert_eq!(a.nbytes(), a.len() as u64 * a.atomsize() as u64);
    assert_eq!(a.nchunks() * a.chunklen() + a.leftover_rows(), a.len());
    assert!(a.nfiles() <= a.nchunks() + 1);
    let _ = a.typestr();
    assert!(a.raw_chunk(0).is_err());
});
