//! Tests of the chunk engine against the reference library and the shared corpus.

mod corpus;
mod data;
mod dict;
mod differential;
mod header;
mod hooks;
mod hostile;
mod instr;
mod plugins;
mod roundtrip;
mod runs;
mod vl;
