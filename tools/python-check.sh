#!/usr/bin/env bash
# python-blosc2 (the PyPI wheel blosc2==4.14.1) on a libblosc2.so.9: see tools/python_check.py.
#
# usage: tools/python-check.sh [LIBBLOSC2_SO]
#   default library: target/ours-lib/libblosc2.so.9 (else target/release/libblosc2.so)
# Creates (once) a venv under target/py-venv with blosc2==4.14.1 and numpy from PyPI, writes
# a file with the wheel alone, then runs the checks with LD_PRELOAD=<library>.
# Exit status: 0 pass; 1 a check failed; 3 only the routing check failed (the wheel's
# extension embeds c-blosc2 statically, so a preloaded library is never called).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lib=${1:-}
if [ -z "$lib" ]; then
  lib="$root/target/ours-lib/libblosc2.so.9"
  [ -f "$lib" ] || lib="$root/target/release/libblosc2.so"
fi
if [ ! -f "$lib" ]; then
  echo "python-check: FAIL (no library at $lib; build it with cargo build --release)"
  exit 1
fi
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")

venv="$root/target/py-venv"
py="$venv/bin/python"
if ! "$py" -c 'import blosc2, numpy; assert blosc2.__version__ == "4.14.1"' 2> /dev/null; then
  echo "==> creating $venv (blosc2==4.14.1, numpy)"
  python3 -m venv "$venv" &&
    "$py" -m pip install --quiet --disable-pip-version-check blosc2==4.14.1 numpy || {
    echo "python-check: FAIL (cannot install blosc2==4.14.1 into $venv)"
    exit 1
  }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/python-check-XXXXXX")
trap 'rm -rf "$work"' EXIT
# The write step runs on the wheel alone (no preload): the reference writes the file.
if ! "$py" "$root/tools/python_check.py" write "$work"; then
  echo "python-check: FAIL (the write step failed)"
  exit 1
fi
LD_PRELOAD="$lib" "$py" "$root/tools/python_check.py" check "$work" --lib "$lib"
