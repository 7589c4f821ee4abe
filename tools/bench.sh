#!/usr/bin/env bash
# Build our library (release) and the side-by-side benchmark, then run it against the
# reference c-blosc2 3.3.5. Extra arguments go to the benchmark (--reps N, --mb SIZE,
# --codec NAME, --full, --threads T, --quick).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
refdir=$(bash tools/fetch-reference.sh)
cargo build --release
mkdir -p target/ours-lib
cp -f target/release/libblosc2.so target/ours-lib/libblosc2.so.9
cmake -S ctest -B target/bench-build -DCMAKE_BUILD_TYPE=Release -DBLOSC2_VARIANT=reference \
  -DBLOSC2_INCLUDE_DIR="$refdir/include" -DBLOSC2_LIBRARY="$refdir/lib/libblosc2.so.9" \
  > target/bench-build.log
cmake --build target/bench-build --target bench >> target/bench-build.log
target/bench-build/bench "$root/target/ours-lib/libblosc2.so.9" "$refdir/lib/libblosc2.so.9" "$@"
