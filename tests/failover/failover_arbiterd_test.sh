#!/usr/bin/env bash
# Two arbiterd on a replicated PostgreSQL (scripts/pg-cluster), several
# clients playing live games through them (failover_load: one AppendActions
# per move, each with a request id, an unknown outcome sent again with the
# same id until answered), and one fault after another:
#   1. the primary node dies (its keeper and postgres, SIGKILL): a standby
#      is promoted;
#   2. the new primary's postgres is killed (SIGKILL): its keeper or the
#      monitor brings a primary back;
#   3. a planned switchover;
#   4. both standbys stop (SIGSTOP), the commits waiting for them are
#      cancelled (committed on the primary alone, with PostgreSQL's warning),
#      the primary node dies, and the standbys go on: an append acknowledged
#      on that warning would be lost;
#   5. one arbiterd is killed (SIGKILL) amid appends, and started again.
# Before that, arbiterd given a standby, or only standbys, must refuse to
# start and say why.
# After each, the test waits until appends are acknowledged again (and, after
# a node was lost, until the cluster has its two standbys back). At the end
# failover_load reads every game back: each must end at the last event
# acknowledged (nothing acknowledged lost, nothing stored twice), every
# unknown outcome must have been resolved by its request id, and every hash
# chain must verify. Prints, per fault, how long no append was acknowledged.
#
# The monitor's timeouts are lowered (cluster_for_test.sh, and said there).
#
# Usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD
# Exit 77 (skipped) when pg_autoctl or PostgreSQL 15 is not installed.
set -euo pipefail

pg_cluster=${1:?usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD}
arbiterd=${2:?usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD}
failover_load=${3:?usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD}
readonly kAcksAfterFault=600  # about 1.5 s of the clients' appends
readonly kRecoverySeconds=120
readonly cancel_fault="commits waiting for the standbys cancelled, then the primary node killed"

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=cluster_for_test.sh
. "$here/cluster_for_test.sh"

declare -A server_pid=()
load_pid=
stop_clients() {
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
  fi
  local name
  for name in "${!server_pid[@]}"; do
    kill -TERM "${server_pid[$name]}" 2>/dev/null || true
    wait "${server_pid[$name]}" 2>/dev/null || true
  done
  if [ "${1:-0}" -ne 0 ]; then
    for name in a b; do
      [ -f "$work/$name.log" ] && { echo "--- last lines of arbiterd $name"; tail -n 40 "$work/$name.log"; }
    done
  fi
}

# Starts arbiterd `name` on the cluster; sets address[name].
declare -A address=()
start_server() {
  local name=$1
  "$arbiterd" --database "$url" --data-dir "$work/$name" --listen 127.0.0.1:0 --http-listen "" \
    --transparency-key "$work/transparency.key" >"$work/$name.banner" 2>>"$work/$name.log" &
  server_pid[$name]=$!
  listening() {
    sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$work/$1.banner"
  }
  wait_until "[ -n \"\$(listening $name)\" ]" 120 ||
    fail "arbiterd $name did not start: $(tail -n 5 "$work/$name.log")"
  address[$name]=$(listening "$name")
  log "arbiterd $name listens on ${address[$name]}"
}

# Misconfigured: a standby given as the database, and a connection string
# whose hosts are all standbys. arbiterd must refuse to start, saying why.
primary_port=$(sql "SELECT inet_server_port()")
standby_ports=()
for port in $((base_port + 1)) $((base_port + 2)) $((base_port + 3)); do
  [ "$port" = "$primary_port" ] || standby_ports+=("$port")
done
expect_refusal() {
  local what=$1 database=$2 expected=$3 status=0
  timeout 120 "$arbiterd" --database "$database" --data-dir "$work/refused" --listen 127.0.0.1:0 \
    --http-listen "" --transparency-key "$work/refused.key" >"$work/refused.out" 2>&1 || status=$?
  [ $status -ne 0 ] && [ $status -ne 124 ] || fail "arbiterd started (or hung) with $what"
  grep -qF "$expected" "$work/refused.out" ||
    fail "arbiterd with $what did not say \"$expected\": $(tail -n 3 "$work/refused.out")"
  log "refused $what: $(grep -F "$expected" "$work/refused.out" | head -n 1)"
}
expect_refusal "a standby as its database" \
  "postgresql://$superuser@127.0.0.1:${standby_ports[0]}/arbiter?connect_timeout=5" \
  "is a standby (read-only)"
expect_refusal "only standbys in a read-write connection string" \
  "postgresql://$superuser@127.0.0.1:${standby_ports[0]},127.0.0.1:${standby_ports[1]}/arbiter?target_session_attrs=read-write&connect_timeout=5" \
  "None of the hosts in the connection string accepted writes"

start_server a  # first: writes the admin token and the transparency key
start_server b

acknowledged() {
  cat "$work/progress" 2>/dev/null || echo 0
}

"$failover_load" --servers "${address[a]},${address[b]}" --token-file "$work/a/admin.token" \
  --games 8 --move-every-ms 20 --stop-file "$work/stop" --progress-file "$work/progress" \
  >"$work/load.out" 2>&1 &
load_pid=$!

# Runs fault $1 (a command line), then waits until kAcksAfterFault more
# appends are acknowledged; logs the longest time in that window without any
# acknowledgement (the write unavailability the clients saw).
declare -a figures=()
now_ms() {
  echo $(( $(date +%s%N) / 1000000 ))
}
fault() {
  local name=$1
  shift
  wait_until "[ \$(acknowledged) -ge $kAcksAfterFault ]" 60 ||
    fail "before '$name': fewer than $kAcksAfterFault appends acknowledged in 60 s"
  sleep 0.3  # the count is rewritten every 100 ms
  local before count last seen changed longest=0
  before=$(acknowledged)
  # In the background: a switchover returns only once it is over.
  "$@" >>"$work/faults.log" 2>&1 &
  local fault_pid=$!
  log "$name"
  seen=$before
  changed=$(now_ms)
  local deadline=$((SECONDS + kRecoverySeconds))
  while [ $SECONDS -lt $deadline ]; do
    count=$(acknowledged)
    if [ "$count" -ne "$seen" ]; then
      seen=$count
      changed=$(now_ms)
    fi
    last=$(( $(now_ms) - changed ))
    [ $last -le $longest ] || longest=$last
    [ "$count" -ge $((before + kAcksAfterFault)) ] && break
    kill -0 "$load_pid" 2>/dev/null || fail "failover_load ended: $(cat "$work/load.out")"
    sleep 0.1
  done
  wait "$fault_pid" || fail "'$name' failed: $(tail -n 3 "$work/faults.log")"
  [ "$(acknowledged)" -ge $((before + kAcksAfterFault)) ] ||
    fail "appends were not acknowledged again within $kRecoverySeconds s of '$name'"
  figures+=("$name: no append acknowledged for $longest ms")
  [ "$name" != "$cancel_fault" ] || log "$(grep 'commits waited for the standbys' "$work/faults.log" | tail -n 1)"
  log "$name: no append acknowledged for $longest ms at most"
}

# Brings every node back (a killed one as a standby) and waits for the
# cluster's two standbys.
restore_cluster() {
  "$pg_cluster" --dir "$cluster" start >>"$work/faults.log" 2>&1 ||
    fail "the cluster did not come back: $(tail -n 5 "$work/faults.log")"
}

# The processes of a node's postgres: its postmaster and the postmaster's
# children (the walreceiver that acknowledges commits among them).
postgres_processes() {
  local postmaster
  postmaster=$(head -n 1 "$cluster/$1/postmaster.pid")
  echo "$postmaster" $(ps -o pid= --ppid "$postmaster")
}

# The double fault that can lose a commit nobody waited for: both standbys
# stop (SIGSTOP), so commits wait for them; the waits are cancelled, which
# leaves those commits on the primary alone with PostgreSQL's warning; the
# standbys' walreceivers are killed with what they had not read yet, the
# primary node dies, and the standbys go on. An append acknowledged on that
# warning would be lost: arbiterd must not acknowledge it.
cancel_waits_then_kill_primary() {
  local port node stopped=()
  port=$(sql "SELECT inet_server_port()")
  for node in node1 node2 node3; do
    [ $((base_port + ${node#node})) = "$port" ] && continue
    stopped+=($(postgres_processes "$node"))
  done
  kill -STOP "${stopped[@]}"
  local direct="postgresql://$superuser@127.0.0.1:$port/arbiter"
  local waiting=0
  for _ in $(seq 100); do
    waiting=$(psql -X -q -At "$direct" -c \
      "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'") || waiting=0
    [ "$waiting" -ge 2 ] && break
    sleep 0.1
  done
  local cancelled
  cancelled=$(psql -X -q -At "$direct" -c \
    "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
  echo "$waiting commits waited for the standbys; $cancelled cancelled"
  sleep 1  # the cancelled commits' appends are looked up again, and wait again
  # What the primary sent may still sit in the stopped walreceivers' sockets:
  # killed, they lose it, and the standbys never receive those commits.
  for node in node1 node2 node3; do
    [ $((base_port + ${node#node})) = "$port" ] && continue
    kill -KILL $(ps -o pid=,args= --ppid "$(head -n 1 "$cluster/$node/postmaster.pid")" |
                 awk '/walreceiver/ { print $1 }') 2>/dev/null || true
  done
  "$pg_cluster" --dir "$cluster" kill-primary --whole-node
  kill -CONT "${stopped[@]}" 2>/dev/null || true
}

kill_server() {
  kill -KILL "${server_pid[$1]}"
  wait "${server_pid[$1]}" 2>/dev/null || true
}

fault "the primary node killed" "$pg_cluster" --dir "$cluster" kill-primary --whole-node
restore_cluster
fault "the primary's postgres killed" "$pg_cluster" --dir "$cluster" kill-primary
restore_cluster
fault "a planned switchover" "$pg_cluster" --dir "$cluster" switchover
fault "$cancel_fault" cancel_waits_then_kill_primary
restore_cluster
fault "arbiterd a killed" kill_server a
start_server a

touch "$work/stop"
status=0
wait "$load_pid" || status=$?
load_pid=
cat "$work/load.out"
[ $status -eq 0 ] || fail "failover_load found a problem (above)"
grep -q ' lost 0, extra 0, broken chains 0' "$work/load.out" ||
  fail "failover_load's summary is missing"
for figure in "${figures[@]}"; do log "$figure"; done
log "passed in $((SECONDS - started)) s"
