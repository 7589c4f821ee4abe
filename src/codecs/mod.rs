//! The built-in codecs: BloscLZ (pure Rust), LZ4/LZ4HC, Zstd and zlib (bundled C libraries).

pub mod blosclz;
