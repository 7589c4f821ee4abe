#!/usr/bin/env bash
# Side-by-side benchmark (not a test) of the CLI against bloscpack's `blpk` and bcolz,
# on inputs in /dev/shm so that the disk is not what is measured. Extra arguments go to
# tools/bench_containers.py (--reps N, --mib SIZE, --kinds f8,i4,text,random,
# --cases default,lz4-5,zstd-5,blosclz-1,blosclz-5,blosclz-9, --no-bcolz).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/containers-venv
if ! "$venv/bin/python" -c 'import blosc, bcolz, numpy' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q bloscpack==0.16.0 blosc==1.11.4 numpy bcolz-zipline
fi
cli=target/release/blosc2-oxide
[ -x "$cli" ] || cargo build --release --bin blosc2-oxide
work=${BENCH_DIR:-/dev/shm/blosc2-oxide-bench}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
uptime
"$venv/bin/python" tools/bench_containers.py "$PWD/$cli" "$work" "$@"
