#!/usr/bin/env bash
# Regenerates the public C headers under include/ from src/capi/ with cbindgen 0.29.4.
#
#   tools/gen-headers.sh           rewrite the generated headers in include/
#   tools/gen-headers.sh --check   regenerate into a temporary directory and fail (exit 1,
#                                  printing a diff) if anything differs from include/
#
# Generated: include/blosc2.h, include/b2nd.h and include/blosc2/{blosc2-stdio,
# codecs-registry,filters-registry,tuners-registry}.h.  include/blosc2/blosc2-export.h and
# include/blosc2/blosc2-common.h hold no Rust item and are maintained by hand.
#
# cbindgen reads src/capi/mod.rs and the modules below it.  Each header gets one cbindgen
# run whose configuration is tools/cbindgen-<header>.toml (its verbatim C: include guard,
# macros, static initialisers, inline helpers) + tools/cbindgen-common.toml + an [export]
# table computed here: the items routed to the header are included, all others excluded.
# Routing is by name, like the reference headers:
#   b2nd_*, B2ND_*, DTYPE_*, chunk_cache_s          -> b2nd.h
#   blosc2_stdio_*                                  -> blosc2/blosc2-stdio.h
#   BLOSC_CODEC_*, codec_info                       -> blosc2/codecs-registry.h
#   BLOSC_FILTER_*, filter_info                     -> blosc2/filters-registry.h
#   BLOSC_BTUNE, tuner_info                         -> blosc2/tuners-registry.h
#   everything else                                 -> blosc2.h
# blosc2_error_string is declared verbatim in blosc2.h (print_error() needs it even before
# the function exists), so cbindgen never emits it.
#
# Set CBINDGEN to the cbindgen binary to use; otherwise it is looked up in PATH, then in
# ${CARGO_HOME:-~/.cargo}/bin.  Install it with:
#   cargo install cbindgen --version 0.29.4 --locked

set -euo pipefail
export LC_ALL=C

readonly CBINDGEN_VERSION="0.29.4"
readonly HEADERS="blosc2 b2nd blosc2-stdio codecs-registry filters-registry tuners-registry"

die() {
  echo "gen-headers: error: $*" >&2
  exit 1
}

usage() {
  sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  -h | --help)
    usage
    exit 0
    ;;
  *)
    usage >&2
    exit 2
    ;;
esac
[ $# -le 1 ] || {
  usage >&2
  exit 2
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# --- cbindgen, in exactly the pinned version ------------------------------------------
cbindgen=${CBINDGEN:-}
if [ -z "$cbindgen" ]; then
  if command -v cbindgen >/dev/null 2>&1; then
    cbindgen=$(command -v cbindgen)
  elif [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cbindgen" ]; then
    cbindgen="${CARGO_HOME:-$HOME/.cargo}/bin/cbindgen"
  else
    die "cbindgen not found; install it with: cargo install cbindgen --version $CBINDGEN_VERSION --locked"
  fi
fi
command -v "$cbindgen" >/dev/null 2>&1 || die "cannot run cbindgen at '$cbindgen'"
found=$("$cbindgen" --version 2>/dev/null | awk 'NR == 1 { print $2 }') || found=""
[ "$found" = "$CBINDGEN_VERSION" ] ||
  die "$cbindgen is cbindgen '${found:-unknown}', but exactly $CBINDGEN_VERSION is required" \
    "(cargo install cbindgen --version $CBINDGEN_VERSION --locked)"

# --- where each header goes -----------------------------------------------------------
header_path() {
  case "$1" in
    blosc2 | b2nd) echo "include/$1.h" ;;
    *) echo "include/blosc2/$1.h" ;;
  esac
}

route() {
  case "$1" in
    blosc2_error_string) echo verbatim ;;
    b2nd_* | B2ND_* | DTYPE_* | chunk_cache_s) echo b2nd ;;
    blosc2_stdio_*) echo blosc2-stdio ;;
    BLOSC_CODEC_* | codec_info) echo codecs-registry ;;
    BLOSC_FILTER_* | filter_info) echo filters-registry ;;
    BLOSC_BTUNE | tuner_info) echo tuners-registry ;;
    *) echo blosc2 ;;
  esac
}

# --- scan src/capi/ ---------------------------------------------------------------------
[ -f src/capi/mod.rs ] || die "src/capi/mod.rs not found"
mapfile -t all_files < <(find src/capi -name '*.rs' -type f | sort)
mapfile -t types_files < <(find src/capi -name '*.rs' -type f | sort |
  grep -E '^src/capi/types(\.rs|/)')
mapfile -t other_files < <(find src/capi -name '*.rs' -type f | sort |
  grep -vE '^src/capi/types(\.rs|/)')

# Public constants and statics outside the types module would land in blosc2.h.
if [ ${#other_files[@]} -gt 0 ]; then
  leaks=$(grep -nE '^pub[[:space:]]+(const|static)[[:space:]]' "${other_files[@]}" || true)
  [ -z "$leaks" ] || die "public constants/statics belong in src/capi/types (use pub(crate) elsewhere):"$'\n'"$leaks"
fi

# print_error() in blosc2.h relies on this exact prototype.
sig_re='fn[[:space:]]+blosc2_error_string[[:space:]]*\([[:space:]]*[a-z_]+:[[:space:]]*([a-z_]+::)*c_int[[:space:]]*\)[[:space:]]*->[[:space:]]*\*const[[:space:]]+([a-z_]+::)*c_char'
if grep -qE 'extern[[:space:]]+"C"[[:space:]]+fn[[:space:]]+blosc2_error_string\b' "${all_files[@]}" &&
  ! grep -qE "$sig_re" "${all_files[@]}"; then
  die "blosc2_error_string must be declared as fn blosc2_error_string(error_code: c_int) -> *const c_char"
fi

# Names of items: functions from every file, types and constants from the types module.
mapfile -t functions < <(grep -hoE 'extern[[:space:]]+"C"[[:space:]]+fn[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
  "${all_files[@]}" | awk '{ print $NF }' | sort -u)
mapfile -t types < <(grep -hoE '^[[:space:]]*pub[[:space:]]+(struct|type|union|enum)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
  "${types_files[@]}" | awk '{ print $NF }' | sort -u)
mapfile -t consts < <(grep -hoE '^pub[[:space:]]+const[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
  "${types_files[@]}" | awk '{ print $NF }' | sort -u)

toml_list() {
  local first=1 name
  printf '['
  for name in "$@"; do
    [ $first -eq 1 ] || printf ', '
    printf '"%s"' "$name"
    first=0
  done
  printf ']'
}

# --- generate ---------------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/include/blosc2"

for header in $HEADERS; do
  include=()
  exclude=()
  for name in "${types[@]}"; do
    [ "$(route "$name")" = "$header" ] && include+=("$name")
  done
  for name in "${types[@]}" "${consts[@]}" "${functions[@]}"; do
    [ "$(route "$name")" = "$header" ] || exclude+=("$name")
  done

  config="$tmp/cbindgen-$header.toml"
  {
    cat "tools/cbindgen-$header.toml"
    echo
    cat tools/cbindgen-common.toml
    echo
    echo "[export]"
    echo "include = $(toml_list "${include[@]}")"
    echo "exclude = $(toml_list "${exclude[@]}")"
  } >"$config"

  out="$tmp/$(header_path "$header")"
  if ! "$cbindgen" --config "$config" --lang c --output "$out" src/capi/mod.rs 2>"$tmp/log"; then
    cat "$tmp/log" >&2
    die "cbindgen failed for $(header_path "$header")"
  fi
  # Unknown-type notes are expected for libc's FILE, the verbatim blosc_timestamp_t and
  # the items of other headers; anything else is shown.
  grep -vE "^WARN: Can't find (FILE|blosc_timestamp_t|$(
    IFS='|'
    echo "${exclude[*]:-none}"
  ))\. " "$tmp/log" | grep -vE '^WARN: Skip .* - \(not `pub`\)\.$' | sed "s|^|$(header_path "$header"): |" >&2 || true

  # Everything cbindgen emitted must belong here: the routed items plus the names the
  # verbatim C of the configuration defines.  Catches functions the scan above missed
  # (they would otherwise land in every header) and stray public items.
  allowed=$(
    for name in "${types[@]}" "${consts[@]}" "${functions[@]}"; do
      [ "$(route "$name")" = "$header" ] && echo "$name"
    done
    grep -oE '#define [A-Za-z_][A-Za-z0-9_]*' "tools/cbindgen-$header.toml" | awk '{ print $2 }'
    grep -oE '^typedef [^;]*;' "tools/cbindgen-$header.toml" | grep -oE '[A-Za-z_][A-Za-z0-9_]*;$' | tr -d ';'
    echo blosc2_error_string
  )
  emitted=$(
    {
      grep -oE '^#define [A-Za-z_][A-Za-z0-9_]*' "$out" | awk '{ print $2 }'
      grep -oE '^} [A-Za-z_][A-Za-z0-9_]*;' "$out" | tr -d '};' | tr -d ' '
      grep -E '^typedef ' "$out" | grep -oE '\(\*[A-Za-z_][A-Za-z0-9_]*\)' | tr -d '()*'
      grep -E '^typedef [^(]*;' "$out" | grep -oE '[A-Za-z_][A-Za-z0-9_]*;' | tr -d ';'
      tr '\n' ' ' <"$out" | grep -oE 'BLOSC_EXPORT [^;]*;' |
        sed -E -e 's/B2ND_DEPRECATED\("[^"]*"\)//' \
          -e 's/^[^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' || true
    } | sort -u
  )
  stray=$(comm -23 <(echo "$emitted") <(echo "$allowed" | sort -u))
  [ -z "$stray" ] || die "$(header_path "$header") would declare items that do not belong to it:"$'\n'"$stray"
done

if [ $check -eq 1 ]; then
  status=0
  for header in $HEADERS; do
    path=$(header_path "$header")
    if [ ! -f "$path" ]; then
      echo "gen-headers: $path is missing" >&2
      status=1
    elif ! diff -u --label "$path (committed)" --label "$path (regenerated)" "$path" "$tmp/$path"; then
      status=1
    fi
  done
  if [ $status -ne 0 ]; then
    echo "gen-headers: the committed headers are out of date; run tools/gen-headers.sh" >&2
    exit 1
  fi
  echo "gen-headers: include/ is up to date"
else
  for header in $HEADERS; do
    path=$(header_path "$header")
    mkdir -p "$(dirname "$path")"
    cp "$tmp/$path" "$path"
  done
  echo "gen-headers: wrote $(for h in $HEADERS; do printf '%s ' "$(header_path "$h")"; done)"
fi
