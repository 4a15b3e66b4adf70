#!/bin/sh
# Installs the npm package openskill at the pinned version into PREFIX for the
# differential test (openskill_oracle_test), unless it is there already.
#   install_openskill.sh PREFIX VERSION
# Exit 0: installed. Exit 77 (ctest: skipped): node or npm missing, or the
# install failed (offline registry); the message says which.
prefix="$1"
version="$2"
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed (needed for the openskill oracle)"
  exit 77
fi
installed="$prefix/node_modules/openskill/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "openskill@$version already installed in $prefix"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "skipped: npm is not installed, so openskill@$version cannot be installed"
  exit 77
fi
mkdir -p "$prefix"
if ! timeout 180 npm install --prefix "$prefix" --no-audit --no-fund --no-save "openskill@$version"; then
  echo "skipped: npm install openskill@$version into $prefix failed (is the npm registry reachable?)"
  exit 77
fi
echo "installed openskill@$version in $prefix"
