//! The built-in codecs: BloscLZ (pure Rust), LZ4/LZ4HC, Zstd and zlib (bundled C libraries),
//! and the plugin codecs NDLZ (pure Rust) and ZFP (bundled zfp 1.0.1).

pub mod blosclz;
pub mod lz4;
pub mod ndlz;
pub mod zfp;
pub mod zlib;
pub mod zstd;
