//! The corpus arrays made with the N-dimensional plugins (n22 to n31) open through the C
//! API and decode to the manifest's hashes, chunk by chunk, and random item ranges read with
//! `blosc2_schunk_get_slice_buffer` equal the full decode (which the reference gets wrong
//! for the fixed-rate ZFP arrays).

use std::ffi::CString;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::capi::schunk::blosc2_schunk_free;
use crate::capi::schunk_open::blosc2_schunk_open;
use crate::capi::schunk_ops::{blosc2_schunk_decompress_chunk, blosc2_schunk_get_slice_buffer};

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn plugin_arrays_of_the_corpus_decode_to_the_manifest() {
    let Some(corpus) = crate::testref::corpus() else {
        return;
    };
    crate::global::init();
    let text = std::fs::read_to_string(corpus.join("manifest.json")).expect("manifest");
    let manifest: Value = serde_json::from_str(&text).expect("manifest JSON");
    let mut seen = 0;
    let mut rng = 12345u64;
    for a in manifest["artifacts"].as_array().expect("artifacts") {
        let rel = a["path"].as_str().unwrap_or("");
        let plugin = a["params"]["plugin"].as_object();
        let name = plugin.and_then(|p| p.get("codec").or(p.get("filter")));
        let Some(name) = name.and_then(Value::as_str) else {
            continue;
        };
        if !matches!(
            name,
            "NDLZ" | "ZFP_ACC" | "ZFP_PREC" | "ZFP_RATE" | "NDCELL" | "NDMEAN"
        ) {
            continue;
        }
        seen += 1;
        let exp = &a["expected"];
        let path = CString::new(corpus.join(rel).to_str().expect("path")).expect("path");
        // SAFETY: a NUL-terminated path; the super-chunk is freed below.
        let sc = unsafe { blosc2_schunk_open(path.as_ptr()) };
        assert!(!sc.is_null(), "{rel}: open");
        let mut all = Vec::new();
        for ch in exp["chunks"].as_array().expect("chunks") {
            let n = ch["index"].as_i64().expect("index");
            let nbytes = ch["nbytes"].as_u64().expect("nbytes") as usize;
            let mut out = vec![0u8; nbytes];
            // SAFETY: `out` is writable for `nbytes` bytes.
            let rc = unsafe {
                blosc2_schunk_decompress_chunk(sc, n, out.as_mut_ptr().cast(), nbytes as i32)
            };
            assert_eq!(rc as usize, nbytes, "{rel}: chunk {n}");
            assert_eq!(
                hex(&out),
                ch["sha256"].as_str().expect("sha"),
                "{rel}: chunk {n}"
            );
            all.extend_from_slice(&out);
        }
        assert_eq!(
            hex(&all),
            exp["sha256"].as_str().expect("sha"),
            "{rel}: all chunks"
        );
        let ts = exp["typesize"].as_u64().expect("typesize") as usize;
        let items = all.len() / ts;
        for _ in 0..200 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let start = (rng >> 33) as usize % items;
            let len = 1 + (rng >> 13) as usize % 4096.min(items - start);
            let mut got = vec![0u8; len * ts];
            // SAFETY: `got` holds the items asked for.
            let rc = unsafe {
                blosc2_schunk_get_slice_buffer(
                    sc,
                    start as i64,
                    (start + len) as i64,
                    got.as_mut_ptr().cast(),
                )
            };
            assert_eq!(rc, 0, "{rel}: slice {start}+{len}");
            assert!(
                got == all[start * ts..(start + len) * ts],
                "{rel}: slice {start}+{len}"
            );
        }
        // SAFETY: opened above, freed once.
        unsafe { blosc2_schunk_free(sc) };
    }
    assert_eq!(seen, 10, "plugin arrays in the corpus");
}
