//! Parallel compression: blocks compressed on the pool and laid out in order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

use super::compress::{block_bound, job, serial_block, CompressState, Layout};
use super::header::write_i32;
use super::scratch::ensure;
use super::streams::{encode_block, EncParams};
use crate::error::Result;
use crate::threads::{FirstError, Pool};

/// Where the blocks compressed in parallel are laid out in order: the chunk up to the first
/// block (where the block starts go) and from the first block not placed yet on (lent out
/// while the next block is compressed straight into it), that block, where it goes,
/// whether placing has stopped for good (a block that did not fit, failed, or has no room
/// for a whole slot: the caller finishes serially), how many workers wait for a slot and
/// have not been woken yet (only then is there anyone to wake), how many times they were
/// woken, and the copies of placed blocks out of their slots that nobody has started.
struct Placement<'d> {
    head: &'d mut [u8],
    rest: &'d mut [u8],
    lent: bool,
    next: usize,
    pos: usize,
    stopped: bool,
    waiting: usize,
    wakeups: u64,
    copies: Vec<PendingCopy<'d>>,
}

/// Spare slots (as many as the others, taken only when those all wait: a block several
/// times slower than the others, as the first of a chunk often is) are taken only while no
/// block has compressed to more than this fraction of a slot (`1 / SPARE_FILL`): their
/// pages cost memory once written, so a spare then costs a few pages, not a block.
const SPARE_FILL: usize = 16;

/// A placed block to copy out of its slot into the chunk.
struct PendingCopy<'d> {
    slot: usize,
    len: usize,
    to: &'d mut [u8],
}

/// Tries to take a lock this many times, a spin-loop pause apart, before sleeping on it.
const LOCK_SPINS: usize = 1000;

/// Takes `m`, trying a while before sleeping: its holders keep it for a block copy at most,
/// less than a sleeping thread takes to be woken (on small blocks of fast codecs, sleeping
/// at once made the threads take turns instead of working side by side).
fn spin_lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    for _ in 0..LOCK_SPINS {
        match m.try_lock() {
            Ok(g) => return g,
            Err(TryLockError::Poisoned(p)) => return p.into_inner(),
            Err(TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Result of a parallel block whose job has not finished.
const PENDING: usize = usize::MAX;
/// Result of a parallel block that did not fit its slot, failed, or was left to the caller.
const NO_FIT: usize = usize::MAX - 1;

/// Spin-loop pauses a worker finding no free slot waits for a block to be placed before
/// it sleeps.
const SLOT_SPINS: usize = 4000;

/// Longest a worker waiting for a free slot sleeps before it looks again (every change it
/// waits for also wakes it).
const SLOT_WAIT: Duration = Duration::from_millis(1);

/// Compresses blocks `first..` on the pool. The block that comes next in order is compressed
/// straight into `dst`; the others go to one of a few slots (as many as thread ids, and as
/// many spares while blocks compress small, see [`SPARE_FILL`]). Whoever
/// finishes a block gives their place in `dst` to every finished block that comes next in
/// order, then copies them there (any worker short of a slot helps) and gives their slots
/// back. A worker that finds no free slot and nothing to copy waits until a slot is given
/// back or its block comes next, so the memory written stays a few blocks whatever the
/// scheduling; blocks left over are placed afterwards. Same outcome as the serial path: a
/// block that may meet tighter limits there is redone serially in place, unless its output
/// does not fit at all. Then, as built-in codecs fail instead of adapting to a smaller
/// output, the serial path fails too, and the workers stop.
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
    let nslots = pool.len().min(n);
    let nspares = pool.len().min(n - nslots);
    let destsize = dst.len();
    ensure(&mut st.slots, slot * (nslots + nspares));
    let results: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(PENDING)).collect();
    // The slot each block went to, and the slots free now, lowest last: the lowest free
    // slot is taken, so that the slots beyond one per thread are written (and cost memory)
    // only when the others all wait to be placed.
    let slot_of: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
    let free = Mutex::new((0..nslots + nspares).rev().collect::<Vec<usize>>());
    // Takes the lowest free slot: a spare only when `spare` is set.
    let take_slot = |spare: bool| {
        let mut f = spin_lock(&free);
        match f.last() {
            Some(&s) if s < nslots || spare => f.pop(),
            _ => None,
        }
    };
    let cells: Vec<Mutex<&mut [u8]>> = st.slots[..slot * (nslots + nspares)]
        .chunks_mut(slot)
        .map(Mutex::new)
        .collect();
    let builtin = p.codec.is_none();
    let overflow = AtomicBool::new(false);
    let (head, rest) = dst.split_at_mut(pos);
    let placed = Mutex::new(Placement {
        head,
        rest,
        lent: false,
        next: 0,
        pos,
        stopped: false,
        waiting: 0,
        wakeups: 0,
        copies: Vec::with_capacity(nslots),
    });
    let lock = || spin_lock(&placed);
    let given_back = Condvar::new();
    // The largest block compressed so far: spare slots are taken only while blocks are small.
    let largest = AtomicUsize::new(0);
    // Bumped whenever a block is placed, so that a worker waiting for a slot can spin on it.
    let progress = AtomicUsize::new(0);
    // Gives their place to the finished blocks that come next in order, as long as each
    // has room for a whole slot (so that its outcome cannot depend on the space left).
    let assign = |out: &mut Placement| {
        while out.next < n && !out.stopped && !out.lent {
            let len = results[out.next].load(Ordering::Acquire);
            if len == PENDING {
                break;
            }
            if len == NO_FIT || out.pos + slot > destsize {
                if builtin && len < NO_FIT && out.pos + len > destsize {
                    overflow.store(true, Ordering::Relaxed);
                }
                out.stopped = true;
                break;
            }
            let k = out.next;
            write_i32(out.head, hlen + 4 * (first + k), out.pos as i32);
            let (to, tail) = std::mem::take(&mut out.rest).split_at_mut(len);
            out.rest = tail;
            out.copies.push(PendingCopy {
                slot: slot_of[k].load(Ordering::Relaxed),
                len,
                to,
            });
            out.pos += len;
            out.next += 1;
        }
    };
    // Copies a placed block out of its slot and gives the slot back.
    let copy_out = |c: PendingCopy| {
        {
            let src = cells[c.slot].lock().unwrap_or_else(PoisonError::into_inner);
            c.to.copy_from_slice(&src[..c.len]);
        }
        {
            let mut f = spin_lock(&free);
            let at = f.partition_point(|&s| s > c.slot);
            f.insert(at, c.slot);
        }
        progress.fetch_add(1, Ordering::Release);
    };
    // Places what it can and copies until nothing is left to copy, then wakes the workers
    // waiting for a slot that no earlier call woke, if any (a wake-up is a system call even
    // with no waiter, and every waiter woken goes on to look for itself).
    let place = || loop {
        let mut out = lock();
        assign(&mut out);
        match out.copies.pop() {
            Some(c) => {
                drop(out);
                copy_out(c);
            }
            None => {
                if out.waiting > 0 {
                    out.waiting = 0;
                    out.wakeups += 1;
                    given_back.notify_all();
                }
                return;
            }
        }
    };
    let errors = FirstError::new();
    let can_go_direct = |k: usize, out: &Placement| {
        out.next == k && !out.stopped && !out.lent && out.pos + slot <= destsize
    };
    pool.for_each_block(n, &|k, tid, sc| {
        if overflow.load(Ordering::Relaxed) {
            return;
        }
        let mut spun = false;
        let s = loop {
            let mut out = lock();
            assign(&mut out);
            if can_go_direct(k, &out) {
                // Block `k`, the next in order, is compressed straight into the chunk, lent
                // out meanwhile (nothing else can be placed before it anyway).
                let at = out.pos;
                let rest = std::mem::take(&mut out.rest);
                out.lent = true;
                drop(out);
                let res = encode_block(p, sc, job(lay, first + k, tid), &mut rest[..slot], 0, None);
                let mut out = lock();
                out.lent = false;
                match res {
                    Ok(Some(len)) => {
                        write_i32(out.head, hlen + 4 * (first + k), at as i32);
                        out.rest = <[u8]>::split_at_mut(rest, len).1;
                        out.pos += len;
                        out.next += 1;
                        largest.fetch_max(len, Ordering::Relaxed);
                        results[k].store(len, Ordering::Release);
                        progress.fetch_add(1, Ordering::Release);
                    }
                    Ok(None) => {
                        out.rest = rest;
                        results[k].store(NO_FIT, Ordering::Release);
                    }
                    Err(e) => {
                        out.rest = rest;
                        errors.record(k, e);
                        results[k].store(NO_FIT, Ordering::Release);
                    }
                }
                drop(out);
                place();
                return;
            }
            if let Some(s) = take_slot(spun && largest.load(Ordering::Relaxed) <= slot / SPARE_FILL)
            {
                break s;
            }
            if out.stopped || (out.next == k && !out.lent) {
                // Placing has stopped, or stops at this block (no room for a whole slot):
                // the caller compresses it serially.
                results[k].store(NO_FIT, Ordering::Release);
                drop(out);
                place();
                return;
            }
            if let Some(c) = out.copies.pop() {
                // No slot free, but one is about to be: help copy.
                drop(out);
                copy_out(c);
                continue;
            }
            if !spun {
                // Blocks of fast codecs take microseconds: the slot is usually given back
                // sooner than a sleeping thread could be woken.
                spun = true;
                let seen = progress.load(Ordering::Acquire);
                drop(out);
                for _ in 0..SLOT_SPINS {
                    if progress.load(Ordering::Acquire) != seen {
                        break;
                    }
                    std::hint::spin_loop();
                }
                continue;
            }
            out.waiting += 1;
            let woken = out.wakeups;
            let (mut out, _) = given_back
                .wait_timeout(out, SLOT_WAIT)
                .unwrap_or_else(PoisonError::into_inner);
            if out.wakeups == woken {
                // Timed out (or woken spuriously): still counted as waiting.
                out.waiting -= 1;
            }
        };
        slot_of[k].store(s, Ordering::Relaxed);
        let res = {
            let mut out = cells[s].lock().unwrap_or_else(PoisonError::into_inner);
            encode_block(p, sc, job(lay, first + k, tid), &mut out, 0, None)
        };
        match res {
            Ok(r) => {
                largest.fetch_max(r.unwrap_or(0), Ordering::Relaxed);
                results[k].store(r.unwrap_or(NO_FIT), Ordering::Release);
            }
            Err(e) => {
                errors.record(k, e);
                results[k].store(NO_FIT, Ordering::Release);
            }
        }
        // The chunk may be lent out: then its borrower places this block on return.
        place();
    })?;
    errors.into_result()?;
    if overflow.into_inner() {
        return Ok(None);
    }
    let Placement {
        next,
        mut pos,
        copies,
        ..
    } = placed.into_inner().unwrap_or_else(PoisonError::into_inner);
    debug_assert!(copies.is_empty());
    drop(copies);
    drop(cells);
    for (k, result) in results.iter().enumerate().skip(next) {
        let j = first + k;
        let written = match result.load(Ordering::Acquire) {
            len if len < NO_FIT && pos + slot <= destsize => {
                write_i32(dst, hlen + 4 * j, pos as i32);
                let at = slot_of[k].load(Ordering::Relaxed) * slot;
                dst[pos..pos + len].copy_from_slice(&st.slots[at..at + len]);
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
