// Placeholder from blosc2-oxide's miniexpr stand-in (tools/miniexpr-standin/README.md).
// python-blosc2's install step copies a file of this name; the stand-in has no wasm32 JIT,
// so this file exports nothing.
