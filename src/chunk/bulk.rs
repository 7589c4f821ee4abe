//! Large copies and fills (memcpyed chunks, all-zero chunks) in pieces small enough for
//! the C library's string instructions. Copies are spread over the pool's threads when there
//! are several and the buffer is large, as one thread does not reach the memory bandwidth;
//! fills stay on the calling thread (spread, they took as much more CPU time as they saved
//! wall time).

use std::sync::{Mutex, PoisonError};

use crate::threads::Pool;

/// Size of the pieces large copies and fills are made of: small enough for the C library's
/// string instructions (much faster than its vector loops on large buffers out of cache).
pub(crate) const COPY_PIECE: usize = 128 * 1024;

/// Smallest buffer whose copy is spread over the threads: below it, handing the
/// pieces out costs about what a second thread saves.
const PARALLEL_MIN: usize = 4 * COPY_PIECE;

/// Copies `src` into `out` (of the same length) in pieces of [`COPY_PIECE`] bytes.
pub(crate) fn copy_in_pieces(src: &[u8], out: &mut [u8]) {
    for (o, s) in out.chunks_mut(COPY_PIECE).zip(src.chunks(COPY_PIECE)) {
        o.copy_from_slice(s);
    }
}

/// Copies `src` into `out` (of the same length), on the pool's threads when worth it.
pub(crate) fn copy(pool: Option<&Pool>, src: &[u8], out: &mut [u8]) {
    if !by_pieces(pool, out, &|k, o| {
        o.copy_from_slice(&src[k * COPY_PIECE..k * COPY_PIECE + o.len()])
    }) {
        copy_in_pieces(src, out);
    }
}

/// Fills `out` with zeros.
pub(crate) fn zero(out: &mut [u8]) {
    out.chunks_mut(COPY_PIECE).for_each(|o| o.fill(0));
}

/// Runs `piece(k, out_piece)` for every [`COPY_PIECE`] of `out` on the pool, when it has
/// several threads (its own, not a caller's parallel-for) and `out` is large; whether it did.
fn by_pieces(
    pool: Option<&Pool>,
    out: &mut [u8],
    piece: &(dyn Fn(usize, &mut [u8]) + Sync),
) -> bool {
    let worth = |p: &&Pool| p.len() > 1 && out.len() >= PARALLEL_MIN;
    // A caller's parallel-for is handed the blocks of a chunk only, as by the reference.
    let Some(pool) = pool.filter(|p| worth(p) && !crate::threads::executor_installed()) else {
        return false;
    };
    let pieces: Vec<Mutex<&mut [u8]>> = out.chunks_mut(COPY_PIECE).map(Mutex::new).collect();
    pool.for_each_block(pieces.len(), &|k, _, _| {
        piece(
            k,
            &mut pieces[k].lock().unwrap_or_else(PoisonError::into_inner),
        )
    })
    .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer of several pieces and a partial one, with no two pieces alike.
    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / COPY_PIECE) as u8).collect()
    }

    #[test]
    fn copies_and_fills_every_byte_with_or_without_threads() {
        let n = 9 * COPY_PIECE + 4321;
        let src = pattern(n);
        for pool in [None, Some(Pool::new(1)), Some(Pool::new(3))] {
            let mut out = vec![0xa5; n];
            copy(pool.as_ref(), &src, &mut out);
            assert!(out == src);
            zero(&mut out);
            assert!(out.iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn small_buffers_stay_on_the_calling_thread() {
        let pool = Pool::new(2);
        let mut out = vec![1u8; PARALLEL_MIN - 1];
        assert!(!by_pieces(Some(&pool), &mut out, &|_, o| o.fill(0)));
        assert!(out.iter().all(|&b| b == 1));
    }
}
