#!/bin/sh
# Runs a browser test, browser_test.js or the one named (skipped, exit 77,
# when node or puppeteer-core is missing: web_puppeteer_install says why).
#   run_browser_test.sh ARBITERD ARBITER SAMPLES NPM_PREFIX OUT_DIR [TEST.js]
here=$(dirname "$0")
if ! command -v node >/dev/null 2>&1; then
  echo "skipped: node is not installed"
  exit 77
fi
if ! [ -f "$4/node_modules/puppeteer-core/package.json" ]; then
  echo "skipped: puppeteer-core is not installed in $4 (see the web_puppeteer_install test)"
  exit 77
fi
exec node "$here/${6:-browser_test.js}" --arbiterd "$1" --arbiter "$2" --samples "$3" --npm-prefix "$4" --out "$5"
