//! Gives the shared library the SONAME of the reference, `libblosc2.so.9`, compiles
//! zlib-ng 2.3.3 from the `libz-sys` crate's source (see `build_script/zlib_ng.rs`) and zfp
//! 1.0.1 from the `zfp-sys` crate's source (see `build_script/zfp.rs`), and liblz4 from the
//! `lz4-sys` crate's source (see `build_script/lz4.rs`).

use std::env;

#[path = "build_script/hot_text.rs"]
mod hot_text;
#[path = "build_script/lz4.rs"]
mod lz4;
#[path = "build_script/registry.rs"]
mod registry;
#[path = "build_script/zfp.rs"]
mod zfp;
#[path = "build_script/zlib_ng.rs"]
mod zlib_ng;

fn main() {
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libblosc2.so.9");
    }
    zlib_ng::build();
    lz4::build();
    zfp::build();
    hot_text::build();
    println!("cargo:rerun-if-changed=build.rs");
}
