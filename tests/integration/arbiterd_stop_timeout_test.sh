#!/usr/bin/env bash
# arbiterd stops within --stop-timeout even when its database stops
# answering: its embedded PostgreSQL is frozen (SIGSTOP of the postmaster and
# every backend, as a fenced old primary's backends hang on a synchronous
# standby that no longer follows it), a call is left waiting on it, and
# SIGTERM must end the process with status 3 and a message naming the flag,
# not leave it hanging. Before that, a --stop-timeout not above
# --shutdown-grace is refused at start with status 2, creating nothing.
# STOP_TIMEOUT=0 in the environment runs it without the timeout (the test
# must then fail: arbiterd hangs).
# Usage: arbiterd_stop_timeout_test.sh ARBITERD ARBITER
set -euo pipefail
arbiterd=$1
arbiter=$2

fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d /tmp/arbiter-stop-timeout.XXXXXX)
chmod 755 "$work"  # as root the embedded PostgreSQL runs as "postgres"
data="$work/data"
pid=
frozen=()
cleanup() {
  [ ${#frozen[@]} -gt 0 ] && kill -CONT "${frozen[@]}" 2>/dev/null || true
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  # The embedded PostgreSQL outlives an arbiterd that exited without it.
  if [ -f "$data/postgres/postmaster.pid" ]; then
    kill -INT "$(head -1 "$data/postgres/postmaster.pid")" 2>/dev/null || true
    for _ in $(seq 1 40); do [ -f "$data/postgres/postmaster.pid" ] || break; sleep 0.25; done
  fi
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# A --stop-timeout not above --shutdown-grace is refused before anything starts.
code=0
"$arbiterd" --data-dir "$data" --shutdown-grace 5 --stop-timeout 5 >"$work/refused.out" 2>&1 || code=$?
[ "$code" = 2 ] || fail "--stop-timeout 5 with --shutdown-grace 5: exit $code, expected 2"
grep -q -- "--stop-timeout (5) must be 0 or more than --shutdown-grace (5)" "$work/refused.out" ||
  fail "the refusal names both flags: $(cat "$work/refused.out")"
[ ! -e "$data" ] || fail "a refused start created $data"

"$arbiterd" --data-dir "$data" --listen 127.0.0.1:0 --http-listen "" --shutdown-grace 1 \
  --stop-timeout "${STOP_TIMEOUT:-4}" >"$work/banner" 2>"$work/log" &
pid=$!
for _ in $(seq 1 240); do
  grep -q "listening on" "$work/banner" && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; fail "arbiterd did not start"; }
  sleep 0.5
done
address=$(sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$work/banner")
"$arbiter" games --all --server "$address" --token-file "$data/admin.token" >/dev/null ||
  fail "a call before the freeze"

postmaster=$(head -1 "$data/postgres/postmaster.pid")
mapfile -t frozen < <(echo "$postmaster"; pgrep -P "$postmaster")
kill -STOP "${frozen[@]}"
# A call that waits on the frozen database.
"$arbiter" games --all --server "$address" --token-file "$data/admin.token" >/dev/null 2>&1 &
caller=$!
sleep 1

started=$SECONDS
kill -TERM "$pid"
for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
if kill -0 "$pid" 2>/dev/null; then
  fail "arbiterd still runs $((SECONDS - started)) s after SIGTERM with its database frozen"
fi
code=0
wait "$pid" || code=$?
pid=
[ "$code" = 3 ] || fail "arbiterd exited with $code, expected 3 (stopping outlasted --stop-timeout)"
grep -q "still stopping 4s after the signal (--stop-timeout)" "$work/log" ||
  fail "the log says why it exited: $(tail -3 "$work/log")"
kill "$caller" 2>/dev/null || true
echo "arbiterd exited $((SECONDS - started)) s after SIGTERM, with status 3"
