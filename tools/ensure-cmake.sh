#!/usr/bin/env bash
# Make `cmake` available (the C test suite is built with it): installs it from PyPI with
# pip when missing. Source this file so the PATH change reaches the caller.
if ! command -v cmake > /dev/null 2>&1; then
  echo "    installing cmake with pip"
  python3 -m pip install --quiet --disable-pip-version-check cmake ||
    python3 -m pip install --quiet --disable-pip-version-check --user cmake ||
    python3 -m pip install --quiet --disable-pip-version-check --user \
      --break-system-packages cmake
  export PATH="$HOME/.local/bin:$PATH"
  hash -r
fi
