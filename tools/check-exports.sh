#!/usr/bin/env bash
# Check the dynamic symbols and SONAME of our libblosc2 against the reference:
#   - every defined dynamic symbol of ours starts with blosc or b2nd;
#   - every one of them is also exported by the reference;
#   - the SONAME is libblosc2.so.9.
# Reference blosc/b2nd symbols we do not export yet are listed (informational).
#
# usage: tools/check-exports.sh OUR_LIBBLOSC2_SO REFERENCE_LIBBLOSC2_SO
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OUR_SO REFERENCE_SO" >&2
  exit 2
fi
ours=$1 ref=$2
for f in "$ours" "$ref"; do
  [ -f "$f" ] || { echo "exports: no such file: $f"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

nm -D --defined-only "$ours" | awk 'NF >= 3 {print $3}' | sort -u > "$work/ours"
nm -D --defined-only "$ref" | awk 'NF >= 3 {print $3}' | sort -u > "$work/ref_all"
grep -E '^(blosc|b2nd)' "$work/ref_all" > "$work/ref_api" || true

fail=0
grep -vE '^(blosc|b2nd)' "$work/ours" > "$work/foreign" || true
if [ -s "$work/foreign" ]; then
  echo "FAIL: $(wc -l < "$work/foreign") exported symbols are not blosc*/b2nd*:"
  head -n 40 "$work/foreign" | sed 's/^/  /'
  fail=1
fi
comm -23 "$work/ours" "$work/ref_all" > "$work/extra"
if [ -s "$work/extra" ]; then
  echo "FAIL: $(wc -l < "$work/extra") exported symbols are not exported by the reference:"
  head -n 40 "$work/extra" | sed 's/^/  /'
  fail=1
fi
soname=$(readelf -d "$ours" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" != "libblosc2.so.9" ]; then
  echo "FAIL: SONAME is '${soname}', expected libblosc2.so.9"
  fail=1
fi
comm -13 "$work/ours" "$work/ref_api" > "$work/missing"
echo "exports: ours $(grep -cE '^(blosc|b2nd)' "$work/ours" || true) blosc/b2nd symbols," \
     "reference $(wc -l < "$work/ref_api"); SONAME ${soname:-none}"
if [ -s "$work/missing" ]; then
  echo "info: $(wc -l < "$work/missing") reference symbols not exported yet:"
  fmt -w 100 "$work/missing" | sed 's/^/  /'
fi
if [ "$fail" -ne 0 ]; then
  echo "exports: FAILED"
  exit 1
fi
echo "exports: OK"
