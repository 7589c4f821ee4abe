//! N-dimensional arrays on top of super-chunks (the "b2nd" layer).

pub mod array;
pub mod copy;
pub mod create;
pub mod geometry;
pub mod meta;
pub mod persist;
mod scratch;
pub mod slice;

pub use array::Array;
pub use create::Params;
pub use geometry::Geometry;

#[cfg(test)]
mod tests;
