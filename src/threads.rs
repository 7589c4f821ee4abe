//! Running block jobs in parallel: on the context's own worker threads, or through a
//! parallel-for the caller installs with [`set_executor`] (then the library starts no thread).
//!
//! A parallel operation runs `n` jobs with thread ids `0..n`; every job owns the working
//! memory of its id and takes blocks from a shared counter until none are left.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock, TryLockError, Weak};

use crate::chunk::scratch::Scratch;
use crate::error::{Error, Result};

/// A caller's parallel-for: runs `job(i)` for every `i` in `0..numjobs` and returns once
/// all of them have finished.
pub type Executor = Arc<dyn Fn(usize, &(dyn Fn(usize) + Sync)) + Send + Sync>;

static EXECUTOR: RwLock<Option<Executor>> = RwLock::new(None);

/// Installs (or with `None` removes) the parallel-for every later parallel operation uses.
pub fn set_executor(executor: Option<Executor>) {
    *EXECUTOR.write().unwrap_or_else(PoisonError::into_inner) = executor;
}

/// Whether a parallel-for is installed (see [`set_executor`]).
pub fn executor_installed() -> bool {
    EXECUTOR
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .is_some()
}

fn executor() -> Option<Executor> {
    EXECUTOR
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Spin-loop pauses the calling thread waits for the other jobs of a parallel operation
/// before it blocks.
const CALLER_SPINS: usize = 2000;

/// Bytes of input a job takes at once when blocks are small: blocks go to the thread ids in
/// groups of consecutive ones this large at most, so that what the threads share (the block
/// counter, and per block what the operation shares) is touched once per group.
const GROUP_BYTES: usize = 64 * 1024;

/// Fewest groups per thread id: groups stay small enough for the threads to end together.
const MIN_GROUPS_PER_THREAD: usize = 8;

/// Most threads a pool starts; more thread ids share them (their jobs run in turn).
const MAX_OS_THREADS: usize = 256;

/// Pools in use, at most one per number of thread ids (see [`Pool::shared`]).
static SHARED: Mutex<Vec<Weak<Pool>>> = Mutex::new(Vec::new());

/// The workers of a context: one slot of working memory per thread id, and the threads
/// themselves, started on first use.
#[derive(Debug)]
pub struct Pool {
    threads: OnceLock<rayon::ThreadPool>,
    scratch: Vec<Mutex<Scratch>>,
}

impl Pool {
    /// Workers for `n` thread ids (no thread is started yet).
    pub fn new(n: usize) -> Pool {
        Pool {
            threads: OnceLock::new(),
            scratch: (0..n.max(1))
                .map(|_| Mutex::new(Scratch::default()))
                .collect(),
        }
    }

    /// The pool of `n` thread ids that every context asking for `n` threads shares while any
    /// of them holds it, as the reference's contexts share theirs: the threads and the
    /// working memory a compression warmed up serve the decompressions that follow.
    pub fn shared(n: usize) -> Arc<Pool> {
        let n = n.max(1);
        let mut pools = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        pools.retain(|w| w.strong_count() > 0);
        if let Some(p) = pools
            .iter()
            .filter_map(Weak::upgrade)
            .find(|p| p.len() == n)
        {
            return p;
        }
        let p = Arc::new(Pool::new(n));
        pools.push(Arc::downgrade(&p));
        p
    }

    /// Number of thread ids.
    pub fn len(&self) -> usize {
        self.scratch.len()
    }

    /// Whether the pool has no thread id (never true).
    pub fn is_empty(&self) -> bool {
        self.scratch.is_empty()
    }

    /// Runs `f` with the working memory of thread id `tid`, or with fresh working memory
    /// when another operation on the shared pool (or a callback nested in this one) holds it.
    pub fn with_scratch<R>(&self, tid: usize, f: impl FnOnce(&mut Scratch) -> R) -> R {
        match self.scratch[tid % self.len()].try_lock() {
            Ok(mut sc) => f(&mut sc),
            Err(TryLockError::Poisoned(p)) => f(&mut p.into_inner()),
            Err(TryLockError::WouldBlock) => f(&mut Scratch::default()),
        }
    }

    fn threads(&self) -> Result<&rayon::ThreadPool> {
        if let Some(t) = self.threads.get() {
            return Ok(t);
        }
        // The caller runs thread id 0 itself.
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads((self.len() - 1).clamp(1, MAX_OS_THREADS))
            // One name for all: numbering them would run the number formatting code (and map
            // its pages) in the first parallel call.
            .thread_name(|_| String::from("blosc2-worker"))
            .build()
            .map_err(|_| Error::ThreadCreate)?;
        Ok(self.threads.get_or_init(|| built))
    }

    /// How many consecutive blocks of `blocksize` bytes a job takes at once, out of `n`: one
    /// unless blocks are small and many (see [`GROUP_BYTES`]).
    pub fn group_len(&self, blocksize: usize, n: usize) -> usize {
        let by_size = GROUP_BYTES / blocksize.max(1);
        by_size
            .min(n / (self.len() * MIN_GROUPS_PER_THREAD).max(1))
            .max(1)
    }

    /// Runs `job(tid, scratch)` once for every thread id, in parallel, and waits for all.
    pub fn run(&self, job: &(dyn Fn(usize, &mut Scratch) + Sync)) -> Result<()> {
        let per_tid = |tid: usize| self.with_scratch(tid, |sc| job(tid, sc));
        if let Some(ex) = executor() {
            ex(self.len(), &per_tid);
            return Ok(());
        }
        if self.len() == 1 {
            per_tid(0);
            return Ok(());
        }
        let finished = AtomicUsize::new(0);
        let (per_tid, finished) = (&per_tid, &finished);
        self.threads()?.in_place_scope(|s| {
            for tid in 1..self.len() {
                s.spawn(move |_| {
                    per_tid(tid);
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            per_tid(0);
            // The other jobs usually end within microseconds of this one: waiting for them
            // here keeps the scope from putting this thread to sleep and waking it again.
            for _ in 0..CALLER_SPINS {
                if finished.load(Ordering::Acquire) + 1 >= self.len() {
                    break;
                }
                std::hint::spin_loop();
            }
        });
        Ok(())
    }

    /// Runs `block(j, tid, scratch)` for every `j` in `0..nblocks`, spread over the thread
    /// ids. Fails with [`Error::ThreadCreate`] when some block never ran (a parallel-for that
    /// skipped jobs).
    pub fn for_each_block(
        &self,
        nblocks: usize,
        block: &(dyn Fn(usize, usize, &mut Scratch) + Sync),
    ) -> Result<()> {
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        self.run(&|tid, sc| {
            let mut ran = 0;
            loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                if j >= nblocks {
                    break;
                }
                block(j, tid, sc);
                ran += 1;
            }
            done.fetch_add(ran, Ordering::Relaxed);
        })?;
        if done.load(Ordering::Acquire) == nblocks {
            Ok(())
        } else {
            Err(Error::ThreadCreate)
        }
    }
}

/// The first error by block index among per-block results, as a serial run would meet it.
pub(crate) struct FirstError(Mutex<Option<(usize, Error)>>);

impl FirstError {
    /// No error yet.
    pub fn new() -> FirstError {
        FirstError(Mutex::new(None))
    }

    /// Records the error of block `j` unless an earlier block already failed.
    pub fn record(&self, j: usize, e: Error) {
        let mut g = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !matches!(*g, Some((i, _)) if i < j) {
            *g = Some((j, e));
        }
    }

    /// The recorded error, if any.
    pub fn into_result(self) -> Result<()> {
        match self.0.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_runs_once_on_a_valid_thread_id() {
        let pool = Pool::new(3);
        let seen: Vec<AtomicUsize> = (0..50).map(|_| AtomicUsize::new(0)).collect();
        pool.for_each_block(50, &|j, tid, _| {
            assert!(tid < 3);
            seen[j].fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
    }

    #[test]
    fn groups_are_single_blocks_unless_blocks_are_small_and_many() {
        let (two, four, one) = (Pool::new(2), Pool::new(4), Pool::new(1));
        assert_eq!(two.group_len(256 * 1024, 64), 1);
        assert_eq!(two.group_len(16 * 1024, 256), 4);
        assert_eq!(two.group_len(16 * 1024, 24), 1);
        assert_eq!(four.group_len(1024, 10_000), 64);
        assert_eq!(four.group_len(1024, 100), 3);
        assert_eq!(one.group_len(0, 100), 12);
    }

    #[test]
    fn first_error_is_the_lowest_block() {
        let f = FirstError::new();
        f.record(7, Error::Data);
        f.record(3, Error::ReadBuffer);
        f.record(5, Error::Failure);
        assert_eq!(f.into_result(), Err(Error::ReadBuffer));
    }
}
