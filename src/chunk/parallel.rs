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
/// while the next group is compressed straight into it), that block, where it goes,
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
/// group has compressed to more than this fraction of a slot (`1 / SPARE_FILL`): their
/// pages cost memory once written, so a spare then costs a few pages, not a group.
const SPARE_FILL: usize = 16;

/// Placed blocks to copy out of their slot into the chunk: a group, or the part of it
/// before the block where placing stopped.
struct PendingCopy<'d> {
    slot: usize,
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

/// Result of a parallel block whose group has not finished.
const PENDING: usize = usize::MAX;
/// Result of a parallel block that did not fit its slot, failed, or was left to the caller.
const NO_FIT: usize = usize::MAX - 1;

/// Spin-loop pauses a worker finding no free slot waits for a block to be placed before
/// it sleeps.
const SLOT_SPINS: usize = 4000;

/// Longest a worker waiting for a free slot sleeps before it looks again (every change it
/// waits for also wakes it).
const SLOT_WAIT: Duration = Duration::from_millis(1);

/// Compresses blocks `first..` on the pool, in groups of consecutive blocks (one block
/// each unless blocks are small, see [`Pool::group_len`]). A group whose first block comes next
/// in order is compressed straight into `dst`; the others go to one of a few slots (as many
/// as thread ids, and as many spares while groups compress small, see [`SPARE_FILL`]).
/// Whoever finishes a group gives their place in `dst` to every finished block that comes
/// next in order, then copies them there (any worker short of a slot helps) and gives their
/// slots back. A worker that finds no free slot and nothing to copy waits until a slot is
/// given back or its group comes next, so the memory written stays a few groups whatever
/// the scheduling; blocks left over are compressed serially afterwards. Same outcome as
/// the serial path: every block is compressed with room for a whole block bound, and a
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
    let bound = block_bound(lay);
    let n = lay.nblocks - first;
    let g = pool.group_len(lay.blocksize, n);
    let ngroups = n.div_ceil(g);
    let group_end = |k: usize| (k / g * g + g).min(n);
    let slot = g * bound;
    let nslots = pool.len().min(ngroups);
    let nspares = pool.len().min(ngroups - nslots);
    let destsize = dst.len();
    ensure(&mut st.slots, slot * (nslots + nspares));
    // Every block's compressed length; a group publishes its first block's last, so that
    // whoever sees that one sees the group's.
    let results: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(PENDING)).collect();
    // The slot each group went to, and the slots free now, lowest last: the lowest free
    // slot is taken, so that the slots beyond one per thread are written (and cost memory)
    // only when the others all wait to be placed.
    let slot_of: Vec<AtomicUsize> = (0..ngroups).map(|_| AtomicUsize::new(0)).collect();
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
    // The largest group compressed so far: spare slots are taken only while groups are small.
    let largest = AtomicUsize::new(0);
    // Bumped whenever a group is placed, so that a worker waiting for a slot can spin on it.
    let progress = AtomicUsize::new(0);
    // Gives their place to the finished blocks that come next in order, as long as each
    // has room for a whole block bound (so that its outcome cannot depend on the space
    // left), a group's blocks in one piece.
    let assign = |out: &mut Placement| {
        while out.next < n && !out.stopped && !out.lent {
            let k0 = out.next;
            if results[k0].load(Ordering::Acquire) == PENDING {
                break;
            }
            let end = group_end(k0);
            let (mut k, mut len) = (k0, 0);
            while k < end {
                let at = out.pos + len;
                let r = results[k].load(Ordering::Acquire);
                if r == NO_FIT || at + bound > destsize {
                    if builtin && r < NO_FIT && at + r > destsize {
                        overflow.store(true, Ordering::Relaxed);
                    }
                    out.stopped = true;
                    break;
                }
                write_i32(out.head, hlen + 4 * (first + k), at as i32);
                len += r;
                k += 1;
            }
            if k > k0 {
                let (to, tail) = std::mem::take(&mut out.rest).split_at_mut(len);
                out.rest = tail;
                out.copies.push(PendingCopy {
                    slot: slot_of[k0 / g].load(Ordering::Relaxed),
                    to,
                });
                out.pos += len;
                out.next = k;
            }
        }
    };
    // Copies placed blocks out of their slot and gives the slot back (what is left in it,
    // after a block placing stopped at, is compressed again serially).
    let copy_out = |c: PendingCopy| {
        {
            let src = cells[c.slot].lock().unwrap_or_else(PoisonError::into_inner);
            c.to.copy_from_slice(&src[..c.to.len()]);
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
    // Compresses blocks `k0..end` one after the other into `out`, each with room for a
    // whole block bound, until one fails or finds no such room. Stores the lengths of all
    // but the first block in `results` (NO_FIT from the first not compressed on) and
    // returns the first one's, the bytes written and the first block not compressed.
    let run_group = |k0: usize, end: usize, tid, sc: &mut _, out: &mut [u8]| {
        let (mut k, mut len, mut len0) = (k0, 0, NO_FIT);
        while k < end && len + bound <= out.len() {
            match encode_block(
                p,
                sc,
                job(lay, first + k, tid),
                &mut out[len..len + bound],
                0,
                None,
            ) {
                Ok(Some(r)) => {
                    if k == k0 {
                        len0 = r;
                    } else {
                        results[k].store(r, Ordering::Release);
                    }
                    len += r;
                    k += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    errors.record(k, e);
                    break;
                }
            }
        }
        for r in &results[k.max(k0 + 1)..end] {
            r.store(NO_FIT, Ordering::Release);
        }
        largest.fetch_max(len, Ordering::Relaxed);
        (len0, len, k)
    };
    let can_go_direct = |k: usize, out: &Placement| {
        out.next == k && !out.stopped && !out.lent && out.pos + bound <= destsize
    };
    pool.for_each_block(ngroups, &|q, tid, sc| {
        if overflow.load(Ordering::Relaxed) {
            return;
        }
        let (k0, end) = (q * g, group_end(q * g));
        let mut spun = false;
        let s = loop {
            let mut out = lock();
            assign(&mut out);
            if can_go_direct(k0, &out) {
                // The group, the next in order, is compressed straight into the chunk, lent
                // out meanwhile (nothing else can be placed before it anyway).
                let at = out.pos;
                let rest = std::mem::take(&mut out.rest);
                out.lent = true;
                drop(out);
                let (len0, len, k) = run_group(k0, end, tid, sc, rest);
                let mut out = lock();
                out.lent = false;
                results[k0].store(len0, Ordering::Release);
                let mut to = at;
                for (j, r) in results.iter().enumerate().take(k).skip(k0) {
                    write_i32(out.head, hlen + 4 * (first + j), to as i32);
                    to += r.load(Ordering::Relaxed);
                }
                out.rest = <[u8]>::split_at_mut(rest, len).1;
                out.pos += len;
                out.next = k;
                progress.fetch_add(1, Ordering::Release);
                drop(out);
                place();
                return;
            }
            if let Some(s) = take_slot(spun && largest.load(Ordering::Relaxed) <= slot / SPARE_FILL)
            {
                break s;
            }
            if out.stopped || (out.next == k0 && !out.lent) {
                // Placing has stopped, or stops at this group (no room for a whole block
                // bound): the caller compresses it serially.
                for r in &results[k0..end] {
                    r.store(NO_FIT, Ordering::Release);
                }
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
                // Groups of fast codecs take microseconds: the slot is usually given back
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
        slot_of[q].store(s, Ordering::Relaxed);
        let (len0, _, _) = {
            let mut out = cells[s].lock().unwrap_or_else(PoisonError::into_inner);
            run_group(k0, end, tid, sc, &mut out[..])
        };
        results[k0].store(len0, Ordering::Release);
        // The chunk may be lent out: then its borrower places this group on return.
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
    // The blocks from where placing stopped (a block that failed, or had no room for a
    // whole block bound) on are redone serially, where they meet the real limits; a built-in
    // codec's block too large for what is left fails there as it would here.
    for (k, r) in results.iter().enumerate().skip(next) {
        let j = first + k;
        let written = match r.load(Ordering::Acquire) {
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
