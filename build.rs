//! Gives the shared library the SONAME of the reference, `libblosc2.so.9`, and compiles the
//! vendored zlib-ng 2.3.3 (zlib-compatible API with every public symbol prefixed `oxzng_`,
//! see `tools/vendor-zlib-ng.sh`) into a static library linked into ours. It also compiles
//! zfp 1.0.1 (the version the reference bundles) from the C sources of the `zfp-sys` 0.4.3
//! crate, which cargo fetches from the registry; its build script (cmake, bindgen) never
//! runs, and every zfp symbol is renamed `oxzfp_*`.

use std::env;
use std::path::{Path, PathBuf};

const ZNG: &str = "vendor/zlib-ng";

/// zlib-ng sources compiled for every target.
const CORE: &[&str] = &[
    "adler32.c",
    "compress.c",
    "cpu_features.c",
    "crc32.c",
    "crc32_braid_comb.c",
    "deflate.c",
    "deflate_fast.c",
    "deflate_huff.c",
    "deflate_medium.c",
    "deflate_quick.c",
    "deflate_rle.c",
    "deflate_slow.c",
    "deflate_stored.c",
    "functable.c",
    "inflate.c",
    "inftrees.c",
    "insert_string.c",
    "insert_string_roll.c",
    "trees.c",
    "uncompr.c",
    "zutil.c",
    "arch/generic/adler32_c.c",
    "arch/generic/adler32_fold_c.c",
    "arch/generic/crc32_braid_c.c",
    "arch/generic/crc32_chorba_c.c",
    "arch/generic/crc32_fold_c.c",
];

/// Generic code that x86-64 replaces by its SSE2 kernels.
const FALLBACKS: &[&str] = &[
    "arch/generic/chunkset_c.c",
    "arch/generic/compare256_c.c",
    "arch/generic/slide_hash_c.c",
];

/// The AVX-512 flags of zlib-ng's CMake, less its `-mtune=cascadelake`: with GCC 12 that
/// tuning made `inflate_fast_avx512` about 12% slower on text (measured on Sapphire Rapids).
const AVX512: &[&str] = &[
    "-mavx512f",
    "-mavx512dq",
    "-mavx512bw",
    "-mavx512vl",
    "-mbmi2",
];

/// x86-64 kernels (in `arch/x86/`), each group with the flag sets enabling the instructions
/// it may use; zlib-ng picks among them at run time from CPUID.
const X86_KERNELS: &[(&[&str], &[&[&str]])] = &[
    (&["x86_features.c"], &[&["-mxsave"]]),
    (
        &[
            "chunkset_sse2.c",
            "compare256_sse2.c",
            "slide_hash_sse2.c",
            "chorba_sse2.c",
        ],
        &[],
    ),
    (&["adler32_ssse3.c", "chunkset_ssse3.c"], &[&["-mssse3"]]),
    (&["chorba_sse41.c"], &[&["-msse4.1"]]),
    (&["adler32_sse42.c"], &[&["-msse4.2"]]),
    (&["crc32_pclmulqdq.c"], &[&["-msse4.2", "-mpclmul"]]),
    (
        &[
            "adler32_avx2.c",
            "chunkset_avx2.c",
            "compare256_avx2.c",
            "slide_hash_avx2.c",
        ],
        &[&["-mavx2", "-mbmi2"]],
    ),
    (
        &[
            "adler32_avx512.c",
            "chunkset_avx512.c",
            "compare256_avx512.c",
        ],
        &[AVX512],
    ),
    (&["adler32_avx512_vnni.c"], &[AVX512, &["-mavx512vnni"]]),
    (
        &["crc32_vpclmulqdq.c"],
        &[AVX512, &["-mpclmul", "-mvpclmulqdq"]],
    ),
];

/// Preprocessor symbols of zlib-ng's CMake configuration on x86-64 with GCC or Clang.
const X86_DEFINES: &[&str] = &[
    "HAVE_CPUID_GNU",
    "X86_HAVE_XSAVE_INTRIN",
    "WITH_OPTIM",
    "X86_FEATURES",
    "X86_SSE2",
    "X86_SSSE3",
    "X86_SSE41",
    "X86_SSE42",
    "X86_PCLMULQDQ_CRC",
    "X86_AVX2",
    "X86_AVX512",
    "X86_AVX512VNNI",
    "X86_VPCLMULQDQ_CRC",
];

/// A compiler set up with zlib-ng's include path and configuration.
fn zng_build(x86: bool) -> cc::Build {
    let mut b = cc::Build::new();
    b.include(ZNG)
        .std("c11")
        .opt_level(2)
        .warnings(false)
        .define("NDEBUG", None)
        .define("ZLIB_COMPAT", None)
        .define("_LARGEFILE64_SOURCE", "1")
        .define("HAVE_ATTRIBUTE_ALIGNED", None)
        .define("HAVE_BUILTIN_ASSUME_ALIGNED", None)
        .define("HAVE_BUILTIN_CTZ", None)
        .define("HAVE_BUILTIN_CTZLL", None)
        .define("HAVE_VISIBILITY_HIDDEN", None)
        .define("HAVE_VISIBILITY_INTERNAL", None);
    if x86 {
        for d in X86_DEFINES {
            b.define(d, None);
        }
    } else {
        b.define("WITH_ALL_FALLBACKS", None);
    }
    b
}

fn paths(dir: &str, files: &[&str]) -> Vec<PathBuf> {
    files.iter().map(|f| Path::new(dir).join(f)).collect()
}

/// Compiles zlib-ng into `liboxzng.a` and links it.
fn build_zlib_ng() {
    let x86 = env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let mut objects = Vec::new();
    let mut generic = paths(ZNG, CORE);
    if x86 {
        let arch = format!("{ZNG}/arch/x86");
        for (files, flag_sets) in X86_KERNELS {
            let mut b = zng_build(true);
            for flag in flag_sets.iter().copied().flatten() {
                b.flag(flag);
            }
            objects.extend(b.files(paths(&arch, files)).compile_intermediates());
        }
    } else {
        generic.extend(paths(ZNG, FALLBACKS));
    }
    objects.extend(zng_build(x86).files(generic).compile_intermediates());
    cc::Build::new().objects(objects).compile("oxzng");
    println!("cargo:rerun-if-changed={ZNG}");
}

/// The crate whose sources hold zfp 1.0.1.
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

/// zfp's public functions and variables: `stream_*` and `zfp_*`, renamed `oxzfp_*` by a
/// header forced into every zfp source.
fn zfp_prefix_header(src: &Path) -> String {
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
        .map(|n| format!("#define {n} oxzfp_{n}\n"))
        .collect()
}

/// Compiles zfp 1.0.1 into `liboxzfp.a` and links it.
fn build_zfp() {
    let root = zfp_crate_dir().join("zfp");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let header = out.join("oxzfp_prefix.h");
    std::fs::write(&header, zfp_prefix_header(&root)).expect("write prefix header");
    let src = root.join("src");
    let mut files = vec![src.join("zfp.c"), src.join("bitstream.c")];
    for d in 1..=4 {
        for t in ["f", "d", "i", "l"] {
            files.push(src.join(format!("encode{d}{t}.c")));
            files.push(src.join(format!("decode{d}{t}.c")));
        }
    }
    cc::Build::new()
        .include(root.join("include"))
        .flag("-include")
        .flag(header.to_str().expect("UTF-8 path"))
        .opt_level(3)
        .define("NDEBUG", None)
        .warnings(false)
        .files(files)
        .compile("oxzfp");
}

fn main() {
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libblosc2.so.9");
    }
    build_zlib_ng();
    build_zfp();
    println!("cargo:rerun-if-changed=build.rs");
}
