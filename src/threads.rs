//! The worker pool that runs block jobs for a context.
