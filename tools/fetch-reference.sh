#!/usr/bin/env bash
# Fetch the reference c-blosc2 3.3.5 (PyPI wheel blosc2==4.14.1) into target/reference/
# unless it is already there. Prints the directory holding lib/ and include/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest="$root/target/reference"
lib="$dest/blosc2/lib/libblosc2.so.9"
if [ -f "$lib" ] && [ -f "$dest/blosc2/include/blosc2.h" ]; then
  echo "$dest/blosc2"
  exit 0
fi
dl="$root/target/reference-download"
rm -rf "$dl"
mkdir -p "$dl" "$dest"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  blosc2==4.14.1 -d "$dl" >&2
wheel=$(ls "$dl"/blosc2-4.14.1-*.whl | head -n 1)
python3 - "$wheel" "$dest" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    z.extractall(sys.argv[2])
PY
rm -rf "$dl"
[ -f "$lib" ] || { echo "reference wheel has no $lib" >&2; exit 1; }
echo "$dest/blosc2"
