#!/usr/bin/env bash
# Run the pure-Rust unit tests of the parsers and codecs under Miri (undefined-behaviour
# checker): chunk header parsing, the BloscLZ codec, the scalar and SSE2 shuffle and
# bitshuffle kernels and the other filters, frame header / trailer / index parsing and the
# b2nd metalayer. Tests that call C (the zstd, lz4 and zlib codecs, the reference library)
# cannot run under Miri and are not selected (the differential tests that load the reference
# are skipped by name). Installs the nightly toolchain's miri and
# rust-src components when missing. A few minutes; not part of test-all.sh.
#
# usage: bash tools/miri.sh [EXTRA-TEST-FILTERS...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$SECONDS

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
installed=$(rustup +nightly component list --installed)
grep -q '^miri' <<< "$installed" || rustup component add miri --toolchain nightly
grep -q '^rust-src' <<< "$installed" || rustup component add rust-src --toolchain nightly
cargo +nightly miri setup > /dev/null

# Test-name filters (substrings of the test paths). The exhaustive tests (every corrupt
# stream, every length and level) take too long under Miri; their small counterparts run.
filters=(
  chunk::header::
  chunk::tests::header::
  codecs::blosclz::tests::handcrafted_streams
  codecs::blosclz::tests::decoder_refuses_too_small_destination
  codecs::blosclz::tests::far_match_at_stream_end_is_dropped
  codecs::blosclz::tests::short_inputs_round_trip_at_every_hash_size
  filters::shuffle::tests::small_examples_follow_the_definition
  filters::shuffle::tests::strided_rows_leave_the_gaps_alone
  filters::bitshuffle::tests::small_examples_follow_the_definition
  filters::bitshuffle::tests::version_2_chunks_copy_blocks_with_partial_octets
  filters::delta::
  filters::bytedelta::
  filters::int_trunc::
  filters::trunc_prec::
  frame::tests::header_and_trailer_round_trip
  frame::tests::special_offsets_encode_like_the_format_says
  frame::tests::offsets_past_the_chunks_are_errors
  b2nd::meta::
  "$@"
)
# Isolation stays on (no file system, no clock); the tests above need neither.
MIRIFLAGS="${MIRIFLAGS:-}" CARGO_TARGET_DIR=target/miri \
  cargo +nightly miri test --lib -- "${filters[@]}" --skip matches_reference --skip the_reference 2>&1 |
  tee target/miri.log
echo "==> miri: $((SECONDS - start)) s"
