//! zfp 1.0.1 (the version the reference bundles) compiled from the C sources of the
//! `zfp-sys` 0.4.3 crate, which cargo fetches from the registry; its build script (cmake,
//! bindgen) never runs, and every zfp symbol is renamed `oxzfp_*` (`oxzfp3_*` in the copy
//! built for x86-64-v3).

use std::env;
use std::path::{Path, PathBuf};

const ZFP_CRATE: &str = "zfp-sys";
const ZFP_CRATE_VERSION: &str = "0.4.3";

/// The directory of the `zfp-sys` crate: downloaded (if not yet) by `cargo metadata` on a
/// manifest depending on it, which is neither built nor linked.
fn zfp_crate_dir() -> PathBuf {
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let dir = out.join("zfp-fetch");
    std::fs::create_dir_all(&dir).expect("create zfp-fetch");
    let manifest = format!(
        "[package]\nname = \"zfp-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         [lib]\npath = \"lib.rs\"\n[dependencies]\n{ZFP_CRATE} = {{ version = \"={ZFP_CRATE_VERSION}\", \
         default-features = false }}\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("write manifest");
    std::fs::write(dir.join("lib.rs"), "").expect("write lib.rs");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8_lossy(&out.stdout);
    let tail = format!("{ZFP_CRATE}-{ZFP_CRATE_VERSION}/Cargo.toml\"");
    let end =
        json.find(&tail).expect("zfp-sys in cargo metadata") + tail.len() - "/Cargo.toml\"".len();
    let start = json[..end].rfind('"').expect("manifest path") + 1;
    PathBuf::from(json[start..end].replace("\\\\", "\\"))
}

/// zfp's public functions and variables: `stream_*` and `zfp_*`, renamed `<prefix>_*` by a
/// header forced into every zfp source.
fn zfp_prefix_header(src: &Path, prefix: &str) -> String {
    let mut names = std::collections::BTreeSet::new();
    let files = [
        "include/zfp.h",
        "include/zfp/bitstream.h",
        "include/zfp/bitstream.inl",
    ];
    for f in files.map(|f| src.join(f)) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if (word.starts_with("zfp_") || word.starts_with("stream_"))
                && word.chars().any(|c| c.is_ascii_lowercase())
            {
                names.insert(word.to_string());
            }
        }
    }
    names
        .iter()
        .map(|n| format!("#define {n} {prefix}_{n}\n"))
        .collect()
}

/// Compiles zfp with symbols `<prefix>_*` into `lib<prefix>*.a` (one library per group of
/// sources with the same flags) and links them; `arch` adds flags for an instruction set.
fn build_copy(root: &Path, prefix: &str, arch: &[&str]) {
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let header = out.join(format!("{prefix}_prefix.h"));
    std::fs::write(&header, zfp_prefix_header(root, prefix)).expect("write prefix header");
    let src = root.join("src");
    // Loop unrolling, chosen per group with callgrind: the float encoders take about 15%
    // fewer instructions with `-funroll-loops` (the other encoders more, and the double
    // encoders for x86-64-v3 mispredict more branches), the decoders about 9% fewer with
    // `-funroll-all-loops`.
    let mut unrolled = vec![src.join("zfp.c"), src.join("bitstream.c")];
    let mut plain = Vec::new();
    let mut decoders = Vec::new();
    for d in 1..=4 {
        for t in ["f", "d", "i", "l"] {
            let enc = src.join(format!("encode{d}{t}.c"));
            if t == "f" {
                unrolled.push(enc);
            } else {
                plain.push(enc);
            }
            decoders.push(src.join(format!("decode{d}{t}.c")));
        }
    }
    let groups = [
        ("", unrolled, Some("-funroll-loops")),
        ("e", plain, None),
        ("d", decoders, Some("-funroll-all-loops")),
    ];
    for (suffix, files, unroll) in groups {
        if files.is_empty() {
            continue;
        }
        let mut b = cc::Build::new();
        b.include(root.join("include"))
            .flag("-include")
            .flag(header.to_str().expect("UTF-8 path"))
            .opt_level(3)
            .define("NDEBUG", None)
            .warnings(false)
            .files(files);
        if let Some(flag) = unroll {
            b.flag(flag);
        }
        for flag in arch {
            b.flag(flag);
        }
        b.compile(&format!("{prefix}{suffix}"));
    }
}

/// Compiles zfp 1.0.1 as `oxzfp_*` for any x86-64 (or the target's baseline) and, on
/// x86-64, a second time as `oxzfp3_*` for x86-64-v3 (AVX2, BMI1/2, FMA, LZCNT, MOVBE),
/// which the codec uses on CPUs that have it. Floating-point contraction stays off so both
/// copies compute the same bits.
pub fn build() {
    let root = zfp_crate_dir().join("zfp");
    build_copy(&root, "oxzfp", &[]);
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        build_copy(&root, "oxzfp3", &["-march=x86-64-v3", "-ffp-contract=off"]);
    }
}
