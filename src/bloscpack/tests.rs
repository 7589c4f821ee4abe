//! Every corpus `.blp` decodes to the manifest's hash, header, offsets and metadata;
//! round trips over every checksum; appends; hostile files fail cleanly.

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::*;

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn corpus_bloscpack_files_decode_to_the_manifest() {
    let Some(root) = crate::testref::corpus() else {
        return;
    };
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(root.join("manifest.json")).unwrap()).unwrap();
    let mut seen = 0;
    for a in manifest["artifacts"].as_array().unwrap() {
        if a["format"] != "bloscpack" {
            continue;
        }
        let path = root.join(a["path"].as_str().unwrap());
        let f = std::fs::File::open(&path).unwrap();
        let mut r = Reader::new(f).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let h = &a["container"]["bloscpack_header"];
        let hd = r.header();
        assert_eq!(hd.checksum.name(), h["checksum"], "{}", path.display());
        assert_eq!(i64::from(hd.typesize), h["typesize"]);
        assert_eq!(i64::from(hd.chunk_size), h["chunk_size"]);
        assert_eq!(i64::from(hd.last_chunk), h["last_chunk"]);
        assert_eq!(hd.nchunks, h["nchunks"]);
        assert_eq!(hd.max_app_chunks, h["max_app_chunks"]);
        assert_eq!(hd.offsets, h["offsets"]);
        assert_eq!(hd.metadata, h["metadata"]);
        let offs: Vec<i64> = a["container"]["offsets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(r.offsets(), offs.as_slice());
        if let Some(mh) = a["container"]["metadata_header"].as_object() {
            let m = r.meta_header().unwrap();
            assert_eq!(m.checksum.name(), mh["meta_checksum"]);
            assert_eq!(m.codec.name(), mh["meta_codec"]);
            assert_eq!(i64::from(m.meta_size), mh["meta_size"]);
            assert_eq!(i64::from(m.max_meta_size), mh["max_meta_size"]);
            assert_eq!(i64::from(m.meta_comp_size), mh["meta_comp_size"]);
        }
        let want = &a["expected"];
        assert_eq!(
            r.metadata().cloned().unwrap_or(Value::Null),
            want["metadata"]
        );
        let mut out = Vec::new();
        r.decode_c_order(&mut out, &mut |_| {}).unwrap();
        assert_eq!(out.len() as i64, want["nbytes"], "{}", path.display());
        assert_eq!(hex(&out), want["sha256"], "{}", path.display());
        if let Some(arr) = want.get("array") {
            let np = r.numpy().unwrap().unwrap();
            assert_eq!(np.dtype_str(), arr["dtype"].as_str().unwrap());
            assert_eq!(json!(np.shape), arr["shape"]);
            assert_eq!(np.fortran, arr["order"] == "F");
            r.rewind().unwrap();
            let mut raw = Vec::new();
            r.unpack_to(&mut raw, &mut |_| {}).unwrap();
            assert_eq!(hex(&raw), arr["sha256_memory_order"]);
        }
        seen += 1;
    }
    assert_eq!(seen, 14, "bloscpack artifacts in the manifest");
}

fn sample(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| ((i * 7) % 251) as u8 ^ (i >> 9) as u8)
        .collect()
}

#[test]
fn round_trips_over_every_checksum_with_and_without_offsets_and_metadata() {
    let data = sample(300_001);
    for checksum in Checksum::ALL {
        for offsets in [true, false] {
            for meta in [None, Some(json!({"k": [1, 2.5, "é"], "n": null}))] {
                let opts = PackOptions {
                    chunk_size: 65_536,
                    checksum,
                    offsets,
                    ..PackOptions::default()
                };
                let file = pack_bytes(&data, &opts, meta.as_ref()).unwrap();
                let (back, m) = unpack_bytes(&file).unwrap();
                assert_eq!(back, data);
                assert_eq!(m, meta);
                let h = Header::decode(&file).unwrap();
                assert_eq!((h.nchunks, h.last_chunk), (5, 300_001 - 4 * 65_536));
                assert_eq!(h.max_app_chunks, if offsets { 50 } else { 0 });
            }
        }
    }
}

#[test]
fn chunks_carry_the_blosc1_format_version() {
    let file = pack_bytes(&sample(5000), &PackOptions::default(), None).unwrap();
    let mut r = Reader::new(std::io::Cursor::new(&file)).unwrap();
    let c = r.next_chunk().unwrap().unwrap();
    assert_eq!(c.data[0], 2);
    assert_eq!(c.offset, r.offsets()[0] as u64);
}

#[test]
fn empty_payload_is_one_empty_chunk() {
    let file = pack_bytes(&[], &PackOptions::default(), None).unwrap();
    let h = Header::decode(&file).unwrap();
    assert_eq!(
        (h.nchunks, h.chunk_size, h.last_chunk, h.max_app_chunks),
        (1, 0, 0, 10)
    );
    assert_eq!(unpack_bytes(&file).unwrap().0, Vec::<u8>::new());
}

#[test]
fn appends_fill_the_last_chunk_then_use_the_reserve() {
    let dir = crate::testref::TempPath::new("bp-append.blp");
    let opts = PackOptions {
        chunk_size: 1000,
        max_app_chunks: Some(3),
        ..PackOptions::default()
    };
    let mut all = sample(2500);
    std::fs::write(dir.path(), pack_bytes(&all, &opts, None).unwrap()).unwrap();
    let open = || {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(dir.path())
            .unwrap()
    };
    let more = sample(400);
    assert_eq!(
        append(&mut open(), &mut more.as_slice(), 400, None).unwrap(),
        0
    );
    all.extend_from_slice(&more);
    let more = sample(2150);
    assert_eq!(
        append(&mut open(), &mut more.as_slice(), 2150, None).unwrap(),
        3
    );
    all.extend_from_slice(&more);
    let file = std::fs::read(dir.path()).unwrap();
    let h = Header::decode(&file).unwrap();
    assert_eq!((h.nchunks, h.last_chunk, h.max_app_chunks), (6, 50, 0));
    assert_eq!(unpack_bytes(&file).unwrap().0, all);
    let err = append(&mut open(), &mut [0u8; 2000].as_slice(), 2000, None).unwrap_err();
    assert!(matches!(err, Error::Unsupported(_)), "{err}");
    assert_eq!(
        unpack_bytes(&std::fs::read(dir.path()).unwrap()).unwrap().0,
        all
    );
}

#[test]
fn fortran_arrays_stream_in_c_order_band_by_band() {
    let shape = [5usize, 7, 3];
    let item = |i: usize, j: usize, k: usize| [i as u8, j as u8, k as u8];
    // Fortran order: element (i, j, k) at i + 5 j + 35 k; 3-byte items, and 16-byte
    // chunks so that items straddle chunks.
    let mut f = vec![0u8; 105 * 3];
    let mut want = Vec::new();
    for i in 0..5 {
        for j in 0..7 {
            for k in 0..3 {
                f[(i + 5 * j + 35 * k) * 3..][..3].copy_from_slice(&item(i, j, k));
                want.extend_from_slice(&item(i, j, k));
            }
        }
    }
    let meta = NumpyMeta::new("|V3", &shape, true);
    let opts = PackOptions {
        chunk_size: 16,
        ..PackOptions::default()
    };
    let file = pack_bytes(&f, &opts, Some(&meta.to_metadata())).unwrap();
    for band_items in [1usize, 2, 7, 34, 104, 105, 1000] {
        let mut r = Reader::new(std::io::Cursor::new(&file)).unwrap();
        let mut c = Vec::new();
        let mut seen = Vec::new();
        let n = r
            .decode_c_order_bounded(&mut c, band_items * 3 + 2, &mut |p| seen.push(p))
            .unwrap();
        assert_eq!(n, 315);
        assert_eq!(c, want, "band of {band_items} items");
        assert_eq!(seen.last(), Some(&315));
        assert_eq!(seen.len(), 105usize.div_ceil(band_items));
    }
}

#[test]
fn numpy_fortran_arrays_come_back_in_c_order() {
    let (rows, cols) = (3usize, 4usize);
    // Fortran order: element (i, j) at i + j * rows.
    let mut f = vec![0u8; rows * cols * 2];
    for i in 0..rows {
        for j in 0..cols {
            let v = (i * 10 + j) as u16;
            f[(i + j * rows) * 2..][..2].copy_from_slice(&v.to_le_bytes());
        }
    }
    let meta = NumpyMeta::new("<i2", &[rows, cols], true);
    let file = pack_ndarray(&f, &meta, &PackOptions::default()).unwrap();
    let mut r = Reader::new(std::io::Cursor::new(&file)).unwrap();
    assert_eq!(r.numpy().unwrap().unwrap(), meta);
    let mut c = Vec::new();
    r.decode_c_order(&mut c, &mut |_| {}).unwrap();
    let want: Vec<u8> = (0..rows)
        .flat_map(|i| (0..cols).map(move |j| (i * 10 + j) as u16))
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(c, want);
}

#[test]
fn dtype_item_sizes() {
    for (d, n) in [
        ("'<f8'", 8),
        ("'|S6'", 6),
        ("'<U3'", 12),
        ("[('x', '<i4'), ('y', '<f4')]", 8),
        ("[('a', '<i2', (2, 3)), ('b', [('c', '|u1')])]", 13),
        ("int64", 8),
        ("float32", 4),
        ("|S10", 10),
        ("<M8[ns]", 8),
    ] {
        assert_eq!(dtype::dtype_itemsize(d), Some(n), "{d}");
    }
    assert_eq!(dtype::dtype_itemsize("[('x', "), None);
    assert_eq!(dtype::dtype_itemsize(&"[".repeat(100)), None);
}

fn read_err(bytes: &[u8]) -> Error {
    let mut out = Vec::new();
    match Reader::new(std::io::Cursor::new(bytes)) {
        Err(e) => e,
        Ok(mut r) => r.unpack_to(&mut out, &mut |_| {}).unwrap_err(),
    }
}

#[test]
fn hostile_files_give_errors() {
    let opts = PackOptions {
        chunk_size: 10_000,
        checksum: Checksum::Crc32,
        ..PackOptions::default()
    };
    let good = pack_bytes(&sample(50_000), &opts, Some(&json!({"a": 1}))).unwrap();
    // Every truncation fails.
    for cut in (0..good.len()).step_by(97) {
        let e = read_err(&good[..cut]);
        assert!(matches!(e, Error::Format(_)), "cut {cut}: {e}");
    }
    // Bad magic, unknown version, unknown checksum, options.
    for (at, v) in [(0, b'x'), (4, 2), (6, 9), (5, 0x07)] {
        let mut b = good.clone();
        b[at] = v;
        assert!(read_err(&b).to_string().len() > 10);
    }
    // A flipped byte in a chunk or in the metadata is a checksum mismatch.
    let mut b = good.clone();
    let last = b.len() - 10;
    b[last] ^= 0x40;
    assert!(matches!(read_err(&b), Error::Checksum(_)));
    let mut b = good.clone();
    b[HEADER_LEN + META_HEADER_LEN + 2] ^= 1;
    assert!(matches!(read_err(&b), Error::Checksum(_)));
    // Lying counts and sizes.
    let mut b = good.clone();
    b[16..24].copy_from_slice(&(i64::MAX / 2).to_le_bytes());
    b[24..32].copy_from_slice(&0i64.to_le_bytes());
    assert!(matches!(read_err(&b), Error::Format(_)));
    let mut b = good.clone();
    b[8..12].copy_from_slice(&20_000i32.to_le_bytes());
    assert!(matches!(read_err(&b), Error::Format(_)));
    let mut b = good.clone();
    let meta_max = HEADER_LEN + 16;
    b[meta_max..meta_max + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(read_err(&b), Error::Format(_)));
}

#[test]
fn chunks_follow_the_blosc1_split_and_bitshuffle_rules() {
    // c-blosc 1.x splits only blocks of at least 128 items and bit-unshuffles only blocks
    // holding a multiple of 8 items; every chunk written must decode alike under them.
    for typesize in [1u8, 2, 4, 8, 16] {
        for shuffle in [0u8, 1, 2] {
            for n in [0usize, 100, 768, 1600, 4096, 65_536 + 24, 300_000] {
                let n = n - n % usize::from(typesize);
                let data: Vec<u8> = (0..n).map(|i| (i / 7 % 256) as u8).collect();
                let p = ChunkParams {
                    typesize,
                    shuffle,
                    ..ChunkParams::default()
                };
                let c = compress_chunk(&data, &p).unwrap();
                assert_eq!(c[0], 2, "Blosc1 format version");
                let info = crate::cbuffer::basic_info(&c).unwrap();
                let (ts, bs, flags) = (
                    usize::from(info.typesize),
                    info.blocksize as usize,
                    info.flags,
                );
                let filtered = flags & 0x02 == 0 && n > 0;
                if filtered && flags & 0x10 == 0 && ts > 1 {
                    assert!(bs / ts >= 128, "split block of {} items", bs / ts);
                }
                if filtered && flags & 0x04 != 0 {
                    let last = if n % bs == 0 { bs } else { n % bs };
                    assert!((bs / ts) % 8 == 0 && (last / ts) % 8 == 0);
                }
                assert!(decompress_chunk(&c, n).unwrap() == data);
            }
        }
    }
}
