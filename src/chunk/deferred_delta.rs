//! Parallel decompression of DELTA chunks of few blocks: the blocks after the first, which
//! DELTA XORs with the decoded first block, are decoded alongside it, and XORed once it is
//! there (instead of starting only after it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};

use super::decompress::Prepared;
use super::pipeline::Filters;
use super::streams::DecParams;
use crate::constants::*;
use crate::error::Result;
use crate::filters::delta;
use crate::threads::{FirstError, Pool};

/// Chunks of at most this many blocks per thread are decoded this way: with more, the first
/// block alone is a small part of the work, and XORing blocks left for later costs more.
const MAX_BLOCKS_PER_THREAD: usize = 4;

/// `f` without its DELTA when DELTA is the only one and the first filter that does anything
/// on decompression (so that its XOR is the block's last step and can be made apart).
fn without_leading_delta<'a>(f: &Filters<'a>) -> Option<Filters<'a>> {
    let first = (0..MAX_FILTERS).find(|&s| !matches!(f.ids[s], NOFILTER | TRUNC_PREC))?;
    if f.ids[first] != DELTA || f.ids[first + 1..].contains(&DELTA) {
        return None;
    }
    let mut rest = *f;
    rest.ids[first] = NOFILTER;
    Some(rest)
}

/// Decodes the blocks of a DELTA chunk into `out` on `pool`, the first with its whole
/// pipeline and the others without DELTA, each XORed with the first as soon as that is
/// decoded (right after its own decoding, or at the end for those done earlier). Returns
/// the decoded size; `None` when the chunk does not qualify (no pool of several threads,
/// many blocks, DELTA not the last step, a postfilter), for the caller's usual path.
pub(crate) fn decode(
    c: &Prepared,
    p: &DecParams,
    pool: Option<&Pool>,
    out: &mut [u8],
) -> Result<Option<usize>> {
    let Some(pool) = pool.filter(|pool| {
        pool.len() > 1 && c.nblocks > 1 && c.nblocks <= MAX_BLOCKS_PER_THREAD * pool.len()
    }) else {
        return Ok(None);
    };
    let Some(filters) = without_leading_delta(&p.filters).filter(|_| c.env.postfilter.is_none())
    else {
        return Ok(None);
    };
    let later = DecParams { filters, ..*p };
    let typesize = p.filters.typesize;
    let bs = c.blocksize;
    let n = out.len();
    let (head, rest) = out.split_at_mut(bs.min(out.len()));
    let first = RwLock::new(head);
    let first_done = AtomicBool::new(false);
    // Each later block, and whether it has been XORed yet.
    let cells: Vec<Mutex<(&mut [u8], bool)>> = rest
        .chunks_mut(bs)
        .map(|b| Mutex::new((b, false)))
        .collect();
    let errors = FirstError::new();
    pool.for_each_block(c.nblocks, &|j, tid, sc| {
        if j == 0 {
            // The flag is raised once the lock is released, so that a block seeing it reads
            // the first block without waiting.
            let decoded = {
                let mut head = first.write().unwrap_or_else(PoisonError::into_inner);
                c.decode(p, sc, 0, &mut head[..], &[], tid)
            };
            match decoded {
                Ok(_) => first_done.store(true, Ordering::Release),
                Err(e) => errors.record(0, e),
            }
            return;
        }
        let mut cell = cells[j - 1].lock().unwrap_or_else(PoisonError::into_inner);
        let (block, xored) = &mut *cell;
        if let Err(e) = c.decode(&later, sc, j, &mut block[..], &[], tid) {
            errors.record(j, e);
            return;
        }
        if first_done.load(Ordering::Acquire) {
            let head = first.read().unwrap_or_else(PoisonError::into_inner);
            delta::decode(&head[..], j * bs, typesize, &mut block[..]);
            *xored = true;
        }
    })?;
    errors.into_result()?;
    let head = first.into_inner().unwrap_or_else(PoisonError::into_inner);
    for (k, cell) in cells.into_iter().enumerate() {
        let (block, xored) = cell.into_inner().unwrap_or_else(PoisonError::into_inner);
        if !xored {
            delta::decode(head, (k + 1) * bs, typesize, block);
        }
    }
    Ok(Some(n))
}
