//! liblz4 1.10.0 (the version the reference bundles) compiled from the `lz4-sys` crate's
//! source with flags of our own, every function it defines renamed `oxlz4_*` so that
//! nothing meets `lz4-sys`'s own build of it (which nothing here calls): `lz4.c` at `-O3`
//! with loops unrolled, as GCC 14 (the reference's compiler) unrolls the pattern-filling
//! loop of short-offset matches and GCC 12 does not without being asked (decoding shuffled
//! ramps 15-20% faster); `lz4hc.c` at `-O2`, which makes GCC 12's match finder 10-15%
//! faster than at `-O3`. The same bytes come out.

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

/// Compiles `lz4hc.c` and `lz4.c` into `liboxlz4hc.a` and `liboxlz4.a` and links them.
pub fn build() {
    let lib = locate();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let header = out.join("oxlz4_prefix.h");
    fs::write(&header, prefix_header(&lib)).expect("write the lz4 prefix header");
    let header = header.to_str().expect("OUT_DIR is UTF-8");
    // LZ4HC first: it calls into LZ4, which a linker that reads archives once in order
    // must meet after it.
    unit(&lib, header, "lz4hc.c")
        .opt_level(2)
        // Functions and loops on cache lines of their own: their layout then no longer depends
        // on the size of the code linked before them (one change of the Rust code alone moved
        // lz4hc/dlt+shuf/i32-ramp/L9 from 0.86x the reference to 1.03x; with these 1.00-1.02).
        .flag_if_supported("-falign-functions=64")
        .flag_if_supported("-falign-loops=64")
        .compile("oxlz4hc");
    unit(&lib, header, "lz4.c")
        .opt_level(3)
        .flag_if_supported("-funroll-loops")
        .compile("oxlz4");
}

/// A build of liblz4's `file` with every function renamed by the prefix `header`.
fn unit(lib: &Path, header: &str, file: &str) -> cc::Build {
    let mut b = cc::Build::new();
    b.file(lib.join(file))
        .include(lib)
        .flag("-include")
        .flag(header)
        .warnings(false);
    b
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

/// Functions defined or declared at the top level of the C file `path`: on a line that
/// starts with a type (not a `typedef`), an `LZ4` name after a space or `*` and before an
/// opening parenthesis, with no parenthesis, `=`, `#` or `/` before it.
fn top_level(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).expect("read a liblz4 source file");
    let mut names = BTreeSet::new();
    for line in text.lines() {
        if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || line.starts_with("typedef")
        {
            continue;
        }
        for (at, _) in line.match_indices("LZ4") {
            let before = &line[..at];
            if before.contains(['(', '=', '#', '/']) {
                break;
            }
            let end = line[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(line.len(), |n| at + n);
            if before.ends_with([' ', '*']) && line[end..].trim_start().starts_with('(') {
                names.insert(line[at..end].to_string());
            }
        }
    }
    names
}

/// `#define`s renaming every function of liblz4: those its headers declare and those its
/// sources define outside them (internal ones shared between its files, static ones).
fn prefix_header(lib: &Path) -> String {
    let mut names = functions(&lib.join("lz4.h"));
    names.extend(functions(&lib.join("lz4hc.h")));
    names.extend(top_level(&lib.join("lz4.c")));
    names.extend(top_level(&lib.join("lz4hc.c")));
    names
        .iter()
        .filter(|n| n.chars().any(|c| c.is_ascii_lowercase()))
        .map(|n| format!("#define {n} {PREFIX}{n}\n"))
        .collect()
}
