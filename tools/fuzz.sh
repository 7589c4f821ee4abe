#!/usr/bin/env bash
# Run the coverage-guided fuzz targets of fuzz/ (cargo fuzz, libFuzzer) for SECONDS each
# (default 60). Installs the nightly toolchain and cargo-fuzz when missing. The targets
# start from the shared corpus when ../shared/corpus exists (chunks for chunk_decode,
# frames for frame_read) and keep what they find in fuzz/corpus/<target>/; a crash or
# failed assertion is saved in fuzz/artifacts/<target>/ and makes the script fail.
#
# usage: bash tools/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/fuzz"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(chunk_decode frame_read roundtrip schunk_ops io_backends bloscpack_read bcolz_meta)

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked

# The bundled C codecs are compiled by GCC with the inherited -fsanitize=address. GCC's
# use-after-scope poisoning then flags a read of a constant table in zstd's
# ZSTD_selectBtGetAllMatches (a local const array it places in static storage); the check
# is switched off for the C code.
export CFLAGS="${CFLAGS:+$CFLAGS }-fno-sanitize-address-use-after-scope"

shared="$root/../shared/corpus"
seed() { # seed TARGET PATTERN DIR...
  local target=$1 pattern=$2
  shift 2
  mkdir -p "corpus/$target"
  for dir in "$@"; do
    [ -d "$shared/$dir" ] && find "$shared/$dir" -type f -name "$pattern" -exec cp -n {} "corpus/$target/" \;
  done
  return 0
}
seed chunk_decode '*.cdata' chunks blosc1 compat
seed frame_read '*.b2frame' frames sframes compat
mkdir -p corpus/roundtrip corpus/io_backends
seed bloscpack_read '*.blp' bloscpack
mkdir -p corpus/bcolz_meta
for m in "$shared"/bcolz/*/meta "$shared"/bcolz/*/*/meta; do
  if [ -d "$m" ]; then
    { cat "$m/sizes"; printf '\0'; cat "$m/storage"; } > "corpus/bcolz_meta/$(echo "$m" | tr / _)"
  fi
done

status=0
for target in "${targets[@]}"; do
  echo "==> $target for ${seconds}s"
  mkdir -p "corpus/$target"
  # Leak checks are off: the worker threads of dropped thread pools still hold their few
  # allocations when the process exits, which LeakSanitizer reports.
  ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" cargo +nightly fuzz run -O "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096 -max_len=1048576 -print_final_stats=1 \
    -detect_leaks=0 \
    2>&1 | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==|SUMMARY|Test unit written|thread .* panicked)' ||
    true
  if [ -n "$(ls -A "artifacts/$target" 2> /dev/null)" ]; then
    echo "    FOUND: $(ls "artifacts/$target")"
    status=1
  fi
done
exit $status
