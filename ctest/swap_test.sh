#!/usr/bin/env bash
# Swap test: run a program built against the reference libblosc2.so.9 as built, then with
# our libblosc2.so.9 swapped in, and require identical output (except the first line, which
# names the library actually loaded and must point at the expected file each time).
#
# usage: swap_test.sh ldpath|preload PROBE REFERENCE_LIB_DIR OUR_LIBBLOSC2_SO
set -euo pipefail
mode=$1 probe=$2 refdir=$3 ours=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib"
ln -s "$(realpath "$ours")" "$work/lib/libblosc2.so.9"

LD_LIBRARY_PATH="$refdir" "$probe" > "$work/reference.out" || {
  echo "probe failed with the reference library"; cat "$work/reference.out"; exit 1; }
case "$mode" in
  ldpath) LD_LIBRARY_PATH="$work/lib:$refdir" "$probe" > "$work/swapped.out" || status=$? ;;
  preload) LD_LIBRARY_PATH="$refdir" LD_PRELOAD="$work/lib/libblosc2.so.9" "$probe" \
             > "$work/swapped.out" || status=$? ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
if [ "${status:-0}" -ne 0 ]; then
  echo "probe failed (status $status) with our library swapped in ($mode)"
  tail -n 20 "$work/swapped.out"
  exit 1
fi

loaded() { realpath "$(head -n 1 "$1" | sed 's/^LIB //')"; }
if [ "$(loaded "$work/reference.out")" != "$(realpath "$refdir/libblosc2.so.9")" ]; then
  echo "baseline run did not load the reference: $(head -n 1 "$work/reference.out")"; exit 1
fi
if [ "$(loaded "$work/swapped.out")" != "$(realpath "$ours")" ]; then
  echo "swapped run ($mode) did not load ours: $(head -n 1 "$work/swapped.out")"; exit 1
fi
if ! diff -u <(tail -n +2 "$work/reference.out") <(tail -n +2 "$work/swapped.out") \
     > "$work/diff"; then
  echo "outputs differ with our library swapped in ($mode):"
  head -n 80 "$work/diff"
  exit 1
fi
echo "swap ($mode): $(($(wc -l < "$work/reference.out") - 1)) lines identical"
