//! NDCELL's and NDMEAN's backward passes on any bytes with any (lying) block shape, cell
//! side and typesize: a result or an error, never a panic or an access out of bounds; and
//! NDCELL's forward pass is undone by its backward pass.
#![no_main]

use blosc2::filters::{ndcell, ndmean};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [k, meta, d0, d1, d2, rest @ ..] = data else {
        return;
    };
    let ndim = usize::from(k % 3) + 1;
    let shape: Vec<i32> = [d0, d1, d2][..ndim]
        .iter()
        .map(|&&d| i32::from(d % 20) - 1)
        .collect();
    let typesize = usize::from(k >> 2) % 9;
    let mut out = vec![0u8; rest.len()];
    let _ = ndcell::backward(*meta, &shape, typesize, rest, &mut out);
    let _ = ndmean::backward(*meta, &shape, typesize, rest, &mut out);
    let _ = ndmean::forward(*meta, &shape, typesize, rest, &mut out);
    if ndcell::forward(*meta, &shape, typesize, rest, &mut out).is_ok() {
        let mut back = vec![0u8; rest.len()];
        ndcell::backward(*meta, &shape, typesize, &out, &mut back).expect("backward of forward");
        assert_eq!(back, rest);
    }
});
