//! Chunks whose content is implied by the header: zeros, NaNs, a repeated value, uninit.

use super::header::NewHeader;
use super::stune::{compute_blocksize, BlocksizeInput};
use crate::constants::*;
use crate::context::CParams;
use crate::error::{Error, Result};

/// Writes a header-only chunk of `nbytes` bytes of the special kind `kind` (`SPECIAL_ZERO`,
/// `SPECIAL_NAN`, `SPECIAL_VALUE` with `value` of `cparams.typesize` bytes following the
/// header, or `SPECIAL_UNINIT`) into `dst`, like `blosc2_chunk_zeros` and friends; returns
/// the chunk size (32, or 32 + typesize for a repeated value).
pub fn build(
    cparams: &CParams,
    nbytes: i32,
    kind: u8,
    value: &[u8],
    dst: &mut [u8],
) -> Result<usize> {
    if i64::from(nbytes) > MAX_BUFFERSIZE {
        return Err(Error::MaxBufsizeExceeded);
    }
    if cparams.clevel > 9 {
        return Err(Error::CodecParam);
    }
    let ts = cparams.typesize;
    // The multiple check comes first: an oversized typesize with a non-multiple nbytes is
    // a data error.
    if ts > 0 && nbytes > 0 && nbytes % ts != 0 {
        return Err(Error::Data);
    }
    if ts <= 0 || ts > MAXTYPESIZE {
        return Err(Error::InvalidParam);
    }
    let extra = if kind == SPECIAL_VALUE {
        ts as usize
    } else {
        0
    };
    let len = EXTENDED_HEADER_LENGTH + extra;
    if dst.len() < len || (nbytes > 0 && nbytes % ts != 0) || value.len() < extra {
        return Err(Error::Data);
    }
    let blocksize = compute_blocksize(&BlocksizeInput {
        nbytes,
        typesize: ts,
        clevel: cparams.clevel,
        compcode: cparams.compcode,
        splitmode: cparams.splitmode,
        has_shuffle: cparams.filters.contains(&SHUFFLE),
        forced: cparams.blocksize,
    });
    let split = super::stune::split_block(
        cparams.splitmode,
        cparams.compcode,
        cparams.clevel,
        ts,
        blocksize,
        cparams.filters.contains(&SHUFFLE),
    );
    crate::diag::info_layout(
        cparams.compcode,
        cparams.clevel,
        blocksize as usize,
        split,
        ts,
    );
    let header = NewHeader {
        flags: DOSHUFFLE | DOBITSHUFFLE,
        versionlz: 1,
        typesize: if ts > i32::from(u8::MAX) { 1 } else { ts as u8 },
        nbytes,
        blocksize,
        filters: [0; 6],
        compcode: 0,
        compcode_meta: 0,
        filters_meta: [0; 6],
        blosc2_flags: kind << 4,
    };
    header.write(dst, true);
    dst[12..16].copy_from_slice(&(len as i32).to_le_bytes());
    dst[EXTENDED_HEADER_LENGTH..len].copy_from_slice(&value[..extra]);
    Ok(len)
}

/// Fills `out` (a whole number of elements, starting at an element boundary) with the
/// special value of kind `special`; `value` holds the repeated value for `SPECIAL_VALUE`,
/// and `offset` is the position of `out` in the chunk (a repeated value wider than the
/// stored typesize continues from there).
pub(crate) fn fill(
    special: u8,
    typesize: usize,
    value: &[u8],
    offset: usize,
    out: &mut [u8],
) -> Result<()> {
    match special {
        SPECIAL_ZERO => out.fill(0),
        SPECIAL_UNINIT => {}
        SPECIAL_NAN => match typesize {
            4 => fill_pattern(out, &f32::NAN.to_le_bytes()),
            8 => fill_pattern(out, &f64::NAN.to_le_bytes()),
            _ => return Err(Error::Data),
        },
        SPECIAL_VALUE => {
            if value.is_empty() {
                return Err(Error::Data);
            }
            let phase = offset % value.len();
            let head = (value.len() - phase).min(out.len());
            out[..head].copy_from_slice(&value[phase..phase + head]);
            let rest = &mut out[head..];
            let whole = rest.len() - rest.len() % value.len();
            fill_pattern(&mut rest[..whole], value);
            let tail = rest.len() - whole;
            rest[whole..].copy_from_slice(&value[..tail]);
        }
        _ => return Err(Error::Data),
    }
    Ok(())
}

/// Repeats `pattern` over `out` (whose length is a multiple of the pattern's).
fn fill_pattern(out: &mut [u8], pattern: &[u8]) {
    let n = pattern.len();
    if out.len() < n {
        return;
    }
    out[..n].copy_from_slice(pattern);
    let mut filled = n;
    while filled < out.len() {
        let take = filled.min(out.len() - filled);
        out.copy_within(..take, filled);
        filled += take;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes BEHAVIOUR.md §5 and API.md §7 give for the reference.
    #[test]
    fn builds_measured_headers() {
        let mut dst = [0u8; 400];
        let cp = CParams::default();
        assert_eq!(build(&cp, 8000, SPECIAL_ZERO, &[], &mut dst), Ok(32));
        assert_eq!(
            &dst[..16],
            &[5, 1, 5, 8, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 0x20, 0, 0, 0]
        );
        assert!(dst[16..31].iter().all(|&b| b == 0));
        assert_eq!(dst[31], 0x10);
        assert_eq!(
            build(&cp, 8000, SPECIAL_VALUE, &3.25f64.to_le_bytes(), &mut dst),
            Ok(40)
        );
        assert_eq!(&dst[12..16], &[0x28, 0, 0, 0]);
        assert_eq!(dst[31], 0x30);
        assert_eq!(&dst[32..40], &3.25f64.to_le_bytes());
        assert_eq!(
            build(&cp, 8001, SPECIAL_NAN, &[], &mut dst),
            Err(Error::Data)
        );
        assert_eq!(
            build(&cp, 800, SPECIAL_ZERO, &[], &mut dst[..31]),
            Err(Error::Data)
        );
        assert_eq!(build(&cp, 0, SPECIAL_UNINIT, &[], &mut dst), Ok(32));
        assert_eq!(&dst[8..12], &[1, 0, 0, 0]);
        let zstd = CParams {
            compcode: ZSTD,
            ..cp
        };
        assert_eq!(build(&zstd, 800_000, SPECIAL_ZERO, &[], &mut dst), Ok(32));
        assert_eq!(i32::from_le_bytes(dst[8..12].try_into().unwrap()), 524_288);
        let forced = CParams {
            blocksize: 1001,
            typesize: 4,
            ..cp
        };
        assert_eq!(build(&forced, 4000, SPECIAL_ZERO, &[], &mut dst), Ok(32));
        assert_eq!(i32::from_le_bytes(dst[8..12].try_into().unwrap()), 1000);
        let huge = CParams {
            typesize: MAXTYPESIZE + 1,
            ..cp
        };
        assert_eq!(
            build(&huge, 8000, SPECIAL_ZERO, &[], &mut dst),
            Err(Error::Data)
        );
        assert_eq!(
            build(&huge, 0, SPECIAL_ZERO, &[], &mut dst),
            Err(Error::InvalidParam)
        );
        let wide = CParams {
            typesize: 300,
            ..cp
        };
        assert_eq!(
            build(&wide, 3000, SPECIAL_VALUE, &[7u8; 300], &mut dst),
            Ok(332)
        );
        assert_eq!(dst[3], 1);
        assert_eq!(
            build(
                &CParams { clevel: 10, ..cp },
                8,
                SPECIAL_ZERO,
                &[],
                &mut dst
            ),
            Err(Error::CodecParam)
        );
    }

    #[test]
    fn fills() {
        let mut out = vec![9u8; 24];
        fill(SPECIAL_VALUE, 3, &[1, 2, 3], 0, &mut out).unwrap();
        assert_eq!(&out[..6], &[1, 2, 3, 1, 2, 3]);
        assert_eq!(&out[21..], &[1, 2, 3]);
        let mut part = vec![0u8; 7];
        fill(SPECIAL_VALUE, 1, &[1, 2, 3], 4, &mut part).unwrap();
        assert_eq!(
            part,
            [2, 3, 1, 2, 3, 1, 2],
            "continues from byte 4 of the pattern"
        );
        fill(SPECIAL_NAN, 8, &[], 0, &mut out).unwrap();
        assert!(f64::from_le_bytes(out[16..24].try_into().unwrap()).is_nan());
        assert_eq!(fill(SPECIAL_NAN, 2, &[], 0, &mut out), Err(Error::Data));
        let mut keep = vec![5u8; 8];
        fill(SPECIAL_UNINIT, 8, &[], 0, &mut keep).unwrap();
        assert_eq!(keep, vec![5u8; 8]);
        fill(SPECIAL_ZERO, 8, &[], 0, &mut keep).unwrap();
        assert_eq!(keep, vec![0u8; 8]);
    }
}
