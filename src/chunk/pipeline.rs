//! The filter pipeline: forward (slot 0 to 5) on compression, backward on decompression.

use crate::constants::*;
use crate::error::{Error, Result};
use crate::filters::{bitshuffle, delta, shuffle, trunc_prec};
use crate::registry::plugins::{self, CompressCall, DecompressCall, Filter};

/// The registered filters of the slots that hold one (resolved once per operation).
pub(crate) type Plugins = [Option<std::sync::Arc<Filter>>; MAX_FILTERS];

/// Looks up the registered filter of every slot that is not a built-in filter.
pub(crate) fn resolve(ids: &[u8; MAX_FILTERS]) -> Plugins {
    ids.map(|id| if id < 32 { None } else { plugins::filter(id) })
}

/// The filter slots of a chunk and what the filters need to know about it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Filters<'a> {
    /// Filter ids per slot.
    pub ids: [u8; 6],
    /// Filter metadata per slot.
    pub meta: [u8; 6],
    /// Element size used by the filters (the stored typesize).
    pub typesize: usize,
    /// Chunk format version (2 selects the old bitshuffle leftover rule).
    pub version: u8,
    /// Registered filters of the slots (see [`resolve`]).
    pub plugins: &'a Plugins,
}

impl Filters<'_> {
    /// Whether any slot needs work on compression.
    pub fn any_forward(&self) -> bool {
        self.ids.iter().any(|&f| f != NOFILTER)
    }

    /// Whether decompression needs a filter stage other than an in-place DELTA.
    pub fn needs_backward_buffer(&self) -> bool {
        self.ids
            .iter()
            .any(|&f| !matches!(f, NOFILTER | TRUNC_PREC | DELTA))
    }

    /// Whether decompression runs more than one stage that needs a destination of its own
    /// (only then does it use a second buffer).
    pub fn needs_second_backward_buffer(&self) -> bool {
        self.ids
            .iter()
            .filter(|&&f| !matches!(f, NOFILTER | TRUNC_PREC | DELTA))
            .count()
            > 1
    }

    /// Whether the pipeline contains DELTA (so block 0 must be decoded first).
    pub fn has_delta(&self) -> bool {
        self.ids.contains(&DELTA)
    }

    /// Number of slots holding a filter.
    pub fn active(&self) -> usize {
        self.ids.iter().filter(|&&id| id != NOFILTER).count()
    }

    /// Whether the backward pipeline is one byte unshuffle by the typesize, possibly
    /// followed by one DELTA (DELTA in an earlier slot than SHUFFLE; TRUNC_PREC does nothing
    /// on decompression). A block whose streams are all runs then decodes, before DELTA, to
    /// one element repeated.
    pub fn is_plain_shuffle(&self) -> bool {
        let (mut shuffled, mut deltas) = (false, 0);
        for slot in 0..MAX_FILTERS {
            match self.ids[slot] {
                NOFILTER | TRUNC_PREC => {}
                DELTA if !shuffled => deltas += 1,
                SHUFFLE if !shuffled && self.shuffle_width(slot) == self.typesize => {
                    shuffled = true;
                }
                _ => return false,
            }
        }
        shuffled && deltas <= 1
    }

    /// `Some(has_delta)` when the forward pipeline is exactly SHUFFLE by the typesize, or
    /// DELTA then SHUFFLE by the typesize, with no other filter.
    pub fn delta_shuffle(&self) -> Option<bool> {
        let mut active = (0..MAX_FILTERS).filter(|&s| self.ids[s] != NOFILTER);
        let (first, second) = (active.next()?, active.next());
        if active.next().is_some() {
            return None;
        }
        let (delta, shuffle) = match second {
            Some(s) if self.ids[first] == DELTA => (true, s),
            None => (false, first),
            _ => return None,
        };
        (self.ids[shuffle] == SHUFFLE && self.shuffle_width(shuffle) == self.typesize)
            .then_some(delta)
    }

    fn shuffle_width(&self, slot: usize) -> usize {
        match self.meta[slot] {
            0 => self.typesize,
            m => usize::from(m),
        }
    }
}

/// Where the current data of a pipeline lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    Input,
    A,
    B,
    Out,
}

/// The output of one forward stage captured on the way (see [`delta_reference`]).
pub(crate) struct Capture<'b> {
    /// Number of filters after which the data is copied.
    pub after: usize,
    /// Where it is copied.
    pub into: &'b mut Vec<u8>,
}

/// Runs the forward pipeline on `block` (the bytes at `offset` of the chunk) using the
/// scratch buffers `a` and `b` (each at least `block.len()` long). `dref` is what DELTA XORs
/// blocks after the first with (see [`delta_reference`]); the first block is its own
/// reference. Returns which buffer holds the result: `None` for `block` itself (no filter),
/// `Some(false)` for `a`, `Some(true)` for `b`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn forward(
    f: &Filters,
    call: &CompressCall,
    dref: &[u8],
    offset: usize,
    block: &[u8],
    a: &mut [u8],
    b: &mut [u8],
    mut capture: Option<Capture>,
) -> Result<Option<bool>> {
    let n = block.len();
    let (a, b) = (&mut a[..n], &mut b[..n]);
    let mut at = At::Input;
    let mut done = 0;
    for slot in 0..MAX_FILTERS {
        let id = f.ids[slot];
        if id == NOFILTER {
            continue;
        }
        let to_b = at == At::A;
        let (src, dst): (&[u8], &mut [u8]) = match at {
            At::Input => (block, &mut *a),
            At::A => (&*a, &mut *b),
            _ => (&*b, &mut *a),
        };
        let meta = f.meta[slot];
        match id {
            SHUFFLE => shuffle::shuffle(f.shuffle_width(slot), src, dst),
            BITSHUFFLE => bitshuffle::bitshuffle(f.typesize, src, dst),
            DELTA if offset == 0 => delta::encode(src, 0, f.typesize, src, dst),
            DELTA => delta::encode(dref, offset, f.typesize, src, dst),
            TRUNC_PREC => trunc_prec::truncate(meta as i8, f.typesize, src, dst)
                .map_err(|_| Error::FilterPipeline)?,
            _ => {
                let run = f.plugins[slot].as_ref().and_then(|p| p.forward.as_ref());
                match run {
                    Some(run) if run(call, meta, id, src, dst) == 0 => {}
                    _ => return Err(Error::FilterPipeline),
                }
            }
        }
        done += 1;
        if let Some(c) = capture.as_mut().filter(|c| c.after == done) {
            c.into.clear();
            c.into.extend_from_slice(dst);
        }
        at = if to_b { At::B } else { At::A };
    }
    Ok(match at {
        At::Input | At::Out => None,
        At::A => Some(false),
        At::B => Some(true),
    })
}

/// How many stages of the first block (a prefilter counts as one, then every filter) the
/// reference has run when it XORs later blocks in DELTA with the first block of its source
/// buffer.
///
/// The reference rotates three buffers (source, two scratch) through its stages, so every
/// third stage writes into the chunk's source; blocks after the first then see the first
/// block as left by the last such stage. `None` when the source stays untouched.
pub(crate) fn delta_reference(f: &Filters, prefilter: bool) -> Option<usize> {
    if !f.has_delta() {
        return None;
    }
    let stages = f.active() + usize::from(prefilter);
    match stages - stages % 3 {
        0 => None,
        k => Some(k),
    }
}

/// Runs the backward pipeline: the decoded streams are in `a` (or already in `out` when
/// `needs_backward_buffer` is false); the result ends in `out`. `dref` is the chunk's decoded
/// first block (used by DELTA for blocks after the first), `offset` the block's position.
#[allow(clippy::too_many_arguments)]
pub(crate) fn backward(
    f: &Filters,
    call: &DecompressCall,
    a: &mut [u8],
    b: &mut [u8],
    out: &mut [u8],
    dref: &[u8],
    offset: usize,
) -> Result<()> {
    let n = out.len();
    // Without a buffered stage only an in-place DELTA runs, which never touches `a`/`b`;
    // with one, it reads `a` and writes `out`, never touching `b`.
    let m = if f.needs_backward_buffer() { n } else { 0 };
    let mb = if f.needs_second_backward_buffer() {
        m
    } else {
        0
    };
    let (a, b) = (&mut a[..m], &mut b[..mb]);
    let mut at = if f.needs_backward_buffer() {
        At::A
    } else {
        At::Out
    };
    // The last stage that needs a destination of its own writes straight into `out`; a
    // DELTA after it runs in place there.
    let last = (0..MAX_FILTERS)
        .find(|&s| !matches!(f.ids[s], NOFILTER | TRUNC_PREC | DELTA))
        .unwrap_or(0);
    for slot in (0..MAX_FILTERS).rev() {
        let id = f.ids[slot];
        if matches!(id, NOFILTER | TRUNC_PREC) {
            continue;
        }
        if id == DELTA {
            match at {
                At::A => out.copy_from_slice(a),
                At::B => out.copy_from_slice(b),
                _ => {}
            }
            delta::decode(dref, offset, f.typesize, out);
            at = At::Out;
            continue;
        }
        let into_out = slot == last && at != At::Out;
        let next = if into_out {
            At::Out
        } else if at == At::A {
            At::B
        } else {
            At::A
        };
        let (src, dst): (&[u8], &mut [u8]) = match (at, next) {
            (At::A, At::Out) => (&*a, &mut *out),
            (At::B, At::Out) => (&*b, &mut *out),
            (At::A, _) => (&*a, &mut *b),
            (At::B, _) => (&*b, &mut *a),
            (_, _) => (&*out, &mut *a),
        };
        match id {
            SHUFFLE => shuffle::unshuffle(f.shuffle_width(slot), src, dst),
            BITSHUFFLE => {
                let elems = n / f.typesize.max(1);
                if f.version == BLOSC1_VERSION_FORMAT && !elems.is_multiple_of(8) {
                    dst.copy_from_slice(src);
                } else {
                    bitshuffle::bitunshuffle(f.typesize, src, dst);
                }
            }
            // Ids below the registered range are unknown built-ins (the reference's generic
            // failure); others are plugin or user filters, whose negative codes are passed on.
            id if id < 32 => return Err(Error::Failure),
            id => {
                let run = f.plugins[slot].as_ref().and_then(|p| p.backward.as_ref());
                let Some(run) = run else {
                    return Err(Error::FilterPipeline);
                };
                let rc = run(call, f.meta[slot], id, src, dst);
                if rc < 0 {
                    return Err(Error::from_code(rc).unwrap_or(Error::Failure));
                }
            }
        }
        at = next;
    }
    match at {
        At::A => out.copy_from_slice(a),
        At::B => out.copy_from_slice(b),
        _ => {}
    }
    Ok(())
}
