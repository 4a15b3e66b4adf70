#!/usr/bin/env bash
# The figures of issue 26 on several arbiterd and on synchronous replication,
# side by side in one sitting (docs/benchmarks.md, "Several arbiterd on one
# primary, and what synchronous replication costs"):
#   - a single PostgreSQL 15 node (no standby; the nodes' settings of
#     scripts/pg-cluster: shared_buffers 64MB, synchronous commits) and the
#     pg_auto_failover cluster of scripts/pg-cluster (a monitor, a primary
#     and two standbys, number_sync_standbys 1: every commit waits for a
#     standby's flush), both on this machine on free ports;
#   - on each, for N = 1, 2, 4 arbiterd on one fresh database (one key, one
#     origin): bench/scale_load --mode appends (64 live games, one action per
#     AppendActions, spread over the servers), then --mode submits (8
#     clients, SubmitGame of whole games); `uptime` before and after each;
#   - in the order N=1 single, N=1 cluster, N=2 single, ..., so that the two
#     sides share the machine's moods.
# Prints one line per run and a table. Stops what it started, by pid (the
# cluster by scripts/pg-cluster stop), and removes its directory. Needs
# /usr/lib/postgresql/15/bin and pg_autoctl (scripts/install-deps); as root
# the databases run as the user "postgres".
#
# Usage: bench/scale_figures.sh [--bin DIR] [--seconds S] [--servers 1,2,4] [--keep]
#   --bin DIR   where arbiterd and scale_load are (default: build/bin)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
bin="$root/build/bin"
seconds=15
server_counts=1,2,4
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --servers) server_counts=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) sed -n '/^# Usage:/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
pg_bin=/usr/lib/postgresql/15/bin
[ -x "$bin/arbiterd" ] && [ -x "$bin/scale_load" ] || { echo "no $bin/arbiterd or $bin/scale_load" >&2; exit 2; }
command -v pg_autoctl >/dev/null && [ -x "$pg_bin/pg_ctl" ] || { echo "needs pg_autoctl and PostgreSQL 15 (scripts/install-deps)" >&2; exit 2; }

log() { echo "[$(date -u +%T)] $*" >&2; }
load() { cut -d, -f3- <<<"$(uptime)" | sed 's/^ *load average: //'; }

work=$(mktemp -d /tmp/arbiter-scale-XXXXXX)
chmod 0755 "$work"
as_owner=()
pg_user=$(id -un)
if [ "$(id -u)" = 0 ]; then
  as_owner=(setpriv --reuid=postgres --regid="$(id -g postgres)" --clear-groups --)
  pg_user=postgres
fi
server_pids=()
single_started=0
cluster_started=0
stop_servers() {
  local pid
  for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  server_pids=()
}
cleanup() {
  stop_servers
  [ "$keep" = 1 ] && { log "kept $work"; return; }
  [ "$single_started" = 0 ] || "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/single" -m fast stop >/dev/null 2>&1 || true
  [ "$cluster_started" = 0 ] || "$root/scripts/pg-cluster" --dir "$work/cluster" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_is_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_ports() {  # $1 consecutive free ports: prints the first
  local candidate i ok
  for _ in $(seq 100); do
    candidate=$((20000 + RANDOM % 10000)) ok=1
    for ((i = 0; i < $1; ++i)); do port_is_taken $((candidate + i)) && ok=0; done
    [ $ok = 1 ] && { echo "$candidate"; return; }
  done
  echo "no $1 free ports" >&2; exit 1
}

# --- the single node ----------------------------------------------------------
single_port=$(free_ports 1)
mkdir -p "$work/single" "$work/sock" "$work/pglog"
[ ${#as_owner[@]} -eq 0 ] || chown postgres: "$work/single" "$work/sock" "$work/pglog"
"${as_owner[@]}" "$pg_bin/initdb" -D "$work/single" --auth=trust -U "$pg_user" -E UTF8 --locale=C >/dev/null
"${as_owner[@]}" tee -a "$work/single/postgresql.auto.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $single_port
unix_socket_directories = '$work/sock'
shared_buffers = '64MB'
max_connections = 100
EOF
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$work/single" -l "$work/pglog/single.log" -w start >/dev/null
single_started=1
log "single node on 127.0.0.1:$single_port"

# --- the cluster --------------------------------------------------------------
cluster_port=$(free_ports 4)
started=$SECONDS
cluster_url=$("$root/scripts/pg-cluster" --dir "$work/cluster" --base-port "$cluster_port" start)
cluster_started=1
log "cluster on 127.0.0.1:$cluster_port-$((cluster_port + 3)), up after $((SECONDS - started)) s"
psql -X -q -At "$cluster_url" -c "SELECT 'primary on port ' || inet_server_port() || ', synchronous_commit ' ||
  current_setting('synchronous_commit') || ', synchronous_standby_names ' || current_setting('synchronous_standby_names')" >&2

url_of() {  # backend database -> the connection string
  if [ "$1" = single ]; then
    echo "postgresql://$pg_user@127.0.0.1:$single_port/$2?connect_timeout=5"
  else
    sed "s|/arbiter?|/$2?|" <<<"$cluster_url"
  fi
}
admin_url_of() {
  if [ "$1" = single ]; then url_of single postgres; else url_of cluster postgres; fi
}

# Starts N arbiterd on a fresh database of `backend`; sets `addresses`.
start_servers() {
  local backend=$1 n=$2 db="scale_${1}_$2" i
  psql -X -q "$(admin_url_of "$backend")" -c "CREATE DATABASE $db" >/dev/null
  addresses=()
  for ((i = 1; i <= n; ++i)); do
    local data="$work/$db/$i"
    mkdir -p "$data"
    : >"$data/banner"
    "$bin/arbiterd" --database "$(url_of "$backend" "$db")" --data-dir "$data" \
      --listen 127.0.0.1:0 --http-listen "" --transparency-key "$work/$db/transparency.key" \
      >"$data/banner" 2>"$data/log" &
    server_pids+=($!)
    local deadline=$((SECONDS + 120)) address=""
    until [ -n "$address" ]; do
      address=$(sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$data/banner")
      [ $SECONDS -lt $deadline ] && kill -0 "${server_pids[-1]}" 2>/dev/null ||
        { echo "arbiterd $i on $backend did not start: $(tail -n 3 "$data/log")" >&2; exit 1; }
      [ -n "$address" ] || sleep 0.2
    done
    addresses+=("$address")
  done
  token_file="$work/$db/1/admin.token"
}

declare -A figure=()
run_load() {  # backend n mode
  local backend=$1 n=$2 mode=$3 before after out
  local joined
  joined=$(IFS=,; echo "${addresses[*]}")
  before=$(load)
  out=$("$bin/scale_load" --servers "$joined" --token-file "$token_file" --mode "$mode" \
    --games 64 --clients 8 --seconds "$seconds" --logs "$((seconds * 1000))" --seed-base "$((RANDOM * 100000 + n))") ||
    { echo "$out" >&2; exit 1; }
  after=$(load)
  log "$backend, $n arbiterd: $out; load average before $before, after $after"
  figure["$backend,$n,$mode"]="$(sed -E 's/.*: ([0-9.]+)\/s, p50 ([0-9.]+) ms, p99 ([0-9.]+) ms.*/\1\/s, p50 \2, p99 \3 ms/' <<<"$out") (load $after)"
}

IFS=, read -r -a counts <<<"$server_counts"
for n in "${counts[@]}"; do
  for backend in single cluster; do
    start_servers "$backend" "$n"
    run_load "$backend" "$n" appends
    run_load "$backend" "$n" submits
    stop_servers
  done
done

echo
echo "$(date -u '+%F %T') UTC, $(nproc) cores, ${seconds} s a run; load average (1, 5, 15 min) after each run"
echo "| arbiterd | live appends, single node | live appends, primary + sync standby | SubmitGame, single node | SubmitGame, primary + sync standby |"
echo "|---|---|---|---|---|"
for n in "${counts[@]}"; do
  echo "| $n | ${figure[single,$n,appends]} | ${figure[cluster,$n,appends]} | ${figure[single,$n,submits]} | ${figure[cluster,$n,submits]} |"
done
