#!/usr/bin/env bash
# Two arbiterd on a replicated PostgreSQL (scripts/pg-cluster), several
# clients playing live games through them (failover_load: one AppendActions
# per move, each with a request id, an unknown outcome sent again with the
# same id until answered), two more submitting whole games (SubmitGame, the
# same way), two leagues rating those games (so that the league
# projector works all along), and one fault after another:
#   node-kill        the primary node dies (its keeper and postgres, SIGKILL):
#                    a standby is promoted;
#   postgres-kill    the new primary's postgres is killed (SIGKILL): its
#                    keeper or the monitor brings a primary back;
#   switchover       a planned switchover;
#   cancel-wait      both standbys stop (SIGSTOP), the commits waiting for
#                    them are cancelled (committed on the primary alone, with
#                    PostgreSQL's warning), and the standbys go on: those
#                    appends are answered only once durable;
#   cancel-double    both standbys stop (SIGSTOP), the commits waiting for
#                    them are cancelled (committed on the primary alone, with
#                    PostgreSQL's warning), the primary node dies, and the
#                    standbys go on: an append acknowledged on that warning
#                    would be lost;
#   primary-sigstop  the primary node (keeper and postgres) is stopped with
#                    SIGSTOP past the monitor's timeouts, until a standby is
#                    promoted, then continued (SIGCONT): it must come back as
#                    a standby, and whatever it took after the promotion must
#                    not have been acknowledged;
#   standby-primary  a standby node is killed, and once the monitor has seen
#                    it go, the primary node too: the last standby is
#                    promoted;
#   arbiterd-kill    arbiterd a is killed (SIGKILL) amid appends, and started
#                    again on its address;
#   projector-kill   the arbiterd holding the league projector's lease is
#                    killed (SIGKILL) while results come in: the other must
#                    take the lease over with the next token and project on.
# Before that, arbiterd given a standby, or only standbys, must refuse to
# start and say why.
# Before each fault a checkpoint of the transparency log is signed and kept.
# After each, the test waits until appends are acknowledged again (and, after
# a node was lost, until the cluster has its two standbys back). At the end
# failover_load reads every game back: each must end at the last event
# acknowledged (nothing acknowledged lost, nothing stored twice), every
# unknown outcome must have been resolved by its request id, and every hash
# chain must verify. Then the latest checkpoint must be a consistent
# extension of every checkpoint kept before a fault (`arbiter checkpoint
# --watch`, which checks the log's consistency proof), and every league's
# leaderboard as served must equal, byte for byte, the one a rebuild from
# scratch gives (`arbiter league rebuild`). Prints, per fault, how long no
# append was acknowledged.
#
# The monitor's timeouts are lowered (cluster_for_test.sh, and said there),
# and so are the leases' (6 s, renewed every 2 s; the default is 10 s and 3 s).
#
# Usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD ARBITER
#          [--rounds N] [--faults KIND,...] [--figures FILE] [--break WHAT]
#   --rounds N       run the faults N times over (default 1; scripts/failover-soak)
#   --faults LIST    only these kinds, in this order (default: all, as above)
#   --figures FILE   append one line per fault: kind, its start and the end of
#                    its recovery (epoch ms), and the longest time without an
#                    acknowledged append (ms); failover_load's output is
#                    copied to FILE.load
#   --break WHAT     break something on purpose, to see that a check fails:
#                    "leaderboard" alters a stored rating before the
#                    comparison with a rebuild; "checkpoint" forges the first
#                    checkpoint kept (its root changed); "takeover" starts
#                    the servers with an hour-long lease, so that nobody takes
#                    over the league projector from a killed holder in time
# Exit 77 (skipped) when pg_autoctl or PostgreSQL 15 is not installed.
set -euo pipefail

usage="usage: failover_arbiterd_test.sh PG_CLUSTER_SCRIPT ARBITERD FAILOVER_LOAD ARBITER [--rounds N] [--faults KIND,...] [--figures FILE] [--break WHAT]"
pg_cluster=${1:?$usage}
arbiterd=${2:?$usage}
failover_load=${3:?$usage}
arbiter=${4:?$usage}
shift 4
readonly kAllFaults="node-kill,postgres-kill,switchover,cancel-wait,cancel-double,primary-sigstop,standby-primary,arbiterd-kill,projector-kill"
rounds=1
faults=$kAllFaults
figures_file=
break_what=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=${2:?$usage}; shift 2 ;;
    --faults) faults=${2:?$usage}; shift 2 ;;
    --figures) figures_file=${2:?$usage}; shift 2 ;;
    --break) break_what=${2:?$usage}; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds must be a positive number" >&2; exit 2; }
for kind in ${faults//,/ }; do
  [[ ",$kAllFaults," == *",$kind,"* ]] || { echo "unknown fault kind: $kind ($kAllFaults)" >&2; exit 2; }
done
case "$break_what" in
  ""|leaderboard|checkpoint|takeover) ;;
  *) echo "--break takes leaderboard, checkpoint or takeover" >&2; exit 2 ;;
esac
readonly kAcksAfterFault=300  # about 2.5 s of the clients' appends here
readonly kRecoverySeconds=120
readonly kLeagues=(failover-pl failover-tm)
lease_flags=(--lease-seconds 6 --lease-renew-seconds 2)
[ "$break_what" != takeover ] || lease_flags=(--lease-seconds 3600 --lease-renew-seconds 2)

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
  done
  # arbiterd gives calls in flight 30 s; one that outlives that is killed,
  # and said (a database call that never returns holds it up).
  for name in "${!server_pid[@]}"; do
    local waited=0
    while kill -0 "${server_pid[$name]}" 2>/dev/null && [ $waited -lt 400 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if kill -0 "${server_pid[$name]}" 2>/dev/null; then
      echo "arbiterd $name (pid ${server_pid[$name]}) did not stop within 40 s of SIGTERM: killed" >&2
      kill -KILL "${server_pid[$name]}" 2>/dev/null || true
    fi
    wait "${server_pid[$name]}" 2>/dev/null || true
  done
  if [ "${1:-0}" -ne 0 ]; then
    for name in a b; do
      [ -f "$work/$name.log" ] && { echo "--- last lines of arbiterd $name"; tail -n 40 "$work/$name.log"; }
    done
    [ -f "$work/faults.log" ] && { echo "--- last lines of the faults' log"; tail -n 20 "$work/faults.log"; }
  fi
  if [ -n "$figures_file" ] && [ -f "$work/load.out" ]; then cp "$work/load.out" "$figures_file.load"; fi
}

# Starts arbiterd `name` on the cluster, on address $2 if given (a restart
# keeps the address the clients know); sets address[name].
declare -A address=()
start_server() {
  local name=$1 listen=${2:-127.0.0.1:0}
  : >"$work/$name.banner"
  "$arbiterd" --database "$url" --data-dir "$work/$name" --listen "$listen" --http-listen "" \
    --transparency-key "$work/transparency.key" "${lease_flags[@]}" \
    >"$work/$name.banner" 2>>"$work/$name.log" &
  server_pid[$name]=$!
  listening() {
    sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$work/$1.banner"
  }
  wait_until "[ -n \"\$(listening $name)\" ]" 120 ||
    fail "arbiterd $name did not start: $(tail -n 5 "$work/$name.log")"
  address[$name]=$(listening "$name")
  log "arbiterd $name listens on ${address[$name]} (pid ${server_pid[$name]})"
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

# The CLI, as an admin, through server a (or $server).
cli() {
  "$arbiter" "$@" --server "${server:-${address[a]}}" --token-file "$work/a/admin.token" --timeout 90
}

# Two leagues with two rating systems; each client's games belong to one of
# them, so every finished game is a result for the league projector (one
# arbiterd at a time, under its lease), which works all along.
cli league create failover-pl --game atlantis >/dev/null || fail "cannot create league failover-pl"
cli league create failover-tm --game atlantis --system thurstone-mosteller-full >/dev/null ||
  fail "cannot create league failover-tm"

acknowledged() {
  cat "$work/progress" 2>/dev/null || echo 0
}

"$failover_load" --servers "${address[a]},${address[b]}" --token-file "$work/a/admin.token" \
  --games 8 --move-every-ms 20 --submitters 2 --submit-every-ms 250 \
  --stop-file "$work/stop" --progress-file "$work/progress" \
  --leagues "$(IFS=,; echo "${kLeagues[*]}")" \
  >"$work/load.out" 2>&1 &
load_pid=$!

# Signs a checkpoint of the transparency log now and keeps it in
# $work/checkpoints (`arbiter checkpoint --publish --watch`, which verifies
# its signature first); every one kept is checked against the last at the
# end.
mkdir -p "$work/checkpoints"
checkpoints_kept=0
keep_checkpoint() {
  local before=$1 file
  checkpoints_kept=$((checkpoints_kept + 1))
  file=$(printf '%s/checkpoints/%03d' "$work" "$checkpoints_kept")
  echo "$before" >"$file.fault"
  cli checkpoint --publish --watch "$file.note" --public-key "$work/transparency.pub" \
    >"$file.out" 2>&1 || fail "no checkpoint could be signed before '$before': $(tail -n 2 "$file.out")"
}

# Marks the fault in progress as done, so far as the recovery counts: a
# fault's command calls it once the damage is done if it goes on afterwards
# (else it is marked when the command ends).
injected() {
  [ -f "$work/injected" ] || touch "$work/injected"
}

# Runs fault $1 (name), $2 (kind), then the command line; waits until
# kAcksAfterFault more appends are acknowledged after the damage is done;
# logs the longest time from the start to then without any acknowledgement
# (the write unavailability the clients saw).
declare -a figures=()
now_ms() {
  echo $(( $(date +%s%N) / 1000000 ))
}
fault() {
  local name=$1 kind=$2
  shift 2
  wait_until "[ \$(acknowledged) -ge $kAcksAfterFault ]" 60 ||
    fail "before '$name': fewer than $kAcksAfterFault appends acknowledged in 60 s"
  keep_checkpoint "$name"
  sleep 0.3  # the count is rewritten every 100 ms
  local before="" count last seen changed longest=0 start_ms
  seen=$(acknowledged)
  start_ms=$(now_ms)
  rm -f "$work/injected"
  # In the background: a switchover returns only once it is over.
  ( trap injected EXIT; "$@" ) >>"$work/faults.log" 2>&1 &
  local fault_pid=$!
  log "$name"
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
    [ -n "$before" ] || [ ! -f "$work/injected" ] || before=$count
    [ -n "$before" ] && [ "$count" -ge $((before + kAcksAfterFault)) ] && break
    kill -0 "$load_pid" 2>/dev/null || fail "failover_load ended: $(cat "$work/load.out")"
    sleep 0.1
  done
  wait "$fault_pid" || fail "'$name' failed: $(tail -n 3 "$work/faults.log")"
  [ -n "$before" ] && [ "$(acknowledged)" -ge $((before + kAcksAfterFault)) ] ||
    fail "appends were not acknowledged again within $kRecoverySeconds s of '$name'"
  figures+=("$name: no append acknowledged for $longest ms")
  [ -z "$figures_file" ] || printf '%s\t%s\t%s\t%s\n' "$kind" "$start_ms" "$(now_ms)" "$longest" >>"$figures_file"
  log "$name: no append acknowledged for $longest ms at most"
}

# Brings every node back (a killed one as a standby) and waits for the
# cluster's two standbys. A node that pg_rewind cannot rewind (an old primary
# shut down immediately: its crash recovery would have to run in single-user
# mode, which refuses standby mode) is copied anew by pg_autoctl with
# pg_basebackup, which waits for a spread checkpoint on the primary, minutes
# with the default settings: meanwhile the primary is asked for an immediate
# checkpoint every 5 s.
restore_cluster() {
  ( while sleep 5; do psql -X -q "$url" -c CHECKPOINT >/dev/null 2>&1 || true; done ) &
  local nudge=$! status=0
  "$pg_cluster" --dir "$cluster" start >>"$work/faults.log" 2>&1 || status=$?
  kill "$nudge" 2>/dev/null || true
  wait "$nudge" 2>/dev/null || true
  [ $status -eq 0 ] || fail "the cluster did not come back: $(tail -n 5 "$work/faults.log")"
}

# The processes of a node's postgres: its postmaster and the postmaster's
# children (the walreceiver that acknowledges commits among them).
postgres_processes() {
  local postmaster
  postmaster=$(head -n 1 "$cluster/$1/postmaster.pid")
  echo "$postmaster" $(ps -o pid= --ppid "$postmaster")
}

# Stops both standbys of the primary on port $1 (SIGSTOP, their postgres
# processes, pids left in `stopped_standbys`), so that commits wait for them,
# and cancels those waits: the commits stay on the primary alone, with
# PostgreSQL's warning "committed locally, but might not have been
# replicated".
stop_standbys_and_cancel_waits() {
  local port=$1 node
  stopped_standbys=()
  for node in node1 node2 node3; do
    [ $((base_port + ${node#node})) = "$port" ] && continue
    stopped_standbys+=($(postgres_processes "$node"))
  done
  kill -STOP "${stopped_standbys[@]}"
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
}

# A backend's wait for the synchronous standby cancelled, alone: the
# standbys stop, the commits waiting for them are cancelled (their appends
# become unknown outcomes, looked up again, and answered only once a later
# commit is durable), and the standbys go on 2 s later and receive them.
cancel_waits() {
  local port
  port=$(sql "SELECT inet_server_port()")
  stop_standbys_and_cancel_waits "$port"
  sleep 2
  kill -CONT "${stopped_standbys[@]}"
}

# The double fault that can lose a commit nobody waited for: both standbys
# stop (SIGSTOP), so commits wait for them; the waits are cancelled, which
# leaves those commits on the primary alone with PostgreSQL's warning; the
# standbys' walreceivers are killed with what they had not read yet, the
# primary node dies, and the standbys go on. An append acknowledged on that
# warning would be lost: arbiterd must not acknowledge it.
cancel_waits_then_kill_primary() {
  local port node
  port=$(sql "SELECT inet_server_port()")
  stop_standbys_and_cancel_waits "$port"
  sleep 1  # the cancelled commits' appends are looked up again, and wait again
  # What the primary sent may still sit in the stopped walreceivers' sockets:
  # killed, they lose it, and the standbys never receive those commits.
  for node in node1 node2 node3; do
    [ $((base_port + ${node#node})) = "$port" ] && continue
    kill -KILL $(ps -o pid=,args= --ppid "$(head -n 1 "$cluster/$node/postmaster.pid")" |
                 awk '/walreceiver/ { print $1 }') 2>/dev/null || true
  done
  "$pg_cluster" --dir "$cluster" kill-primary --whole-node
  kill -CONT "${stopped_standbys[@]}" 2>/dev/null || true
}

monitor_sql() {
  psql -X -q -At -h 127.0.0.1 -p "$base_port" -U "$superuser" -d pg_auto_failover -c "$1"
}

# On node $1's own port (not through the connection string).
node_sql() {
  psql -X -q -At "postgresql://$superuser@127.0.0.1:$((base_port + ${1#node}))/arbiter?connect_timeout=3" -c "$2"
}

# The primary node (keeper and postgres) stops with SIGSTOP, as a machine
# that hangs, until the monitor has promoted a standby (past its timeouts),
# and goes on (SIGCONT) 2 s later. Meanwhile arbiterd's calls on it hang and
# end as unknown outcomes; new connections reach the new primary. Once it
# goes on, the old primary still believes it is one: whatever commits it
# takes wait for a synchronous standby, and none follows it any more, until
# its keeper learns from the monitor that it was demoted and stops it. Its
# name is left in $work/stopped-node for check_stopped_primary_rejoined.
stop_primary_past_timeouts() {
  local old new pids
  old=$("$pg_cluster" --dir "$cluster" primary)
  [ -n "$old" ] || { echo "no primary to stop"; return 1; }
  echo "$old" >"$work/stopped-node"
  mapfile -t pids < <("$pg_cluster" --dir "$cluster" pids "$old")
  kill -STOP "${pids[@]}"
  injected
  echo "stopped $old (SIGSTOP): pids ${pids[*]}"
  local deadline=$((SECONDS + 90))
  while :; do
    new=$("$pg_cluster" --dir "$cluster" primary 2>/dev/null || true)
    [ -z "$new" ] || [ "$new" = "$old" ] || break
    if [ $SECONDS -ge $deadline ]; then
      kill -CONT "${pids[@]}" 2>/dev/null || true
      echo "no standby was promoted within 90 s of stopping $old"
      return 1
    fi
    sleep 0.5
  done
  echo "$new was promoted while $old was stopped"
  sleep 2
  kill -CONT "${pids[@]}" 2>/dev/null || true
  local waiting
  waiting=$(node_sql "$old" "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'" 2>/dev/null) ||
    waiting="? (it refused connections)"
  echo "$old continued (SIGCONT); commits on it waiting for a standby just after: $waiting"
  # Its keeper demotes it: postgres stops, or comes back in recovery.
  deadline=$((SECONDS + 60))
  until [ "$(node_sql "$old" "SELECT pg_is_in_recovery()" 2>/dev/null)" != f ]; do
    if [ $SECONDS -ge $deadline ]; then
      echo "$old, the old primary, still took writes 60 s after it was continued"
      return 1
    fi
    sleep 0.2
  done
  echo "$old no longer takes writes"
}

# The old primary's keeper stops its postgres to demote it. Sometimes (seen
# with PostgreSQL 15.x and pg_auto_failover 2.0) backends that were waiting
# for a synchronous standby when the node was stopped keep waiting through
# the fast shutdown, and `pg_ctl stop --mode fast` gives up after 60 s and
# is retried: the node stays fenced (its commits never return) but never
# rejoins. If it still reports itself primary 30 s after it was continued,
# this does what an operator would: an immediate shutdown (SIGQUIT to its
# postmaster), after which the keeper goes on. Counted and said.
interventions=0
demote_stopped_primary() {
  local old
  old=$(cat "$work/stopped-node")
  wait_until "[ \"\$(monitor_sql \"SELECT reportedstate FROM pgautofailover.node WHERE nodename = '$old'\")\" != primary ]" 30 &&
    return 0
  interventions=$((interventions + 1))
  log "NOTE: $old, the old primary, was assigned 'demoted' but its keeper could not stop its postgres (backends waiting for a synchronous standby outlived the fast shutdown): immediate shutdown, as an operator would"
  kill -QUIT "$(head -n 1 "$cluster/$old/postmaster.pid")" 2>/dev/null || true
}

# After restore_cluster: the primary stopped with SIGSTOP is a standby again,
# in recovery, and the monitor holds it as a secondary.
check_stopped_primary_rejoined() {
  local old state recovery
  old=$(cat "$work/stopped-node")
  state=$(monitor_sql "SELECT reportedstate FROM pgautofailover.node WHERE nodename = '$old'")
  recovery=$(node_sql "$old" "SELECT pg_is_in_recovery()" 2>/dev/null || echo unreachable)
  [ "$state" = secondary ] && [ "$recovery" = t ] ||
    fail "the primary stopped with SIGSTOP ($old) did not come back as a standby: the monitor reports it $state, pg_is_in_recovery() $recovery"
  log "$old, the primary stopped with SIGSTOP, is a standby again"
}

# A standby node dies (SIGKILL); once the monitor has marked it unhealthy
# (appends go on meanwhile, on the other standby), the primary node dies
# too. pg_auto_failover promotes no one yet: it waits for the LSN of both
# standbys, so as to promote the most advanced (seen with version 2.0). After
# 10 s the lost standby comes back, the primary stays down: the monitor
# promotes a standby holding every acknowledged commit (it fetches what it
# lacks from the other first).
kill_standby_then_primary() {
  local standby
  standby=$("$pg_cluster" --dir "$cluster" kill-standby) || { echo "no standby to kill"; return 1; }
  local deadline=$((SECONDS + 30))
  until [ "$(monitor_sql "SELECT health FROM pgautofailover.node WHERE nodename = '$standby'")" = 0 ]; do
    if [ $SECONDS -ge $deadline ]; then
      echo "the monitor did not see the killed standby $standby go within 30 s"
      return 1
    fi
    sleep 0.2
  done
  echo "the monitor holds $standby as unhealthy; now the primary"
  sleep 1
  local primary
  primary=$("$pg_cluster" --dir "$cluster" kill-primary --whole-node)
  injected
  sleep 10
  local now
  now=$("$pg_cluster" --dir "$cluster" primary 2>/dev/null || true)
  echo "10 s after $primary, the primary, was killed, the monitor holds ${now:-no node} as the primary; $standby, the lost standby, comes back"
  "$pg_cluster" --dir "$cluster" start-node "$standby"
}

kill_server() {
  kill -KILL "${server_pid[$1]}"
  wait "${server_pid[$1]}" 2>/dev/null || true
}

# The grant of the league projector's lease: "pid token" of its holder
# ("host:pid:random"), and whether it is still in force ("t" or "f").
projector_grant() {
  sql "SELECT split_part(holder, ':', 2) || ' ' || token || ' ' ||
              CASE WHEN expires_at > now() THEN 't' ELSE 'f' END
         FROM leases WHERE name = 'projector:leagues'"
}

# The store position a league's ratings are up to date with, as served.
projected_position() {
  server=$2 cli league show "$1" | sed -n 's/^ *projector: up to store position \([0-9]*\),.*/\1/p'
}

# The arbiterd holding the league projector's lease dies (SIGKILL) while
# results come in; the other must take the lease over with the next token
# (within the lease's time to live, plus a renewal period and some margin)
# and project on past where the dead one stopped. Then the dead one starts
# again on its address.
kill_projector_holder() {
  local round=$1 holder_pid token valid victim="" survivor="" name
  # After a server was killed its grant lapses first: wait for a live holder.
  local deadline=$((SECONDS + 30))
  while :; do
    read -r holder_pid token valid <<<"$(projector_grant)"
    for name in a b; do
      if [ "${server_pid[$name]}" = "$holder_pid" ]; then victim=$name; else survivor=$name; fi
    done
    [ -n "$victim" ] && [ "$valid" = t ] && break
    victim=""
    [ $SECONDS -lt $deadline ] ||
      fail "the league projector's lease is held by pid $holder_pid (in force: $valid), neither arbiterd (a ${server_pid[a]}, b ${server_pid[b]}), 30 s on"
    sleep 0.2
  done
  local killed_at=$SECONDS
  fault "arbiterd $victim, holding the league projector's lease, killed (round $round)" projector-kill \
    kill_server "$victim"
  local new_pid new_token
  deadline=$((killed_at + 25))
  while :; do
    read -r new_pid new_token valid <<<"$(projector_grant)"
    [ "$new_pid" = "${server_pid[$survivor]}" ] && [ "$new_token" -gt "$token" ] && break
    [ $SECONDS -lt $deadline ] ||
      fail "the league projector's lease was not taken over from killed arbiterd $victim (pid $holder_pid, token $token) by arbiterd $survivor within 25 s: it is held by pid $new_pid with token $new_token"
    sleep 0.2
  done
  local took_over=$((SECONDS - killed_at)) position_before position_after=0
  position_before=$(projected_position failover-pl "${address[$survivor]}")
  deadline=$((SECONDS + 30))
  while :; do
    position_after=$(projected_position failover-pl "${address[$survivor]}")
    [ "${position_after:-0}" -gt "${position_before:-0}" ] && break
    [ $SECONDS -lt $deadline ] ||
      fail "arbiterd $survivor took the league projector's lease (token $new_token) but did not project past store position $position_before within 30 s"
    sleep 0.2
  done
  log "arbiterd $survivor took the league projector's lease over (token $token -> $new_token) within $took_over s of the kill, and projects on (store position $position_before -> $position_after)"
  start_server "$victim" "${address[$victim]}"
}

# One fault of kind $1 and what brings the cluster or the servers back.
run_fault() {
  local kind=$1 round=$2
  case "$kind" in
    node-kill)
      fault "the primary node killed (round $round)" "$kind" "$pg_cluster" --dir "$cluster" kill-primary --whole-node
      restore_cluster ;;
    postgres-kill)
      fault "the primary's postgres killed (round $round)" "$kind" "$pg_cluster" --dir "$cluster" kill-primary
      restore_cluster ;;
    switchover)
      fault "a planned switchover (round $round)" "$kind" "$pg_cluster" --dir "$cluster" switchover ;;
    cancel-wait)
      fault "commits waiting for the standbys cancelled, the standbys going on (round $round)" \
        "$kind" cancel_waits
      log "$(grep 'commits waited for the standbys' "$work/faults.log" | tail -n 1)" ;;
    cancel-double)
      fault "commits waiting for the standbys cancelled, then the primary node killed (round $round)" \
        "$kind" cancel_waits_then_kill_primary
      log "$(grep 'commits waited for the standbys' "$work/faults.log" | tail -n 1)"
      restore_cluster ;;
    primary-sigstop)
      fault "the primary node stopped (SIGSTOP) past the timeouts, then continued (round $round)" \
        "$kind" stop_primary_past_timeouts
      log "$(grep 'continued (SIGCONT)' "$work/faults.log" | tail -n 1)"
      demote_stopped_primary
      restore_cluster
      check_stopped_primary_rejoined ;;
    standby-primary)
      fault "a standby node killed, then the primary node (round $round)" "$kind" kill_standby_then_primary
      restore_cluster ;;
    arbiterd-kill)
      fault "arbiterd a killed (round $round)" "$kind" kill_server a
      start_server a "${address[a]}" ;;
    projector-kill)
      kill_projector_holder "$round" ;;
  esac
}

for round in $(seq "$rounds"); do
  for kind in ${faults//,/ }; do
    run_fault "$kind" "$round"
  done
done

touch "$work/stop"
status=0
wait "$load_pid" || status=$?
load_pid=
cat "$work/load.out"
[ $status -eq 0 ] || fail "failover_load found a problem (exit $status): $(grep -E '^(LOST|EXTRA|BROKEN|REFUSED)' "$work/load.out" | head -n 5)"
grep -q ' lost 0, extra 0, broken chains 0' "$work/load.out" ||
  fail "failover_load's summary is missing"

# The transparency log: the latest checkpoint must be a consistent extension
# of every checkpoint signed before a fault. `arbiter checkpoint --watch`
# verifies a kept checkpoint's signature, asks the log for a consistency
# proof from it to the latest, and checks it (exit 4 if it rewrites history).
cli checkpoint --publish >/dev/null || fail "no checkpoint could be signed at the end"
if [ "$break_what" = checkpoint ]; then
  # A forged checkpoint, as a server holding the log's key but a forked tree
  # would sign it: the first one kept, with another root, signed again with
  # the log's own key (its signature verifies; only the consistency proof can
  # tell).
  kept=$work/checkpoints/001.note
  { sed -n 1,2p "$kept"; head -c 32 /dev/urandom | base64 -w0; echo; sed -n 4p "$kept"; } >"$work/forged.text"
  openssl pkeyutl -sign -inkey "$work/transparency.key" -rawin -in "$work/forged.text" \
    -out "$work/forged.sig"
  signature_line=$(grep -a '^— ' "$kept")
  key_id=$(echo "${signature_line##* }" | base64 -d | head -c 4 | base64 -w0)
  { cat "$work/forged.text"; echo
    echo "${signature_line% *} $({ echo "$key_id" | base64 -d; cat "$work/forged.sig"; } | base64 -w0)"
  } >"$kept"
  log "broken on purpose: the checkpoint kept before '$(cat "$work/checkpoints/001.fault")' is replaced by a forged one (another root, signed with the log's key)"
fi
for note in "$work"/checkpoints/*.note; do
  cp "$note" "$work/verify.note"
  size=$(sed -n 2p "$note")
  if ! cli checkpoint --watch "$work/verify.note" --public-key "$work/transparency.pub" \
      >"$work/verify.out" 2>&1; then
    fail "transparency: the log is not consistent with the checkpoint of $size leaves signed before '$(cat "${note%.note}.fault")': $(tail -n 2 "$work/verify.out")"
  fi
done
log "transparency: the latest checkpoint ($(sed -n 's/^checkpoint of \([0-9]*\) leaves.*/\1/p' "$work/verify.out") leaves) is a consistent extension of the $checkpoints_kept checkpoints signed before the faults"

# The leaderboards: each, as served once the projector has caught up with
# the store, must equal byte for byte the one a rebuild from scratch gives
# (a rebuild rates the same results in the same order with the same
# arithmetic, so it writes the same bytes).
for league in "${kLeagues[@]}"; do
  wait_until "cli league show $league | grep -q ' 0 events behind'" 60 ||
    fail "the league projector did not catch up with the store for $league within 60 s: $(cli league show "$league" | grep projector)"
  if [ "$break_what" = leaderboard ]; then
    sql "UPDATE league_ratings SET mu = mu + 1e-9 WHERE league_id = '$league' AND season = '' AND player = 'p2'" >/dev/null
    log "broken on purpose: p2's stored rating in $league altered by 1e-9"
  fi
  cli leaderboard "$league" --csv --limit 1000 >"$work/$league.served.csv" ||
    fail "no leaderboard of $league"
  cli league rebuild "$league" >"$work/$league.rebuild.out" || fail "$league could not be rebuilt"
  rated=$(sed -n 's/^rebuilt [^:]*: \([0-9]*\) rated games.*/\1/p' "$work/$league.rebuild.out")
  [ "${rated:-0}" -gt 0 ] || fail "league $league rated no game: the load's games did not reach it"
  cli leaderboard "$league" --csv --limit 1000 >"$work/$league.rebuilt.csv" ||
    fail "no leaderboard of $league after its rebuild"
  cmp -s "$work/$league.served.csv" "$work/$league.rebuilt.csv" ||
    fail "leaderboard of $league: as served it differs from a rebuild from scratch (< served, > rebuilt):
$(diff "$work/$league.served.csv" "$work/$league.rebuilt.csv" | head -n 20)"
  log "leaderboard of $league: as served it equals a rebuild from scratch ($(head -n 1 "$work/$league.rebuild.out" | sed 's/^rebuilt [^:]*: //'))"
done

for figure in "${figures[@]}"; do log "$figure"; done
[ $interventions -eq 0 ] ||
  log "NOTE: $interventions time(s) an old primary stopped with SIGSTOP had to be shut down by hand to rejoin (above)"
log "passed in $((SECONDS - started)) s"
