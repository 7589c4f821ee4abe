//! Corrupted and hostile chunks.
