//! LZ4HC (`lz4hc.c` of liblz4 1.10.0, the version the reference bundles) compiled again
//! from the `lz4-sys` crate's source at `-O2`, with every function it defines renamed
//! `oxlz4_*`: GCC 12 makes its match finder 10-15% faster at `-O2` than at the `-O3`
//! `lz4-sys` uses (the same bytes come out). The rest of liblz4 is `lz4-sys`'s own build.

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use super::registry;

/// The crate carrying the source, and its exact version.
const CARRIER: &str = "lz4-sys";
const CARRIER_VERSION: &str = "1.11.1+lz4-1.10.0";
/// Prefix of the functions of our copy.
const PREFIX: &str = "oxlz4_";

/// Compiles `lz4hc.c` into `liboxlz4hc.a` and links it.
pub fn build() {
    let lib = locate();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let header = out.join("oxlz4hc_prefix.h");
    fs::write(&header, prefix_header(&lib)).expect("write the lz4hc prefix header");
    cc::Build::new()
        .file(lib.join("lz4hc.c"))
        .include(&lib)
        .flag("-include")
        .flag(header.to_str().expect("OUT_DIR is UTF-8"))
        .opt_level(2)
        // Functions and loops on cache lines of their own: their layout then no longer depends
        // on the size of the code linked before them (one change of the Rust code alone moved
        // lz4hc/dlt+shuf/i32-ramp/L9 from 0.86x the reference to 1.03x; with these 1.00-1.02).
        .flag_if_supported("-falign-functions=64")
        .flag_if_supported("-falign-loops=64")
        .warnings(false)
        .compile("oxlz4hc");
}

/// The `lib` directory of liblz4 inside `lz4-sys`.
fn locate() -> PathBuf {
    let mut tried = Vec::new();
    let candidates = match registry::crate_from_metadata(CARRIER, CARRIER_VERSION) {
        Ok(dir) => vec![dir],
        Err(why) => {
            tried.push(format!("`cargo metadata`: {why}"));
            registry::sibling_crates(CARRIER, CARRIER_VERSION)
        }
    };
    for dir in candidates {
        let lib = dir.join("liblz4").join("lib");
        if lib.join("lz4hc.c").is_file() {
            return lib;
        }
        tried.push(format!("{}: no lz4hc.c", lib.display()));
    }
    panic!(
        "\n\nblosc2-oxide build: no liblz4 source found in the {CARRIER} {CARRIER_VERSION} \
         crate.\nTried:\n  - {}\n\n",
        tried.join("\n  - ")
    )
}

/// Function names declared in the header `path`.
fn functions(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).expect("read a liblz4 header");
    let mut names = BTreeSet::new();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("LZ4_") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let end = text[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(text.len(), |n| at + n);
        let name = &text[at..end];
        let called = text[end..].trim_start().starts_with('(');
        if called && name.chars().any(|c| c.is_ascii_lowercase()) {
            names.insert(name.to_string());
        }
    }
    names
}

/// `#define`s renaming the functions `lz4hc.c` defines (those of `lz4hc.h`, not of `lz4.h`).
fn prefix_header(lib: &Path) -> String {
    let base = functions(&lib.join("lz4.h"));
    functions(&lib.join("lz4hc.h"))
        .difference(&base)
        .map(|n| format!("#define {n} {PREFIX}{n}\n"))
        .collect()
}
