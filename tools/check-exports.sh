#!/usr/bin/env bash
# Check the dynamic symbols and SONAME of our libblosc2 against the reference:
#   - every defined dynamic symbol of ours starts with blosc or b2nd;
#   - every one of them is also exported by the reference;
#   - the SONAME is libblosc2.so.9.
#   - every reference blosc/b2nd symbol is exported, except those listed in
#     tools/exports-known-missing.txt, and no listed symbol is exported (the list only
#     shrinks: remove a symbol from it when it is implemented).
#   - the code of the compression and decompression paths is in the .text.hot section
#     (build_script/hot_text.rs), so that a change of module names or of the mangling
#     scheme cannot undo the grouping unnoticed.
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
known="$(dirname "${BASH_SOURCE[0]}")/exports-known-missing.txt"
{ grep -vE '^(#|$)' "$known" || true; } | sort -u > "$work/known"
comm -23 "$work/missing" "$work/known" > "$work/unlisted"
if [ -s "$work/unlisted" ]; then
  echo "FAIL: $(wc -l < "$work/unlisted") reference symbols are missing and not listed in $known:"
  fmt -w 100 "$work/unlisted" | sed 's/^/  /'
  fail=1
fi
comm -12 "$work/known" "$work/ours" > "$work/stale"
if [ -s "$work/stale" ]; then
  echo "FAIL: $(wc -l < "$work/stale") symbols listed in $known are exported; remove them from it:"
  fmt -w 100 "$work/stale" | sed 's/^/  /'
  fail=1
fi
# Functions that must lie in .text.hot: C entry points and the Rust functions behind them.
read -r hot_lo hot_size < <(readelf -SW "$ours" |
  awk '$2 == ".text.hot" {print $4, $6} $3 == ".text.hot" {print $5, $7}') || true
if [ -z "${hot_lo:-}" ]; then
  echo "FAIL: no .text.hot section"
  fail=1
else
  outside=$(nm -C --defined-only "$ours" | awk -v lo=$((16#$hot_lo)) -v hi=$((16#$hot_lo + 16#$hot_size)) '
    / blosc2_(compress|decompress)_ctx$| blosc2_schunk_append_buffer$| blosc2::context::Context::(compress|decompress)$| blosc2::codecs::blosclz::compress$| blosc2::filters::shuffle::(un)?shuffle$/ {
      a = 0; h = $1
      for (i = 1; i <= length(h); i++) a = a * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
      n++
      if (a < lo || a >= hi) print $0
    }
    END { if (n < 8) print "only " n + 0 " of the 8 functions found" }')
  if [ -n "$outside" ]; then
    echo "FAIL: hot-path functions outside .text.hot:"
    echo "$outside" | sed 's/^/  /'
    fail=1
  fi
fi
echo "exports: ours $(grep -cE '^(blosc|b2nd)' "$work/ours" || true) blosc/b2nd symbols," \
     "reference $(wc -l < "$work/ref_api"), known missing $(wc -l < "$work/missing"); SONAME ${soname:-none}"
if [ "$fail" -ne 0 ]; then
  echo "exports: FAILED"
  exit 1
fi
echo "exports: OK"
