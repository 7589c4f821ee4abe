//! Replays the inputs kept in `fuzz/regressions/<target>/` (minimised fuzz findings, and
//! crafted inputs of bugs found otherwise) through the bodies of the fuzz targets, which
//! panic on a crash-class bug and, for the differential targets, on any disagreement with
//! the reference c-blosc2. A file in a directory no target is named after fails the test.
//!
//! The differential targets need the reference library (see `tools/fetch-reference.sh`);
//! `BLOSC2_SKIP_REFERENCE=1` skips them, saying so.

#[path = "../fuzz/fuzz_targets/common/mod.rs"]
mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// The fewest regression inputs kept today; raise it when adding some.
const MIN_INPUTS: usize = 108;

#[test]
fn fuzz_regressions_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let skip_reference =
        std::env::var_os("BLOSC2_SKIP_REFERENCE").is_some_and(|v| !v.is_empty() && v != "0");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fuzz/regressions")
        .map(|e| e.expect("directory entry").path())
        .collect();
    dirs.sort();
    let (mut replayed, mut failed) = (0usize, Vec::new());
    for dir in dirs {
        let target = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 name");
        if skip_reference && target.starts_with("differential") {
            eprintln!("BLOSC2_SKIP_REFERENCE: fuzz/regressions/{target} not replayed");
            continue;
        }
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("regression directory")
            .map(|e| e.expect("directory entry").path())
            .collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("regression input");
            let name = format!("{target}/{}", file.file_name().unwrap().to_string_lossy());
            match catch_unwind(AssertUnwindSafe(|| common::run(target, &data))) {
                Ok(true) => replayed += 1,
                Ok(false) => failed.push(format!("{name}: no fuzz target is named {target}")),
                Err(_) => failed.push(format!("{name}: panicked (see above)")),
            }
        }
    }
    assert!(
        failed.is_empty(),
        "regressions failed:\n{}",
        failed.join("\n")
    );
    assert!(
        replayed >= MIN_INPUTS || skip_reference,
        "only {replayed} regression inputs replayed, at least {MIN_INPUTS} expected"
    );
}
