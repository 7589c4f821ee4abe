//! Parallel compression: blocks compressed on the pool and laid out in order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::compress::{block_bound, job, serial_block, CompressState, Layout};
use super::header::write_i32;
use super::scratch::ensure;
use super::streams::{encode_block, EncParams};
use crate::error::Result;
use crate::threads::{FirstError, Pool};

/// Where the blocks compressed in parallel are laid out in order: the chunk, the first block
/// not placed yet and where it goes.
struct Placement<'d> {
    dst: &'d mut [u8],
    next: usize,
    pos: usize,
}

/// Result of a parallel block whose job has not finished.
const PENDING: usize = usize::MAX;
/// Result of a parallel block that did not fit its slot.
const NO_FIT: usize = usize::MAX - 1;

/// Compresses blocks `first..` into slots of their own on the pool. Whoever finishes a block
/// also copies every finished block that comes next in order into `dst` (while the other
/// workers go on compressing); blocks left over are placed afterwards. Same outcome as the
/// serial path: a block that may meet tighter limits there is redone serially in place,
/// unless its output does not fit at all. Then, as built-in codecs fail instead of adapting
/// to a smaller output, the serial path fails too, and the workers stop.
#[allow(clippy::too_many_arguments)]
pub(super) fn compress_parallel(
    p: &EncParams,
    lay: &Layout,
    st: &mut CompressState,
    pool: &Pool,
    dst: &mut [u8],
    hlen: usize,
    first: usize,
    pos: usize,
) -> Result<Option<usize>> {
    let slot = block_bound(lay);
    let n = lay.nblocks - first;
    let destsize = dst.len();
    ensure(&mut st.slots, slot * n);
    let results: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(PENDING)).collect();
    let cells: Vec<Mutex<&mut [u8]>> = st.slots[..slot * n]
        .chunks_mut(slot)
        .map(Mutex::new)
        .collect();
    let builtin = p.codec.is_none();
    let overflow = AtomicBool::new(false);
    let placed = Mutex::new(Placement { dst, next: 0, pos });
    // Copies the finished blocks that come next in order, as long as each has room for a
    // whole slot (so that its outcome cannot depend on the space left).
    let place = |out: &mut Placement| {
        while out.next < n {
            let len = results[out.next].load(Ordering::Acquire);
            if len >= NO_FIT {
                break;
            }
            if out.pos + slot > destsize {
                if builtin && out.pos + len > destsize {
                    overflow.store(true, Ordering::Relaxed);
                }
                break;
            }
            let k = out.next;
            let src = cells[k].lock().unwrap_or_else(PoisonError::into_inner);
            write_i32(out.dst, hlen + 4 * (first + k), out.pos as i32);
            out.dst[out.pos..out.pos + len].copy_from_slice(&src[..len]);
            out.pos += len;
            out.next += 1;
        }
    };
    let errors = FirstError::new();
    pool.for_each_block(n, &|k, tid, sc| {
        if overflow.load(Ordering::Relaxed) {
            return;
        }
        let res = {
            let mut out = cells[k].lock().unwrap_or_else(PoisonError::into_inner);
            encode_block(p, sc, job(lay, first + k, tid), &mut out, 0, None)
        };
        match res {
            Ok(r) => results[k].store(r.unwrap_or(NO_FIT), Ordering::Release),
            Err(e) => errors.record(k, e),
        }
        // A busy lock means another worker is placing blocks and will reach this one, or
        // the caller will afterwards.
        if let Ok(mut out) = placed.try_lock() {
            place(&mut out);
        }
    })?;
    errors.into_result()?;
    if overflow.into_inner() {
        return Ok(None);
    }
    let Placement { dst, next, mut pos } =
        placed.into_inner().unwrap_or_else(PoisonError::into_inner);
    drop(cells);
    for (k, result) in results.iter().enumerate().skip(next) {
        let j = first + k;
        let written = match result.load(Ordering::Acquire) {
            len if len < NO_FIT && pos + slot <= destsize => {
                write_i32(dst, hlen + 4 * j, pos as i32);
                dst[pos..pos + len].copy_from_slice(&st.slots[k * slot..k * slot + len]);
                Some(len)
            }
            len if len < NO_FIT && builtin && pos + len > destsize => None,
            _ => serial_block(p, lay, &mut st.scratch, dst, hlen, j, pos)?,
        };
        match written {
            Some(len) => pos += len,
            None => return Ok(None),
        }
    }
    Ok(Some(pos))
}
