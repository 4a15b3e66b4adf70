#!/usr/bin/env bash
# Kills the primary node of a replicated PostgreSQL (scripts/pg-cluster), its
# postgres and its pg_autoctl keeper, with SIGKILL while a client writes, and
# checks that a standby is promoted, that every write acknowledged before or
# after the kill is on the new primary, and that writes work again.
#
# The client writes one row per transaction through the multi-host connection
# string (target_session_attrs=read-write), one psql per row, and counts a row
# as acknowledged only when psql returned its row with no error or warning (a
# commit cut off by the kill, or "committed locally, but might not have been
# replicated", is an unknown outcome and is not counted either way).
#
# Usage: failover_cluster_test.sh PG_CLUSTER_SCRIPT
# Exit 77 (skipped) when pg_autoctl or PostgreSQL 15 is not installed.
set -euo pipefail

pg_cluster=${1:?usage: failover_cluster_test.sh PG_CLUSTER_SCRIPT}
readonly kPromotionTimeoutSeconds=90
readonly kRowsBeforeKill=20
readonly kRowsAfterFailover=10

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=cluster_for_test.sh
. "$here/cluster_for_test.sh"
writer_pid=
stop_clients() {
  if [ -n "$writer_pid" ]; then
    kill "$writer_pid" 2>/dev/null || true
    wait "$writer_pid" 2>/dev/null || true
  fi
}

sql "CREATE TABLE acked (id integer PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT now())"
old_port=$(sql "SELECT inet_server_port()")

# The client: writes rows 1, 2, 3, ... until told to stop. Acknowledged rows
# go to $work/acked as "id port", the others to $work/unknown.
write_rows() {
  local id=0 answer
  while [ ! -e "$work/stop" ]; do
    id=$((id + 1))
    if answer=$(psql -X -q -At -v ON_ERROR_STOP=1 "$url" \
                  -c "INSERT INTO acked (id) VALUES ($id) RETURNING inet_server_port()" 2>&1) &&
       [[ "$answer" =~ ^[0-9]+$ ]]; then
      echo "$id $answer" >>"$work/acked"
    else
      echo "$id $answer" | tr '\n' ' ' >>"$work/unknown"
      echo >>"$work/unknown"
      sleep 0.1
    fi
  done
}
touch "$work/acked" "$work/unknown"
write_rows &
writer_pid=$!

acked_count() {
  wc -l <"$work/acked"
}

wait_until '[ "$(acked_count)" -ge $kRowsBeforeKill ]' 60 ||
  fail "the client did not get $kRowsBeforeKill writes acknowledged within 60 s"
log "$(acked_count) rows acknowledged by the primary on port $old_port; killing it"
killed_at=$SECONDS
acked_before_kill=$(acked_count)
# The whole node, its pg_autoctl keeper included: killed alone, its postgres
# is restarted by the keeper at once and may win the election that follows.
killed=$("$pg_cluster" --dir "$cluster" kill-primary --whole-node)
[ "$(( base_port + ${killed#node} ))" = "$old_port" ] ||
  fail "kill-primary killed $killed, but the primary was on port $old_port"

# Promotion: a write through the read-write connection string lands on
# another node.
promoted_writes() {
  awk -v old="$old_port" '$2 != old' "$work/acked" | wc -l
}
wait_until '[ "$(promoted_writes)" -ge 1 ]' $kPromotionTimeoutSeconds ||
  fail "no standby was promoted within $kPromotionTimeoutSeconds s of the kill (no write acknowledged by another node)"
new_port=$(awk -v old="$old_port" '$2 != old { print $2; exit }' "$work/acked")
log "writes acknowledged again, by the node on port $new_port, $((SECONDS - killed_at)) s after the kill"

wait_until '[ "$(promoted_writes)" -ge $kRowsAfterFailover ]' 60 ||
  fail "only $(promoted_writes) writes acknowledged in the 60 s after the failover"
touch "$work/stop"
wait "$writer_pid"
writer_pid=

[ "$(sql "SELECT pg_is_in_recovery()")" = f ] || fail "the read-write connection reached a standby"
[ "$(sql "SELECT inet_server_port()")" != "$old_port" ] || fail "the old primary is the primary again"

# Every acknowledged row is on the new primary.
sql "SELECT id FROM acked ORDER BY id" >"$work/stored"
cut -d' ' -f1 "$work/acked" | sort -n >"$work/acked_ids"
lost=$(comm -23 <(sort "$work/acked_ids") <(sort "$work/stored") | sort -n | tr '\n' ' ')
[ -z "$lost" ] || fail "acknowledged rows missing after the failover: $lost"
last_written=$(cat "$work/acked" "$work/unknown" | cut -d' ' -f1 | sort -n | tail -1)
stray=$(awk -v last="$last_written" '$1 > last' "$work/stored" | tr '\n' ' ')
[ -z "$stray" ] || fail "rows stored that the client never wrote: $stray"

log "passed: $(acked_count) rows acknowledged ($acked_before_kill before the kill), all stored;" \
    "$(wc -l <"$work/unknown") writes with an unknown outcome during the failover;" \
    "$killed killed, node on port $new_port promoted; $((SECONDS - started)) s in all"
