//! Tests of the super-chunk core, incl. reading the shared corpus frames.

use std::path::Path;

use super::*;

fn corpus() -> Option<&'static Path> {
    let p = Path::new("/work/shared/corpus");
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIPPED: corpus not found at {}", p.display());
        None
    }
}

#[test]
fn opens_corpus_frame_f01() {
    let Some(root) = corpus() else { return };
    crate::global::init();
    let sc = SuperChunk::open(
        &root.join("frames/f01_zstd_i4_meta_vlmeta.b2frame"),
        0,
        None,
    );
    let sc = sc.expect("open");
    assert_eq!(sc.typesize(), 4);
}

#[test]
fn opens_every_corpus_frame() {
    let Some(root) = corpus() else { return };
    crate::global::init();
    for dir in ["frames", "sframes"] {
        for e in std::fs::read_dir(root.join(dir)).expect("dir") {
            let p = e.expect("entry").path();
            let r = SuperChunk::open(&p, 0, None);
            assert!(r.is_ok(), "{}: {:?}", p.display(), r.err());
        }
    }
}
