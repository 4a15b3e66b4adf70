#!/bin/sh
# Installs the npm package puppeteer-core at the pinned version into PREFIX
# for the browser tests (web_browser_test), unless it is there already.
#   install_puppeteer.sh PREFIX VERSION
# Exit 0: installed. Exit 77 (ctest: skipped): node, npm or chromium missing,
# or the install failed (registry unreachable); the message says which.
prefix="$1"
version="$2"
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: $tool is not installed (the browser tests drive chromium with puppeteer-core)"
    exit 77
  fi
done
if ! [ -x /usr/bin/chromium ] && ! command -v chromium >/dev/null 2>&1; then
  echo "skipped: chromium is not installed (scripts/install-deps installs it)"
  exit 77
fi
installed="$prefix/node_modules/puppeteer-core/package.json"
if [ -f "$installed" ] && grep -q "\"version\": \"$version\"" "$installed"; then
  echo "puppeteer-core@$version already installed in $prefix"
  exit 0
fi
mkdir -p "$prefix"
if ! timeout 300 npm install --prefix "$prefix" --no-audit --no-fund --no-save "puppeteer-core@$version"; then
  echo "skipped: npm install puppeteer-core@$version into $prefix failed (is the npm registry reachable?)"
  exit 77
fi
echo "installed puppeteer-core@$version in $prefix"
