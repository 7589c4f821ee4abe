#!/usr/bin/env bash
# A real plugin wheel from PyPI through our library: installs blosc2-openzl (OpenZL codec,
# id 38, lossless) into a venv under target/, puts the venv's python first on PATH (the
# libraries find the plugin with `python -c "import blosc2_openzl; ...print_libpath()"`),
# and runs ctest/plugins/plugin_probe.c: data compressed by ours with the dynamically
# loaded codec round-trips, the reference reads it, and both write the same chunk. Then the
# same for the btune tuner wheel (blosc2-btune, tuner 32) with ctest/plugins/tuner_probe.c:
# super-chunks tuned through ours round-trip and the reference reads them (the reference
# itself dies with SIGFPE under btune 1.2.1, which the probe reports).
#
# usage: tools/plugin-check.sh [OUR_LIBBLOSC2_SO]   (default: target/release/libblosc2.so)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ours=${1:-$root/target/release/libblosc2.so}
ref=$root/target/reference/blosc2/lib/libblosc2.so.9
[ -f "$ref" ] || bash "$root/tools/fetch-reference.sh"
[ -f "$ours" ] || (cd "$root" && cargo build --release)
venv=$root/target/plugin-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import blosc2_openzl" 2> /dev/null ||
  "$venv/bin/python" -m pip install --quiet blosc2-openzl==0.0.1
"$venv/bin/python" -c "import blosc2_btune" 2> /dev/null ||
  "$venv/bin/python" -m pip install --quiet blosc2-btune==1.2.1
probe=$root/target/plugin_probe
cc -O1 -Wall -Wextra -I"$root/include" "$root/ctest/plugins/plugin_probe.c" -o "$probe" -ldl
PATH="$venv/bin:$PATH" "$probe" "$ours" "$ref" 38 0
tprobe=$root/target/tuner_probe
cc -O1 -Wall -Wextra -I"$root/include" "$root/ctest/plugins/tuner_probe.c" -o "$tprobe" -ldl
PATH="$venv/bin:$PATH" "$tprobe" "$ours" "$ref"
