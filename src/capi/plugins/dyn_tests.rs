//! Dynamic plugins: a tiny codec and filter built here as shared libraries, found through
//! Python packages `blosc2_tinyrle` / `blosc2_tinyxor` in a temporary directory on
//! `PYTHONPATH` (as the reference finds installed plugin wheels), registered by name without
//! functions in both libraries. Data round-trips through ours, the reference reads what ours
//! wrote, and plugins that cannot be found give the reference's errors.

use std::ffi::{c_int, c_void};
use std::path::Path;
use std::process::Command;

use crate::capi::context::{
    blosc2_compress_ctx, blosc2_create_cctx, blosc2_create_dctx, blosc2_decompress_ctx,
    blosc2_free_ctx,
};
use crate::capi::plugins::{blosc2_register_codec, blosc2_register_filter};
use crate::capi::types::{blosc2_codec, blosc2_cparams, blosc2_dparams, blosc2_filter};
use crate::testref;

/// Builds the plugin library `lib` (codec, or filter with `-DTINY_FILTER`) and its Python
/// package `pkg` under `dir`.
fn make_plugin(dir: &Path, pkg: &str, lib: &str, filter: bool) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("ctest/plugins/tinyplug.c");
    let so = dir.join(lib);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let mut cmd = Command::new(cc);
    cmd.args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&so)
        .arg(&src);
    if filter {
        cmd.arg("-DTINY_FILTER");
    }
    assert!(
        cmd.status().expect("run the C compiler").success(),
        "building {lib}"
    );
    let pdir = dir.join(pkg);
    std::fs::create_dir_all(&pdir).expect("package dir");
    let init = format!(
        "def print_libpath():\n    print({:?}, end='')\n",
        so.to_str().expect("path")
    );
    std::fs::write(pdir.join("__init__.py"), init).expect("__init__.py");
}

type CreateC = unsafe extern "C" fn(blosc2_cparams) -> *mut c_void;
type CreateD = unsafe extern "C" fn(blosc2_dparams) -> *mut c_void;
type Code = unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> c_int;

#[test]
fn plugins_registered_by_name_load_from_python_packages() {
    let Some(lib) = testref::library() else {
        return;
    };
    let tmp = testref::TempPath::new("dynplugins");
    let dir = tmp.path();
    std::fs::create_dir_all(dir).expect("temp dir");
    make_plugin(dir, "blosc2_tinyrle", "libtinyrle.so", false);
    make_plugin(dir, "blosc2_tinyxor", "libtinyxor.so", true);
    let old = std::env::var("PYTHONPATH").unwrap_or_default();
    std::env::set_var("PYTHONPATH", format!("{}:{old}", dir.display()));
    crate::global::init();
    let mut codec = blosc2_codec {
        compcode: 250,
        compname: c"tinyrle".as_ptr().cast_mut(),
        complib: 250,
        version: 1,
        encoder: None,
        decoder: None,
    };
    let mut filter = blosc2_filter {
        id: 251,
        name: c"tinyxor".as_ptr().cast_mut(),
        version: 1,
        forward: None,
        backward: None,
    };
    // SAFETY: valid structs with static names; the reference's entry points have the C
    // signatures declared here.
    unsafe {
        assert_eq!(blosc2_register_codec(&mut codec), 0);
        assert_eq!(blosc2_register_filter(&mut filter), 0);
        let reg_c: unsafe extern "C" fn(*mut blosc2_codec) -> c_int =
            lib.sym("blosc2_register_codec");
        let reg_f: unsafe extern "C" fn(*mut blosc2_filter) -> c_int =
            lib.sym("blosc2_register_filter");
        assert_eq!(reg_c(&mut codec), 0);
        assert_eq!(reg_f(&mut filter), 0);
    }
    let data: Vec<u8> = (0..40000u32).map(|i| (i / 97) as u8).collect();
    let mut cp = blosc2_cparams::DEFAULTS;
    cp.compcode = 250;
    cp.typesize = 1;
    cp.nthreads = 1;
    cp.filters = [0, 0, 0, 0, 251, 0];
    let dp = blosc2_dparams::DEFAULTS;
    let mut ours = vec![0u8; data.len() + 1024];
    let mut back = vec![0u8; data.len()];
    // SAFETY: contexts created and freed here, buffers valid for the sizes given.
    unsafe {
        let c = blosc2_create_cctx(cp);
        let n = blosc2_compress_ctx(
            c,
            data.as_ptr().cast(),
            data.len() as i32,
            ours.as_mut_ptr().cast(),
            ours.len() as i32,
        );
        blosc2_free_ctx(c);
        assert!(
            n > 0 && (n as usize) < data.len() / 10,
            "ours compressed to {n}"
        );
        ours.truncate(n as usize);
        let d = blosc2_create_dctx(dp);
        let m = blosc2_decompress_ctx(
            d,
            ours.as_ptr().cast(),
            n,
            back.as_mut_ptr().cast(),
            back.len() as i32,
        );
        blosc2_free_ctx(d);
        assert_eq!(m as usize, data.len());
        assert_eq!(back, data, "round trip through ours");
        // The reference reads what ours wrote and writes the same chunk.
        let create_c: CreateC = lib.sym("blosc2_create_cctx");
        let create_d: CreateD = lib.sym("blosc2_create_dctx");
        let compress: Code = lib.sym("blosc2_compress_ctx");
        let decompress: Code = lib.sym("blosc2_decompress_ctx");
        let free: unsafe extern "C" fn(*mut c_void) = lib.sym("blosc2_free_ctx");
        let d = create_d(dp);
        back.fill(0);
        let m = decompress(
            d,
            ours.as_ptr().cast(),
            n,
            back.as_mut_ptr().cast(),
            back.len() as i32,
        );
        free(d);
        assert_eq!(m as usize, data.len());
        assert_eq!(back, data, "reference decoding ours");
        let c = create_c(cp);
        let mut theirs = vec![0u8; data.len() + 1024];
        let r = compress(
            c,
            data.as_ptr().cast(),
            data.len() as i32,
            theirs.as_mut_ptr().cast(),
            theirs.len() as i32,
        );
        free(c);
        assert_eq!(
            &theirs[..r.max(0) as usize],
            &ours[..],
            "same chunk as the reference"
        );
    }
    // Plugins that cannot be found: the reference's codes (-7 for codecs, -18 for filters).
    let mut missing = blosc2_codec {
        compcode: 252,
        compname: c"absentplug".as_ptr().cast_mut(),
        ..codec
    };
    let mut missing_f = blosc2_filter {
        id: 253,
        name: c"absentfilt".as_ptr().cast_mut(),
        ..filter
    };
    // SAFETY: as above.
    unsafe {
        assert_eq!(blosc2_register_codec(&mut missing), 0);
        assert_eq!(blosc2_register_filter(&mut missing_f), 0);
        for (code, filters, want) in [
            (252u8, [0u8; 6], -7),
            (37, [0; 6], -7),
            (5, [253, 0, 0, 0, 0, 0], -18),
        ] {
            let mut cp = cp;
            cp.compcode = code;
            cp.filters = filters;
            let c = blosc2_create_cctx(cp);
            let mut out = vec![0u8; data.len() + 1024];
            let n = blosc2_compress_ctx(
                c,
                data.as_ptr().cast(),
                data.len() as i32,
                out.as_mut_ptr().cast(),
                out.len() as i32,
            );
            blosc2_free_ctx(c);
            assert_eq!(n, want, "codec {code} filters {filters:?}");
        }
    }
}
