//! The `blosc2-oxide` binary: every subcommand on real files, and bad inputs (truncated,
//! bad magic, checksum mismatch, missing directory parts) that must give a message and a
//! non-zero status, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use sha2::{Digest, Sha256};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_blosc2-oxide"));
    c.arg("--quiet");
    c
}

fn run(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut c = bin();
    for a in args {
        c.arg(a);
    }
    c.output().expect("the binary runs")
}

fn ok(args: &[&dyn AsRef<std::ffi::OsStr>]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The command fails with a message, a status of 1 and no panic.
fn fails(args: &[&dyn AsRef<std::ffi::OsStr>], expect: &str) {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("error"), "no message: {err}");
    assert!(err.contains(expect), "expected {expect:?} in: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
}

struct Tmp(PathBuf);

impl Tmp {
    fn new(name: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!("b2ox-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Tmp(p)
    }
    fn join(&self, n: &str) -> PathBuf {
        self.0.join(n)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn hex(b: &[u8]) -> String {
    Sha256::digest(b)
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

fn corpus() -> Option<PathBuf> {
    let p = match std::env::var_os("BLOSC2_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if p.join("manifest.json").is_file() {
        return Some(p);
    }
    assert!(
        std::env::var_os("BLOSC2_SKIP_CORPUS").is_some_and(|v| v != "0" && !v.is_empty()),
        "the shared corpus is missing at {} (BLOSC2_SKIP_CORPUS=1 skips)",
        p.display()
    );
    eprintln!("corpus opted out: CLI corpus test not run");
    None
}

fn sample(n: usize) -> Vec<u8> {
    (0..n as u64)
        .flat_map(|i| ((i * 2654435761) % 1000).to_le_bytes())
        .take(n)
        .collect()
}

#[test]
fn decompress_reads_every_corpus_container_to_its_hash() {
    let Some(root) = corpus() else { return };
    let m: Value =
        serde_json::from_slice(&std::fs::read(root.join("manifest.json")).unwrap()).unwrap();
    let t = Tmp::new("corpus");
    let out = t.join("out.bin");
    let mut n = 0;
    for a in m["artifacts"].as_array().unwrap() {
        let path = root.join(a["path"].as_str().unwrap());
        let targets: Vec<(PathBuf, &Value)> = match a["format"].as_str().unwrap() {
            "bloscpack" | "bcolz-carray" | "cframe" | "sframe-dir" => {
                vec![(path.clone(), &a["expected"])]
            }
            "bcolz-ctable" => a["expected"]["columns"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (path.join(k), v))
                .collect(),
            _ => continue,
        };
        for (p, want) in targets {
            if want["sha256"].is_null() {
                continue;
            }
            ok(&[&"decompress", &p, &out]);
            let got = std::fs::read(&out).unwrap();
            assert_eq!(
                hex(&got),
                want["sha256"].as_str().unwrap(),
                "{}",
                p.display()
            );
            ok(&[&"verify", &p]);
            n += 1;
        }
    }
    assert!(n >= 40, "only {n} corpus containers checked");
}

#[test]
fn compress_then_decompress_every_output_format() {
    let t = Tmp::new("formats");
    let data = sample(3_000_000);
    let input = t.join("in.bin");
    std::fs::write(&input, &data).unwrap();
    for (name, extra) in [
        ("a.b2frame", vec!["--codec", "zstd", "--typesize", "8"]),
        (
            "a.blp",
            vec!["--checksum", "sha256", "--chunk-size", "256K"],
        ),
        ("a.b2nd", vec!["--shape", "1000,375", "--dtype", "<f8"]),
        ("a.bcolz", vec!["--dtype", "<i8", "--filter", "bitshuffle"]),
        (
            "dir",
            vec![
                "--format", "sframe", "--filter", "shuffle", "--filter", "delta",
            ],
        ),
    ] {
        let out = t.join(name);
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"compress", &input, &out];
        for e in &extra {
            args.push(e);
        }
        ok(&args);
        let back = t.join("back.bin");
        ok(&[&"decompress", &out, &back, &"--quiet"]);
        assert!(std::fs::read(&back).unwrap() == data, "{name}");
        let info: Value = serde_json::from_str(&ok(&[&"info", &out, &"--json"])).unwrap();
        assert_eq!(info["nbytes"], 3_000_000, "{name}: {info}");
        assert!(ok(&[&"info", &out]).contains("format:"));
        assert!(ok(&[&"verify", &out]).contains("OK"));
        // An existing output is kept unless --force.
        let mut again: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"compress", &input, &out];
        for e in &extra {
            again.push(e);
        }
        fails(&again, "exists");
    }
    let info: Value = serde_json::from_str(&ok(&[&"info", &t.join("a.b2nd"), &"--json"])).unwrap();
    assert_eq!(info["shape"], serde_json::json!([1000, 375]));
    assert_eq!(info["format"], "b2nd");
    let info: Value = serde_json::from_str(&ok(&[&"info", &t.join("a.blp"), &"--json"])).unwrap();
    assert_eq!(info["checksum"], "sha256");
}

#[test]
fn fortran_blp_decodes_in_c_order_within_the_band() {
    use blosc2::bloscpack::{pack_bytes, NumpyMeta, PackOptions};
    let t = Tmp::new("fortran");
    let (rows, cols, deep) = (300usize, 70usize, 4usize);
    let value = |i: usize, j: usize, k: usize| (i * 1_000_000 + j * 1000 + k) as u32;
    // Stored in Fortran order: element (i, j, k) at i + rows j + rows cols k.
    let mut stored = vec![0u8; rows * cols * deep * 4];
    let mut want = Vec::with_capacity(stored.len());
    for i in 0..rows {
        for j in 0..cols {
            for k in 0..deep {
                let at = (i + rows * j + rows * cols * k) * 4;
                stored[at..at + 4].copy_from_slice(&value(i, j, k).to_le_bytes());
                want.extend_from_slice(&value(i, j, k).to_le_bytes());
            }
        }
    }
    let meta = NumpyMeta::new("<u4", &[rows, cols, deep], true);
    let opts = PackOptions {
        chunk_size: 10_000,
        ..PackOptions::default()
    };
    let file = t.join("f.blp");
    std::fs::write(
        &file,
        pack_bytes(&stored, &opts, Some(&meta.to_metadata())).unwrap(),
    )
    .unwrap();
    let back = t.join("back.bin");
    for band in ["1G", "64K", "1000"] {
        ok(&[&"--fortran-band", &band, &"decompress", &file, &back]);
        assert!(std::fs::read(&back).unwrap() == want, "band {band}");
    }
    assert!(ok(&[&"verify", &file]).contains("OK"));
}

#[test]
fn frames_decode_alike_on_any_thread_count() {
    let t = Tmp::new("threads");
    let data = sample(5_000_000);
    let input = t.join("in.bin");
    std::fs::write(&input, &data).unwrap();
    for (name, extra) in [
        ("a.b2frame", vec!["--typesize", "4", "--chunk-size", "1M"]),
        ("a.b2nd", vec!["--shape", "5000,250", "--dtype", "<i4"]),
        ("dir", vec!["--format", "sframe", "--codec", "lz4"]),
    ] {
        let out = t.join(name);
        let mut args: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"compress", &input, &out];
        for e in &extra {
            args.push(e);
        }
        ok(&args);
        for n in ["1", "2", "3"] {
            let back = t.join("back.bin");
            ok(&[&"--nthreads", &n, &"decompress", &out, &back]);
            assert!(
                std::fs::read(&back).unwrap() == data,
                "{name} on {n} threads"
            );
        }
    }
}

#[test]
fn convert_between_containers() {
    let t = Tmp::new("convert");
    let data = sample(500_000);
    let input = t.join("in.bin");
    std::fs::write(&input, &data).unwrap();
    let blp = t.join("a.blp");
    ok(&[
        &"compress",
        &input,
        &blp,
        &"--dtype",
        &"<u4",
        &"--shape",
        &"125000",
    ]);
    let frame = t.join("a.b2frame");
    ok(&[&"convert", &blp, &frame]);
    let nd = t.join("a.b2nd");
    ok(&[
        &"convert",
        &frame,
        &nd,
        &"--shape",
        &"500,250",
        &"--typesize",
        &"4",
    ]);
    let bz = t.join("b.bcolz");
    ok(&[&"convert", &nd, &bz]);
    for p in [&frame, &nd, &bz] {
        let back = t.join("back.bin");
        ok(&[&"decompress", p, &back]);
        assert!(std::fs::read(&back).unwrap() == data, "{}", p.display());
    }
    let info: Value = serde_json::from_str(&ok(&[&"info", &bz, &"--json"])).unwrap();
    assert_eq!(info["shape"], serde_json::json!([500, 250]));
    if let Some(root) = corpus() {
        let table = root.join("bcolz/z04_ctable.bcolz");
        let dir = t.join("cols");
        ok(&[&"convert", &table, &dir]);
        for col in ["i", "f", "s"] {
            let a = t.join("x.bin");
            let b = t.join("y.bin");
            ok(&[&"decompress", &table.join(col), &a]);
            ok(&[&"decompress", &dir.join(format!("{col}.b2nd")), &b]);
            assert!(
                std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
                "column {col}"
            );
        }
    }
}

#[test]
fn bad_inputs_give_a_message_and_status_1() {
    let t = Tmp::new("bad");
    let data = sample(200_000);
    let input = t.join("in.bin");
    std::fs::write(&input, &data).unwrap();
    let blp = t.join("a.blp");
    ok(&[
        &"compress",
        &input,
        &blp,
        &"--checksum",
        &"crc32",
        &"--chunk-size",
        &"64K",
    ]);
    let good = std::fs::read(&blp).unwrap();
    let out = t.join("out.bin");
    let bad = t.join("bad.blp");
    std::fs::write(&bad, &good[..good.len() - 100]).unwrap();
    fails(&[&"decompress", &bad, &out], "truncated");
    fails(&[&"verify", &bad], "truncated");
    std::fs::write(&bad, &good[..20]).unwrap();
    fails(&[&"info", &bad], "");
    let mut b = good.clone();
    let at = b.len() - 50;
    b[at] ^= 0x10;
    std::fs::write(&bad, &b).unwrap();
    fails(&[&"verify", &bad], "checksum mismatch");
    fails(&[&"decompress", &bad, &out], "checksum mismatch");
    let mut b = good.clone();
    b[..4].copy_from_slice(b"nope");
    std::fs::write(&bad, &b).unwrap();
    fails(&[&"decompress", &bad, &out], "not a Blosc container");
    let mut b = good.clone();
    b[16..24].copy_from_slice(&(1i64 << 60).to_le_bytes());
    std::fs::write(&bad, &b).unwrap();
    fails(&[&"decompress", &bad, &out], "invalid container");
    // A frame cut short.
    let frame = t.join("a.b2frame");
    ok(&[&"compress", &input, &frame]);
    let f = std::fs::read(&frame).unwrap();
    std::fs::write(&frame, &f[..f.len() / 2]).unwrap();
    fails(&[&"decompress", &frame, &out], "");
    // bcolz directories with missing parts.
    let bz = t.join("a.bcolz");
    ok(&[&"compress", &input, &bz, &"--chunk-size", &"50000"]);
    std::fs::remove_file(bz.join("data/__1.blp")).unwrap();
    fails(&[&"decompress", &bz, &out], "missing chunk file");
    std::fs::remove_file(bz.join("meta/sizes")).unwrap();
    fails(&[&"verify", &bz], "meta/sizes");
    std::fs::remove_dir_all(bz.join("meta")).unwrap();
    fails(&[&"decompress", &bz, &out], "neither");
    fails(&[&"decompress", &t.join("missing"), &out], "No such file");
    fails(&[&"compress", &input, &t.join("x.unknown")], "--format");
    fails(
        &[&"compress", &input, &t.join("y.b2nd"), &"--shape", &"7,7"],
        "do not hold",
    );
    // Usage errors are clap's (status 2).
    let o = run(&[&"decompress"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).is_empty());
}

#[test]
fn help_shows_examples() {
    let o = Command::new(env!("CARGO_BIN_EXE_blosc2-oxide"))
        .arg("--help")
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    for w in [
        "decompress",
        "compress",
        "info",
        "verify",
        "convert",
        "Examples:",
    ] {
        assert!(s.contains(w), "{w} missing from --help");
    }
}
