//! Views made by `b2nd_squeeze`, `b2nd_squeeze_index` and `b2nd_expand_dims`: arrays with
//! another geometry over the same items as their source, sharing its data as the
//! reference's views do (a write through either is seen through the other).
//!
//! A view owns an in-memory super-chunk of its own (flagged `view`) holding a copy of its
//! source's chunks. The link to the source, kept here and keyed by the view's address,
//! brings that copy up to date before each operation on the view and stores the chunks an
//! operation on the view changed back into the source. Either may be freed first: freeing
//! the source ends the links of its views (they keep their last content), freeing a view
//! ends its own. A change of the view's shape (resize, insert, append, delete) ends the link
//! too (the reference would corrupt the source there), as does a source whose number of
//! chunks changed. As in the reference, a write through a view of an array stored in a
//! frame reaches the source but is reported as a failure (-1).

use std::sync::{Mutex, MutexGuard};

use super::schunk::{schunk_box, with_schunk};
use super::types::{b2nd_array_t, blosc2_schunk};
use crate::error::{Error, Result};
use crate::schunk::SuperChunk;

/// A view and the super-chunk it shares its items with.
struct Link {
    /// Address of the view's `b2nd_array_t`.
    view: usize,
    /// Address of the source's `blosc2_schunk`.
    source: usize,
    /// The source's change counter when the view last matched it.
    tick: i64,
}

/// Every live link.
static LINKS: Mutex<Vec<Link>> = Mutex::new(Vec::new());

/// The links (a panic elsewhere leaves the list itself intact).
fn links() -> MutexGuard<'static, Vec<Link>> {
    LINKS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The source super-chunk of `view` and its counter at the last match, if linked.
fn source_of(view: *const b2nd_array_t) -> Option<(*mut blosc2_schunk, i64)> {
    links()
        .iter()
        .find(|l| l.view == view as usize)
        .map(|l| (l.source as *mut blosc2_schunk, l.tick))
}

/// Records that `view` matched its source at the source's counter `tick`.
fn set_tick(view: *const b2nd_array_t, tick: i64) {
    if let Some(l) = links().iter_mut().find(|l| l.view == view as usize) {
        l.tick = tick;
    }
}

/// Ends the link of `view`.
fn unlink(view: *const b2nd_array_t) {
    links().retain(|l| l.view != view as usize);
}

/// What a new view of `array` (whose super-chunk is `sc`) links to: the source of `array`
/// when it is a view itself, else `sc`; with the counter its content matches.
///
/// # Safety
/// `sc` must be a live super-chunk from this library, not borrowed elsewhere.
pub(crate) unsafe fn root_of(
    array: *const b2nd_array_t,
    sc: *mut blosc2_schunk,
) -> (*mut blosc2_schunk, i64) {
    if let Some(found) = source_of(array) {
        return found;
    }
    // SAFETY: forwarded caller guarantee.
    let tick = unsafe { schunk_box(sc) }.map_or(0, |b| b.core.change_tick());
    (sc, tick)
}

/// Links the new view `view` to the super-chunk `source`, whose content it holds as of the
/// counter `tick`.
pub(crate) fn link(view: *const b2nd_array_t, source: *mut blosc2_schunk, tick: i64) {
    let mut l = links();
    l.retain(|l| l.view != view as usize);
    l.push(Link {
        view: view as usize,
        source: source as usize,
        tick,
    });
}

/// Forgets the array at `array` (super-chunk `sc`), about to be freed: its own link as a
/// view and the links of the views of it.
pub(crate) fn forget(array: *const b2nd_array_t, sc: *mut blosc2_schunk) {
    links().retain(|l| l.view != array as usize && l.source != sc as usize);
}

/// Every stored chunk of `sc`.
fn all_chunks(sc: &mut SuperChunk) -> Result<Vec<Vec<u8>>> {
    (0..sc.nchunks())
        .map(|n| Ok(sc.chunk(n)?.into_owned()))
        .collect()
}

/// Stores into `sc` the chunks of `chunks` that differ from its own; `false` (and nothing
/// stored) when the numbers of chunks differ.
fn store_changed(sc: &mut SuperChunk, chunks: &[Vec<u8>]) -> Result<bool> {
    if usize::try_from(sc.nchunks()).ok() != Some(chunks.len()) {
        return Ok(false);
    }
    for (n, c) in (0i64..).zip(chunks) {
        if *sc.chunk(n)? != c[..] {
            sc.update_chunk(n, c)?;
        }
    }
    Ok(true)
}

/// Before an operation on the array at `view` (super-chunk `sc`): when it is a view whose
/// source changed since they last matched, copies the source's chunks into it. Returns
/// whether `view` is (still) a linked view.
///
/// # Safety
/// `sc` must be the live super-chunk of `view`; a linked source must be live (freeing it
/// through `b2nd_free` ends the link).
pub(crate) unsafe fn pull(view: *const b2nd_array_t, sc: *mut blosc2_schunk) -> Result<bool> {
    let Some((source, tick)) = source_of(view) else {
        return Ok(false);
    };
    // SAFETY: forwarded caller guarantee (the source is live while linked).
    let fresh = unsafe {
        with_schunk(source, |b| {
            let now = b.core.change_tick();
            if now == tick {
                return Ok(None);
            }
            Ok(Some((all_chunks(&mut b.core)?, now)))
        })
    }?;
    if let Some((chunks, now)) = fresh {
        // SAFETY: forwarded caller guarantee.
        if !unsafe { with_schunk(sc, |b| store_changed(&mut b.core, &chunks)) }? {
            unlink(view);
            return Ok(false);
        }
        set_tick(view, now);
    }
    Ok(true)
}

/// After an operation on the linked view at `view` (super-chunk `sc`): ends the link when
/// the operation changed the view's shape, else stores the chunks it changed (`changed`:
/// the view's counter moved) into the source.
///
/// # Safety
/// As for [`pull`].
pub(crate) unsafe fn push(
    view: *const b2nd_array_t,
    sc: *mut blosc2_schunk,
    changed: bool,
    reshaped: bool,
) -> Result<()> {
    if reshaped {
        unlink(view);
        return Ok(());
    }
    let Some((source, _)) = source_of(view).filter(|_| changed) else {
        return Ok(());
    };
    // SAFETY: forwarded caller guarantee.
    let chunks = unsafe { with_schunk(sc, |b| all_chunks(&mut b.core)) }?;
    // SAFETY: forwarded caller guarantee (the source is live while linked).
    let (stored, now, framed) = unsafe {
        with_schunk(source, |b| {
            let stored = store_changed(&mut b.core, &chunks)?;
            Ok((stored, b.core.change_tick(), b.core.has_frame()))
        })
    }?;
    if !stored {
        unlink(view);
        return Ok(());
    }
    set_tick(view, now);
    if framed {
        return Err(Error::Failure);
    }
    Ok(())
}
