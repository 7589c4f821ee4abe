//! Gives the shared library the SONAME of the reference, `libblosc2.so.9`.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libblosc2.so.9");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
