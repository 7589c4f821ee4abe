//! Chunks whose content is implied by the header: zeros, NaNs, a repeated value, uninit.

use crate::constants::*;
use crate::error::{Error, Result};

/// Fills `out` (a whole number of elements, starting at an element boundary) with the
/// special value of kind `special`; `value` holds the repeated value for `SPECIAL_VALUE`.
pub(crate) fn fill(special: u8, typesize: usize, value: &[u8], out: &mut [u8]) -> Result<()> {
    match special {
        SPECIAL_ZERO => out.fill(0),
        SPECIAL_UNINIT => {}
        SPECIAL_NAN => match typesize {
            4 => fill_pattern(out, &f32::NAN.to_le_bytes()),
            8 => fill_pattern(out, &f64::NAN.to_le_bytes()),
            _ => return Err(Error::Data),
        },
        SPECIAL_VALUE => {
            if value.is_empty() || out.len() % value.len() != 0 {
                return Err(Error::Data);
            }
            fill_pattern(out, value);
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

    #[test]
    fn fills() {
        let mut out = vec![9u8; 24];
        fill(SPECIAL_VALUE, 3, &[1, 2, 3], &mut out).unwrap();
        assert_eq!(&out[..6], &[1, 2, 3, 1, 2, 3]);
        assert_eq!(&out[21..], &[1, 2, 3]);
        fill(SPECIAL_NAN, 8, &[], &mut out).unwrap();
        assert!(f64::from_le_bytes(out[16..24].try_into().unwrap()).is_nan());
        assert_eq!(fill(SPECIAL_NAN, 2, &[], &mut out), Err(Error::Data));
        let mut keep = vec![5u8; 8];
        fill(SPECIAL_UNINIT, 8, &[], &mut keep).unwrap();
        assert_eq!(keep, vec![5u8; 8]);
        fill(SPECIAL_ZERO, 8, &[], &mut keep).unwrap();
        assert_eq!(keep, vec![0u8; 8]);
    }
}
