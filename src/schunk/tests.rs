//! Tests of the super-chunk core, incl. reading the shared corpus frames.

use std::path::Path;

use super::*;

fn corpus() -> Option<std::path::PathBuf> {
    crate::testref::corpus()
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

use crate::context::{CParams, Context, DParams};
use crate::special::Special;

fn cparams(typesize: i32) -> CParams {
    CParams {
        typesize,
        clevel: 5,
        nthreads: 1,
        ..CParams::default()
    }
}

fn data(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32)
        .flat_map(|i| (i.wrapping_mul(seed) / 7).to_le_bytes())
        .collect()
}

fn storage(contiguous: bool, urlpath: Option<&Path>) -> Storage {
    crate::global::init();
    Storage {
        contiguous,
        urlpath: urlpath.map(Path::to_path_buf),
        cparams: cparams(4),
        dparams: DParams::default(),
        ..Storage::default()
    }
}

fn decompressed(sc: &mut SuperChunk, n: i64) -> Vec<u8> {
    let nb = crate::chunk::Header::parse(&sc.chunk(n).expect("chunk"))
        .expect("header")
        .nbytes as usize;
    let mut out = vec![0u8; nb];
    assert_eq!(sc.decompress_chunk(n, &mut out).expect("decompress"), nb);
    out
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("b2oxide-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_file(&d);
    d
}

/// Appends, inserts, updates, deletes and reorders on one storage kind and checks every
/// chunk against the plain data, then (for persistent kinds) reopens and checks again.
fn exercise(st: Storage) {
    let path = st.urlpath.clone();
    let mut sc = SuperChunk::new(st).expect("new");
    sc.meta_add("dims", b"\x92\x01\x02").expect("meta");
    let mut want: Vec<Vec<u8>> = (0..5).map(|i| data(1000, 17 + i)).collect();
    for d in &want {
        sc.append_buffer(d).expect("append");
    }
    assert_eq!(sc.nchunks(), 5);
    assert_eq!(sc.chunksize(), 4000);
    let extra = data(1000, 99);
    let mut ctx = Context::compressor(cparams(4));
    let mut c = vec![0u8; 4000 + 32];
    let n = ctx.compress(&extra, &mut c).expect("compress");
    c.truncate(n);
    sc.insert_chunk(2, &c).expect("insert");
    want.insert(2, extra.clone());
    sc.update_chunk(0, &c).expect("update");
    want[0] = extra;
    sc.delete_chunk(4).expect("delete");
    want.remove(4);
    sc.reorder(&[4, 3, 2, 1, 0]).expect("reorder");
    want.reverse();
    sc.vlmeta_add("info", b"some variable-length metadata", None)
        .expect("vlmeta");
    for (i, w) in want.iter().enumerate() {
        assert_eq!(&decompressed(&mut sc, i as i64), w, "chunk {i}");
    }
    assert_eq!(sc.nbytes(), 5 * 4000);
    let mut slice = vec![0u8; 8 * 4];
    sc.get_slice(998, 1006, &mut slice).expect("slice");
    assert_eq!(&slice[..8], &want[0][3992..]);
    assert_eq!(&slice[8..], &want[1][..24]);
    if let Some(p) = path {
        drop(sc);
        let mut re = SuperChunk::open(&p, 0, None).expect("reopen");
        assert_eq!(re.nchunks(), 5);
        assert_eq!(re.metalayers()[0].content, b"\x92\x01\x02");
        assert_eq!(
            re.vlmeta_get("info").expect("vlmeta").1,
            b"some variable-length metadata"
        );
        for (i, w) in want.iter().enumerate() {
            assert_eq!(&decompressed(&mut re, i as i64), w, "reopened chunk {i}");
        }
    } else if sc.has_frame() {
        let bytes = sc.to_cframe().expect("to_cframe");
        let mut re = SuperChunk::from_cframe(&bytes).expect("from_cframe");
        for (i, w) in want.iter().enumerate() {
            assert_eq!(&decompressed(&mut re, i as i64), w, "copied chunk {i}");
        }
    }
}

#[test]
fn memory_sparse_operations() {
    exercise(storage(false, None));
}

#[test]
fn memory_cframe_operations() {
    exercise(storage(true, None));
}

#[test]
fn file_cframe_operations() {
    let p = tmpdir("ops.b2frame");
    exercise(storage(true, Some(&p)));
    let _ = std::fs::remove_file(&p);
}

#[test]
fn sframe_operations() {
    let p = tmpdir("ops.b2frame.d");
    exercise(storage(false, Some(&p)));
    assert!(p.join("chunks.b2frame").is_file());
    let _ = std::fs::remove_dir_all(&p);
}

#[test]
fn fill_special_frames_store_index_entries_only() {
    let mut sc = SuperChunk::new(storage(true, None)).expect("new");
    assert_eq!(
        sc.fill_special(2500, Special::Zeros, 4000).expect("fill"),
        3
    );
    assert_eq!(sc.cbytes(), 0);
    assert_eq!(sc.nbytes(), 10000);
    let last = decompressed(&mut sc, 2);
    assert_eq!(last, vec![0u8; 2000]);
    assert_eq!(
        sc.fill_special(1, Special::Zeros, 4000),
        Err(crate::Error::FrameSpecial)
    );
}

#[test]
fn metalayers_only_before_first_chunk_in_frames() {
    let mut sc = SuperChunk::new(storage(true, None)).expect("new");
    sc.append_buffer(&data(10, 3)).expect("append");
    assert_eq!(sc.meta_add("late", b"x"), Err(crate::Error::InvalidParam));
    assert!(sc.metalayers().is_empty());
}

#[test]
fn chunksize_follows_the_reference_rules() {
    // Sequences of chunk sizes and the chunksize after each append, as the reference does.
    let cases: [(&[usize], &[i32]); 4] = [
        (&[8000, 8000, 16000], &[8000, 8000, 0]),
        (&[8000, 4000, 16000], &[8000, 8000, 0]),
        (&[8000, 4000, 4000], &[8000, 8000, 0]),
        (&[8000, 8000, 4000, 8000], &[8000, 8000, 8000, 0]),
    ];
    for contiguous in [false, true] {
        for (sizes, want) in cases {
            let mut sc = SuperChunk::new(storage(contiguous, None)).expect("new");
            for (&size, &w) in sizes.iter().zip(want) {
                sc.append_buffer(&data(size / 4, 3)).expect("append");
                assert_eq!(sc.chunksize(), w, "{sizes:?}");
            }
        }
    }
    let mut sc = SuperChunk::new(storage(true, None)).expect("new");
    sc.append_buffer(&data(100, 3)).expect("append");
    sc.append_buffer(&data(50, 3)).expect("short");
    sc.append_buffer(&data(100, 5)).expect("after short");
    let bytes = sc.to_cframe().expect("cframe");
    let h = crate::frame::FrameHeader::parse(&bytes[..bytes[14] as usize]).expect("header");
    assert!(h.variable_chunks);
    assert_eq!(h.version, 3);
}

#[test]
fn interrupted_append_leaves_old_frame_readable() {
    let p = tmpdir("crash.b2frame");
    let mut sc = SuperChunk::new(storage(true, Some(&p))).expect("new");
    for i in 0..3 {
        sc.append_buffer(&data(500, 7 + i)).expect("append");
    }
    let before = std::fs::read(&p).expect("read");
    // Store a chunk without committing (what an interrupted append leaves behind).
    let chunk = sc.chunk(0).expect("chunk").into_owned();
    if let Store::Frame(f, _) = &mut sc.store {
        f.store_chunk(&chunk).expect("store");
    }
    drop(sc);
    let undo = crate::frame::undo::undo_path(&p);
    assert!(undo.exists(), "the undo record stays behind");
    assert_ne!(std::fs::read(&p).expect("read"), before);
    let mut re = SuperChunk::open(&p, 0, None).expect("old state opens");
    assert_eq!(
        std::fs::read(&p).expect("read"),
        before,
        "old bytes restored"
    );
    assert!(!undo.exists(), "the applied record is removed");
    assert_eq!(re.nchunks(), 3);
    assert_eq!(decompressed(&mut re, 2), data(500, 9));
    let _ = std::fs::remove_file(&p);
}

#[test]
fn frames_at_offsets_and_append_file() {
    let p = tmpdir("multi.b2frame");
    let mut a = SuperChunk::new(storage(true, None)).expect("a");
    a.append_buffer(&data(300, 11)).expect("append");
    let mut b = SuperChunk::new(storage(false, None)).expect("b");
    b.append_buffer(&data(400, 13)).expect("append");
    assert_eq!(a.append_file(&p).expect("first"), 0);
    let off = b.append_file(&p).expect("second");
    assert_eq!(off, a.frame_len());
    let mut rb = SuperChunk::open(&p, off as u64, None).expect("open at offset");
    assert_eq!(decompressed(&mut rb, 0), data(400, 13));
    let _ = std::fs::remove_file(&p);
}

#[test]
fn copies_between_storage_kinds() {
    let mut src = SuperChunk::new(storage(false, None)).expect("new");
    src.meta_add("m", b"meta").expect("meta");
    src.vlmeta_add("v", b"vlmeta", None).expect("vlmeta");
    for i in 0..3 {
        src.append_buffer(&data(700, 5 + i)).expect("append");
    }
    let dir = tmpdir("copy.d");
    let dst = src.copy(storage(false, Some(&dir))).expect("copy");
    assert_eq!(dst.nchunks(), 3);
    assert_eq!(dst.vlmeta_get("v").expect("vl").1, b"vlmeta");
    drop(dst);
    let mut re = SuperChunk::open(&dir, 0, None).expect("open copy");
    assert_eq!(re.metalayers()[0].content, b"meta");
    for i in 0..3 {
        assert_eq!(decompressed(&mut re, i), data(700, 5 + i as u32));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hostile_sparse_frames_fail_cleanly() {
    let dir = tmpdir("hostile.d");
    let mut sc = SuperChunk::new(storage(false, Some(&dir))).expect("new");
    for i in 0..3 {
        sc.append_buffer(&data(300, 3 + i)).expect("append");
    }
    drop(sc);
    let index = std::fs::read(dir.join("chunks.b2frame")).expect("index");
    for i in 0..index.len() {
        let mut m = index.clone();
        m[i] ^= 0x5a;
        std::fs::write(dir.join("chunks.b2frame"), &m).expect("write");
        if let Ok(mut s) = SuperChunk::open(&dir, 0, None) {
            for n in 0..s.nchunks() {
                let mut out = vec![0u8; 2048];
                let _ = s.decompress_chunk(n, &mut out);
            }
        }
    }
    std::fs::write(dir.join("chunks.b2frame"), &index).expect("restore");
    std::fs::write(dir.join("00000001.chunk"), b"short").expect("corrupt");
    std::fs::remove_file(dir.join("00000002.chunk")).expect("remove");
    let mut s = SuperChunk::open(&dir, 0, None).expect("index still fine");
    let mut out = vec![0u8; 1200];
    assert_eq!(decompressed(&mut s, 0), data(300, 3));
    assert!(s.decompress_chunk(1, &mut out).is_err());
    assert!(s.decompress_chunk(2, &mut out).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn slice_chunk_indices_follow_the_reference_arithmetic() {
    let mut sc = SuperChunk::new(storage(false, None)).expect("new");
    for i in 0..3 {
        sc.append_buffer(&data(1000, i + 1)).expect("append");
    }
    assert_eq!(sc.slice_chunks(&[500], &[2500]).expect("a"), [0, 1, 2]);
    assert_eq!(sc.slice_chunks(&[999], &[1001]).expect("b"), [0, 1]);
    assert_eq!(sc.slice_chunks(&[10], &[10]).expect("c"), [0]);
    assert!(sc.slice_chunks(&[1000], &[1000]).expect("e").is_empty());
    assert_eq!(sc.slice_chunks(&[3], &[2]).expect("d"), [0]);
    assert_eq!(sc.flat_slice_span(2500, 1000), -1);
    assert_eq!(multidim_to_unidim(&[1, 2], &[7, 1]), 9);
    assert_eq!(unidim_to_multidim(&[10, 7], 9), [1, 2]);
}

#[test]
fn file_frames_stay_compact_under_many_appends() {
    let p = tmpdir("compact.b2frame");
    let mut sc = SuperChunk::new(storage(true, Some(&p))).expect("new");
    let chunk = data(64, 3);
    for _ in 0..2000 {
        sc.append_buffer(&chunk).expect("append");
    }
    let size = std::fs::metadata(&p).expect("meta").len() as i64;
    assert!(
        size < 3 * (sc.cbytes() + 16 * 2000),
        "file {size} vs live {}",
        sc.cbytes()
    );
    drop(sc);
    let mut re = SuperChunk::open(&p, 0, None).expect("reopen");
    assert_eq!(re.nchunks(), 2000);
    assert_eq!(decompressed(&mut re, 1999), chunk);
    let _ = std::fs::remove_file(&p);
}

#[test]
fn frames_followed_by_other_data_do_not_grow_over_it() {
    let p = tmpdir("two.b2frame");
    let mut a = SuperChunk::new(storage(true, None)).expect("a");
    a.append_buffer(&data(300, 1)).expect("append");
    a.append_file(&p).expect("first");
    let off = a.append_file(&p).expect("second") as u64;
    let before = std::fs::read(&p).expect("read");
    let mut first = SuperChunk::open(&p, 0, None).expect("first");
    assert!(first.append_buffer(&data(300, 2)).is_err());
    let mut last = SuperChunk::open(&p, off, None).expect("last");
    last.append_buffer(&data(300, 2))
        .expect("the last frame may grow");
    assert_eq!(
        &std::fs::read(&p).expect("read")[..off as usize],
        &before[..off as usize]
    );
    let mut re = SuperChunk::open(&p, off, None).expect("reopen");
    assert_eq!(decompressed(&mut re, 1), data(300, 2));
    let _ = std::fs::remove_file(&p);
}

#[test]
fn slices_of_file_frames_read_only_needed_blocks_correctly() {
    for (clevel, compcode, use_dict) in [(5u8, 0u8, false), (0, 0, false), (3, 5, true)] {
        let p = tmpdir(&format!("lazy-{clevel}-{compcode}.b2frame"));
        let mut st = storage(true, Some(&p));
        st.cparams.clevel = clevel;
        st.cparams.compcode = compcode;
        st.cparams.use_dict = use_dict;
        st.cparams.blocksize = 4096;
        st.cparams.filters = [0, 0, 0, 0, 0, 1];
        let mut sc = SuperChunk::new(st).expect("new");
        let mut all = Vec::new();
        for i in 0..3 {
            let d = data(16384, 31 + i);
            sc.append_buffer(&d).expect("append");
            all.extend_from_slice(&d);
        }
        let mut seed = 12345u64;
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = (seed >> 33) as i64 % (3 * 16384);
            let b = (a + 1 + (seed >> 13) as i64 % 5000).min(3 * 16384);
            let mut out = vec![0u8; ((b - a) * 4) as usize];
            sc.get_slice(a, b, &mut out).expect("slice");
            assert_eq!(
                out,
                &all[(a * 4) as usize..(b * 4) as usize],
                "{a}..{b} clevel {clevel}"
            );
        }
        let _ = std::fs::remove_file(&p);
    }
}

#[test]
fn range_reads_leave_other_blocks_unread() {
    let p = tmpdir("lazy-blocks.b2frame");
    let mut st = storage(true, Some(&p));
    st.cparams.blocksize = 4096;
    let mut sc = SuperChunk::new(st).expect("new");
    sc.append_buffer(&data(16384, 77)).expect("append");
    let full = sc.chunk(0).expect("chunk").into_owned();
    let Store::Frame(crate::frame::Frame::Contiguous(f), offs) = &mut sc.store else {
        panic!("expected a contiguous frame");
    };
    let part = f.read_chunk_range(offs[0] as u64, 0, 100).expect("range");
    assert_eq!(part.len(), full.len());
    assert_eq!(
        &part[..32 + 16 * 4],
        &full[..32 + 16 * 4],
        "header and block starts"
    );
    let unread = part.iter().zip(&full).filter(|(a, b)| a != b).count();
    assert!(
        unread > full.len() / 2,
        "most blocks left unread ({unread} of {})",
        full.len()
    );
    let _ = std::fs::remove_file(&p);
}

#[test]
fn regular_and_special_chunks_do_not_mix_with_vl_chunks() {
    let mut ctx = Context::compressor(cparams(4));
    let mut c = vec![0u8; 4032];
    let n = ctx.compress(&data(1000, 3), &mut c).expect("compress");
    c.truncate(n);
    let mut sc = SuperChunk::new(storage(true, None)).expect("new");
    sc.append_chunk(&c).expect("regular");
    assert!(!sc.has_vl_blocks());
    let mut z = vec![0u8; 32];
    crate::special::special_chunk(&cparams(4), Special::Zeros, 4000, &mut z).expect("zeros");
    sc.append_chunk(&z)
        .expect("special chunks mix with regular ones");
    if let Some(root) = corpus() {
        let bytes = std::fs::read(root.join("frames/f19_vlblocks_fixed_size.b2frame"))
            .expect("corpus frame f19");
        let mut vl = SuperChunk::from_cframe(&bytes).expect("vl frame");
        assert!(vl.has_vl_blocks());
        let vc = vl.chunk(0).expect("vl chunk").into_owned();
        assert_eq!(sc.append_chunk(&vc), Err(crate::Error::ChunkAppend));
        assert_eq!(vl.append_chunk(&c), Err(crate::Error::ChunkAppend));
        assert_eq!(vl.insert_chunk(0, &z), Err(crate::Error::ChunkInsert));
        assert_eq!(vl.nchunks(), 3);
        vl.append_chunk(&vc).expect("VL chunks go with VL chunks");
    }
}

#[test]
fn a_handle_keeps_its_callbacks_after_rereading_a_frame_another_handle_grew() {
    use crate::chunk::hooks::{Output, Prefilter};
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let mut with_prefilter = Context::compressor(cparams(4));
    with_prefilter.set_prefilter(Some(Prefilter {
        disposable: false,
        run: Arc::new(move |a| {
            record.lock().unwrap().push(a.nchunk);
            if let Output::Scratch(at) = a.output {
                a.ttmp[at..at + a.size].copy_from_slice(a.input);
            }
            0
        }),
    }));
    let path = tmpdir("keep-callbacks.b2frame");
    let mut a = SuperChunk::new(storage(true, Some(&path))).expect("new");
    a.share_callbacks(&with_prefilter, &Context::decompressor(DParams::default()));
    a.append_buffer(&data(1000, 3)).expect("append by a");
    let mut b = SuperChunk::open(&path, 0, None).expect("open");
    b.append_buffer(&data(1000, 5)).expect("append by b");
    seen.lock().unwrap().clear();
    a.append_buffer(&data(1000, 7))
        .expect("append by a after b");
    assert_eq!(a.nchunks(), 3, "a saw the chunk b appended");
    let nchunks = seen.lock().unwrap().clone();
    assert!(!nchunks.is_empty(), "the prefilter ran after the re-read");
    assert!(nchunks.iter().all(|&n| n == 2), "chunk numbers {nchunks:?}");
    let _ = std::fs::remove_file(&path);
}
