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

/// Inline `ldexp`, `ldexpf`, `frexp` and `frexpf` for the header forced into zfp's
/// sources: zfp calls them once per block of 4^d values to scale by a power of two, and the
/// libm calls cost a few percent of a block. Normal inputs with normal results are handled
/// on the exponent bits (exact, as libm is); anything else goes to libm.
const EXPONENT_HELPERS: &str = r#"
#include <math.h>
#include <stdint.h>
#include <string.h>
static inline double ox_ldexp(double x, int e) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  int ex = (int)((b >> 52) & 0x7ff);
  if (ex != 0 && ex != 0x7ff && e > -4096 && e < 4096 && ex + e > 0 && ex + e < 0x7ff) {
    b = (b & ~((uint64_t)0x7ff << 52)) | ((uint64_t)(ex + e) << 52);
    memcpy(&x, &b, sizeof b);
    return x;
  }
  return (ldexp)(x, e);
}
static inline float ox_ldexpf(float x, int e) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  int ex = (int)((b >> 23) & 0xff);
  if (ex != 0 && ex != 0xff && e > -4096 && e < 4096 && ex + e > 0 && ex + e < 0xff) {
    b = (b & ~((uint32_t)0xff << 23)) | ((uint32_t)(ex + e) << 23);
    memcpy(&x, &b, sizeof b);
    return x;
  }
  return (ldexpf)(x, e);
}
static inline double ox_frexp(double x, int *e) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  int ex = (int)((b >> 52) & 0x7ff);
  if (ex != 0 && ex != 0x7ff) {
    *e = ex - 1022;
    b = (b & ~((uint64_t)0x7ff << 52)) | ((uint64_t)1022 << 52);
    memcpy(&x, &b, sizeof b);
    return x;
  }
  return (frexp)(x, e);
}
static inline float ox_frexpf(float x, int *e) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  int ex = (int)((b >> 23) & 0xff);
  if (ex != 0 && ex != 0xff) {
    *e = ex - 126;
    b = (b & ~((uint32_t)0xff << 23)) | ((uint32_t)126 << 23);
    memcpy(&x, &b, sizeof b);
    return x;
  }
  return (frexpf)(x, e);
}
#define ldexp(x, e) ox_ldexp(x, e)
#define ldexpf(x, e) ox_ldexpf(x, e)
#define frexp(x, e) ox_frexp(x, e)
#define frexpf(x, e) ox_frexpf(x, e)
"#;

/// Compiles zfp with symbols `<prefix>_*` into `lib<prefix>*.a` (one library per group of
/// sources with the same flags) and links them; `arch` adds flags for an instruction set.
fn build_copy(root: &Path, prefix: &str, arch: &[&str]) {
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let header = out.join(format!("{prefix}_prefix.h"));
    let text = format!("{}{EXPONENT_HELPERS}", zfp_prefix_header(root, prefix));
    std::fs::write(&header, text).expect("write prefix header");
    let src = root.join("src");
    // Flags chosen per group by timing against the reference: the float encoders are
    // fastest with `-funroll-loops`, the double encoders without unrolling or
    // vectorisation (the vectorised bit-plane gather is slower), the decoders (now
    // only the reference the Rust decoder is tested against) with `-funroll-all-loops` and
    // neither straight-line vectorisation nor partial redundancy elimination. Functions start on 64-byte boundaries
    // so that their hot loops sit where they were measured, wherever the linker puts them.
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
        ("", unrolled, &["-funroll-loops"][..]),
        ("e", plain, &["-fno-tree-vectorize"]),
        (
            "d",
            decoders,
            &[
                "-funroll-all-loops",
                "-fno-tree-slp-vectorize",
                "-fno-tree-pre",
            ],
        ),
    ];
    for (suffix, files, group_flags) in groups {
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
            .flag("-falign-functions=64")
            .files(files);
        for flag in group_flags {
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
