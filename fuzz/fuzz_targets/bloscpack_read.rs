//! Any bytes as a Bloscpack file: the header, metadata section, offsets table and chunks
//! must be read to data or to an error, never a panic, an out-of-bounds read or an
//! allocation the file cannot back.
#![no_main]

use std::io::Cursor;

use blosc2::bloscpack::Reader;
use libfuzzer_sys::fuzz_target;

/// Largest chunk a run decodes.
const MAX_CHUNK: usize = 1 << 24;

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = Reader::new(Cursor::new(data)) else {
        return;
    };
    let _ = r.metadata();
    let _ = r.numpy();
    let _ = r.nbytes();
    for _ in 0..64 {
        match r.next_chunk() {
            Ok(Some(c)) if c.nbytes <= MAX_CHUNK => {
                let _ = blosc2::bloscpack::decompress_chunk(&c.data, c.nbytes);
            }
            Ok(Some(_)) => {}
            _ => break,
        }
    }
    if r.header().offsets && r.header().nchunks > 0 {
        let _ = r.seek_chunk(r.header().nchunks - 1);
        let _ = r.next_chunk();
    }
});
