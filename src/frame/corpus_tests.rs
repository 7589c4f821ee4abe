//! Every frame of the shared corpus (contiguous files, sparse directories, old-version
//! frames) opens and decodes to the manifest's hashes: counts, sizes, each chunk and each
//! VL block, metalayers and vlmetalayers.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::schunk::SuperChunk;

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn int(v: &Value, key: &str) -> i64 {
    v[key]
        .as_i64()
        .unwrap_or_else(|| panic!("manifest field {key}"))
}

/// Compares one opened super-chunk with the `expected` object of its artifact; returns the
/// differences found.
fn compare(sc: &mut SuperChunk, expected: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut check = |what: &str, ours: String, want: String| {
        if ours != want {
            diffs.push(format!("{what}: ours {ours}, manifest {want}"));
        }
    };
    check(
        "nchunks",
        sc.nchunks().to_string(),
        int(expected, "nchunks").to_string(),
    );
    check(
        "typesize",
        sc.typesize().to_string(),
        int(expected, "typesize").to_string(),
    );
    check(
        "nbytes",
        sc.nbytes().to_string(),
        int(expected, "schunk_nbytes").to_string(),
    );
    check(
        "cbytes",
        sc.cbytes().to_string(),
        int(expected, "cbytes").to_string(),
    );
    let mut all = Vec::new();
    for chunk in expected["chunks"].as_array().expect("chunks") {
        let n = int(chunk, "index");
        let nbytes = usize::try_from(int(chunk, "nbytes")).expect("chunk nbytes");
        let mut out = vec![0u8; nbytes];
        match sc.decompress_chunk(n, &mut out) {
            Ok(got) => check(
                &format!("chunk {n} size"),
                got.to_string(),
                nbytes.to_string(),
            ),
            Err(e) => check(&format!("chunk {n}"), format!("{e:?}"), "data".into()),
        }
        if let Some(want) = chunk["sha256"].as_str() {
            check(&format!("chunk {n} sha256"), hex(&out), want.into());
        }
        for (j, block) in chunk["vlblocks"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let got = sc.vlblock(n, i32::try_from(j).expect("block index"));
            let got = got.map(|b| hex(&b)).unwrap_or_else(|e| format!("{e:?}"));
            let want = block["sha256"].as_str().expect("block sha256");
            check(&format!("chunk {n} block {j}"), got, want.into());
        }
        all.extend_from_slice(&out);
    }
    if let Some(want) = expected["sha256"].as_str() {
        check("all chunks sha256", hex(&all), want.into());
    }
    for (name, meta) in expected["metalayers"].as_object().into_iter().flatten() {
        let got = sc.metalayers().iter().find(|m| m.name == *name);
        let got = got.map_or("absent".into(), |m| hex(&m.content));
        check(
            &format!("metalayer {name}"),
            got,
            meta["sha256"].as_str().expect("sha").into(),
        );
    }
    for (name, meta) in expected["vlmetalayers"].as_object().into_iter().flatten() {
        let got = sc.vlmeta_get(name);
        let got = got.map_or_else(|e| format!("{e:?}"), |(_, content)| hex(&content));
        check(
            &format!("vlmetalayer {name}"),
            got,
            meta["sha256"].as_str().expect("sha").into(),
        );
    }
    diffs
}

#[test]
fn corpus_frames_decode_to_manifest_hashes() {
    let Some(corpus) = crate::testref::corpus() else {
        return;
    };
    crate::global::init();
    let text = std::fs::read_to_string(corpus.join("manifest.json")).expect("manifest");
    let manifest: Value = serde_json::from_str(&text).expect("manifest JSON");
    let (mut checked, mut failures) = (0, Vec::new());
    for a in manifest["artifacts"].as_array().expect("artifacts") {
        let category = a["category"].as_str().unwrap_or("");
        let format = a["format"].as_str().unwrap_or("");
        if !matches!(category, "frames" | "sframes" | "compat")
            || !matches!(format, "cframe" | "sframe-dir")
        {
            continue;
        }
        let rel = a["path"].as_str().expect("path");
        let path = corpus.join(rel);
        let mut opened = vec![("open", SuperChunk::open(Path::new(&path), 0, None))];
        if format == "cframe" {
            let bytes = std::fs::read(&path).expect("artifact");
            opened.push(("from_cframe", SuperChunk::from_cframe(&bytes)));
        }
        for (how, sc) in opened {
            checked += 1;
            match sc {
                Ok(mut sc) => failures.extend(
                    compare(&mut sc, &a["expected"])
                        .into_iter()
                        .map(|d| format!("{rel} ({how}): {d}")),
                ),
                Err(e) => failures.push(format!("{rel} ({how}): {e:?}")),
            }
        }
    }
    eprintln!(
        "corpus frames: {checked} opened, {} differences",
        failures.len()
    );
    assert!(checked >= 68, "only {checked} frames found in the manifest");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
