//! Names and library information of the codecs known to the library, and the tables of
//! codecs, filters and tuners registered at run time ([`plugins`]), with the N-dimensional
//! plugins the library registers at init (NDLZ, ZFP, NDCELL, NDMEAN).

mod ndplugins;
pub mod plugins;

use crate::constants::{BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD};

/// Comma-separated list of the built-in compressors, as `blosc2_list_compressors` gives it.
pub const COMPRESSOR_LIST: &str = "blosclz,lz4,lz4hc,zlib,zstd";

/// Name of a built-in codec code (`BLOSC_BLOSCLZ` ...), if it is one.
pub fn codec_name(compcode: i32) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|c| i32::from(c.code) == compcode)
        .map(|c| c.name)
}

/// Code of a built-in codec name (case-sensitive), if it is one.
pub fn codec_code(name: &str) -> Option<u8> {
    BUILTIN.iter().find(|c| c.name == name).map(|c| c.code)
}

/// Code of a codec registered at run time (a plugin installed by init or a user codec).
pub fn registered_codec_code(name: &str) -> Option<u8> {
    plugins::codec_named(name).map(|c| c.code)
}

/// Name of a codec registered at run time.
pub fn registered_codec_name(code: i32) -> Option<String> {
    plugins::codec_entry(u8::try_from(code).ok()?).map(|c| c.name.clone())
}

/// The plugin codecs the library registers at init (`ndlz` is 32 ... `htj2k` is 40).
fn plugin_codecs() -> impl Iterator<Item = (u8, &'static str)> {
    PLUGIN_CODECS
        .iter()
        .enumerate()
        .map(|(i, &n)| (PLUGIN_CODECS_START + i as u8, n))
}

const PLUGIN_CODECS_START: u8 = 32;

const PLUGIN_CODECS: [&str; 9] = [
    "ndlz",
    "zfp_acc",
    "zfp_prec",
    "zfp_rate",
    "openhtj2k",
    "grok",
    "openzl",
    "j2k",
    "htj2k",
];

/// Library information for a codec name: (library code, library name, library version).
pub fn complib_info(name: &str) -> Option<(i32, &'static str, &'static str)> {
    BUILTIN
        .iter()
        .find(|c| c.name == name)
        .map(|c| (c.lib_code, c.lib_name, c.lib_version))
}

/// Library name for a codec format number stored in header flag bits 5-7.
pub fn complib_name_of_format(format: u8) -> Option<&'static str> {
    match format {
        0 => Some("BloscLZ"),
        1 => Some("LZ4"),
        3 => Some("Zlib"),
        4 => Some("Zstd"),
        _ => None,
    }
}

/// Version of BloscLZ as the reference reports it.
pub const BLOSCLZ_VERSION: &str = "2.5.3";
/// Version of the bundled LZ4.
pub const LZ4_VERSION: &str = "1.10.0";
/// Version of the bundled zlib-ng.
pub const ZLIB_NG_VERSION: &str = "2.3.3";
/// Version of the bundled Zstd.
pub const ZSTD_VERSION: &str = "1.5.7";

struct Builtin {
    code: u8,
    name: &'static str,
    lib_code: i32,
    lib_name: &'static str,
    lib_version: &'static str,
}

const BUILTIN: [Builtin; 5] = [
    Builtin {
        code: BLOSCLZ,
        name: "blosclz",
        lib_code: 0,
        lib_name: "BloscLZ",
        lib_version: BLOSCLZ_VERSION,
    },
    Builtin {
        code: LZ4,
        name: "lz4",
        lib_code: 1,
        lib_name: "LZ4",
        lib_version: LZ4_VERSION,
    },
    Builtin {
        code: LZ4HC,
        name: "lz4hc",
        lib_code: 1,
        lib_name: "LZ4",
        lib_version: LZ4_VERSION,
    },
    Builtin {
        code: ZLIB,
        name: "zlib",
        lib_code: 3,
        lib_name: "Zlib",
        lib_version: ZLIB_NG_VERSION,
    },
    Builtin {
        code: ZSTD,
        name: "zstd",
        lib_code: 4,
        lib_name: "Zstd",
        lib_version: ZSTD_VERSION,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_match_the_reference_table() {
        assert_eq!(codec_code("blosclz"), Some(0));
        assert_eq!(codec_code("lz4hc"), Some(2));
        assert_eq!(codec_code("zlib"), Some(4));
        assert_eq!(codec_code("LZ4"), None);
        assert_eq!(codec_name(3), None);
        assert_eq!(codec_name(5), Some("zstd"));
        assert_eq!(complib_info("lz4hc"), Some((1, "LZ4", "1.10.0")));
        assert_eq!(complib_info("bogus"), None);
    }
}
