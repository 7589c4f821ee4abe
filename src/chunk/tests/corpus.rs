//! Every chunk of the shared corpus (kinds chunks, blosc1, compat) decodes to the manifest's
//! hash, also with several threads and through getitem.

use sha2::{Digest, Sha256};

use crate::chunk::Header;
use crate::context::{Context, DParams};

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn corpus_chunks_decode_to_manifest_hashes() {
    let Some(corpus) = crate::testref::corpus() else {
        return;
    };
    let text = std::fs::read_to_string(corpus.join("manifest.json")).expect("manifest");
    let m: serde_json::Value = serde_json::from_str(&text).expect("manifest");
    let (mut passed, mut failed) = (0, Vec::new());
    for a in m["artifacts"].as_array().expect("artifacts") {
        let cat = a["category"].as_str().unwrap_or("");
        let fmt = a["format"].as_str().unwrap_or("");
        if !matches!(cat, "chunks" | "blosc1" | "compat") || !fmt.ends_with("chunk") {
            continue;
        }
        let path = a["path"].as_str().expect("path");
        let src = std::fs::read(corpus.join(path)).expect("artifact");
        let nbytes = a["expected"]["nbytes"].as_u64().expect("nbytes") as usize;
        // Chunks the reference does not round-trip only define a prefix of their output.
        let (want, check_len) = match a["expected"]["sha256"].as_str() {
            Some(w) => (w, nbytes),
            None => (
                a["expected"]["prefix_sha256"]
                    .as_str()
                    .expect("prefix hash"),
                a["expected"]["prefix_nbytes"].as_u64().expect("prefix") as usize,
            ),
        };
        let h = Header::parse(&src).expect("header");
        let mut ok = true;
        for nthreads in [1, 2] {
            let mut out = vec![0u8; nbytes];
            let mut d = Context::decompressor(DParams {
                nthreads,
                ..DParams::default()
            });
            let r = d.decompress(&src, &mut out);
            if r.is_err() || hex(&Sha256::digest(&out[..check_len])) != want {
                failed.push(format!("{path} nthreads={nthreads}: {r:?}"));
                ok = false;
            }
        }
        if ok && !h.is_vl() && nbytes > 0 {
            // The whole chunk through getitem must give the same bytes.
            let ts = usize::from(h.typesize);
            let mut out = vec![0u8; nbytes];
            let mut d = Context::decompressor(DParams::default());
            let r = d.getitem(&src, 0, (nbytes / ts) as i32, &mut out);
            let mut full = vec![0u8; nbytes];
            Context::decompressor(DParams::default())
                .decompress(&src, &mut full)
                .expect("decoded above");
            let n = (nbytes / ts * ts).min(check_len);
            if r != Ok(nbytes / ts * ts) || out[..n] != full[..n] {
                failed.push(format!("{path} getitem: {r:?}"));
                ok = false;
            }
        }
        if ok {
            passed += 1;
        }
    }
    eprintln!("corpus: {passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "failures:\n{}", failed.join("\n"));
    assert!(passed > 0);
}
