#!/usr/bin/env bash
# Cross tests of the CLI against bloscpack 0.16.0 (python-blosc 1.11.4) and bcolz
# (bcolz-zipline), installed from PyPI into target/containers-venv. Needs a release build
# (cargo build --release) or builds one. Last line: `containers-check: N passed, M failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/containers-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q bloscpack==0.16.0 blosc==1.11.4 numpy bcolz-zipline
cli=target/release/blosc2-oxide
[ -x "$cli" ] || cargo build --release --bin blosc2-oxide
work=target/containers-check
rm -rf "$work"
"$venv/bin/python" tools/containers_check.py "$PWD/$cli" "$work"
