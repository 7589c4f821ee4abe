#!/usr/bin/env bash
# Run the race checks under ThreadSanitizer against our library built with
# -Zsanitizer=thread:
#   - the chunk-API stress test (ctest/chunkapi/test_stress.c): contexts of their own on 8
#     threads (nthreads 1 and 2), the global API from 3 more, blosc2_init from 8 at once;
#   - the frame race check (ctest/security/race_frames.c): super-chunks with nthreads 2 in
#     memory, as in-memory frames and as frame files; a writer and three readers, each
#     with its own handle, on one contiguous and on one sparse frame, without and with
#     BLOSC_LOCKING;
#   - the b2nd race check (ctest/security/race_b2nd.c): arrays with nthreads 2 (from and to
#     buffers, set and get slices, slices into new arrays, through a contiguous frame); a
#     writer and three readers, each with its own handle, on one array in a frame file and
#     in a sparse directory, without and with BLOSC_LOCKING; squeezed and expanded views on
#     two threads; arrays of 512 KiB chunks, whose blocks writes gather on the pool.
# Needs the nightly toolchain with rust-src (installed when missing): std must be rebuilt
# with the sanitizer (-Zbuild-std), or every lock inside std looks like a race. Any
# ThreadSanitizer report fails the script (exit status 66). Not part of tools/test-all.sh.
# usage: tools/tsan.sh [SECONDS [MAXSIZE [MINOPS]]]   (default: 2 seconds per part)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
triple=x86_64-unknown-linux-gnu
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
rustup +nightly component list --installed | grep -q '^rust-src' ||
  rustup component add rust-src --toolchain nightly
sysroot=$(rustc +nightly --print sysroot)
runtime="$sysroot/lib/rustlib/$triple/lib/librustc-nightly_rt.tsan.a"
out=target/tsan-run
mkdir -p "$out"
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan CARGO_PROFILE_RELEASE_LTO=false \
  cargo +nightly build -Zbuild-std --release --target "$triple" >&2
cp -f "target/tsan/$triple/release/libblosc2.so" "$out/libblosc2.so.9"
# The C side is compiled with gcc's instrumentation and linked against the runtime of the
# Rust toolchain, whose interface the instrumented library expects.
gcc -O1 -g -fsanitize=thread -DBLOSC2_VARIANT_OURS=1 -Iinclude -Ictest -Ictest/chunkapi \
  -c ctest/chunkapi/test_stress.c -o "$out/stress.o"
gcc -o "$out/stress" "$out/stress.o" -Wl,--whole-archive "$runtime" -Wl,--no-whole-archive \
  "$out/libblosc2.so.9" -lpthread -lm -ldl -Wl,-rpath,"$root/$out"
for prog in race_frames race_b2nd; do
  gcc -O1 -g -fsanitize=thread -Iinclude -c "ctest/security/$prog.c" -o "$out/$prog.o"
  gcc -o "$out/$prog" "$out/$prog.o" -Wl,--whole-archive "$runtime" \
    -Wl,--no-whole-archive "$out/libblosc2.so.9" -lpthread -lm -ldl -Wl,-rpath,"$root/$out"
done
if [ $# -eq 0 ]; then set -- 2; fi
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}"
status=0
echo "==> chunk-API stress"
"$out/stress" "$@" || status=$?
# Without locking, readers of a frame file rewritten in place may get torn chunks (counted);
# with BLOSC_LOCKING=1 every read must be whole.
for locking in 0 1; do
  for prog in race_frames race_b2nd; do
    echo "==> $prog (BLOSC_LOCKING=$locking)"
    rm -rf "$out/files"
    mkdir -p "$out/files"
    BLOSC_LOCKING=$locking "$out/$prog" "$out/files" "$1" || status=$?
  done
done
echo "==> tsan: exit status $status"
exit $status
