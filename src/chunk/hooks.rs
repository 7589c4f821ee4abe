//! Prefilters and postfilters: caller functions run on every block before compression and
//! after decompression.
//!
//! They see the block's place in the chunk and the thread's scratch buffer (`ttmp`, four
//! areas of `blocksize + 4 * typesize` bytes), where their input or output may live, so a
//! host layer can hand out the same pointers the reference does.

use std::fmt;
use std::sync::Arc;

/// Where a callback writes its output.
#[derive(Debug)]
pub enum Output<'a> {
    /// Into the scratch buffer, from this byte on.
    Scratch(usize),
    /// Into this buffer.
    Buffer(&'a mut [u8]),
}

/// What a prefilter gets for one block.
#[derive(Debug)]
pub struct PrefilterArgs<'a> {
    /// The block as given by the caller (its bytes in the source).
    pub input: &'a [u8],
    /// The thread's scratch buffer.
    pub ttmp: &'a mut [u8],
    /// Where the `size` output bytes go.
    pub output: Output<'a>,
    /// Size of the block.
    pub size: usize,
    /// Stored typesize.
    pub typesize: i32,
    /// Byte offset of the block in the chunk.
    pub offset: usize,
    /// Block number.
    pub nblock: usize,
    /// Thread id.
    pub tid: usize,
    /// Chunk number in the super-chunk, -1 outside one.
    pub nchunk: i64,
}

/// What a postfilter gets for one block.
#[derive(Debug)]
pub struct PostfilterArgs<'a> {
    /// The thread's scratch buffer.
    pub ttmp: &'a mut [u8],
    /// Where in `ttmp` the decoded block starts.
    pub input: usize,
    /// Where the `size` output bytes go.
    pub output: Output<'a>,
    /// Size of the block.
    pub size: usize,
    /// Stored typesize.
    pub typesize: i32,
    /// Byte offset of the block in the chunk.
    pub offset: usize,
    /// Block number.
    pub nblock: usize,
    /// Thread id.
    pub tid: usize,
    /// Chunk number in the super-chunk, -1 outside one.
    pub nchunk: i64,
}

/// A prefilter: returns 0 on success.
pub type PrefilterFn = Arc<dyn Fn(&mut PrefilterArgs<'_>) -> i32 + Send + Sync>;
/// A postfilter: returns 0 on success.
pub type PostfilterFn = Arc<dyn Fn(&mut PostfilterArgs<'_>) -> i32 + Send + Sync>;

/// A prefilter and how its output is used.
#[derive(Clone)]
pub struct Prefilter {
    /// The function.
    pub run: PrefilterFn,
    /// Whether the output is only inspected, never stored: every block then compresses to
    /// a run of zeros.
    pub disposable: bool,
}

impl fmt::Debug for Prefilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Prefilter(disposable: {})", self.disposable)
    }
}

/// Size of the scratch buffer a thread hands to callbacks: four areas of
/// `blocksize + 4 * typesize` bytes.
pub fn ttmp_len(blocksize: usize, typesize: usize) -> usize {
    4 * (blocksize + 4 * typesize)
}
