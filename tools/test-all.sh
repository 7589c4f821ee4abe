#!/usr/bin/env bash
# Run every test of blosc2-oxide. Needs only the Rust toolchain, a C compiler, python3 and
# pip; installs cmake (pip) and cbindgen 0.29.4 (cargo) when missing and fetches the
# reference c-blosc2 3.3.5 into target/reference/ (cached).
#
# Steps (each counted): cargo fmt --check, cargo clippy, cargo test, cargo build --release,
# header drift check (tools/gen-headers.sh --check, when present), install + demo, the C
# test suite against the reference and against ours (each CTest test counted), exports,
# cross and swap tests (in the ours suite), and the shared corpus (../shared; its absence
# fails under CI=true) with the struct fields of its containers loaded by both libraries.
# The last line is "N passed, M failed"; the exit status is non-zero if anything failed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
logs="$root/target/test-logs"
mkdir -p "$logs"
jobs=$(nproc 2> /dev/null || echo 2)

passed=0
failed=0
summary=()

record() { # record NAME STATUS [DETAIL]
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1))
    summary+=("PASS  $1${3:+  ($3)}")
  else
    failed=$((failed + 1))
    summary+=("FAIL  $1${3:+  ($3)}")
  fi
}

# check NAME COMMAND...: run a command, log its output, count it as one check.
check() {
  local name=$1
  shift
  local log="$logs/$name.log"
  local start=$SECONDS
  echo "==> $name: $*"
  "$@" > "$log" 2>&1
  local status=$?
  if [ $status -ne 0 ]; then
    echo "    FAILED (status $status, $((SECONDS - start)) s); last lines of $log:"
    tail -n 25 "$log" | sed 's/^/    | /'
  else
    echo "    ok ($((SECONDS - start)) s)"
  fi
  record "$name" $status
  return $status
}

# --- tools ---------------------------------------------------------------------------
echo "==> tools"
# shellcheck source=tools/ensure-cmake.sh
. tools/ensure-cmake.sh > "$logs/pip-cmake.log" 2>&1
if ! cbindgen --version 2> /dev/null | grep -q '0\.29\.4'; then
  echo "    installing cbindgen 0.29.4 with cargo"
  cargo install cbindgen --version 0.29.4 --locked > "$logs/cargo-install-cbindgen.log" 2>&1 ||
    echo "    cbindgen installation failed (see $logs/cargo-install-cbindgen.log)"
  export PATH="$HOME/.cargo/bin:$PATH"
fi
echo "    cmake: $(cmake --version 2> /dev/null | head -n 1)"
echo "    cbindgen: $(cbindgen --version 2> /dev/null)"

# --- reference -------------------------------------------------------------------------
refdir=""
echo "==> fetch reference"
if refdir=$(bash tools/fetch-reference.sh 2> "$logs/fetch-reference.log"); then
  echo "    $refdir"
  record fetch-reference 0
else
  cat "$logs/fetch-reference.log"
  record fetch-reference 1
  refdir=""
fi

# --- Rust ----------------------------------------------------------------------------
check cargo-fmt cargo fmt --check
check cargo-clippy cargo clippy --all-targets -- -D warnings
check cargo-test cargo test
check cargo-build-release cargo build --release
if [ -f tools/gen-headers.sh ]; then
  check header-drift bash tools/gen-headers.sh --check
fi

# Our library as a drop-in directory: libblosc2.so.9 + libblosc2.so.
ourdir="$root/target/ours-lib"
rm -rf "$ourdir"
mkdir -p "$ourdir"
if [ -f target/release/libblosc2.so ]; then
  cp target/release/libblosc2.so "$ourdir/libblosc2.so.9"
  ln -s libblosc2.so.9 "$ourdir/libblosc2.so"
fi

# Install into a scratch prefix and run the demo (also provides the CMake package).
install_prefix="$root/target/install-test"
rm -rf "$install_prefix"
check install-demo env BLOSC2_SKIP_BUILD=1 bash tools/install.sh "$install_prefix"

# --- C test suites ------------------------------------------------------------------
# ctest_variant NAME CMAKE-ARGS...: configure, build and run one variant; every CTest test
# counts. The build keeps going past errors, so a test whose program does not compile shows
# up as a failed ("Not Run") test of its own.
ctest_variant() {
  local variant=$1
  shift
  local build="$root/target/ctest-$variant"
  rm -rf "$build"
  if ! check "ctest-$variant-configure" cmake -S ctest -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"; then
    return
  fi
  local keep_going=-k
  if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$build/CMakeCache.txt" 2> /dev/null; then
    keep_going="-k 0"
  fi
  # shellcheck disable=SC2086
  check "ctest-$variant-build" cmake --build "$build" -j "$jobs" -- $keep_going
  echo "==> ctest-$variant"
  local log="$logs/ctest-$variant.log"
  (cd "$build" && ctest -j "$jobs" --output-on-failure --timeout 900) > "$log" 2>&1
  local ctest_status=$?
  local line
  while IFS= read -r line; do
    # "  3/12 Test  #3: getitem ..........   Passed    1.23 sec"
    local name status
    name=$(sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*/\1/' <<< "$line")
    if grep -qE '\bPassed\b' <<< "$line"; then status=0; else status=1; fi
    record "ctest-$variant/$name" $status
    echo "    $line"
  done < <(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+:' "$log")
  grep -E 'tests passed|tests failed' "$log" | sed 's/^/    /'
  # ctest's own verdict, and a floor on the number of tests it ran: a suite that registers
  # nothing (or loses a sub-suite) fails instead of passing empty.
  local count minimum=${min_tests[$variant]}
  count=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+:' "$log")
  record "ctest-$variant (exit status $ctest_status)" $ctest_status
  [ "$count" -ge "$minimum" ]
  record "ctest-$variant ran $count tests (at least $minimum expected)" $?
  if grep -qE '^ *[0-9]+/[0-9]+ Test +#[0-9]+:.*(Failed|Timeout|Exception|Not Run)' "$log"; then
    echo "    failures: see $log"
  fi
}

# The fewest CTest tests each variant registers today; raise these when adding tests.
declare -A min_tests=([reference]=52 [ours]=69)

if [ -n "$refdir" ]; then
  refinc="$refdir/include"
  reflib="$refdir/lib/libblosc2.so.9"
  ctest_variant reference -DBLOSC2_VARIANT=reference -DBLOSC2_INCLUDE_DIR="$refinc" \
    -DBLOSC2_LIBRARY="$reflib" -DBLOSC2_CMAKE_PACKAGE_DIR="$refdir/lib/cmake/blosc2"
  ctest_variant ours -DBLOSC2_VARIANT=ours -DBLOSC2_INCLUDE_DIR="$root/include" \
    -DBLOSC2_LIBRARY="$ourdir/libblosc2.so.9" -DBLOSC2_REFERENCE_INCLUDE_DIR="$refinc" \
    -DBLOSC2_REFERENCE_LIBRARY="$reflib" -DBLOSC2_OURS_LIBRARY="$ourdir/libblosc2.so.9" \
    -DBLOSC2_CMAKE_PACKAGE_DIR="$install_prefix/lib/cmake/Blosc2"
else
  record "ctest (no reference library)" 1
fi

# --- real users from PyPI ----------------------------------------------------------------
# bloscpack 0.16 / python-blosc 1.11.4 / bcolz read what the CLI writes and the other way.
check containers-check bash tools/containers-check.sh
# A real dynamic plugin wheel (blosc2-openzl) loaded by ours and by the reference.
check plugin-check bash tools/plugin-check.sh
# python-blosc2 4.14.1 built from its sdist against a system libblosc2 (the reference's
# headers, and ours) runs on our library: ours is the libblosc2 mapped and the one its
# extension imports from; NDArray/SChunk/lazy-expression work and a slice of python-blosc2's
# own tests pass (tools/python-check.sh).
echo "==> python-blosc2 built against a system libblosc2, on ours"
bash tools/python-check.sh "$ourdir/libblosc2.so.9" > "$logs/python-check.log" 2>&1
pystatus=$?
grep -E '^(python-check|pytest|info):|^ +python-check:' "$logs/python-check.log" | sed 's/^ */    /'
record "python-blosc2 built against a system libblosc2, on ours (checks, its tests)" $pystatus

# differential_check NAME DESCRIPTION SCRIPT ARGS...: run a tools/ script that loads ours
# and the reference (as its first two arguments) and prints DIFF lines and a last summary
# line; one check, failed also when the reference library is missing.
differential_check() {
  local name=$1 description=$2 script=$3
  shift 3
  local log="$logs/$name.log" status=1
  echo "==> $name"
  if [ -n "$refdir" ]; then
    python3 "$script" "$ourdir/libblosc2.so.9" "$refdir/lib/libblosc2.so.9" "$@" > "$log" 2>&1
    status=$?
  else
    echo "$name: no reference library" > "$log"
  fi
  local line
  line=$(tail -n 1 "$log")
  echo "    $line"
  if [ $status -ne 0 ]; then grep -E '^DIFF' "$log" | head -n 10 | cut -c1-300 | sed 's/^/    /'; fi
  record "$description" $status "$line"
}

# --- shared corpus ---------------------------------------------------------------------
# The corpus sits beside the checkout (../shared). Outside CI its absence is said and
# counted as a failure only when CI is set, where it is always present.
if [ ! -d "$root/../shared/corpus" ] || [ ! -f "$root/../shared/tools/verify_corpus.py" ]; then
  echo "==> corpus: ../shared/corpus or ../shared/tools/verify_corpus.py is absent"
  if [ "${CI:-}" = "true" ]; then
    record "corpus (absent in CI)" 1
  else
    summary+=("NOT RUN  corpus (../shared absent; not counted outside CI)")
  fi
else
  echo "==> corpus"
  clog="$logs/corpus.log"
  python3 "$root/../shared/tools/verify_corpus.py" --lib "$ourdir/libblosc2.so.9" \
    --cli "$root/target/release/blosc2-oxide" "$root/../shared/corpus" > "$clog" 2>&1
  cstatus=$?
  cline=$(tail -n 1 "$clog")
  echo "    $cline"
  if [ $cstatus -ne 0 ]; then grep -E '^(FAIL|CRASH|TIMEOUT)' "$clog" | head -n 20 | sed 's/^/    /'; fi
  record "corpus (library and CLI, every category)" $cstatus "$cline"
  differential_check fields-check \
    "struct fields of loaded corpus containers, ours against the reference" \
    tools/fields_check.py "$root/../shared/corpus"
fi

# --- random operation sequences against the reference ----------------------------------
differential_check ops-check "random super-chunk operation sequences, ours against the reference" \
  tools/ops_check.py 600 1
differential_check b2nd-ops-check "random b2nd operation sequences, ours against the reference" \
  tools/b2nd_ops_check.py 400 1

# --- summary -------------------------------------------------------------------------
echo
echo "==> summary (logs in $logs)"
printf '    %s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
