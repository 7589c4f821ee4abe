//! The N-dimensional plugins the library registers at init: the NDLZ and ZFP codecs and the
//! NDCELL and NDMEAN filters. They learn the block geometry from the `b2nd` metalayer of the
//! super-chunk the context belongs to, as the reference's plugins do.

use std::sync::Arc;

use super::plugins::{Codec, Filter, MetaLookup};
use crate::b2nd::meta::Meta;
use crate::codecs::{ndlz, zfp};
use crate::error::Error;
use crate::filters::{ndcell, ndmean};

/// The reference's generic failure code, which these plugins return for every refusal.
const FAILURE: i32 = -1;

/// The `b2nd` metalayer of the context's super-chunk: the null-pointer error without a
/// super-chunk, [`FAILURE`] without (or with a broken) metalayer.
fn b2nd(lookup: Option<&MetaLookup>) -> Result<Meta, i32> {
    let lookup = lookup.ok_or(Error::NullPointer.code())?;
    let bytes = lookup("b2nd").ok_or(FAILURE)?;
    Meta::deserialize(&bytes).map(|m| m.0).map_err(|_| FAILURE)
}

fn status(r: crate::error::Result<()>) -> i32 {
    if r.is_ok() {
        0
    } else {
        FAILURE
    }
}

/// The codec registered under plugin code `code`, with its functions for 32..=35.
pub(crate) fn codec(code: u8, name: &str) -> Codec {
    let mut c = Codec {
        code,
        name: name.to_owned(),
        complib: code,
        version: 1,
        encoder: None,
        decoder: None,
    };
    match code {
        32 => {
            c.encoder = Some(Arc::new(|call, meta, src, dst| {
                match b2nd(call.schunk_meta) {
                    Ok(m) if m.ndim() == 2 => ndlz::compress(meta, &m.blockshape, src, dst),
                    Ok(_) => FAILURE,
                    Err(e) => e,
                }
            }));
            c.decoder = Some(Arc::new(|_, meta, src, dst| {
                ndlz::decompress(meta, src, dst)
            }));
        }
        33..=35 => {
            let mode = zfp::Mode::from_code(code);
            c.encoder = Some(Arc::new(move |call, meta, src, dst| {
                match b2nd(call.schunk_meta) {
                    Ok(m) => {
                        zfp::compress(mode, meta, &m.blockshape, call.cparams.typesize, src, dst)
                    }
                    Err(e) => e,
                }
            }));
            c.decoder = Some(Arc::new(move |call, meta, src, dst| {
                let Some(typesize) = call.schunk_typesize else {
                    return Error::NullPointer.code();
                };
                match b2nd(call.schunk_meta) {
                    Ok(m) => zfp::decompress(mode, meta, &m.blockshape, typesize, src, dst),
                    Err(e) => e,
                }
            }));
        }
        _ => {}
    }
    c
}

type Pass = fn(u8, &[i32], usize, &[u8], &mut [u8]) -> crate::error::Result<()>;

/// An N-dimensional filter: forward with the compression's typesize, backward with the
/// super-chunk's, both on the `b2nd` block shape.
fn nd_filter(id: u8, name: &str, forward: Pass, backward: Pass) -> Filter {
    Filter {
        id,
        name: name.to_owned(),
        version: 1,
        forward: Some(Arc::new(move |call, meta, _, src, dst| {
            let typesize = usize::try_from(call.cparams.typesize).unwrap_or(0);
            match b2nd(call.schunk_meta) {
                Ok(m) => status(forward(meta, &m.blockshape, typesize, src, dst)),
                Err(_) => FAILURE,
            }
        })),
        backward: Some(Arc::new(move |call, meta, _, src, dst| {
            let typesize = call.schunk_typesize.and_then(|t| usize::try_from(t).ok());
            match (b2nd(call.schunk_meta), typesize) {
                (Ok(m), Some(t)) => status(backward(meta, &m.blockshape, t, src, dst)),
                _ => FAILURE,
            }
        })),
    }
}

/// NDCELL (filter 32).
pub(crate) fn ndcell_filter() -> Filter {
    nd_filter(32, "ndcell", ndcell::forward, ndcell::backward)
}

/// NDMEAN (filter 33).
pub(crate) fn ndmean_filter() -> Filter {
    nd_filter(33, "ndmean", ndmean::forward, ndmean::backward)
}
