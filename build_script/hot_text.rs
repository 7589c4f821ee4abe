//! Groups the code that every compression and decompression runs (the chunk engine, the
//! built-in filters, BloscLZ, contexts, super-chunk appends and reads, their C entry points,
//! and what the library's start runs) in one output section at the front of the shared
//! library's text, so that it fills a few pages instead of touching pages spread over the
//! whole 2.8 MiB text: a program using the library then holds fewer pages of it in memory
//! (peak RSS of `ctest/bench/rss.c`).
//!
//! A linker script with an `INSERT` command only adds that section to the linker's default
//! layout; GNU ld and LLD both take it. It selects functions by the start of their section
//! name (`.text.` and the legacy-mangled path, which has no hash there, or the C name), so it
//! needs no list of exact symbols. A function it does not match stays where the linker puts
//! it, so the globs below affect layout only, never behaviour.

use std::env;
use std::fs;
use std::path::PathBuf;

/// Rust paths (modules, types, functions of this crate and of its dependencies) whose
/// functions go to the hot section: each covers the functions under it, the methods of trait
/// implementations on types under it, and their cold parts, as legacy mangling names them.
const HOT_PATHS: &[&str] = &[
    "blosc2::chunk::compress",
    "blosc2::chunk::decompress",
    "blosc2::chunk::pipeline",
    "blosc2::chunk::streams",
    "blosc2::chunk::stune",
    "blosc2::chunk::header",
    "blosc2::chunk::scratch",
    "blosc2::chunk::parallel",
    "blosc2::chunk::bulk",
    "blosc2::chunk::special",
    "blosc2::chunk::deferred_delta",
    "blosc2::context",
    "blosc2::threads",
    "blosc2::global",
    "blosc2::filters::shuffle",
    "blosc2::filters::bitshuffle",
    "blosc2::filters::delta",
    "blosc2::filters::cpu",
    "blosc2::filters::uniform",
    "blosc2::codecs::blosclz",
    "blosc2::registry",
    "blosc2::schunk::SuperChunk",
    "blosc2::schunk::chunks",
    "blosc2::schunk::compress",
    "blosc2::schunk::stamp",
    "blosc2::schunk::meta",
    "blosc2::schunk::outbuf",
    "blosc2::io::registry",
    "blosc2::capi::io",
    "blosc2::capi::schunk",
    "blosc2::capi::context",
    "blosc2::capi::tuners",
    "blosc2::capi::hooks",
    "alloc::raw_vec",
    "alloc::sync",
    "alloc::vec",
    "core::ops::function",
    "memmap2",
    "rayon_core",
    "crossbeam_deque",
    "crossbeam_epoch",
    "crossbeam_utils",
    "std_detect",
    "std::sync",
    "std::sys::backtrace",
    "std::sys::thread_local",
    "std::thread",
];

/// Section-name globs (after `.text.`) for the rest: drop glue of those types, the C entry
/// points those run behind, and the standard library's functions they call (the standard
/// library is built with v0 mangling, which puts crate hashes inside the names).
const HOT_GLOBS: &[&str] = &[
    "_ZN4core3ptr*drop_in_place$LT$blosc2..chunk",
    "_ZN4core3ptr*drop_in_place$LT$blosc2..context",
    "_ZN4core3ptr*drop_in_place$LT$blosc2..capi",
    "_ZN4core3ptr*drop_in_place$LT$blosc2..schunk",
    "_ZN4core3ptr*drop_in_place$LT$blosc2..registry",
    "_ZN4core3ptr*drop_in_place$LT$$u5b$core..option..Option$LT$alloc..sync..Arc$LT$blosc2",
    "_ZN4core3ptr*drop_in_place$LT$rayon_core",
    "_ZN4core3ptr*drop_in_place$LT$std..thread",
    "_ZN4core3ptr*drop_in_place$LT$std..sync..once_lock..OnceLock$LT$rayon_core",
    "_R*3std3sys12thread_local*",
    "blosc2_init",
    "blosc2_destroy",
    "blosc2_compress",
    "blosc2_decompress",
    "blosc2_create_",
    "blosc2_free_ctx",
    "blosc2_get_io_cb",
    "blosc2_stdio_",
    "blosc2_schunk_append_buffer",
    "blosc2_schunk_decompress_chunk",
    "blosc2_schunk_new",
    "blosc2_schunk_free",
    "_R*7___rustc",
    "_R*5alloc7raw_vec*",
    "_R*4core3ffi5c_str*from_bytes_with_nul",
    "_R*4core3fmt*",
    "_R*3std4time*Instant3now",
    "_R*3std3sys3pal4unix4time*",
    "_R*3std3sys4sync*",
    "_R*3std4sync*",
    "_R*3std6thread*",
    "_R*3std3sys3pal4unix6thread*",
    "_R*3std3sys6thread*",
    "_R*3std3env7__var_os",
    "_R*3std3sys3env4unix6getenv*",
    "_R*4core3ptr*drop_in_place*",
    "_R*5xsave7__xgetbv",
];

/// Writes the linker script into `OUT_DIR` and passes it to the link of the shared library
/// (ELF targets only).
pub fn build() {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if !matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd"
    ) {
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let script = out.join("hot_text.ld");
    fs::write(&script, linker_script()).expect("write the hot-text linker script");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,-T,{}",
        script.to_str().expect("OUT_DIR is UTF-8")
    );
    println!("cargo:rerun-if-changed=build_script/hot_text.rs");
}

/// A Rust path as it starts a legacy-mangled name (`a::bc` is `_ZN1a2bc`) and as it appears
/// inside the name of a trait implementation's method (`_$LT$a..bc`).
fn mangled(path: &str) -> [String; 2] {
    let segments: Vec<&str> = path.split("::").collect();
    let lengths: String = segments.iter().map(|s| format!("{}{s}", s.len())).collect();
    [
        format!("_ZN{lengths}"),
        format!("_ZN*_$LT${}", segments.join("..")),
    ]
}

fn linker_script() -> String {
    let names = HOT_PATHS
        .iter()
        .flat_map(|p| mangled(p))
        .chain(HOT_GLOBS.iter().map(|g| g.to_string()));
    let patterns: Vec<String> = names
        .flat_map(|n| [format!(".text.{n}*"), format!(".text.unlikely.{n}*")])
        .collect();
    format!(
        "SECTIONS\n{{\n  .text.hot : {{ *({}) }}\n}}\nINSERT BEFORE .text;\n",
        patterns.join(" ")
    )
}
