# Sourced by the failover tests: skips (exit 77) without pg_autoctl, makes
# a work directory, starts a replicated PostgreSQL (scripts/pg-cluster) in
# it on four free ports with the monitor's failover timeouts lowered, and
# stops the cluster and removes the directory however the test ends (after
# calling the sourcing script's stop_clients, if it defines one later).
# Needs `pg_cluster` (the script's path); sets `work`, `cluster`,
# `base_port`, `url` (the read-write connection string), `started`
# ($SECONDS at the start) and the functions log, fail, sql and wait_until.

if ! command -v pg_autoctl >/dev/null || [ ! -x /usr/lib/postgresql/15/bin/pg_ctl ]; then
  echo "SKIPPED: pg_autoctl or PostgreSQL 15 is not installed (scripts/install-deps)"
  exit 77
fi

log() {
  echo "[$(date -u +%T)] $*"
}

# The reason is said again as the output's last line, after the logs the
# cleanup prints, so that a report showing only the output's head and tail
# still names it.
failure=
fail() {
  failure=$*
  echo "FAILED: $*" >&2
  exit 1
}

work=$(mktemp -d /tmp/arbiter-failover-XXXXXX)
chmod 0755 "$work"  # run as root, the cluster's user (postgres) must get through
cluster=$work/cluster

# Stops the script's own clients and servers (redefined by the sourcing
# script); $1 is the test's exit status.
stop_clients() { :; }

cleanup() {
  local status=$?
  stop_clients "$status"
  if [ $status -ne 0 ] && [ -d "$cluster/logs" ]; then
    "$pg_cluster" --dir "$cluster" status 2>&1 || true
    for f in "$cluster"/logs/*.log; do
      echo "--- last lines of $f"
      tail -n 30 "$f"
    done
  fi
  "$pg_cluster" --dir "$cluster" stop >/dev/null 2>&1 || true
  rm -rf "$work"
  [ -z "$failure" ] || echo "FAILED (said above, before the logs): $failure" >&2
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Four free consecutive ports below the ephemeral range. (The other tests'
# clusters listen on Unix sockets only.)
port_is_taken() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
base_port=
for _ in $(seq 100); do
  candidate=$((20000 + RANDOM % 10000))
  if ! port_is_taken "$candidate" && ! port_is_taken $((candidate + 1)) &&
     ! port_is_taken $((candidate + 2)) && ! port_is_taken $((candidate + 3)); then
    base_port=$candidate
    break
  fi
done
[ -n "$base_port" ] || fail "no four free ports found"

started=$SECONDS
log "starting the cluster in $cluster on ports $base_port-$((base_port + 3))"
url=$("$pg_cluster" --dir "$cluster" --base-port "$base_port" start)
log "up after $((SECONDS - started)) s: $url"

sql() {
  psql -X -q -At -v ON_ERROR_STOP=1 "$url" -c "$1"
}

# The monitor's timeouts, lowered from their defaults so that the failover
# after a whole node dies takes seconds, not a minute: health checks every
# second (20 s), a 2 s timeout (5 s), one retry after 0.5 s (two after 2 s),
# unhealthy after 3 s without a report (20 s), and 5 s for a dead primary to
# be deemed demoted (30 s). The last one guards against two primaries in a
# network partition (an isolated primary's keeper demotes it after 20 s) and
# is safe to lower only here, where the old primary is dead for certain.
superuser=${url#postgresql://}
superuser=${superuser%%@*}
psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$base_port" -U "$superuser" -d pg_auto_failover \
  -c "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" \
  -c "ALTER SYSTEM SET pgautofailover.health_check_timeout = 2000" \
  -c "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1" \
  -c "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500" \
  -c "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000" \
  -c "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000" \
  -c "SELECT pg_reload_conf()" >/dev/null

# Waits until `check` succeeds, at most $2 seconds.
wait_until() {
  local check=$1 seconds=$2
  local deadline=$((SECONDS + seconds))
  until eval "$check"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}
