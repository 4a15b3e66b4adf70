#!/usr/bin/env bash
# scripts/pg-cluster when its pg_auto_failover monitor cannot be reached
# (docs/replication.md, "Misconfiguration is refused at start"): the commands
# that need the monitor (kill-primary, switchover) stop within seconds,
# naming the monitor's address and how to start it, and change nothing;
# start stops before creating anything when the monitor's port is taken by
# another program; status says the monitor does not answer. No cluster is
# started: the monitor is absent (refused connections) or its port is held
# by a program that is not PostgreSQL (a listener that hangs up).
# Usage: tests/scripts/pg_cluster_monitor_test.sh scripts/pg-cluster
set -euo pipefail

pg_cluster=$1
fail() {
  echo "FAILED: $*" >&2
  exit 1
}
if ! command -v pg_autoctl >/dev/null; then
  echo "SKIPPED: pg_autoctl is not installed (scripts/install-deps)"
  exit 77
fi

work=$(mktemp -d /tmp/arbiter-pgc-monitor-XXXXXX)
listener=
cleanup() {
  [ -z "$listener" ] || kill "$listener" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port_is_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
port=
for _ in $(seq 100); do
  candidate=$((20000 + RANDOM % 10000))
  if ! port_is_taken "$candidate" && ! port_is_taken $((candidate + 1)) &&
     ! port_is_taken $((candidate + 2)) && ! port_is_taken $((candidate + 3)); then
    port=$candidate
    break
  fi
done
[ -n "$port" ] || fail "no four free ports found"

# A cluster directory as start leaves it, without any process running.
cluster=$work/cluster
mkdir -p "$cluster/logs"
echo "base_port=$port" >"$cluster/cluster.conf"
listing() {
  find "$work" -printf '%P %s %T@\n' | sort
}

# expect COMMAND... : it must fail within 10 s, saying `$expected`, and
# leave every file under $work as it was.
expect() {
  local before out status=0 started=$SECONDS
  before=$(listing)
  out=$(timeout 30 "$pg_cluster" "$@" 2>&1) || status=$?
  [ $status -ne 0 ] && [ $status -ne 124 ] || fail "pg-cluster $* did not fail (status $status): $out"
  [ $((SECONDS - started)) -le 10 ] || fail "pg-cluster $* took $((SECONDS - started)) s to fail"
  grep -qF -- "$expected" <<<"$out" || fail "pg-cluster $* did not say \"$expected\": $out"
  [ "$(listing)" = "$before" ] || fail "pg-cluster $* changed files under $work"
  echo "ok: pg-cluster $*: $(grep -F -- "$expected" <<<"$out" | head -n 1)"
}

echo "== no monitor at 127.0.0.1:$port (connections refused)"
expected="cannot reach the pg_auto_failover monitor at 127.0.0.1:$port: "
expect --dir "$cluster" kill-primary
expect --dir "$cluster" switchover
expected="Connection refused"
expect --dir "$cluster" kill-primary
expected="no cluster in $work/none"
expect --dir "$work/none" kill-primary

echo "== the monitor's port held by a program that is not PostgreSQL"
python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(16)
s.settimeout(1)
end = time.time() + 120
while time.time() < end:
    try:
        c, _ = s.accept()
        c.close()
    except OSError:
        pass
PY
listener=$!
for _ in $(seq 50); do port_is_taken "$port" && break; sleep 0.1; done
port_is_taken "$port" || fail "the listener did not start"
expected="cannot reach the pg_auto_failover monitor at 127.0.0.1:$port: "
expect --dir "$cluster" kill-primary
expect --dir "$cluster" switchover
expected="port $port, the monitor's, is taken by another program"
expect --dir "$work/fresh" --base-port "$port" start
[ ! -e "$work/fresh" ] || fail "start created $work/fresh"
expect --dir "$cluster" start

out=$("$pg_cluster" --dir "$cluster" status 2>&1) || fail "status failed: $out"
grep -qF "the monitor does not answer at 127.0.0.1:$port" <<<"$out" ||
  fail "status did not say that the monitor does not answer: $out"
echo "ok: status: $(grep -F "the monitor does not answer" <<<"$out")"
echo "PASSED"
