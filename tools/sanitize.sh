#!/usr/bin/env bash
# Run the whole C test suite (ctest/, ours variant) under AddressSanitizer and
# UndefinedBehaviorSanitizer.
#
# Our library is built on the nightly toolchain with -Zsanitizer=address and -Zbuild-std
# (the standard library instrumented too); the bundled C codecs get GCC's
# -fsanitize=address. The test programs are compiled with -fsanitize=address,undefined and
# bring the sanitizer runtime (GCC's libasan) that the library's instrumentation calls into.
# The reference library the cross tests load next to ours is not instrumented.
#
# Every sanitizer report makes its test fail (ASan aborts, UBSan does not recover), and the
# logs are searched for reports afterwards; the script fails if any test failed or any report
# names a frame of our library. Installs the nightly toolchain and rust-src when missing.
# A pre-release check (about 15 minutes on 2 cores, see README): not part of test-all.sh.
#
# usage: bash tools/sanitize.sh [CTEST-ARGS...]   (e.g. -R frames to run a subset)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
triple=x86_64-unknown-linux-gnu
jobs=$(nproc 2> /dev/null || echo 2)
start=$SECONDS

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
rustup +nightly component list --installed | grep -q '^rust-src' ||
  rustup component add rust-src --toolchain nightly
# shellcheck source=tools/ensure-cmake.sh
. tools/ensure-cmake.sh > /dev/null
refdir=$(bash tools/fetch-reference.sh)

# The library: instrumented, with line tables for the reports; thin local LTO keeps the
# build short (the release profile's fat LTO adds nothing to the checks).
libdir="$root/target/asan-lib"
echo "==> building libblosc2.so with -Zsanitizer=address"
RUSTFLAGS="-Zsanitizer=address -Cforce-frame-pointers=yes" \
  CFLAGS="-fsanitize=address -fno-sanitize-address-use-after-scope -fno-omit-frame-pointer" \
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=target/asan \
  cargo +nightly build -Zbuild-std --release --target "$triple" --lib
rm -rf "$libdir"
mkdir -p "$libdir"
cp "target/asan/$triple/release/libblosc2.so" "$libdir/libblosc2.so.9"
ln -s libblosc2.so.9 "$libdir/libblosc2.so"

build="$root/target/ctest-asan"
rm -rf "$build"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
echo "==> configuring the C suite with $san"
cmake -S ctest -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DBLOSC2_VARIANT=ours -DBLOSC2_INCLUDE_DIR="$root/include" \
  -DBLOSC2_LIBRARY="$libdir/libblosc2.so.9" -DBLOSC2_OURS_LIBRARY="$libdir/libblosc2.so.9" \
  -DBLOSC2_REFERENCE_INCLUDE_DIR="$refdir/include" \
  -DBLOSC2_REFERENCE_LIBRARY="$refdir/lib/libblosc2.so.9" > "$build.configure.log"
cmake --build "$build" -j "$jobs" > "$build.build.log"

# Reports go to one log file per process (log_path), which is searched below.
# - verify_asan_link_order=0: the swap tests LD_PRELOAD our library ahead of the runtime;
# - halt_on_error=0: the reference library the cross tests load is not instrumented, but
#   its memcpy calls are intercepted; a report there (its blosc2_vlcompress_ctx copies
#   overlapping ranges) must not end the test. Our instrumented code still aborts on its
#   first report (it is not built to recover);
# - detect_leaks=0: the worker threads of thread pools still running at exit hold their
#   allocations (and the test programs do not free everything on their error paths).
reports="$build/reports"
mkdir -p "$reports"
export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:halt_on_error=0:log_path=$reports/asan:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan:${UBSAN_OPTIONS:-}"
echo "==> ctest (ours, sanitized)"
# plugins_cross loads both libraries with dlopen(RTLD_DEEPBIND), which the ASan runtime
# refuses (it reports the flag and aborts); tools/valgrind.sh runs it. exports checks the
# exported symbols and the code layout of the release build (its .text.hot section), which
# this instrumented build without LTO inlines and lays out otherwise; the test command runs
# it. Any CTEST-ARGS given replace these exclusions.
[ $# -gt 0 ] || set -- -E '^(plugins_cross|exports)$'
echo "    ctest arguments: $*"
status=0
(cd "$build" && ctest -j "$jobs" --output-on-failure --timeout 1800 "$@") ||
  status=$?

# Each report is attributed to the first frame of its stack outside the sanitizer runtime:
# the reference library (the cross tests load it; its memcpy and friends are intercepted),
# which is listed but not counted against us, or our library and the test programs.
found=0
python3 - "$reports" "$refdir" << 'EOF' || found=$?
import os, re, sys
reports, ref = sys.argv[1:3]
counted = 0
for name in sorted(os.listdir(reports)):
    text = open(os.path.join(reports, name), errors="replace").read()
    frames = [l for l in text.splitlines() if re.match(r"\s+#\d+ 0x", l)]
    first = next((l for l in frames if not re.search(r"libsanitizer|libasan|libubsan", l)), "")
    if ref in first:
        error = next((l for l in text.splitlines() if "ERROR:" in l), "")
        print(f"report in the reference library (not counted): {name}: {error}")
        continue
    counted += 1
    print(f"==> sanitizer report {name}\n{text}")
print(f"{counted} sanitizer report(s) in our library or the test programs")
sys.exit(1 if counted else 0)
EOF
echo "==> sanitize: ctest status $status, $((SECONDS - start)) s"
[ "$status" -eq 0 ] && [ "$found" -eq 0 ]
