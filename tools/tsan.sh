#!/usr/bin/env bash
# Run the chunk-API stress test (ctest/chunkapi/test_stress.c) under ThreadSanitizer against
# our library built with -Zsanitizer=thread. Needs the nightly toolchain with rust-src
# (`rustup component add rust-src --toolchain nightly`): std must be rebuilt with the
# sanitizer (-Zbuild-std), or every lock inside std looks like a race. Not part of
# tools/test-all.sh, since a fresh machine has only the stable toolchain.
# usage: tools/tsan.sh [SECONDS [MAXSIZE [MINOPS]]]   (default: 2 seconds)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
triple=x86_64-unknown-linux-gnu
sysroot=$(rustc +nightly --print sysroot)
runtime="$sysroot/lib/rustlib/$triple/lib/librustc-nightly_rt.tsan.a"
out=target/tsan-run
mkdir -p "$out"
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
  cargo +nightly build -Zbuild-std --release --target "$triple" >&2
cp -f "target/tsan/$triple/release/libblosc2.so" "$out/libblosc2.so.9"
# The C side is compiled with gcc's instrumentation and linked against the runtime of the
# Rust toolchain, whose interface the instrumented library expects.
gcc -O1 -g -fsanitize=thread -DBLOSC2_VARIANT_OURS=1 -Iinclude -Ictest -Ictest/chunkapi \
  -c ctest/chunkapi/test_stress.c -o "$out/stress.o"
gcc -o "$out/stress" "$out/stress.o" -Wl,--whole-archive "$runtime" -Wl,--no-whole-archive \
  "$out/libblosc2.so.9" -lpthread -lm -ldl -Wl,-rpath,"$root/$out"
if [ $# -eq 0 ]; then set -- 2; fi
TSAN_OPTIONS="halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}" "$out/stress" "$@"
