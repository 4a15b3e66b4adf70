# Prints, for each failed test in a ctest LastTest.log, the lines of its
# output that say why: a script's "FAILED: ..." line, a GoogleTest
# "...: Failure" and the three lines after it, "[  FAILED  ]" lines, and a
# sanitizer's summary; at most 20 lines a test. A failed test with none of
# those (a timeout, a crash) gets its output's last 5 lines. Used by
# scripts/test.
/^[0-9]+\/[0-9]+ Testing: / { name = $3; n = 0; after = 0; in_output = 0; lines = 0; next }
name == "" { next }
/^Output:$/ { in_output = 1; getline; next }  # and its line of dashes
/^<end of output>$/ { in_output = 0; next }
in_output {
  tail[++lines % 5] = $0
  if (after > 0) { after--; if (n < 20) kept[++n] = $0; next }
  if (/^FAILED/ || /^\[  FAILED  \]/ || /SUMMARY: (Address|Undefined|Leak)Sanitizer/) {
    if (n < 20) kept[++n] = $0
  } else if (/: Failure$/) {
    if (n < 20) kept[++n] = $0
    after = 3
  }
  next
}
/^Test Failed\./ {
  if (n == 0) {
    print name ": " $0 " Its output's last lines:"
    for (i = (lines > 5 ? lines - 4 : 1); i <= lines; i++) print name ": " tail[i % 5]
  }
  for (i = 1; i <= n; i++) print name ": " kept[i]
  name = ""
}
