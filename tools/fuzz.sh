#!/usr/bin/env bash
# Run the coverage-guided fuzz targets of fuzz/ (cargo fuzz, libFuzzer, AddressSanitizer)
# for SECONDS each (default 60), or for RUNS executions each with `-runs=RUNS`. Installs the
# nightly toolchain and cargo-fuzz when missing.
#
# The targets start from seeds cut from the shared corpus (../shared/corpus) in the form each
# target reads (chunks, frames, frame headers/trailers/indexes, packed sparse frames) and
# keep what they find in fuzz/corpus/<target>/. A crash, panic or failed assertion is saved
# in fuzz/artifacts/<target>/ and makes the script fail; minimise it with
# `cargo +nightly fuzz tmin <target> <artifact>` and keep the result in
# fuzz/regressions/<target>/, which `cargo test` replays (tests/fuzz_regressions.rs).
#
# For every target the last lines of libFuzzer's output are kept in
# target/fuzz-logs/<target>.log and summarised: executions, coverage (edges), features,
# corpus size, peak RSS, executions per second.
#
# Every run adds a line to target/fuzz-campaign.tsv (date, target, seconds, executions,
# executions per wall-clock second, coverage, features, corpus files, peak RSS, artifacts),
# so that the executions of several runs of one target can be added up.
#
# With FUZZ_KEEP_GOING=1 libFuzzer runs in fork mode and keeps fuzzing past findings
# (-fork=1 -ignore_crashes=1 ...), so that a campaign collects every finding it meets.
#
# FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS=-runs=10000000 with SECONDS: whichever
# limit comes first).
#
# FUZZ_BINARIES=DIR runs the target binaries found in DIR (a copy of
# fuzz/target/x86_64-unknown-linux-gnu/release, built with AddressSanitizer by
# `cargo fuzz build -O`) instead of `cargo fuzz run`, so that a long campaign in the
# background is neither rebuilt nor slowed by edits to the sources; the targets of `nosan`
# below then come from DIR/nosan (a copy of fuzz/target/nosan/.../release).
#
# usage: bash tools/fuzz.sh [SECONDS | -runs=RUNS] [TARGET...]
#   targets: chunk_decode chunk_mutate differential differential_frame frame_read frame_file
#            frame_meta sframe_index roundtrip schunk_ops io_backends bloscpack_read
#            bcolz_meta b2nd_read ndlz_decode ndlz_roundtrip zfp_decode ndcell_backward
#            (all by default)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/fuzz"
limit=${1:-60}
shift || true
case $limit in
  -runs=*) stop="$limit" ;;
  *) stop="-max_total_time=$limit" ;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(chunk_decode chunk_mutate differential differential_frame
  frame_read frame_file frame_meta sframe_index roundtrip schunk_ops io_backends bloscpack_read
  bcolz_meta b2nd_read ndlz_decode ndlz_roundtrip zfp_decode ndcell_backward)

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo fuzz --version > /dev/null 2>&1 || cargo install cargo-fuzz --locked
bash "$root/tools/fetch-reference.sh" > /dev/null # the differential targets load it

# The bundled C codecs are compiled by GCC with the inherited -fsanitize=address. GCC's
# use-after-scope poisoning then flags a read of a constant table in zstd's
# ZSTD_selectBtGetAllMatches (a local const array it places in static storage); the check
# is switched off for the C code.
export CFLAGS="${CFLAGS:+$CFLAGS }-fno-sanitize-address-use-after-scope"

# Seeds, in the form each target reads, named by content (existing ones are kept).
python3 - "$root/../shared/corpus" corpus << 'EOF'
import glob, hashlib, os, struct, sys
shared, out = sys.argv[1:3]

def put(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "seed-" + hashlib.sha1(data).hexdigest()[:16])
    if not os.path.exists(p):
        open(p, "wb").write(data)

for t in ("roundtrip", "schunk_ops", "io_backends", "ndlz_decode", "ndlz_roundtrip",
          "zfp_decode", "ndcell_backward"):
    os.makedirs(os.path.join(out, t), exist_ok=True)
# chunk_mutate: codec, flags, typesize, no edits, then data (dictionary and VL variants).
text = b"".join(b"row %05d: value %d;" % (i, i * i % 977) for i in range(2000))
for codec in range(5):
    for flags in (0x00, 0x01, 0x02, 0x03, 0x24, 0x47):
        put("chunk_mutate", bytes([codec | 0x50, flags, 3, 0]) + text[: 6000 + 500 * codec])
if not os.path.isdir(shared):
    print("fuzz.sh: no shared corpus at %s; seeds are synthetic only" % shared)
    sys.exit(0)
for f in glob.glob(shared + "/**/*.cdata", recursive=True):
    data = open(f, "rb").read()
    put("chunk_decode", data)
    put("differential", data)
frames = [f for f in glob.glob(shared + "/**/*.b2frame", recursive=True) if os.path.isfile(f)]
frames += [f for f in glob.glob(shared + "/b2nd/*.b2nd") if os.path.isfile(f)]
for f in frames:
    b = open(f, "rb").read()
    for t in ("frame_read", "frame_file", "differential_frame"):
        put(t, b)
    if len(b) < 64 or b[2:10] != b"b2frame\0":
        continue
    hlen = struct.unpack(">i", b[11:15])[0]
    flen = struct.unpack(">Q", b[16:24])[0]
    cbytes = struct.unpack(">q", b[0x27:0x2f])[0]
    if not (0 < hlen <= flen <= len(b)):
        continue
    put("frame_meta", b"\x00" + b[:hlen])
    tlen = struct.unpack(">I", b[flen - 22 : flen - 18])[0]
    if 25 <= tlen <= flen - hlen:
        put("frame_meta", b"\x01" + b[flen - tlen : flen])
    idx = hlen + (cbytes if b[0x1a] == 0 else 0)  # sparse frames: no chunk section
    if idx + 32 <= flen:
        put("frame_meta", b"\x02" + b[idx : flen - tlen])
    at = b.find(b"\xa4b2nd\xd2", 0, hlen)
    if at > 0:
        off = struct.unpack(">i", b[at + 6 : at + 10])[0]
        if 0 < off + 5 <= hlen:
            n = struct.unpack(">I", b[off + 1 : off + 5])[0]
            put("frame_meta", b"\x03" + b[off + 5 : off + 5 + n])
for f in glob.glob(shared + "/bloscpack/*.blp"):
    put("bloscpack_read", open(f, "rb").read())
for f in glob.glob(shared + "/b2nd/*.b2nd"):
    if os.path.isfile(f):
        put("b2nd_read", open(f, "rb").read())
# bcolz_meta: meta/sizes, a NUL byte, meta/storage.
for m in glob.glob(shared + "/bcolz/*/meta") + glob.glob(shared + "/bcolz/*/*/meta"):
    sizes, storage = os.path.join(m, "sizes"), os.path.join(m, "storage")
    if os.path.isfile(sizes) and os.path.isfile(storage):
        put("bcolz_meta", open(sizes, "rb").read() + b"\0" + open(storage, "rb").read())
# Sparse frames: the index frame and the chunk files, each as a 32-bit length and bytes.
for d in glob.glob(shared + "/**/", recursive=True):
    index = os.path.join(d, "chunks.b2frame")
    if not os.path.isfile(index):
        continue
    parts = [open(index, "rb").read()]
    n = 0
    while os.path.isfile(os.path.join(d, "%08X.chunk" % n)):
        parts.append(open(os.path.join(d, "%08X.chunk" % n), "rb").read())
        n += 1
    put("sframe_index", b"".join(struct.pack("<I", len(p)) + p for p in parts))
EOF

logs="$root/target/fuzz-logs"
ledger="$root/target/fuzz-campaign.tsv"
keep_going=()
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
  keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
mkdir -p "$logs"
[ -f "$ledger" ] ||
  printf 'date\ttarget\tseconds\texecutions\texec/s\tcov\tft\tcorpus\trss_mb\tartifacts\n' > "$ledger"

# Targets that reach only safe Rust (forbid(unsafe_code) modules and unsafe-free codec and
# filter code, no C codec): bounds and overflow checks already stop them on a bad access,
# so they run without AddressSanitizer, about twice as fast (FUZZ_ASAN_ALL=1 keeps it).
nosan=" frame_meta bcolz_meta ndlz_decode ndlz_roundtrip ndcell_backward "
# Largest input per target: the parsers of small inputs get a cap that still holds every
# input they read whole (an NDLZ block is at most 70 x 70 bytes, bcolz metadata a few
# hundred bytes, frame headers, trailers and indexes of the corpus a few KiB), and the
# targets that compress their input take 64 KiB of data (chunk_mutate reads no more; more
# data in roundtrip only made each run slower); schunk_ops reads two bytes per operation,
# and 256 bytes (up to 127 operations on up to 127 chunks) are plenty, where longer inputs
# only slowed it (200 runs/s after libFuzzer had let them grow past 1 KiB); io_backends
# likewise checks its model after every operation (a few bytes each): 512 bytes; the rest
# take chunks and frames up to 1 MiB.
max_len() {
  case $1 in
    bcolz_meta | ndlz_roundtrip) echo 8192 ;;
    ndlz_decode | ndcell_backward | frame_meta) echo 65536 ;;
    chunk_mutate) echo 65564 ;;
    schunk_ops) echo 256 ;;
    io_backends) echo 512 ;;
    roundtrip) echo 65540 ;;
    zfp_decode) echo 262144 ;;
    *) echo 1048576 ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  san=()
  if [[ $nosan == *" $target "* && ${FUZZ_ASAN_ALL:-0} != 1 ]]; then
    san=(-s none --target-dir target/nosan)
  fi
  echo "==> $target ($stop${san:+, no sanitizer})"
  # Leak checks are off: the worker threads of dropped thread pools still hold their few
  # allocations when the process exits, which LeakSanitizer reports. One allocation may take
  # 2 GiB; the process may grow to 4 GiB, as libFuzzer's in-memory corpus and
  # AddressSanitizer's caches grow over a long run (session 7's `frame_read` "out-of-memory"
  # was that growth after 40 minutes: its input alone peaks at 37 MB).
  t0=$SECONDS
  if [ -n "${FUZZ_BINARIES:-}" ]; then
    mkdir -p "artifacts/$target"
    run=("$FUZZ_BINARIES${san:+/nosan}/$target" "corpus/$target"
      "-artifact_prefix=artifacts/$target/")
  else
    run=(cargo +nightly fuzz run -O "${san[@]}" "$target" "corpus/$target" --)
  fi
  ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "${run[@]}" \
    "$stop" -rss_limit_mb=4096 -malloc_limit_mb=2048 -max_len="$(max_len "$target")" \
    -print_final_stats=1 -detect_leaks=0 "${keep_going[@]}" ${FUZZ_ARGS:-} > "$logs/$target.log" 2>&1 || true
  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|SUMMARY|Test unit written|thread .* panicked)' \
    "$logs/$target.log" | sed 's/^/    /' || true
  # libFuzzer's status lines: "#RUNS<tab>KIND cov: ..." or "#RUNS: cov: ..." (fork mode).
  last=$(grep -E '^#[0-9]+(:|[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED))' "$logs/$target.log" |
    tail -n 1 || true)
  sed -E 's/^#([0-9]+):?[[:space:]]+([A-Z]+ +)?/    last status: \1 execs, /' <<< "$last"
  found=$(ls -A "artifacts/$target" 2> /dev/null | wc -l)
  if [ "$found" -gt 0 ]; then
    echo "    FOUND: $(ls "artifacts/$target")"
    status=1
  fi
  # One ledger line per run: executions add up over runs that keep the corpus.
  field() { sed -nE "s/.*$1:? +([0-9]+).*/\1/p" <<< "$last"; }
  # Children that a target forks (the differential targets' reference openings, fork mode's
  # jobs) may print their own final statistics when a run is stopped by hand: the run's
  # executions and peak RSS are the largest figures printed, and fork mode, which prints
  # no final statistics of its own, counts executions in its status lines ("#RUNS: cov").
  max_of() { sort -n | tail -n 1; }
  stat_of() { sed -nE "s/^stat::$1: +([0-9]+)/\1/p" "$logs/$target.log" | max_of; }
  runs=$( { stat_of number_of_executed_units; sed -nE 's/^#([0-9]+): cov.*/\1/p' "$logs/$target.log"; } | max_of)
  seconds=$((SECONDS - t0))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" \
    "$seconds" "${runs:-0}" "$(( ${runs:-0} / (seconds > 0 ? seconds : 1) ))" \
    "$(field cov)" "$(field ft)" "$(ls "corpus/$target" | wc -l)" "$(stat_of peak_rss_mb)" \
    "$found" >> "$ledger"
done
exit $status
