//! Round trips of arrays against a plain C-order model.

use super::geometry::{c_strides, flatten, unflatten};
use super::{Array, Geometry, Params};
use crate::context::CParams;
use crate::schunk::Storage;

fn params(shape: &[i64], chunks: &[i32], blocks: &[i32], typesize: i32) -> Params {
    let storage = Storage {
        cparams: CParams {
            typesize,
            ..CParams::default()
        },
        ..Storage::default()
    };
    Params::new(storage, Geometry::new(shape, chunks, blocks).unwrap())
}

/// The items of `[start, stop)` of a C-order array of `shape`, in C order.
fn model_slice(data: &[u8], shape: &[i64], start: &[i64], stop: &[i64], ts: usize) -> Vec<u8> {
    let ext: Vec<i64> = start.iter().zip(stop).map(|(a, b)| b - a).collect();
    let total: i64 = ext.iter().product();
    let strides = c_strides(shape);
    let mut out = Vec::new();
    for k in 0..total {
        let rel = unflatten(&ext, k);
        let abs: Vec<i64> = rel.iter().zip(start).map(|(r, s)| r + s).collect();
        let at = flatten(&abs, &strides) as usize * ts;
        out.extend_from_slice(&data[at..at + ts]);
    }
    out
}

const CASES: &[(&[i64], &[i32], &[i32])] = &[
    (&[10, 7], &[4, 4], &[2, 2]),
    (&[10, 7], &[4, 4], &[3, 2]),
    (&[9, 8, 5], &[4, 8, 5], &[1, 4, 5]),
    (&[13], &[5], &[2]),
    (&[5, 6], &[2, 3], &[3, 4]),
    (&[], &[], &[]),
];

#[test]
fn buffers_and_slices_round_trip() {
    for &(shape, chunks, blocks) in CASES {
        let p = params(shape, chunks, blocks, 2);
        let n: i64 = shape.iter().product();
        let data: Vec<u8> = (0..n * 2).map(|i| (i * 7 % 251) as u8).collect();
        let mut a = Array::from_buffer(&p, &data).unwrap();
        let mut back = vec![0u8; data.len()];
        a.to_buffer(&mut back).unwrap();
        assert_eq!(back, data, "{shape:?}");
        let nd = shape.len();
        let start: Vec<i64> = shape.iter().map(|&s| s / 3).collect();
        let stop: Vec<i64> = shape.iter().map(|&s| s - s / 4).collect();
        let want = model_slice(&data, shape, &start, &stop, 2);
        let ext: Vec<i64> = start.iter().zip(&stop).map(|(a, b)| b - a).collect();
        let mut got = vec![0u8; want.len()];
        a.get_slice_buffer(&start, &stop, &mut got, &ext).unwrap();
        assert_eq!(got, want, "{shape:?} slice");
        // Overwrite the slice with new values and compare the whole array with the model.
        let fresh: Vec<u8> = (0..want.len()).map(|i| (i * 13 % 241) as u8).collect();
        a.set_slice_buffer(&start, &stop, &fresh, &ext).unwrap();
        let mut model = data.clone();
        let strides = c_strides(shape);
        let total: i64 = ext.iter().product();
        for k in 0..total {
            let rel = unflatten(&ext, k);
            let abs: Vec<i64> = rel.iter().zip(&start).map(|(r, s)| r + s).collect();
            let at = flatten(&abs, &strides) as usize * 2;
            let k = k as usize * 2;
            model[at..at + 2].copy_from_slice(&fresh[k..k + 2]);
        }
        a.to_buffer(&mut back).unwrap();
        assert_eq!(back, model, "{shape:?} after set (ndim {nd})");
    }
}

#[test]
fn special_and_full_arrays() {
    let p = params(&[10, 7], &[4, 4], &[2, 2], 4);
    let mut z = Array::zeros(&p).unwrap();
    assert_eq!(z.schunk().nchunks(), 6);
    assert_eq!(z.schunk().cbytes(), 6 * 32, "special chunks only");
    let mut buf = vec![1u8; 280];
    z.to_buffer(&mut buf).unwrap();
    assert!(buf.iter().all(|&b| b == 0));
    let mut nans = Array::nans(&p).unwrap();
    nans.to_buffer(&mut buf).unwrap();
    assert!(buf
        .chunks(4)
        .all(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]).is_nan()));
    let mut full = Array::full(&p, &7.5f32.to_le_bytes()).unwrap();
    full.to_buffer(&mut buf).unwrap();
    assert!(buf.chunks(4).all(|c| c == 7.5f32.to_le_bytes()));
    let bad = params(&[3], &[2], &[1], 2);
    assert_eq!(Array::nans(&bad).err(), Some(crate::Error::Data));
}

#[test]
fn rejects_bad_slices_and_buffers() {
    let p = params(&[10, 7], &[4, 4], &[2, 2], 1);
    let mut a = Array::zeros(&p).unwrap();
    let mut buf = vec![0u8; 70];
    assert!(a
        .get_slice_buffer(&[0, 0], &[11, 7], &mut buf, &[11, 7])
        .is_err());
    assert!(a
        .get_slice_buffer(&[0, 0], &[10, 7], &mut buf, &[9, 7])
        .is_err());
    assert!(a
        .get_slice_buffer(&[0, 0], &[10, 7], &mut buf[..69], &[10, 7])
        .is_err());
    assert!(a
        .get_slice_buffer(&[0, 0], &[2, 2], &mut buf[..4], &[2, 3])
        .is_err());
    assert!(a
        .set_slice_buffer(&[5, 0], &[4, 8], &buf, &[10, 7])
        .is_err());
    let empty = a.set_slice_buffer(&[5, 0], &[4, 7], &buf, &[10, 7]);
    assert!(
        empty.is_ok(),
        "an inverted slice is empty, as in the reference"
    );
    assert!(a
        .get_slice_buffer(&[0, 0], &[10, 7], &mut buf, &[10, 7])
        .is_ok());
}

/// A super-chunk of `nchunks` zero chunks of `chunk_nbytes` bytes with metalayer `name`.
fn schunk_with_meta(
    name: &str,
    meta: &[u8],
    nchunks: i64,
    chunk_nbytes: i32,
) -> crate::schunk::SuperChunk {
    let mut sc = crate::schunk::SuperChunk::new(Storage {
        cparams: CParams {
            typesize: 4,
            ..CParams::default()
        },
        ..Storage::default()
    })
    .unwrap();
    sc.meta_add(name, meta).unwrap();
    if nchunks > 0 {
        sc.fill_special(
            nchunks * i64::from(chunk_nbytes) / 4,
            crate::special::Special::Zeros,
            chunk_nbytes,
        )
        .unwrap();
    }
    sc
}

fn meta_bytes(shape: &[i64], chunks: &[i32], blocks: &[i32], dtype: Option<&str>) -> Vec<u8> {
    super::meta::Meta {
        shape: shape.to_vec(),
        chunkshape: chunks.to_vec(),
        blockshape: blocks.to_vec(),
        dtype: dtype.map(str::to_owned),
        dtype_format: 0,
    }
    .serialize()
    .unwrap()
}

#[test]
fn wraps_consistent_super_chunks_only() {
    use crate::Error;
    let good = meta_bytes(&[10, 7], &[4, 4], &[2, 2], Some("<i4"));
    let a = Array::from_schunk(schunk_with_meta("b2nd", &good, 6, 64)).unwrap();
    assert_eq!((a.shape(), a.dtype()), (&[10, 7][..], Some("<i4")));
    let legacy = &good[..good.len() - 9];
    let c = Array::from_schunk(schunk_with_meta("caterva", legacy, 6, 64)).unwrap();
    assert_eq!(c.dtype(), None);
    let cases: Vec<(Vec<u8>, i64, i32)> = vec![
        (good.clone(), 5, 64),
        (good.clone(), 6, 32),
        (meta_bytes(&[-10, 7], &[4, 4], &[2, 2], None), 0, 64),
        (meta_bytes(&[10, 7], &[0, 4], &[0, 2], None), 0, 64),
        (
            meta_bytes(&[1 << 40, 1 << 40], &[1, 1], &[1, 1], None),
            0,
            4,
        ),
        (meta_bytes(&[1 << 30], &[1 << 30], &[1], None), 0, 4),
    ];
    for (i, (meta, n, cs)) in cases.into_iter().enumerate() {
        let r = Array::from_schunk(schunk_with_meta("b2nd", &meta, n, cs));
        assert!(r.is_err(), "case {i}");
    }
    let mut deep = good.clone();
    deep[2] = 17;
    assert_eq!(
        Array::from_schunk(schunk_with_meta("b2nd", &deep, 0, 4)).err(),
        Some(Error::Failure)
    );
    let mut long = good.clone();
    let n = long.len();
    long[n - 7..n - 3].copy_from_slice(&100i32.to_be_bytes());
    assert_eq!(
        Array::from_schunk(schunk_with_meta("b2nd", &long, 6, 64)).err(),
        Some(Error::Failure)
    );
    assert_eq!(
        Array::from_schunk(schunk_with_meta("other", &good, 6, 64)).err(),
        Some(Error::MetalayerNotFound)
    );
}

#[test]
fn saves_opens_copies_and_slices_into_new_arrays() {
    crate::global::init();
    let tmp = crate::testref::TempPath::new("b2nd-save");
    let dir = tmp.path();
    std::fs::create_dir_all(dir).unwrap();
    let p = params(&[20, 9], &[6, 4], &[3, 2], 8);
    let data: Vec<u8> = (0..20 * 9 * 8).map(|i| (i % 253) as u8).collect();
    let mut a = Array::from_buffer(&p, &data).unwrap();
    let path = dir.join("a.b2nd");
    a.save(&path, true).unwrap();
    let mut o = Array::open(&path, 0, None).unwrap();
    let mut back = vec![0u8; data.len()];
    o.to_buffer(&mut back).unwrap();
    assert_eq!(back, data);
    let frame = a.to_cframe().unwrap();
    let mut f = Array::from_cframe(&frame).unwrap();
    f.to_buffer(&mut back).unwrap();
    assert_eq!(back, data);
    let q = params(&[20, 9], &[7, 9], &[7, 3], 8);
    let mut c = a.copy(&q).unwrap();
    assert_eq!(c.geometry().chunkshape(), &[7, 9]);
    c.to_buffer(&mut back).unwrap();
    assert_eq!(back, data);
    let mut s = a.get_slice(&q, &[3, 2], &[17, 8]).unwrap();
    let mut got = vec![0u8; 14 * 6 * 8];
    s.to_buffer(&mut got).unwrap();
    assert_eq!(got, model_slice(&data, &[20, 9], &[3, 2], &[17, 8], 8));
}

#[test]
fn empty_arrays_with_zero_chunks() {
    let p = params(&[0, 5], &[0, 5], &[0, 5], 4);
    let mut a = Array::zeros(&p).unwrap();
    assert_eq!(a.schunk().nchunks(), 0);
    let mut buf = [0u8; 8];
    a.to_buffer(&mut buf).unwrap();
    a.get_slice_buffer(&[0, 1], &[0, 3], &mut buf, &[1, 2])
        .unwrap();
    a.set_slice_buffer(&[0, 1], &[0, 3], &buf, &[1, 2]).unwrap();
    let b = Array::from_buffer(&p, &[]).unwrap();
    assert_eq!(b.geometry().nitems(), 0);
}

#[test]
fn a_second_handle_follows_shape_changes() {
    crate::global::init();
    let tmp = crate::testref::TempPath::new("b2nd-refresh.b2nd");
    let path = tmp.path().to_path_buf();
    let mut p = params(&[8, 6], &[4, 3], &[2, 3], 4);
    p.storage.contiguous = true;
    p.storage.urlpath = Some(path.clone());
    let mut writer = Array::zeros(&p).unwrap();
    let mut reader = Array::open(&path, 0, None).unwrap();
    assert!(!reader.refresh().unwrap(), "current");
    let grown = writer.geometry().with_shape(&[8, 5]).unwrap();
    writer.set_geometry(grown).unwrap();
    assert!(reader.refresh().unwrap(), "the shape changed on disk");
    assert_eq!(reader.shape(), &[8, 5]);
    assert!(!reader.refresh().unwrap(), "current again");
    let other = Geometry::new(&[8, 5], &[2, 3], &[2, 3]).unwrap();
    writer.set_geometry(other).unwrap();
    assert_eq!(
        reader.refresh().err(),
        Some(crate::Error::Data),
        "chunk shape changed"
    );
}

#[test]
fn mutated_frames_fail_cleanly() {
    let p = params(&[13, 9], &[5, 4], &[2, 3], 4);
    let data: Vec<u8> = (0..13 * 9 * 4).map(|i| (i * 5 % 199) as u8).collect();
    let frame = Array::from_buffer(&p, &data).unwrap().to_cframe().unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let mut bytes = frame.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] = next() as u8;
        }
        let Ok(mut a) = Array::from_cframe(&bytes) else {
            continue;
        };
        let n = a
            .geometry()
            .nitems()
            .saturating_mul(i64::from(a.typesize()));
        if !(0..1 << 20).contains(&n) {
            continue;
        }
        let mut out = vec![0u8; n as usize];
        let _ = a.to_buffer(&mut out);
        let stop: Vec<i64> = a.shape().iter().map(|&s| s.min(3)).collect();
        let start = vec![0i64; stop.len()];
        let _ = a.get_slice_buffer(&start, &stop, &mut out, &stop);
    }
}

#[test]
fn chunks_gathered_on_two_threads_are_the_ones_of_one_thread() {
    // Chunks of 512 KiB (their blocks are gathered on the pool) with blocks not in the
    // chunk's C order; a whole-array write, then a slice across chunks.
    let (shape, chunks, blocks) = (&[64i64, 96, 128][..], &[32, 64, 128][..], &[8, 16, 32][..]);
    let n: i64 = shape.iter().product();
    let data: Vec<u8> = (0..n * 2).map(|i| (i / 3 % 251) as u8).collect();
    let (start, stop) = ([5i64, 30, 17], [60i64, 90, 120]);
    let ext: Vec<i64> = start.iter().zip(&stop).map(|(a, b)| b - a).collect();
    let fresh: Vec<u8> = (0..ext.iter().product::<i64>() * 2)
        .map(|i| (i * 13 % 241) as u8)
        .collect();
    let mut arrays = [1i16, 2].map(|nthreads| {
        let mut p = params(shape, chunks, blocks, 2);
        p.storage.cparams.nthreads = nthreads;
        let mut a = Array::from_buffer(&p, &data).unwrap();
        a.set_slice_buffer(&start, &stop, &fresh, &ext).unwrap();
        a
    });
    let [one, two] = &mut arrays;
    let nchunks = one.schunk().nchunks();
    assert_eq!(nchunks, 2 * 2);
    for c in 0..nchunks {
        let want = one.schunk_mut().chunk(c).unwrap().into_owned();
        assert_eq!(*two.schunk_mut().chunk(c).unwrap(), *want, "chunk {c}");
    }
    let mut back = vec![0u8; data.len()];
    two.to_buffer(&mut back).unwrap();
    let mut got = vec![0u8; fresh.len()];
    two.get_slice_buffer(&start, &stop, &mut got, &ext).unwrap();
    assert_eq!(got, fresh);
    assert_eq!(
        model_slice(&back, shape, &[0, 0, 0], &[5, 96, 128], 2),
        model_slice(&data, shape, &[0, 0, 0], &[5, 96, 128], 2)
    );
}
