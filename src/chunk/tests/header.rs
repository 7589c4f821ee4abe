//! The chunk header parser on handcrafted headers, each field at the edge the format
//! (`chunk_format.rst`) and the reference's `read_chunk_header` set. Pure Rust: these run
//! under Miri (tools/miri.sh).

use crate::chunk::header::{filters_from_flags, offsets, Header};
use crate::constants::*;
use crate::error::Error;

/// A 32-byte extended header (flags `DOSHUFFLE | DOBITSHUFFLE`), `cbytes` 32 + `extra`,
/// followed by `extra` bytes.
fn extended(nbytes: i32, blocksize: i32, extra: usize) -> Vec<u8> {
    let mut c = vec![0u8; EXTENDED_HEADER_LENGTH + extra];
    c[offsets::VERSION] = VERSION_FORMAT;
    c[offsets::VERSIONLZ] = 1;
    c[offsets::FLAGS] = DOSHUFFLE | DOBITSHUFFLE;
    c[offsets::TYPESIZE] = 4;
    set(&mut c, offsets::NBYTES, nbytes);
    set(&mut c, offsets::BLOCKSIZE, blocksize);
    set(
        &mut c,
        offsets::CBYTES,
        (EXTENDED_HEADER_LENGTH + extra) as i32,
    );
    c
}

/// A 16-byte Blosc1 header with `flags`, `cbytes` 16 + `extra`, followed by `extra` bytes.
fn blosc1(flags: u8, nbytes: i32, blocksize: i32, extra: usize) -> Vec<u8> {
    let mut c = vec![0u8; MIN_HEADER_LENGTH + extra];
    c[offsets::VERSION] = BLOSC1_VERSION_FORMAT;
    c[offsets::VERSIONLZ] = 1;
    c[offsets::FLAGS] = flags;
    c[offsets::TYPESIZE] = 8;
    set(&mut c, offsets::NBYTES, nbytes);
    set(&mut c, offsets::BLOCKSIZE, blocksize);
    set(&mut c, offsets::CBYTES, (MIN_HEADER_LENGTH + extra) as i32);
    c
}

/// A change to a valid header.
type Edit = fn(&mut [u8]);

fn set(c: &mut [u8], at: usize, v: i32) {
    c[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn short_sources_are_read_errors() {
    for len in 0..MIN_HEADER_LENGTH {
        assert_eq!(
            Header::parse(&vec![0u8; len]),
            Err(Error::ReadBuffer),
            "{len} bytes"
        );
    }
    // An extended header cut after its first 16 bytes.
    let mut c = extended(64, 64, 0);
    set(&mut c, offsets::CBYTES, 64);
    assert_eq!(Header::parse_fields(&c[..24]), Err(Error::ReadBuffer));
}

#[test]
fn blosc1_header_fields_and_filters() {
    let c = blosc1(DOSHUFFLE | DODELTA | MEMCPYED, 800, 4096, 800);
    let h = Header::parse(&c).expect("valid Blosc1 header");
    assert_eq!((h.typesize, h.nbytes, h.cbytes), (8, 800, 816));
    assert_eq!(h.blocksize, 800, "block size clamped to nbytes");
    assert_eq!(h.header_len(), MIN_HEADER_LENGTH);
    assert!(h.is_memcpyed() && !h.is_extended() && !h.is_lazy() && !h.is_vl());
    assert_eq!(h.filters, [0, 0, 0, 0, DELTA, SHUFFLE]);
    assert_eq!(filters_from_flags(DOBITSHUFFLE)[5], BITSHUFFLE);
    assert_eq!(h.nblocks(), (1, 0));
}

#[test]
fn field_limits_are_invalid_headers() {
    let bad: [(&str, Edit); 6] = [
        ("typesize 0", |c| c[offsets::TYPESIZE] = 0),
        ("blocksize 0", |c| set(c, offsets::BLOCKSIZE, 0)),
        ("negative blocksize", |c| set(c, offsets::BLOCKSIZE, -1)),
        ("blocksize past the maximum", |c| {
            set(c, offsets::BLOCKSIZE, MAXBLOCKSIZE + 1)
        }),
        ("cbytes below a header", |c| set(c, offsets::CBYTES, 15)),
        ("cbytes below an extended header", |c| {
            set(c, offsets::CBYTES, 31)
        }),
    ];
    for (what, edit) in bad {
        let mut c = extended(64, 64, 64);
        edit(&mut c);
        assert_eq!(Header::parse(&c), Err(Error::InvalidHeader), "{what}");
    }
    assert!(Header::parse(&extended(64, MAXBLOCKSIZE, 64)).is_ok());
}

#[test]
fn cbytes_past_the_source_is_refused_unless_lazy() {
    let mut c = extended(4096, 4096, 16);
    set(&mut c, offsets::CBYTES, 4096);
    assert_eq!(Header::parse(&c), Err(Error::InvalidHeader));
    assert!(
        Header::parse_fields(&c).is_ok(),
        "parse_fields leaves cbytes alone"
    );
    c[offsets::BLOSC2_FLAGS] = LAZY_CHUNK;
    let h = Header::parse(&c).expect("lazy chunks keep their cbytes");
    assert!(h.is_lazy());
}

#[test]
fn extended_header_combinations() {
    // VL blocks cannot be special or memcpyed.
    let mut c = extended(64, 2, 64);
    c[offsets::BLOSC2_FLAGS2] = VL_BLOCKS;
    assert!(Header::parse(&c).is_ok_and(|h| h.is_vl() && h.blocksize == 2));
    c[offsets::BLOSC2_FLAGS] = SPECIAL_NAN << 4;
    assert_eq!(
        Header::parse(&c),
        Err(Error::InvalidHeader),
        "VL and special"
    );
    c[offsets::BLOSC2_FLAGS] = 0;
    c[offsets::FLAGS] |= MEMCPYED;
    assert_eq!(
        Header::parse(&c),
        Err(Error::InvalidHeader),
        "VL and memcpyed"
    );
    // A later format with unknown flags2 bits.
    let mut c = extended(64, 64, 64);
    c[offsets::VERSION] = VERSION_FORMAT + 1;
    c[offsets::BLOSC2_FLAGS2] = 0x2;
    assert_eq!(Header::parse(&c), Err(Error::VersionSupport));
    // The alpha format (3) leaves the last filter slot uninitialised.
    let mut c = extended(64, 64, 64);
    c[offsets::VERSION] = 3;
    c[offsets::FILTERS + 5] = 0xEE;
    c[offsets::FILTERS_META + 5] = 0xEE;
    let h = Header::parse(&c).expect("version 3 header");
    assert_eq!((h.filters[5], h.filters_meta[5]), (0, 0));
}

#[test]
fn special_chunks_hold_whole_items_and_values() {
    for kind in [SPECIAL_NAN, SPECIAL_UNINIT] {
        let mut c = extended(66, 66, 0);
        c[offsets::BLOSC2_FLAGS] = kind << 4;
        assert_eq!(
            Header::parse(&c),
            Err(Error::InvalidHeader),
            "kind {kind}, 66 bytes"
        );
        set(&mut c, offsets::NBYTES, 64);
        assert!(Header::parse(&c).is_ok_and(|h| h.special() == kind));
    }
    // A value chunk: the bytes after the header are the value, which must tile nbytes.
    let mut c = extended(96, 96, 12);
    c[offsets::BLOSC2_FLAGS] = SPECIAL_VALUE << 4;
    assert!(Header::parse(&c).is_ok());
    set(&mut c, offsets::NBYTES, 100);
    assert_eq!(
        Header::parse(&c),
        Err(Error::InvalidHeader),
        "value does not tile"
    );
    set(&mut c, offsets::NBYTES, 0);
    assert_eq!(
        Header::parse(&c),
        Err(Error::InvalidHeader),
        "empty value chunk"
    );
    let mut c = extended(96, 96, 0);
    c[offsets::BLOSC2_FLAGS] = SPECIAL_VALUE << 4;
    assert_eq!(
        Header::parse(&c),
        Err(Error::InvalidHeader),
        "value of width 0"
    );
}

#[test]
fn block_counts() {
    let h = Header::parse(&extended(1000, 300, 0)).expect("header");
    assert_eq!(h.nblocks(), (4, 100));
    let h = Header::parse(&extended(900, 300, 0)).expect("header");
    assert_eq!(h.nblocks(), (3, 0));
}
