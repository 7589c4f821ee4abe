//! A b2nd metalayer is only a claim: reading an array whose geometry promises chunks far
//! larger than the stored ones must fail on the stored chunks' headers, before any buffer
//! of the claimed size is asked for. Every allocation of this test process is watched.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use blosc2::b2nd::Array;

/// The system allocator, noting the largest single request.
struct Watch;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Watch {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's guarantees, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's guarantees, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: the caller's guarantees, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Watch = Watch;

/// A 377-byte frame (found by the `b2nd_read` fuzz target) whose metalayer gives 1-D
/// chunks of 100 items of 121 bytes in blocks of 16 121 866 items: 1.95 GB per chunk, while
/// its stored chunk holds 12 100 bytes.
#[test]
fn geometry_larger_than_the_chunks_allocates_nothing_of_its_size() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions/b2nd_read/geometry_larger_than_chunks");
    let bytes = std::fs::read(file).expect("regression input");
    let mut a = Array::from_cframe(&bytes).expect("the reference opens it too");
    assert_eq!(a.shape(), &[333]);
    let claimed = a
        .geometry()
        .chunk_nbytes(a.typesize())
        .expect("chunk bytes");
    assert!(
        claimed > 1 << 30,
        "the geometry claims {claimed} bytes per chunk"
    );
    let mut whole = vec![0u8; 333 * a.typesize() as usize];
    let mut item = vec![0u8; a.typesize() as usize];
    LARGEST.store(0, Ordering::Relaxed);
    // The reference fails there too, with BLOSC2_ERROR_FAILURE.
    assert_eq!(a.to_buffer(&mut whole).err(), Some(blosc2::Error::Failure));
    assert!(a.get_slice_buffer(&[5], &[6], &mut item, &[1]).is_err());
    assert!(a.set_slice_buffer(&[5], &[6], &item, &[1]).is_err());
    assert!(a
        .set_slice_buffer(&[0], &[100], &whole[..100 * 121], &[100])
        .is_err());
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
}
