//! The "b2nd" metalayer: a msgpack array describing shape, chunk and block shapes and dtype.
//!
//! Layout (as the reference writes it): fixarray(7) of version (0), ndim, shape (int64
//! values, always `d3`), chunkshape and blockshape (int32 values, always `d2`),
//! dtype format, and the dtype as a str32 (`db`, big-endian length, bytes).

use crate::error::{Error, Result};

/// Maximum number of dimensions.
pub const MAX_DIM: usize = 16;
/// Data type written when none is given.
pub const DEFAULT_DTYPE: &str = "|u1";
/// Version of the metalayer format written.
pub const METALAYER_VERSION: u8 = 0;

/// The content of a b2nd metalayer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// Shape of the array.
    pub shape: Vec<i64>,
    /// Shape of the chunks.
    pub chunkshape: Vec<i32>,
    /// Shape of the blocks.
    pub blockshape: Vec<i32>,
    /// Data type description (NumPy format by default); `None` when the metalayer ends
    /// after the block shape (legacy "caterva" metalayers).
    pub dtype: Option<String>,
    /// Format of `dtype` (0 = NumPy).
    pub dtype_format: i8,
}

impl Meta {
    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Serialises the metalayer; fails when the shapes disagree in length or exceed 16
    /// dimensions.
    pub fn serialize(&self) -> Result<Vec<u8>> {
        let ndim = self.ndim();
        if ndim > MAX_DIM || self.chunkshape.len() != ndim || self.blockshape.len() != ndim {
            return Err(Error::InvalidParam);
        }
        let dtype = self.dtype.as_deref().unwrap_or(DEFAULT_DTYPE);
        if self.dtype_format < 0 {
            return Err(Error::Failure);
        }
        let dtype_len = i32::try_from(dtype.len()).map_err(|_| Error::Failure)?;
        let mut out = Vec::with_capacity(8 + ndim * 19 + dtype.len());
        out.push(0x97);
        out.push(METALAYER_VERSION);
        out.push(ndim as u8);
        out.push(0x90 | ndim as u8);
        for &d in &self.shape {
            out.push(0xd3);
            out.extend_from_slice(&d.to_be_bytes());
        }
        for shape in [&self.chunkshape, &self.blockshape] {
            out.push(0x90 | ndim as u8);
            for &d in shape {
                out.push(0xd2);
                out.extend_from_slice(&d.to_be_bytes());
            }
        }
        out.push(self.dtype_format as u8);
        out.push(0xdb);
        out.extend_from_slice(&dtype_len.to_be_bytes());
        out.extend_from_slice(dtype.as_bytes());
        Ok(out)
    }

    /// Parses a metalayer; returns it with the number of bytes consumed. The dtype is
    /// optional (absent when the bytes end after the block shape).
    pub fn deserialize(smeta: &[u8]) -> Result<(Meta, usize)> {
        let mut r = Reader { buf: smeta, pos: 0 };
        if r.byte()? & 0xf0 != 0x90 {
            return Err(Error::Failure);
        }
        r.byte()?;
        let ndim = r.byte()? as i8;
        if !(0..=MAX_DIM as i8).contains(&ndim) {
            return Err(Error::Failure);
        }
        let ndim = ndim as usize;
        r.array_marker()?;
        let shape = (0..ndim)
            .map(|_| r.marked::<8>(0xd3).map(i64::from_be_bytes))
            .collect::<Result<Vec<_>>>()?;
        r.array_marker()?;
        let chunkshape = (0..ndim)
            .map(|_| r.marked::<4>(0xd2).map(i32::from_be_bytes))
            .collect::<Result<Vec<_>>>()?;
        r.array_marker()?;
        let blockshape = (0..ndim)
            .map(|_| r.marked::<4>(0xd2).map(i32::from_be_bytes))
            .collect::<Result<Vec<_>>>()?;
        let (dtype, dtype_format, end) = if r.pos == smeta.len() {
            (None, 0, r.pos)
        } else {
            let dtype_format = r.byte()? as i8;
            let len = i32::from_be_bytes(r.marked::<4>(0xdb)?);
            let len = usize::try_from(len).map_err(|_| Error::Failure)?;
            let end = r.pos.checked_add(len).ok_or(Error::Failure)?;
            let bytes = smeta.get(r.pos..end).ok_or(Error::Failure)?;
            (
                Some(String::from_utf8_lossy(bytes).into_owned()),
                dtype_format,
                end,
            )
        };
        let meta = Meta {
            shape,
            chunkshape,
            blockshape,
            dtype,
            dtype_format,
        };
        Ok((meta, end))
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8> {
        let b = *self.buf.get(self.pos).ok_or(Error::Failure)?;
        self.pos += 1;
        Ok(b)
    }

    fn array_marker(&mut self) -> Result<()> {
        if self.byte()? & 0xf0 == 0x90 {
            Ok(())
        } else {
            Err(Error::Failure)
        }
    }

    fn marked<const N: usize>(&mut self, marker: u8) -> Result<[u8; N]> {
        if self.byte()? != marker {
            return Err(Error::Failure);
        }
        let end = self.pos + N;
        let bytes = self.buf.get(self.pos..end).ok_or(Error::Failure)?;
        self.pos = end;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Meta {
        Meta {
            shape: vec![10, 7],
            chunkshape: vec![4, 4],
            blockshape: vec![2, 2],
            dtype: Some("<f8".into()),
            dtype_format: 0,
        }
    }

    #[test]
    fn serialises_the_measured_reference_layout() {
        let s = example().serialize().unwrap();
        assert_eq!(s.len(), 53, "BEHAVIOUR.md §13 measures 53 bytes");
        assert_eq!(&s[..5], &[0x97, 0x00, 0x02, 0x92, 0xd3]);
        assert_eq!(&s[s.len() - 8..], &[0xdb, 0, 0, 0, 3, b'<', b'f', b'8']);
    }

    #[test]
    fn rejects_hostile_metalayers() {
        let s = example().serialize().unwrap();
        let mut bad = s.clone();
        bad[2] = 17;
        assert!(Meta::deserialize(&bad).is_err(), "ndim above 16");
        bad[2] = 0xff;
        assert!(Meta::deserialize(&bad).is_err(), "negative ndim");
        let mut long = s.clone();
        let n = long.len();
        long[n - 7..n - 3].copy_from_slice(&1000i32.to_be_bytes());
        assert!(Meta::deserialize(&long).is_err(), "dtype past the end");
        long[n - 7..n - 3].copy_from_slice(&(-1i32).to_be_bytes());
        assert!(Meta::deserialize(&long).is_err(), "negative dtype length");
        let mut neg = example();
        neg.dtype_format = -1;
        assert!(neg.serialize().is_err());
    }

    #[test]
    fn round_trips_and_rejects_truncation() {
        let s = example().serialize().unwrap();
        assert_eq!(Meta::deserialize(&s).unwrap(), (example(), s.len()));
        let no_dtype = s.len() - 8 - 1;
        for cut in (0..s.len()).filter(|&c| c != no_dtype) {
            assert!(Meta::deserialize(&s[..cut]).is_err(), "cut {cut}");
        }
        let (legacy, used) = Meta::deserialize(&s[..no_dtype]).unwrap();
        assert_eq!(
            (legacy.dtype, legacy.dtype_format, used),
            (None, 0, no_dtype)
        );
    }
}
