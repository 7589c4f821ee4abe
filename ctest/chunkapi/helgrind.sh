#!/usr/bin/env bash
# Run the chunk-API stress program under valgrind's helgrind and summarise what it reports.
#
# usage: helgrind.sh [--strict] STRESS_PROGRAM [SECONDS MAXSIZE MINOPS]
#   default arguments: 0 65536 4 (every thread does 4 operations on buffers up to 64 KiB;
#   helgrind slows the program down about 100 times).
#   Exit status: non-zero if the program's own checks fail or it crashes; with --strict also
#   when helgrind reports any error (the reference c-blosc2 3.3.5 is not helgrind-clean: races
#   in blosc2_init, in the lazily initialised shuffle dispatch and in the thread pools shared
#   by contexts with the same nthreads).
set -uo pipefail
strict=0
if [ "${1:-}" = "--strict" ]; then
  strict=1
  shift
fi
if [ $# -lt 1 ]; then
  echo "usage: $0 [--strict] STRESS_PROGRAM [SECONDS MAXSIZE MINOPS]" >&2
  exit 2
fi
prog=$1
shift
if [ $# -eq 0 ]; then set -- 0 65536 4; fi
if ! command -v valgrind > /dev/null 2>&1; then
  echo "valgrind is not installed" >&2
  exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
valgrind --tool=helgrind --error-limit=no --error-exitcode=99 "$prog" "$@" > "$log" 2>&1
status=$?

echo "== program output"
grep -v '^==[0-9]*==' "$log"
echo "== helgrind: $(grep -E '^==[0-9]+== ERROR SUMMARY' "$log" | sed -E 's/^==[0-9]+== //')"
echo "== possible data races (count: racing access, innermost named frame)"
awk 'function frame(l) {
       sub(/^==[0-9]+== +(at|by) 0x[0-9A-Fa-f]+: /, "", l)
       sub(/ \(in .*/, "", l)
       return l
     }
     /Possible data race/ { kind = $0; sub(/^==[0-9]+== Possible data race during /, "", kind);
                            sub(/ at 0x.*/, "", kind); want = 1; next }
     want && /(at|by) 0x/ { f = frame($0); if (f != "???") { print kind ", " f; want = 0 } }
     want && /^==[0-9]+== *$/ { print kind ", ???"; want = 0 }' "$log" |
  sort | uniq -c | sort -rn
echo "== lock-order and other errors"
other='^==[0-9]+== (Lock at|Thread #[0-9]+: lock order|Thread #[0-9]+ unlocked'
other="$other|Thread #[0-9]+.*pthread_)"
grep -E "$other" "$log" |
  sed -E 's/^==[0-9]+== //' | sort | uniq -c | sort -rn | head -n 20
if grep -qE '^==[0-9]+== Process terminating' "$log"; then
  echo "== the program crashed under helgrind:"
  grep -A 8 -E '^==[0-9]+== Process terminating' "$log"
  exit 1
fi
# valgrind replaces the program's status by 99 when it reports errors: use the summary line.
if ! grep -qE '^chunkapi_stress \(.*\): [0-9]+ checks, 0 failures$' "$log"; then
  echo "the program's checks failed (status $status)"
  exit 1
fi
if [ $status -eq 99 ] && [ $strict -eq 1 ]; then exit 1; fi
exit 0
