//! Any bytes as a b2nd array: its metalayer parsed on its own, the bytes opened as a
//! contiguous frame (`Array::from_cframe`), the whole array read, slices chosen by the
//! input's last bytes read into buffers and into new arrays, and one item written back. Every
//! step must return a result or an error, never panic, read out of bounds or allocate what a
//! header merely claims.

use blosc2::b2nd::meta::Meta;
use blosc2::b2nd::{Array, Params};
use blosc2::schunk::Storage;

/// Largest buffer a run allocates.
const MAX_BUF: i64 = 1 << 22;

/// Bytes of `[start, stop)` with items of `ts` bytes, if at most `MAX_BUF`.
fn box_bytes(start: &[i64], stop: &[i64], ts: i64) -> Option<usize> {
    let mut n = ts;
    for (a, b) in start.iter().zip(stop) {
        n = n.checked_mul(b.checked_sub(*a)?.max(0))?;
    }
    (n <= MAX_BUF).then_some(n as usize)
}

/// Any bytes as a b2nd array (see the module documentation).
pub fn b2nd_read(data: &[u8]) {
    let _ = Meta::deserialize(data);
    let Ok(mut a) = Array::from_cframe(data) else {
        return;
    };
    let shape = a.shape().to_vec();
    let ts = i64::from(a.typesize());
    let zero = vec![0i64; shape.len()];
    if let Some(n) = box_bytes(&zero, &shape, ts) {
        let mut buf = vec![0u8; n];
        let _ = a.to_buffer(&mut buf);
    }
    // Slice corners from the input's tail: most inside the shape, some past it.
    let tail = &data[data.len().saturating_sub(2 * shape.len() + 1)..];
    let wild = tail.first().is_some_and(|b| b & 7 == 0);
    let mut start = Vec::with_capacity(shape.len());
    let mut stop = Vec::with_capacity(shape.len());
    for (d, &s) in shape.iter().enumerate() {
        let x = i64::from(*tail.get(1 + 2 * d).unwrap_or(&0));
        let y = i64::from(*tail.get(2 + 2 * d).unwrap_or(&0));
        if wild {
            start.push(x - 8);
            stop.push(s.saturating_add(y));
        } else {
            let lo = if s > 0 { x % s } else { 0 };
            start.push(lo);
            stop.push((lo + 1 + y).min(s.max(lo)));
        }
    }
    if let Some(n) = box_bytes(&start, &stop, ts) {
        let bufshape: Vec<i64> = start
            .iter()
            .zip(&stop)
            .map(|(a, b)| (b - a).max(0))
            .collect();
        let mut buf = vec![0u8; n];
        let _ = a.get_slice_buffer(&start, &stop, &mut buf, &bufshape);
        let mut storage = Storage::default();
        storage.cparams.typesize = a.typesize();
        storage.cparams.nthreads = 1;
        let params = Params::new(storage, a.geometry().clone());
        let _ = a.get_slice(&params, &start, &stop);
    }
    // One item written at the slice's first corner (when it lies inside).
    if !wild && shape.iter().all(|&s| s > 0) && ts <= MAX_BUF {
        let one: Vec<i64> = start.iter().map(|s| s + 1).collect();
        let item = vec![0xA5u8; ts as usize];
        let _ = a.set_slice_buffer(&start, &one, &item, &vec![1; shape.len()]);
    }
}
