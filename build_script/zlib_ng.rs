//! zlib-ng 2.3.3, the zlib the reference bundles (so zlib output is byte-identical to it),
//! compiled from the copy inside the `libz-sys` crate: a build-dependency, so cargo fetches
//! (and `cargo vendor` copies) its source, while its own zlib never reaches our library.
//!
//! The needed sources are copied into `OUT_DIR`, next to the headers zlib-ng's CMake would
//! configure: zlib-compatible API with every public symbol prefixed `oxzng_`, so a program
//! linking our static library next to a system zlib sees no clash. `deflate_medium.c` gets
//! one change (see [`DEFLATE_MEDIUM_FIX`]).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use super::registry;

/// The crate carrying the source, and the exact version that bundles zlib-ng 2.3.3.
const CARRIER: &str = "libz-sys";
const CARRIER_VERSION: &str = "1.1.31";
/// The zlib-ng version of the reference; any other is refused.
const ZLIB_NG_VERSION: &str = "2.3.3";
/// Prefix of every public zlib symbol of our copy.
const PREFIX: &str = "oxzng_";
/// Names a zlib-ng source directory to use instead of the one inside `libz-sys`.
const SOURCE_VAR: &str = "BLOSC2_ZLIB_NG_SOURCE";

/// Keeps `deflate_medium()`'s two match structs in registers by initialising them instead of
/// memsetting them (as later zlib-ng does). GCC 12 leaves memset structs in memory and the
/// 8-byte struct copies then stall on store forwarding: without this, levels 5 and 6
/// compressed ~20% slower (level 4 ~3%). The output is unchanged. Pairs of (original text,
/// replacement).
const DEFLATE_MEDIUM_FIX: [(&str, &str); 2] = [
    (
        "    ALIGNED_(16) struct match current_match;\n                 struct match next_match;\n",
        "    ALIGNED_(16) struct match current_match = {0};\n                 struct match next_match = {0};\n",
    ),
    (
        "\n    memset(&current_match, 0, sizeof(struct match));\n    memset(&next_match, 0, sizeof(struct match));\n",
        "",
    ),
];

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

/// Compiles zlib-ng into `liboxzng.a` and links it.
pub fn build() {
    println!("cargo:rerun-if-changed=build_script");
    println!("cargo:rerun-if-env-changed={SOURCE_VAR}");
    let source = locate();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let tree = out.join("zlib-ng");
    prepare(&source, &tree);
    compile(&tree);
}

/// The zlib-ng source directory: `$BLOSC2_ZLIB_NG_SOURCE`, else the one in `libz-sys`.
fn locate() -> PathBuf {
    if let Some(dir) = env::var_os(SOURCE_VAR) {
        let dir = PathBuf::from(dir);
        if let Err(why) = check_version(&dir) {
            fail(&format!("{SOURCE_VAR}={}: {why}", dir.display()));
        }
        return dir;
    }
    let mut tried = Vec::new();
    let candidates = match registry::crate_from_metadata(CARRIER, CARRIER_VERSION) {
        Ok(dir) => vec![dir],
        Err(why) => {
            tried.push(format!("`cargo metadata`: {why}"));
            let siblings = registry::sibling_crates(CARRIER, CARRIER_VERSION);
            if siblings.is_empty() {
                tried.push(format!(
                    "no {CARRIER} directory next to {}",
                    registry::manifest_dir().display()
                ));
            }
            siblings
        }
    };
    for carrier in candidates {
        let dir = carrier.join("src").join("zlib-ng");
        match check_version(&dir) {
            Ok(()) => return dir,
            Err(why) => tried.push(format!("{}: {why}", dir.display())),
        }
    }
    fail(&format!(
        "no zlib-ng {ZLIB_NG_VERSION} source found in the {CARRIER} {CARRIER_VERSION} crate \
         (a build-dependency that only carries it).\nTried:\n  - {}\n\
         Let cargo fetch {CARRIER} (`cargo fetch`), or set {SOURCE_VAR} to a zlib-ng \
         {ZLIB_NG_VERSION} source directory.",
        tried.join("\n  - ")
    ))
}

fn fail(message: &str) -> ! {
    panic!("\n\nblosc2-oxide build: {message}\n\n")
}

/// Checks that `dir` holds the zlib-ng sources of the reference's version.
fn check_version(dir: &Path) -> Result<(), String> {
    let header = read(&dir.join("zlib.h.in")).map_err(|e| format!("no zlib-ng source ({e})"))?;
    let line = format!("#define ZLIBNG_VERSION \"{ZLIB_NG_VERSION}\"");
    if header.contains(&line) {
        Ok(())
    } else {
        Err(format!("not zlib-ng {ZLIB_NG_VERSION}"))
    }
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) {
    fs::write(path, text).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
}

/// Replaces every `(from, to)` pair in `text`, each of which must occur exactly once.
fn substitute(text: &str, pairs: &[(&str, &str)], what: &str) -> String {
    let mut out = text.to_string();
    for (from, to) in pairs {
        if out.matches(from).count() != 1 {
            fail(&format!(
                "{what}: the zlib-ng source no longer reads {from:?}"
            ));
        }
        out = out.replacen(from, to, 1);
    }
    out
}

/// Copies the sources compiled (zlib-compatible core, generic and x86 code; no gz* file API,
/// no infback) from `source` into `tree`, writes the configured headers and applies
/// [`DEFLATE_MEDIUM_FIX`].
fn prepare(source: &Path, tree: &Path) {
    if tree.exists() {
        fs::remove_dir_all(tree).unwrap_or_else(|e| fail(&format!("{}: {e}", tree.display())));
    }
    for sub in ["", "arch/generic", "arch/x86"] {
        let (from, to) = (source.join(sub), tree.join(sub));
        fs::create_dir_all(&to).unwrap_or_else(|e| fail(&format!("{}: {e}", to.display())));
        let entries = fs::read_dir(&from).unwrap_or_else(|e| fail(&format!("{sub}: {e}")));
        for entry in entries {
            let path = entry.unwrap_or_else(|e| fail(&e.to_string())).path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let wanted = name.ends_with(".c") || name.ends_with(".h");
            if wanted && !name.starts_with("gz") && name != "infback.c" {
                fs::copy(&path, to.join(name))
                    .unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())));
            }
        }
    }
    let configure = |name: &str, pairs: &[(&str, &str)]| {
        let text = read(&source.join(format!("{name}.in"))).unwrap_or_else(|e| fail(&e));
        write(&tree.join(name), &substitute(&text, pairs, name));
    };
    configure(
        "zconf.h",
        &[(
            "#ifdef HAVE_UNISTD_H    /* may be set to #if 1 by configure/cmake/etc */",
            "#if 1    /* was set to #if 1 by configure/cmake/etc */",
        )],
    );
    for header in ["zlib.h", "zlib_name_mangling.h"] {
        let text = read(&source.join(format!("{header}.in"))).unwrap_or_else(|e| fail(&e));
        if !text.contains("@ZLIB_SYMBOL_PREFIX@") {
            fail(&format!("{header}.in has no @ZLIB_SYMBOL_PREFIX@"));
        }
        write(
            &tree.join(header),
            &text.replace("@ZLIB_SYMBOL_PREFIX@", PREFIX),
        );
    }
    let medium = tree.join("deflate_medium.c");
    let text = read(&medium).unwrap_or_else(|e| fail(&e));
    write(
        &medium,
        &substitute(&text, &DEFLATE_MEDIUM_FIX, "deflate_medium.c"),
    );
}

/// A compiler set up with zlib-ng's include path and configuration.
fn zng_build(tree: &Path, x86: bool) -> cc::Build {
    let mut b = cc::Build::new();
    b.include(tree)
        .std("c11")
        // -O2 left levels 7-9 (deflate_slow) 10-18% slower than the reference's build on
        // shuffled ramps; -O3 matches it, other levels and inflate unchanged (measured).
        .opt_level(3)
        // Every function on a cache line of its own: otherwise where the Rust code before it
        // ends decides how zlib-ng's loops straddle cache lines, and a change of that code
        // alone made levels 7-9 10-15% slower (measured; back with this flag).
        .flag_if_supported("-falign-functions=64")
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

fn paths(dir: &Path, files: &[&str]) -> Vec<PathBuf> {
    files.iter().map(|f| dir.join(f)).collect()
}

/// Compiles the prepared `tree` into `liboxzng.a` and links it.
fn compile(tree: &Path) {
    let x86 = env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");
    let mut objects = Vec::new();
    let mut generic = paths(tree, CORE);
    if x86 {
        let arch = tree.join("arch/x86");
        for (files, flag_sets) in X86_KERNELS {
            let mut b = zng_build(tree, true);
            for flag in flag_sets.iter().copied().flatten() {
                b.flag(flag);
            }
            objects.extend(b.files(paths(&arch, files)).compile_intermediates());
        }
    } else {
        generic.extend(paths(tree, FALLBACKS));
    }
    objects.extend(zng_build(tree, x86).files(generic).compile_intermediates());
    cc::Build::new().objects(objects).compile("oxzng");
}
