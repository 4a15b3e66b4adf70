#!/usr/bin/env bash
# scripts/failure-lines.awk, which scripts/test runs after a failed ctest:
# on the log of a real ctest run of a small project (a script test that
# says "FAILED: ...", a GoogleTest-style failure, a timeout, a passing test
# that prints failure-looking lines, a failure-looking command line, and a
# passing test named with words of ctest's failures), it names each failed
# test with the lines that say why, and nothing of the passing tests or of
# any command line.
# Usage: tests/scripts/failure_lines_test.sh scripts/failure-lines.awk
set -euo pipefail

awk_file=$1
fail() {
  echo "FAILED: $*" >&2
  exit 1
}
work=$(mktemp -d /tmp/arbiter-failure-lines-XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(failure_lines NONE)
enable_testing()
add_test(NAME says_failed COMMAND sh -c "echo working; echo 'FAILED: the load lost event 7' >&2; echo cleanup; exit 1")
add_test(NAME passes COMMAND sh -c "echo 'FAILED: not a failure, the test passed'; echo 'x.cc:1: Failure'")
add_test(NAME gtest_style COMMAND sh -c "printf 'x.cc:12: Failure\nExpected equality of these values:\n  1\n  2\nunrelated\n[  FAILED  ] Suite.Case\n'; exit 1")
add_test(NAME times_out COMMAND sh -c "echo one; echo two; sleep 30")
set_tests_properties(times_out PROPERTIES TIMEOUT 2)
add_test(NAME command_line_only COMMAND sh -c "exit 1 # FAILED: in the command, not the output")
add_test(NAME passes_with_Timeout_and_Exception_in_its_name COMMAND sh -c "echo fine")
CMAKE
cmake -S "$work" -B "$work/build" >/dev/null
(cd "$work/build" && ctest >/dev/null 2>&1) && fail "ctest passed a project with failing tests"
awk -f "$awk_file" "$work/build/Testing/Temporary/LastTest.log" >"$work/got"

cat >"$work/want" <<'WANT'
says_failed: FAILED: the load lost event 7
gtest_style: x.cc:12: Failure
gtest_style: Expected equality of these values:
gtest_style:   1
gtest_style:   2
gtest_style: [  FAILED  ] Suite.Case
times_out: Test Failed. Its output's last lines:
times_out: one
times_out: two
command_line_only: Test Failed. Its output's last lines:
WANT
diff -u "$work/want" "$work/got" || fail "the failure lines differ from the expected (- expected, + got)"
echo "passed: the failed tests named with their failure lines, nothing of the passing one"
