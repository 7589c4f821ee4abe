#!/usr/bin/env bash
# Refresh vendor/zlib-ng from a zlib-ng 2.3.3 source tree (for example the copy inside the
# libz-sys 1.1.31 crate: ~/.cargo/registry/src/*/libz-sys-1.1.31/src/zlib-ng).
#
# Keeps only what build.rs compiles (zlib-compat mode, no gz* file API, generic and x86
# code), writes the headers that zlib-ng's CMake would configure (zconf.h, zlib.h and a
# zlib_name_mangling.h that prefixes every public zlib symbol with `oxzng_`, so that a
# program linking our static library next to a system zlib sees no clash), and applies
# vendor/zlib-ng.patch.
#
# usage: tools/vendor-zlib-ng.sh ZLIB_NG_SOURCE_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=${1:?usage: $0 ZLIB_NG_SOURCE_DIR}
prefix=oxzng_
grep -q '#define ZLIBNG_VERSION "2.3.3"' "$src/zlib.h.in" || {
  echo "$src is not zlib-ng 2.3.3" >&2
  exit 1
}
dst="$root/vendor/zlib-ng"
rm -rf "$dst"
mkdir -p "$dst/arch/generic" "$dst/arch/x86"
cd "$src"
cp LICENSE.md ./*.c ./*.h "$dst/"
rm -f "$dst"/gz*.c "$dst"/gz*.h "$dst/infback.c"
cp arch/generic/*.c arch/generic/*.h "$dst/arch/generic/"
cp arch/x86/*.c arch/x86/*.h "$dst/arch/x86/"
sed 's|^#ifdef HAVE_UNISTD_H .*|#if 1    /* was set to #if 1 by configure/cmake/etc */|' \
  zconf.h.in > "$dst/zconf.h"
sed "s/@ZLIB_SYMBOL_PREFIX@/$prefix/g" zlib.h.in > "$dst/zlib.h"
sed "s/@ZLIB_SYMBOL_PREFIX@/$prefix/g" zlib_name_mangling.h.in > "$dst/zlib_name_mangling.h"
cd "$dst"
patch -p1 --quiet < "$root/vendor/zlib-ng.patch"
echo "vendor/zlib-ng refreshed from $src"
