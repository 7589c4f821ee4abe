//! N-dimensional arrays on top of super-chunks (the "b2nd" layer).

pub mod meta;
