//! The global state behind the non-context API (`blosc1_*`, `blosc2_compress` ...).
