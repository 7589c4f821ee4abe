//! The worker pool that runs block jobs for a context.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::chunk::scratch::Scratch;
use crate::error::{Error, Result};

/// A pool of worker threads, each with its own working memory.
#[derive(Debug)]
pub struct Pool {
    pool: rayon::ThreadPool,
    scratch: Vec<Mutex<Scratch>>,
}

impl Pool {
    /// Starts `n` worker threads.
    pub fn new(n: usize) -> Result<Pool> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("blosc2-worker-{i}"))
            .build()
            .map_err(|_| Error::ThreadCreate)?;
        let scratch = (0..n).map(|_| Mutex::new(Scratch::default())).collect();
        Ok(Pool { pool, scratch })
    }

    /// Number of worker threads.
    pub fn len(&self) -> usize {
        self.scratch.len()
    }

    /// Whether the pool has no threads (never true for a built pool).
    pub fn is_empty(&self) -> bool {
        self.scratch.is_empty()
    }

    /// Runs `f` inside the pool, so that rayon parallel iterators use its threads.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// The working memory of the calling worker thread.
    pub fn scratch(&self) -> MutexGuard<'_, Scratch> {
        let i = rayon::current_thread_index().unwrap_or(0) % self.scratch.len().max(1);
        self.scratch[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
