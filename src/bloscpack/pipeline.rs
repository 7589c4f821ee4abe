//! An ordered three-stage pipeline for streaming chunk work: a serial stage fills a batch
//! (reads), the batch is processed in parallel on the rayon pool (compresses, decodes,
//! checks digests), and a serial stage drains it in order (writes). Filling batch k+1 and
//! draining batch k-1 run while batch k is processed, and the buffers of two batches are
//! reused throughout, so memory stays bounded and no big buffer is zeroed twice.

use rayon::prelude::*;

use super::error::Result;

/// One unit of work and its reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    /// Its position in the stream (chunk number).
    pub index: i64,
    /// Where its input starts (file offset, for messages).
    pub offset: u64,
    /// The input bytes (valid up to `input_len`).
    pub input: Vec<u8>,
    /// How many bytes of `input` are in use.
    pub input_len: usize,
    /// The digest read with the input, or computed for the output.
    pub digest: Vec<u8>,
    /// The output bytes (valid up to `output_len`).
    pub output: Vec<u8>,
    /// How many bytes of `output` are in use.
    pub output_len: usize,
    /// How many bytes the output must hold (known from a header before processing).
    pub expected: usize,
}

impl Slot {
    /// The input in use.
    pub fn input(&self) -> &[u8] {
        &self.input[..self.input_len]
    }

    /// The output in use.
    pub fn output(&self) -> &[u8] {
        &self.output[..self.output_len]
    }

    /// Makes `input` hold `n` bytes, zeroing only what was never used before, and returns
    /// them for filling.
    pub fn input_mut(&mut self, n: usize) -> &mut [u8] {
        if self.input.len() < n {
            self.input.resize(n, 0);
        }
        self.input_len = n;
        &mut self.input[..n]
    }
}

/// A batch of slots, of which the first `used` are filled.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// The slots (kept between batches for their buffers).
    pub slots: Vec<Slot>,
    /// How many are in use.
    pub used: usize,
}

impl Batch {
    /// The next free slot, created when the batch never had that many.
    pub fn next_slot(&mut self) -> &mut Slot {
        if self.used == self.slots.len() {
            self.slots.push(Slot::default());
        }
        self.used += 1;
        &mut self.slots[self.used - 1]
    }

    /// The slots in use.
    pub fn filled(&self) -> &[Slot] {
        &self.slots[..self.used]
    }
}

/// Runs the pipeline until `fill` leaves a batch empty. `fill` gets an emptied batch to
/// fill, `work` processes one slot, `drain` consumes a processed batch and returns how
/// many bytes it accounts for; `progress` gets the running total of those (on the
/// calling thread). Returns that total.
pub(crate) fn run<F, P, D>(
    mut fill: F,
    work: P,
    mut drain: D,
    progress: &mut dyn FnMut(u64),
) -> Result<u64>
where
    F: FnMut(&mut Batch) -> Result<()> + Send,
    P: Fn(&mut Slot) -> Result<()> + Sync,
    D: FnMut(&Batch) -> Result<u64> + Send,
{
    let mut cur = Batch::default();
    let mut other = Batch::default();
    fill(&mut cur)?;
    let mut total = 0u64;
    let mut pending = false;
    while cur.used > 0 || pending {
        let (worked, io) = rayon::join(
            || {
                cur.slots[..cur.used]
                    .par_iter_mut()
                    .with_max_len(1)
                    .try_for_each(&work)
            },
            || -> Result<u64> {
                let n = if pending { drain(&other)? } else { 0 };
                other.used = 0;
                fill(&mut other)?;
                Ok(n)
            },
        );
        worked?;
        total += io?;
        progress(total);
        pending = cur.used > 0;
        std::mem::swap(&mut cur, &mut other);
    }
    Ok(total)
}
