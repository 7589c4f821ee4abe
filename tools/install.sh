#!/usr/bin/env bash
# Build blosc2-oxide (release), install it under PREFIX (default $HOME/.local) and run a
# short demo compiled against the installed copy.
#
#   PREFIX/lib/libblosc2.so.9, libblosc2.so -> libblosc2.so.9, libblosc2.a
#   PREFIX/include/blosc2.h, b2nd.h, blosc2/*.h
#   PREFIX/lib/pkgconfig/blosc2.pc
#   PREFIX/lib/cmake/Blosc2/Blosc2Config.cmake, Blosc2ConfigVersion.cmake
#
# usage: bash tools/install.sh [PREFIX]
# BLOSC2_SKIP_BUILD=1 installs the existing target/release build without running cargo.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${1:-$HOME/.local}
cd "$root"

if [ -z "${BLOSC2_SKIP_BUILD:-}" ]; then
  echo "==> cargo build --release"
  cargo build --release
fi
so=target/release/libblosc2.so
ar=target/release/libblosc2.a
for f in "$so" "$ar" include/blosc2.h include/b2nd.h; do
  [ -f "$f" ] || { echo "install: missing $f" >&2; exit 1; }
done

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
echo "==> installing into $prefix"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/lib/cmake/Blosc2" "$prefix/include/blosc2"
rm -f "$prefix/lib/libblosc2.so" "$prefix/lib/libblosc2.so.9"
install -m 755 "$so" "$prefix/lib/libblosc2.so.9"
ln -s libblosc2.so.9 "$prefix/lib/libblosc2.so"
install -m 644 "$ar" "$prefix/lib/libblosc2.a"
install -m 644 include/blosc2.h include/b2nd.h "$prefix/include/"
if [ -d include/blosc2 ]; then
  install -m 644 include/blosc2/*.h "$prefix/include/blosc2/"
fi
install -m 644 cmake/blosc2.pc "$prefix/lib/pkgconfig/blosc2.pc"
install -m 644 cmake/Blosc2Config.cmake cmake/Blosc2ConfigVersion.cmake \
  "$prefix/lib/cmake/Blosc2/"

echo "==> building the demo against the installed copy"
demo_dir="$root/target/demo"
mkdir -p "$demo_dir"
cc=${CC:-cc}
if command -v pkg-config > /dev/null 2>&1; then
  export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  cflags=$(pkg-config --cflags blosc2)
  libs=$(pkg-config --libs blosc2)
  echo "    pkg-config blosc2 $(pkg-config --modversion blosc2): $cflags $libs"
else
  cflags="-I$prefix/include"
  libs="-L$prefix/lib -lblosc2"
  echo "    pkg-config not found, using $cflags $libs"
fi
# shellcheck disable=SC2086
"$cc" -O2 -Wall -Wextra $cflags examples/demo.c -o "$demo_dir/demo" $libs \
  -Wl,-rpath,"$prefix/lib"
echo "==> running the demo"
"$demo_dir/demo"
echo "installed blosc2-oxide 3.3.5 into $prefix"
