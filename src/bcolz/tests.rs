//! Every corpus bcolz artifact decodes to the manifest's hashes and geometry; created
//! carrays and ctables round-trip and append; damaged directories give errors.

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::*;
use crate::bloscpack::Error;

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn decode(a: &CArray) -> Vec<u8> {
    let mut out = Vec::new();
    a.decode_to(&mut out, &mut |_| {}).unwrap();
    out
}

#[test]
fn corpus_bcolz_artifacts_decode_to_the_manifest() {
    let Some(root) = crate::testref::corpus() else {
        return;
    };
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(root.join("manifest.json")).unwrap()).unwrap();
    let mut seen = 0;
    for art in manifest["artifacts"].as_array().unwrap() {
        let path = root.join(art["path"].as_str().unwrap());
        let want = &art["expected"];
        match art["format"].as_str().unwrap() {
            "bcolz-carray" => {
                assert_eq!(detect(&path), Some(Kind::CArray));
                let a = CArray::open(&path).unwrap();
                assert_eq!(json!(a.shape()), want["shape"]);
                assert_eq!(a.typestr(), want["dtype"].as_str().unwrap());
                assert_eq!(a.chunklen() as i64, want["chunklen"]);
                assert_eq!(a.nchunks() as i64, want["nchunks"]);
                assert_eq!(
                    a.cparams().cname,
                    want["cparams"]["cname"].as_str().unwrap()
                );
                assert_eq!(i64::from(a.cparams().clevel), want["cparams"]["clevel"]);
                assert_eq!(i64::from(a.cparams().shuffle), want["cparams"]["shuffle"]);
                assert_eq!(a.attrs(), &want["attrs"]);
                let out = decode(&a);
                assert_eq!(out.len() as i64, want["nbytes"]);
                assert_eq!(hex(&out), want["sha256"], "{}", path.display());
            }
            "bcolz-ctable" => {
                assert_eq!(detect(&path), Some(Kind::CTable));
                let t = CTable::open(&path).unwrap();
                assert_eq!(json!(t.names()), want["names"]);
                assert_eq!(t.len().unwrap() as i64, want["nrows"]);
                for name in t.names() {
                    let col = &want["columns"][name];
                    let a = t.column(name).unwrap();
                    assert_eq!(a.typestr(), col["dtype"].as_str().unwrap());
                    assert_eq!(a.nchunks() as i64, col["nchunks"]);
                    let out = decode(&a);
                    assert_eq!(out.len() as i64, col["nbytes"]);
                    assert_eq!(hex(&out), col["sha256"], "column {name}");
                }
            }
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 5, "bcolz artifacts in the manifest");
}

fn tmp(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("b2ox-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    p
}

#[test]
fn carrays_round_trip_and_append_like_bcolz() {
    let dir = tmp("carray");
    let cp = CParams {
        cname: "zstd".into(),
        shuffle: 2,
        ..CParams::default()
    };
    let mut a = CArray::create(&dir, "<f8", &[3], &cp, Some(100), 1000).unwrap();
    let row = |i: usize| -> Vec<u8> {
        (0..3)
            .flat_map(|k| ((i * 3 + k) as f64 * 0.5).to_le_bytes())
            .collect()
    };
    let mut all = Vec::new();
    for (from, to) in [(0, 250), (250, 260), (260, 400), (400, 401)] {
        let chunk: Vec<u8> = (from..to).flat_map(row).collect();
        a.append(&chunk).unwrap();
        all.extend_from_slice(&chunk);
        let b = CArray::open(&dir).unwrap();
        assert_eq!(b.shape(), &[to, 3]);
        assert!(decode(&b) == all, "rows 0..{to}");
    }
    let b = CArray::open(&dir).unwrap();
    assert_eq!((b.nchunks(), b.leftover_rows(), b.nfiles()), (4, 1, 5));
    assert_eq!(b.dtype(), "float64");
    let storage = std::fs::read_to_string(dir.join("meta/storage")).unwrap();
    assert_eq!(
        storage,
        "{\"dtype\": \"float64\", \"cparams\": {\"clevel\": 5, \"shuffle\": 2, \"cname\": \
         \"zstd\", \"quantize\": 0}, \"chunklen\": 100, \"expectedlen\": 1000, \"dflt\": 0.0}\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn default_chunklens_match_bcolz() {
    // bcolz chose these for the corpus (100000 × int64, 3000 × S10, 20000 × int32).
    assert_eq!(default_chunklen(100_000, 8), 32_768);
    assert_eq!(default_chunklen(3000, 10), 13_107);
    assert_eq!(default_chunklen(20_000, 4), 32_768);
}

#[test]
fn ctables_round_trip() {
    let dir = tmp("ctable");
    let mut t = CTable::create(
        &dir,
        &[("a", "<i4"), ("s", "|S3")],
        &CParams::default(),
        Some(64),
        200,
    )
    .unwrap();
    let a: Vec<u8> = (0..200i32).flat_map(i32::to_le_bytes).collect();
    let s: Vec<u8> = (0..600).map(|i| b'a' + (i % 26) as u8).collect();
    t.append(&[&a, &s]).unwrap();
    let t = CTable::open(&dir).unwrap();
    assert_eq!(t.names(), ["a", "s"]);
    assert!(decode(&t.column("a").unwrap()) == a);
    assert!(decode(&t.column("s").unwrap()) == s);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_directories_give_errors() {
    let dir = tmp("damaged");
    let mut a = CArray::create(&dir, "int32", &[], &CParams::default(), Some(50), 0).unwrap();
    a.append(&(0..120i32).flat_map(i32::to_le_bytes).collect::<Vec<u8>>())
        .unwrap();
    let fails = |why: &str| {
        let e = CArray::open(&dir).and_then(|a| a.decode_to(&mut Vec::new(), &mut |_| {}));
        assert!(matches!(e, Err(Error::Format(_))), "{why}: {e:?}");
    };
    let chunk = dir.join("data/__1.blp");
    let good = std::fs::read(&chunk).unwrap();
    std::fs::write(&chunk, &good[..good.len() - 3]).unwrap();
    fails("truncated chunk file");
    let mut bad = good.clone();
    bad[0] = b'x';
    std::fs::write(&chunk, &bad).unwrap();
    fails("bad chunk magic");
    std::fs::remove_file(&chunk).unwrap();
    fails("missing chunk file");
    std::fs::write(&chunk, &good).unwrap();
    let sizes = dir.join("meta/sizes");
    std::fs::write(
        &sizes,
        "{\"shape\": [99999999999], \"nbytes\": 4, \"cbytes\": 1}",
    )
    .unwrap();
    fails("lying shape");
    std::fs::write(&sizes, "{\"shape\": [").unwrap();
    fails("malformed sizes");
    std::fs::remove_file(&sizes).unwrap();
    fails("missing sizes");
    std::fs::remove_dir_all(&dir).unwrap();
    let t = tmp("badnames");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("__rootdirs__"), "{\"names\": [\"../x\"]}").unwrap();
    assert!(matches!(CTable::open(&t), Err(Error::Format(_))));
    std::fs::remove_dir_all(&t).unwrap();
}
