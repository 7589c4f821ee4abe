//! Gives the shared library the SONAME of the reference, `libblosc2.so.9`, and compiles
//! zlib-ng 2.3.3 from the `libz-sys` crate's source (see `build_script/zlib_ng.rs`).

use std::env;

#[path = "build_script/zlib_ng.rs"]
mod zlib_ng;

fn main() {
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libblosc2.so.9");
    }
    zlib_ng::build();
    println!("cargo:rerun-if-changed=build.rs");
}
