#!/usr/bin/env bash
# Run the C test suite (ctest/, ours variant, our release library) under valgrind memcheck.
#
# Every test whose command is a test program runs under valgrind (CMake's
# CROSSCOMPILING_EMULATOR prefixes them); the script-driven tests (abi_layout, header
# compiles, exports, swap scripts) run as usual. Each process writes its own report file;
# afterwards every memcheck error is attributed to the object at the top of its stack
# trace that is not libc/ld.so/valgrind: our library (target/ours-lib), a test program, or
# the reference library the cross tests load next to ours. The script fails if a test fails
# or any error is attributed to our library or the test programs. Leak checking is off:
# thread-pool workers still running at exit hold their allocations. Installs valgrind
# (apt-get) when missing. A pre-release check (see README), not part of test-all.sh.
#
# The roundtrip test (codecs x filters x sizes x levels x threads: over 10 minutes, its
# timeout, under valgrind) is left out unless VALGRIND_ROUNDTRIP=1; tools/sanitize.sh runs it
# under AddressSanitizer. The script says so when it leaves it out.
#
# usage: bash tools/valgrind.sh [CTEST-ARGS...]   (e.g. -R frames to run a subset)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2> /dev/null || echo 2)
start=$SECONDS

if ! command -v valgrind > /dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind
fi
# shellcheck source=tools/ensure-cmake.sh
. tools/ensure-cmake.sh > /dev/null
refdir=$(bash tools/fetch-reference.sh)

cargo build --release
libdir="$root/target/valgrind-lib"
rm -rf "$libdir"
mkdir -p "$libdir"
cp target/release/libblosc2.so "$libdir/libblosc2.so.9"
ln -s libblosc2.so.9 "$libdir/libblosc2.so"

build="$root/target/ctest-valgrind"
reports="$build/reports"
rm -rf "$build"
mkdir -p "$reports"
vg="valgrind;--tool=memcheck;--leak-check=no;--error-limit=no;--num-callers=40"
vg="$vg;--log-file=$reports/%p.log"
cmake -S ctest -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$vg" \
  -DBLOSC2_VARIANT=ours -DBLOSC2_INCLUDE_DIR="$root/include" \
  -DBLOSC2_LIBRARY="$libdir/libblosc2.so.9" -DBLOSC2_OURS_LIBRARY="$libdir/libblosc2.so.9" \
  -DBLOSC2_REFERENCE_INCLUDE_DIR="$refdir/include" \
  -DBLOSC2_REFERENCE_LIBRARY="$refdir/lib/libblosc2.so.9" > "$build.configure.log"
cmake --build "$build" -j "$jobs" > "$build.build.log"
# Programs run 10-50 times slower under memcheck: every test gets an hour (the suite's
# own timeouts, 120 s for most tests, stopped chunkapi_dict's dictionary training before).
find "$build" -name CTestTestfile.cmake -exec sed -i -E 's/TIMEOUT "[0-9.]+"/TIMEOUT "3600"/g' {} +

# b2nd_cross leaves out its arrays of undefined content (b2nd_uninit, b2nd_empty): set_slice
# on them compresses whatever memory held, in both libraries, which memcheck reports (every
# report of session 8's full run, ours and the reference's alike, came from there).
export B2_SKIP_UNDEFINED=1
echo "==> ctest (ours) under valgrind memcheck"
exclude=()
if [ "${VALGRIND_ROUNDTRIP:-0}" != 1 ]; then
  echo "    roundtrip left out (VALGRIND_ROUNDTRIP=1 runs it; tools/sanitize.sh covers it)"
  exclude=(-E '^roundtrip$')
fi
status=0
(cd "$build" && ctest -j "$jobs" --output-on-failure --timeout 3600 "${exclude[@]}" "$@") ||
  status=$?

# Attribute each error: the first stack frame outside the C library, the dynamic loader
# and valgrind's preloads names the culprit.
attributed=0
python3 - "$reports" "$libdir" "$refdir" "$build" << 'EOF' || attributed=$?
import os, re, sys
reports, ours, ref, build = sys.argv[1:5]
counts = {"ours": 0, "test": 0, "reference": 0, "system": 0}
shown = 0
for name in sorted(os.listdir(reports)):
    text = open(os.path.join(reports, name), errors="replace").read()
    for block in re.split(r"\n==\d+== \n", text):
        lines = [l for l in block.splitlines() if re.match(r"==\d+== ", l)]
        if not lines or not re.search(r"==\d+== (Invalid|Conditional|Use of|Syscall|Mismatched|Source and|Argument)", lines[0]):
            continue
        who = "system"
        for l in lines:
            if not re.search(r"(at|by) 0x", l):
                continue
            if ours in l or "blosc2::" in l:
                who = "ours"
            elif ref in l:
                who = "reference"
            elif build in l or ".c:" in l:
                who = "test"
            elif re.search(r"/(libc|ld-linux|libm|libstdc|vgpreload)[^ ]*\.so", l):
                continue
            else:
                continue
            break
        counts[who] += 1
        if who in ("ours", "test") and shown < 20:
            shown += 1
            print(f"--- {name} ({who})\n" + "\n".join(lines))
print("valgrind errors by origin: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
sys.exit(1 if counts["ours"] or counts["test"] else 0)
EOF
echo "==> valgrind: ctest status $status, $((SECONDS - start)) s"
[ "$status" -eq 0 ] && [ "$attributed" -eq 0 ]
