//! Frame format tests: encoding round trips and hostile frames (every header and trailer
//! byte mutated, every truncation, seeded random mutations, lying lengths and counts).

use super::header::{FrameHeader, Meta, HEADER_MINLEN};
use super::offsets::{self, Slot};
use super::trailer;
use crate::context::{CParams, DParams};
use crate::error::Error;
use crate::schunk::{Storage, SuperChunk};
use crate::special::Special;

fn sample_frame() -> Vec<u8> {
    crate::global::init();
    let st = Storage {
        contiguous: true,
        cparams: CParams {
            typesize: 4,
            nthreads: 1,
            ..CParams::default()
        },
        dparams: DParams::default(),
        ..Storage::default()
    };
    let mut sc = SuperChunk::new(st).expect("new");
    sc.meta_add("b2nd", b"\x97\x00\x01").expect("meta");
    for i in 0..3u32 {
        let d: Vec<u8> = (0..256u32)
            .flat_map(|k| (k * (i + 1)).to_le_bytes())
            .collect();
        sc.append_buffer(&d).expect("append");
    }
    let mut z = vec![0u8; 32];
    crate::special::special_chunk(&sc.cparams(), Special::Zeros, 1024, &mut z).expect("zeros");
    sc.append_chunk(&z).expect("special");
    sc.vlmeta_add("attrs", b"{\"a\": 1}", None).expect("vlmeta");
    sc.to_cframe().expect("cframe")
}

/// Opens a frame and touches everything it claims to hold; must never panic.
fn exercise(bytes: &[u8]) -> Result<(), Error> {
    let mut sc = SuperChunk::from_cframe(bytes)?;
    for n in 0..sc.nchunks() {
        let mut out = vec![0u8; 4096];
        let _ = sc.decompress_chunk(n, &mut out);
    }
    for name in sc
        .vlmeta_names()
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
    {
        let _ = sc.vlmeta_get(&name);
    }
    let mut buf = vec![0u8; 64];
    let _ = sc.get_slice(0, 16, &mut buf);
    Ok(())
}

fn lengths(f: &[u8]) -> (usize, usize, usize) {
    let (hl, fl) = FrameHeader::lengths(&f[..HEADER_MINLEN]).expect("lengths");
    let tl = trailer::length_from_tail(&f[f.len() - 25..]).expect("trailer len");
    (hl as usize, fl as usize, tl as usize)
}

#[test]
fn header_and_trailer_round_trip() {
    let f = sample_frame();
    let (hl, fl, tl) = lengths(&f);
    assert_eq!(fl, f.len());
    let h = FrameHeader::parse(&f[..hl]).expect("parse");
    assert_eq!(h.encode().expect("encode"), &f[..hl]);
    assert_eq!(
        h.metalayers[0],
        Meta {
            name: "b2nd".into(),
            content: b"\x97\x00\x01".to_vec()
        }
    );
    let vl = trailer::parse(&f[fl - tl..]).expect("trailer");
    assert_eq!(trailer::encode(&vl).expect("encode"), &f[fl - tl..]);
    assert_eq!(f[2..10], *b"b2frame\0");
}

#[test]
fn special_offsets_encode_like_the_format_says() {
    assert_eq!(
        offsets::special_offset(Special::Zeros).to_le_bytes()[7],
        0x81
    );
    assert_eq!(
        offsets::special_offset(Special::Nans).to_le_bytes()[7],
        0x82
    );
    assert_eq!(
        offsets::special_offset(Special::Uninit).to_le_bytes()[7],
        0x84
    );
    // The kind bits are tested in the reference's order (zeros, uninitialised, NaN); an
    // entry with none of them is no special chunk.
    let slot = |top: u8| offsets::slot(i64::from_le_bytes([0, 0, 0, 0, 0, 0, 0, top]));
    assert_eq!(slot(0x83), Ok(Slot::Special(Special::Zeros)));
    assert_eq!(slot(0xf9), Ok(Slot::Special(Special::Zeros)));
    assert_eq!(slot(0x86), Ok(Slot::Special(Special::Uninit)));
    assert_eq!(slot(0x82), Ok(Slot::Special(Special::Nans)));
    assert_eq!(slot(0xf8), Err(Error::Data));
    assert_eq!(
        offsets::slot(i64::from_le_bytes([0, 0, 0, 0, 0, 0, 0, 0x80])),
        Err(Error::Data)
    );
    assert_eq!(offsets::slot(7), Ok(Slot::Stored(7)));
}

#[test]
fn every_header_and_trailer_byte_mutated() {
    let f = sample_frame();
    let (hl, fl, tl) = lengths(&f);
    let positions = (0..hl).chain(fl - tl..fl);
    for i in positions {
        for v in [0x00u8, 0xff, f[i] ^ 0x80, f[i].wrapping_add(1)] {
            let mut m = f.clone();
            m[i] = v;
            let _ = exercise(&m);
        }
    }
}

#[test]
fn every_truncation_fails() {
    let f = sample_frame();
    for len in 0..f.len() {
        assert!(
            SuperChunk::from_cframe(&f[..len]).is_err(),
            "truncated to {len}"
        );
    }
}

#[test]
fn seeded_random_mutations_never_panic() {
    let f = sample_frame();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let mut m = f.clone();
        for _ in 0..1 + next() % 8 {
            let i = (next() % m.len() as u64) as usize;
            m[i] = next() as u8;
        }
        let _ = exercise(&m);
    }
}

/// A named way to corrupt a frame.
type Mutation<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;

fn put_be(f: &mut [u8], at: usize, v: &[u8]) {
    f[at..at + v.len()].copy_from_slice(v);
}

#[test]
fn lying_lengths_and_counts_are_errors() {
    let f = sample_frame();
    let (hl, fl, _) = lengths(&f);
    let cases: Vec<(&str, Mutation)> = vec![
        (
            "header_len huge",
            Box::new(|m| put_be(m, 11, &i32::MAX.to_be_bytes())),
        ),
        (
            "header_len small",
            Box::new(|m| put_be(m, 11, &10i32.to_be_bytes())),
        ),
        (
            "header_len negative",
            Box::new(|m| put_be(m, 11, &(-5i32).to_be_bytes())),
        ),
        (
            "frame_len huge",
            Box::new(|m| put_be(m, 16, &u64::MAX.to_be_bytes())),
        ),
        (
            "frame_len short",
            Box::new(|m| put_be(m, 16, &(hl as u64 + 3).to_be_bytes())),
        ),
        (
            "cbytes negative",
            Box::new(|m| put_be(m, 39, &(-1i64).to_be_bytes())),
        ),
        (
            "cbytes past end",
            Box::new(|m| put_be(m, 39, &(1i64 << 40).to_be_bytes())),
        ),
        (
            "nbytes negative",
            Box::new(|m| put_be(m, 30, &(-8i64).to_be_bytes())),
        ),
        (
            "nbytes huge",
            Box::new(|m| put_be(m, 30, &(i64::MAX).to_be_bytes())),
        ),
        (
            "typesize 0",
            Box::new(|m| put_be(m, 48, &0i32.to_be_bytes())),
        ),
        (
            "trailer_len huge",
            Box::new(move |m| put_be(m, fl - 22, &u32::MAX.to_be_bytes())),
        ),
        (
            "trailer_len tiny",
            Box::new(move |m| put_be(m, fl - 22, &3u32.to_be_bytes())),
        ),
        (
            "17 metalayers",
            Box::new(|m| put_be(m, 92, &17u16.to_be_bytes())),
        ),
        ("bad magic", Box::new(|m| m[5] = b'X')),
    ];
    for (what, mutate) in cases {
        let mut m = f.clone();
        mutate(&mut m);
        assert!(SuperChunk::from_cframe(&m).is_err(), "{what} accepted");
    }
}

#[test]
fn offsets_past_the_chunks_are_errors() {
    let st = Storage {
        contiguous: true,
        ..Storage::default()
    };
    crate::global::init();
    let mut sc = SuperChunk::new(st).expect("new");
    sc.append_buffer(&[7u8; 800]).expect("append");
    let mut f = sc.to_cframe().expect("cframe");
    let (hl, fl, tl) = lengths(&f);
    let cbytes = i64::from_be_bytes(f[39..47].try_into().expect("8 bytes"));
    let idx_at = hl + cbytes as usize;
    let bad = offsets::encode(&[cbytes + 100]).expect("index");
    let mut m = f[..idx_at].to_vec();
    m.extend_from_slice(&bad);
    m.extend_from_slice(&f[fl - tl..]);
    let new_len = m.len() as u64;
    put_be(&mut m, 16, &new_len.to_be_bytes());
    assert!(SuperChunk::from_cframe(&m).is_err());
    f[idx_at + 12] ^= 0x40;
    let _ = exercise(&f);
}
