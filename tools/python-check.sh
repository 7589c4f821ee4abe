#!/usr/bin/env bash
# python-blosc2 4.14.1 running on a libblosc2.so.9 (default: ours), built the way a
# distribution builds it: from its sdist, against the system's libblosc2
# (USE_SYSTEM_BLOSC2=1, found with pkg-config, linked dynamically). The PyPI wheel cannot
# serve here: it links its own c-blosc2 statically (see the info line this prints).
#
# usage: tools/python-check.sh [LIBBLOSC2_SO]
#   default library: target/ours-lib/libblosc2.so.9 (else target/release/libblosc2.so)
#   PYTHON_CHECK_PYTEST=0 leaves python-blosc2's own tests out.
#
# 1. target/py-venv: a venv with python-blosc2's build requirements (scikit-build-core,
#    cython, numpy, pkgconf), its runtime dependencies and pytest, from PyPI.
# 2. target/py-sdist: the sdist blosc2==4.14.1 (pip download).
# 3. Two wheels of it, each built once and cached in target/py-build/<name>-4.14.1-<key>
#    (key: a digest of the sdist, the headers and .pc it is built against and the miniexpr
#    stand-in; a build takes about a minute on 2 cores):
#      reference  against the reference's headers and blosc2.pc (tools/fetch-reference.sh):
#                 a python-blosc2 built for c-blosc2 3.3.5;
#      ours       against our headers (include/) and cmake/blosc2.pc.
#    The sdist fetches miniexpr from GitHub with CMake's FetchContent; tools/miniexpr-standin
#    (our own code, refusing every expression) takes its place, see its README.md.
# 4. Runs, each with PYTHONPATH at an unpacked wheel and LD_LIBRARY_PATH at the library
#    (tools/python_check.py says what is checked):
#      write        the reference-built wheel on the reference library writes files;
#      sanity       the reference-built wheel on the reference library (the checks hold);
#      swap         the reference-built wheel on LIBBLOSC2_SO, unchanged;
#      ours-built   the ours-built wheel on LIBBLOSC2_SO;
#      pytest       python-blosc2's own tests (PYTEST_FILES below, from the sdist) with the
#                   reference-built wheel on LIBBLOSC2_SO, less the tests the miniexpr
#                   stand-in cannot pass (tools/miniexpr-standin/excluded-tests.txt, each
#                   with its reason); every selected test must pass.
# Exit status: 0 everything passed; 1 otherwise.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=4.14.1
lib=${1:-}
if [ -z "$lib" ]; then
  lib="$root/target/ours-lib/libblosc2.so.9"
  [ -f "$lib" ] || lib="$root/target/release/libblosc2.so"
fi
fail() {
  echo "python-check: FAIL ($*)"
  exit 1
}
[ -f "$lib" ] || fail "no library at $lib; build it with cargo build --release"
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
refdir=$(bash "$root/tools/fetch-reference.sh") || fail "cannot fetch the reference library"
reflib="$refdir/lib/libblosc2.so.9"
standin="$root/tools/miniexpr-standin"
jobs=$(nproc 2> /dev/null || echo 2)

PYTEST_FILES=(
  tests/ndarray/test_ndarray.py tests/ndarray/test_slice.py tests/ndarray/test_getitem.py
  tests/ndarray/test_setitem.py tests/ndarray/test_resize.py tests/ndarray/test_squeeze.py
  tests/ndarray/test_concat.py tests/ndarray/test_copy.py tests/ndarray/test_persistency.py
  tests/ndarray/test_full.py tests/ndarray/test_zeros.py tests/ndarray/test_empty.py
  tests/ndarray/test_nans.py tests/ndarray/test_lazyudf.py tests/ndarray/test_metalayers.py
  tests/ndarray/test_struct_dtype.py tests/ndarray/test_indexing.py tests/test_schunk.py
  tests/test_schunk_get_slice.py tests/test_schunk_set_slice.py tests/test_schunk_insert.py
  tests/test_schunk_delete.py tests/test_schunk_update.py tests/test_vlmeta.py
  tests/test_compress2.py tests/test_prefilters.py tests/test_postfilters.py tests/test_open.py
  tests/test_ufilters.py tests/test_ucodecs.py tests/test_compressors.py tests/test_decompress.py
  tests/test_schunk_constructor.py tests/test_iterchunks.py
)

# --- 1. the venv ----------------------------------------------------------------------------
venv="$root/target/py-venv"
py="$venv/bin/python"
mods="import numpy, ndindex, msgpack, numexpr, pydantic, httpx, h2, rich, threadpoolctl, \
scikit_build_core, Cython, pytest"
if ! "$py" -c "$mods" 2> /dev/null || ! [ -x "$venv/bin/pkgconf" ]; then
  echo "==> preparing $venv"
  [ -x "$py" ] || python3 -m venv "$venv" || fail "cannot create $venv"
  "$py" -m pip install --quiet --disable-pip-version-check numpy ndindex msgpack \
    "numexpr>=2.14.1" pydantic "httpx[http2]" rich threadpoolctl scikit-build-core cython \
    pkgconf pytest || fail "cannot install python-blosc2's requirements into $venv"
fi
# Only the wheels built here may provide blosc2.
if "$py" -m pip show --quiet blosc2 > /dev/null 2>&1; then
  "$py" -m pip uninstall --quiet --yes blosc2 > /dev/null 2>&1
fi

# --- 2. the sdist ---------------------------------------------------------------------------
sdist="$root/target/py-sdist/blosc2-$version.tar.gz"
if [ ! -f "$sdist" ]; then
  echo "==> downloading the sdist blosc2==$version"
  "$py" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    --no-build-isolation "blosc2==$version" -d "$root/target/py-sdist" ||
    fail "cannot download the sdist blosc2==$version"
fi
srcdir="$root/target/py-build/sdist-$version"
if [ ! -f "$srcdir/pytest.ini" ]; then
  rm -rf "$srcdir"
  mkdir -p "$srcdir"
  tar -xzf "$sdist" -C "$srcdir" --strip-components=1 || fail "cannot unpack $sdist"
fi

# --- 3. the wheels --------------------------------------------------------------------------
# A prefix holding our headers, a libblosc2 to link and our blosc2.pc.
oursprefix="$root/target/py-build/prefix-ours"
rm -rf "$oursprefix"
mkdir -p "$oursprefix/lib/pkgconfig"
cp -r "$root/include" "$oursprefix/include"
ln -s "$lib" "$oursprefix/lib/libblosc2.so.9"
ln -s libblosc2.so.9 "$oursprefix/lib/libblosc2.so"
cp "$root/cmake/blosc2.pc" "$oursprefix/lib/pkgconfig/blosc2.pc"

# build_wheel NAME PREFIX: the unpacked wheel built against PREFIX/lib/pkgconfig/blosc2.pc
# (prints its directory).
build_wheel() {
  local name=$1 prefix=$2
  local key
  key=$(cd "$prefix" && find include lib/pkgconfig -type f | LC_ALL=C sort |
    xargs cat | cat - "$sdist" $(find "$standin" -type f ! -name "*.txt" ! -name "*.md" |
      LC_ALL=C sort) |
    sha256sum | cut -c1-16)
  local dir="$root/target/py-build/$name-$version-$key"
  if [ -f "$dir/ok" ]; then
    echo "$dir/site"
    return 0
  fi
  rm -rf "$root/target/py-build/$name-$version-"*
  mkdir -p "$dir"
  echo "==> building python-blosc2 $version against the $name headers ($dir)" >&2
  local start=$SECONDS
  if ! PATH="$venv/bin:$PATH" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" USE_SYSTEM_BLOSC2=1 \
    CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$py" -m pip wheel --quiet --disable-pip-version-check \
    --no-deps --no-build-isolation -w "$dir/wheel" \
    --config-settings=cmake.define.FETCHCONTENT_SOURCE_DIR_MINIEXPR="$standin" \
    --config-settings=build-dir="$dir/build" "$sdist" > "$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log" >&2
    return 1
  fi
  "$py" - "$dir/wheel" "$dir/site" << 'PY' || return 1
import glob, sys, zipfile
wheels = glob.glob(sys.argv[1] + "/blosc2-*.whl")
assert len(wheels) == 1, wheels
zipfile.ZipFile(wheels[0]).extractall(sys.argv[2])
PY
  rm -rf "$dir/build"
  echo "    built in $((SECONDS - start)) s" >&2
  touch "$dir/ok"
  echo "$dir/site"
}
refsite=$(build_wheel reference "$refdir") || fail "building python-blosc2 against the reference"
ourssite=$(build_wheel ours "$oursprefix") || fail "building python-blosc2 against ours"

# --- 4. the runs ----------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/python-check-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The libraries are found by their SONAME, each in a directory of its own.
mkdir -p "$work/ref-lib" "$work/lib"
ln -s "$reflib" "$work/ref-lib/libblosc2.so.9"
ln -s "$lib" "$work/lib/libblosc2.so.9"
status=0
# run TITLE SITE LIBDIR ARGS...: python_check.py with the wheel at SITE on LIBDIR.
run() {
  local title=$1 site=$2 libdir=$3
  shift 3
  echo "==> $title"
  PYTHONPATH="$site" LD_LIBRARY_PATH="$libdir" "$py" "$root/tools/python_check.py" "$@" |
    sed 's/^/    /'
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ]; then
    echo "python-check: FAIL ($title)"
    status=1
  fi
  return "$rc"
}
run "write: reference-built python-blosc2 on the reference library" "$refsite" \
  "$work/ref-lib" write "$work" || fail "the write step failed"
run "sanity: reference-built python-blosc2 on the reference library" "$refsite" \
  "$work/ref-lib" check "$work" --lib "$reflib"
run "swap: reference-built python-blosc2 on $lib" "$refsite" "$work/lib" \
  check "$work" --lib "$lib"
run "ours-built python-blosc2 on $lib" "$ourssite" "$work/lib" check "$work" --lib "$lib"

if [ "${PYTHON_CHECK_PYTEST:-1}" != 0 ]; then
  echo "==> python-blosc2's own tests (reference-built wheel on $lib)"
  mkdir -p "$work/pytest"
  cp -r "$srcdir/tests" "$srcdir/conftest.py" "$srcdir/pytest.ini" "$work/pytest/"
  pytest() {
    (cd "$work/pytest" && PYTHONPATH="$refsite" LD_LIBRARY_PATH="$work/lib" "$py" -m pytest \
      -o addopts="" -m "not network and not heavy and not tui" -p no:unraisableexception -q \
      -p no:cacheprovider "$@" "${PYTEST_FILES[@]}")
  }
  # Each excluded test function, with every parametrisation of it, and nothing else.
  pytest --collect-only > "$work/collected.txt" 2>&1
  deselect=()
  nexcl=0
  while read -r name _; do
    [ -n "$name" ] || continue
    nexcl=$((nexcl + 1))
    while read -r id; do
      deselect+=(--deselect "$id")
    done < <(awk -v n="$name" '$0 == n || index($0, n "[") == 1' "$work/collected.txt")
  done < <(grep -v '^\s*#' "$standin/excluded-tests.txt")
  start=$SECONDS
  pytest "${deselect[@]}" > "$work/pytest.log" 2>&1
  prc=$?
  grep -E '^(FAILED|ERROR)' "$work/pytest.log" | head -n 40 | sed 's/^/    /'
  summary=$(tail -n 1 "$work/pytest.log")
  echo "pytest: ${#PYTEST_FILES[@]} files, $nexcl test functions excluded" \
    "($((${#deselect[@]} / 2)) cases): $summary ($((SECONDS - start)) s)"
  if [ $prc -ne 0 ]; then
    echo "python-check: FAIL (python-blosc2's tests)"
    status=1
  fi
fi

# --- 5. the PyPI wheel, for information -------------------------------------------------------
"$py" "$root/tools/python_check.py" wheel-info "$refdir/blosc2_ext.abi3.so"

if [ $status -eq 0 ]; then
  echo "python-check: PASS (python-blosc2 $version built against a system libblosc2, on $lib)"
fi
exit $status
