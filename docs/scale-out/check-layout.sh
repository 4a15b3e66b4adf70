#!/usr/bin/env bash
# Checks citus-layout.sql on plain PostgreSQL 15, where Citus is not
# installed (docs/scale-out.md, "How the layout was checked"):
#   1. a private cluster in a temporary directory (Unix socket only);
#   2. the Citus stand-ins (citus-stubs.sql); the compose profile's step
#      citus-register (read from docker-compose.yml) adds two stand-in
#      workers; Arbiter's migrations by the project's runner (`arbiter
#      migrate`), as on a Citus coordinator whose extension exists first;
#   3. with --populated, a store with something in every table: arbiterd runs
#      on the cluster, a league rates the sample games, one game is voided,
#      one dealt game is left live, a tournament plays a round and one of its
#      tables is disputed, a checkpoint is signed, and arbiterd stops;
#   4. the layout, by the compose profile's step citus-layout; that step
#      again, which must only report; the file again, which must be refused;
#   5. the result: every table placed, no unique index without its
#      distribution column, no foreign key across groups (stub_check_layout),
#      one head per shard that hashes into its shard, nothing counted twice.
# With --self-test it then runs altered copies of the layout, each missing
# one change Citus needs, and fails unless the stand-ins refuse every one:
# the check above would pass vacuously with stand-ins that refuse nothing.
# Exit 0 when all of it holds. Needs /usr/lib/postgresql/15/bin, psql and
# python3 with yaml; run as root, the cluster runs as the postgres user.
#
# Usage: docs/scale-out/check-layout.sh [--populated] [--self-test] [--bin DIR] [--keep]
#   --bin DIR    where arbiter and arbiterd are (default: build/bin)
#   --keep       leave the cluster running and print how to reach it
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pg_bin=/usr/lib/postgresql/15/bin
bin="$root/build/bin"
populated=0
self_test=0
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --populated) populated=1 ;;
    --self-test) self_test=1 ;;
    --bin) bin="$2"; shift ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--populated] [--self-test] [--bin DIR] [--keep]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin/arbiter" ] || { echo "no $bin/arbiter: build it, or give --bin DIR" >&2; exit 2; }
if [ "$populated" = 1 ] && [ ! -x "$bin/arbiterd" ]; then
  echo "--populated needs $bin/arbiterd" >&2; exit 2
fi

dir="$(mktemp -d /tmp/arbiter-citus-check.XXXXXX)"
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as_owner=(setpriv --reuid=postgres --regid="$(id -g postgres)" --clear-groups --)
fi
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
  if [ "$keep" = 1 ]; then
    echo "cluster kept: psql -h $dir -U postgres -d arbiter   (stop: $pg_bin/pg_ctl -D $dir/data stop)"
    return
  fi
  "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_owner[@]}" "$pg_bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
# The workers' configuration, which the layout checks through
# run_command_on_workers; here the one server stands for every node.
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
  -o "-k $dir -c listen_addresses='' -c citus.enable_unsafe_triggers=on" start >/dev/null
psql_in() { psql -X -q -v ON_ERROR_STOP=1 -h "$dir" -U postgres "$@"; }
psql_in -d postgres -c "CREATE DATABASE arbiter"
url="host=$dir user=postgres dbname=arbiter"
# A step of the compose profile, as a bash script: its entrypoint, or its
# command when the entrypoint is a shell; "$$" is compose's escape of "$".
compose_step() {
  python3 - "$root/docker-compose.yml" "$1" "$here" <<'PY'
import shlex, sys, yaml
step = yaml.safe_load(open(sys.argv[1]))['services'][sys.argv[2]]
if step['entrypoint'][0] == 'bash':
    script = step['command'][0]
else:
    script = ' '.join(shlex.quote(word) for word in step['entrypoint'])
print(script.replace('$$', '$').replace('/layout/', sys.argv[3] + '/'))
PY
}
export PGHOST="$dir" PGUSER=postgres PGDATABASE=arbiter

echo "== the stand-ins, the workers (citus-register), the migrations"
psql_in -d arbiter -f "$here/citus-stubs.sql" >/dev/null
compose_step citus-register | bash -e >/dev/null
"$bin/arbiter" migrate --database "$url"

if [ "$populated" = 1 ]; then
  echo "== a populated store (arbiterd)"
  data="$dir/arbiterd"
  mkdir -p "$data"
  # Ports the system picks; ready once the banner names the address (the
  # admin token is written earlier, before the server listens).
  "$bin/arbiterd" --database "$url" --data-dir "$data" --listen "127.0.0.1:0" \
    --http-listen "127.0.0.1:0" --checkpoint-interval 0.5 >"$dir/arbiterd.log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 240); do
    grep -q "^arbiterd is listening on" "$dir/arbiterd.log" && break
    kill -0 "$daemon_pid" 2>/dev/null || { cat "$dir/arbiterd.log" >&2; echo "FAILED: arbiterd did not start" >&2; exit 1; }
    sleep 0.25
  done
  address=$(sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$dir/arbiterd.log")
  [ -n "$address" ] || { cat "$dir/arbiterd.log" >&2; echo "FAILED: arbiterd named no address in 60 s" >&2; exit 1; }
  a=("--server" "$address" "--token-file" "$data/admin.token")
  "$bin/arbiter" league create north --game atlantis --game atlantica --game atlantis-rising "${a[@]}" >/dev/null
  "$bin/arbiter" submit "$root/samples/atlantis.jsonl" --league north --game-id a1 "${a[@]}" >/dev/null || true
  "$bin/arbiter" submit "$root/samples/atlantica.jsonl" --league north --game-id a2 "${a[@]}" >/dev/null || true
  "$bin/arbiter" submit "$root/samples/atlantis-rising.jsonl" --league north --game-id a3 "${a[@]}" >/dev/null || true
  "$bin/arbiter" void a2 --reason "a check of the layout" "${a[@]}" >/dev/null
  "$bin/arbiter" deal create atlantis --player p1 --player p2 --game-id dealt1 "${a[@]}" >/dev/null
  "$bin/arbiter" tournament create spring --game atlantis --seed 7 --rounds 1 --table-size 3 \
    --preferred 3 --place-points 3 --place-points 2 --place-points 1 "${a[@]}" >/dev/null
  "$bin/arbiter" tournament register spring --player t1 --player t2 --player t3 "${a[@]}" >/dev/null
  "$bin/arbiter" tournament start spring 1 "${a[@]}" >/dev/null
  "$bin/arbiter" tournament simulate spring 1 "${a[@]}" >/dev/null
  "$bin/arbiter" tournament confirm spring 1 0 "${a[@]}" >/dev/null
  "$bin/arbiter" dispute open d1 --tournament spring --round 1 --table 1 \
    --reason "a check of the layout" "${a[@]}" >/dev/null
  # Wait until the projector and the log builder have taken every event,
  # then sign a checkpoint of the whole tree.
  for _ in $(seq 150); do
    ready=$(psql_in -d arbiter -Atc "SELECT (SELECT position FROM projector_checkpoints WHERE projector = 'leagues') = h.last_position
                                         AND t.events_position = h.last_position
                                         AND NOT EXISTS (SELECT FROM streams s LEFT JOIN transparency_stream_heads x USING (stream_id)
                                                          WHERE x.sequence IS DISTINCT FROM s.last_sequence)
                                       FROM store_head h, transparency_head t")
    [ "$ready" = t ] && break
    sleep 0.2
  done
  "$bin/arbiter" checkpoint --publish "${a[@]}" >/dev/null
  kill "$daemon_pid"; wait "$daemon_pid" || true; daemon_pid=""
  psql_in -d arbiter -Atc "SELECT 'stored: ' || (SELECT count(*) FROM games) || ' games, '
                                  || (SELECT count(*) FROM events) || ' events, '
                                  || (SELECT count(*) FROM game_results) || ' results, '
                                  || (SELECT count(*) FROM streams) || ' streams, '
                                  || (SELECT count(*) FROM dealer_secrets) || ' dealer secret(s), '
                                  || (SELECT count(*) FROM league_ratings) || ' rating rows, '
                                  || (SELECT tree_size FROM transparency_head) || ' leaves'"
fi
before=$(psql_in -d arbiter -Atc "SELECT (SELECT count(*) FROM game_results) || ' ' || (SELECT last_position FROM store_head)")

echo "== the layout (citus-layout)"
compose_step citus-layout | bash -e >"$dir/layout.out"
grep -q "distributed .*| game_id" "$dir/layout.out" || { cat "$dir/layout.out" >&2; exit 1; }
echo "== citus-layout again (must only report)"
compose_step citus-layout | bash -e | grep "in place already"
echo "== the layout again with psql -f (must be refused)"
if psql_in -d arbiter -f "$here/citus-layout.sql" >/dev/null 2>"$dir/again.err"; then
  echo "FAIL: a second run was not refused" >&2; exit 1
fi
grep -q "already been applied" "$dir/again.err" || { cat "$dir/again.err" >&2; exit 1; }

echo "== the result"
fail=0
check() {  # check "what" "SQL that returns true"
  if [ "$(psql_in -d arbiter -Atc "$2")" = t ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
problems=$(psql_in -d arbiter -Atc "SELECT problem FROM stub_check_layout()")
if [ -n "$problems" ]; then echo "FAIL the layout:"; echo "$problems"; fail=1; else echo "ok   every table placed; unique keys and foreign keys as Citus requires"; fi
read -r results head <<<"$before"
check "nothing counted twice: $results results before, as many after" \
  "SELECT count(*) = $results FROM game_results"
check "one head per shard, each in its shard, each at the store head ($head)" \
  "SELECT count(*) = 32 AND bool_and(last_position = $head)
          AND bool_and(get_shard_id_for_distribution_column('games', head_key)
                       = (SELECT shardid FROM pg_dist_shard s WHERE s.logicalrelid = 'games'::regclass
                          ORDER BY shardminvalue::int OFFSET h.shard LIMIT 1))
     FROM shard_heads h"
check "the league projector's checkpoint is a vector of 32 components at the store head" \
  "SELECT count(*) = 32 AND bool_and(position = $head) FROM projector_checkpoints WHERE projector = 'leagues'"
check "a log per shard, one for the streams, the top log and the frozen store log" \
  "SELECT count(*) = 35 AND count(*) FILTER (WHERE log_id = 'store') = 1 FROM transparency_head"
check "the streams log starts where the store log left every stream" \
  "SELECT NOT EXISTS (SELECT stream_id, sequence FROM transparency_stream_heads WHERE log_id = 'store'
                      EXCEPT SELECT stream_id, sequence FROM transparency_stream_heads WHERE log_id = 'streams')"
check "every stored row is a row before the layout (no shard, no clock)" \
  "SELECT NOT EXISTS (SELECT FROM append_requests WHERE shard IS NOT NULL)
      AND NOT EXISTS (SELECT FROM game_results WHERE shard IS NOT NULL)"
check "the service may no longer move store_head" \
  "SELECT NOT has_table_privilege('arbiter_service', 'store_head', 'UPDATE')
      AND NOT has_column_privilege('arbiter_service', 'store_head', 'last_position', 'UPDATE')"
check "every trigger is back" \
  "SELECT count(*) = 25 FROM pg_trigger WHERE NOT tgisinternal AND tgname NOT LIKE 'stub%'"
check "the views read" \
  "SELECT (SELECT count(*) FROM events_readable) = (SELECT count(*) FROM events)
      AND (SELECT count(*) FROM events_in_order) = (SELECT count(*) FROM events)
      AND (SELECT count(*) FROM transparency_leaves) = (SELECT tree_size FROM transparency_head WHERE log_id = 'store')"
check "the played-key claims are the stored keys" \
  "SELECT (SELECT count(*) FROM played_game_keys) = (SELECT count(*) FROM games WHERE played_key IS NOT NULL)"
# An append as a sharded store would write it: events, then the head of the
# game's shard, then the batch with its shard and clock; the result trigger
# copies both.
check "an append in the new shape goes through the triggers and the checks" \
  "WITH g AS (INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, players, created_by,
                                 league_id, create_request_id, create_digest, last_sequence)
              VALUES ('layout-check', 'atlantis', 'r', repeat('0', 64), 1, '{p1}', 'check', 'north',
                      'layout-check', 'd', 0) RETURNING 1)
   SELECT count(*) = 1 FROM g"
psql_in -d arbiter -q <<'SQL'
BEGIN;
INSERT INTO events (game_id, sequence, type, payload, hash)
VALUES ('layout-check', 1, 'game_finished', '\x00', decode(repeat('ab', 32), 'hex'));
WITH head AS (
  UPDATE shard_heads
     SET last_position = last_position + 1,
         last_order_time = greatest(last_order_time + interval '1 microsecond', clock_timestamp())
   WHERE shard = 0
  RETURNING shard, last_position, last_order_time)
INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                             first_position, last_position, last_hash, recorded_by,
                             shard, order_time)
SELECT 'layout-check', 'layout-check', 'd', 1, 1, last_position, last_position,
       repeat('ab', 32), 'check', shard, last_order_time FROM head;
COMMIT;
SQL
check "the result row carries the batch's shard and clock" \
  "SELECT r.shard = 0 AND r.order_time = h.last_order_time AND r.position = h.last_position
     FROM game_results r, shard_heads h WHERE r.game_id = 'layout-check' AND h.shard = 0"
if psql_in -d arbiter -c "INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                            first_position, last_position, last_hash, recorded_by)
                          VALUES ('x', 'layout-check', 'd', 2, 2, $head + 100, $head + 100, 'h', 'check')" \
     >/dev/null 2>&1; then
  echo "FAIL a batch without a shard above the old head was stored"; fail=1
else
  echo "ok   a batch without a shard above the old head is refused"
fi
if psql_in -d arbiter -c "UPDATE events SET type = 'x' WHERE game_id = 'layout-check'" >/dev/null 2>&1; then
  echo "FAIL an event was edited"; fail=1
else
  echo "ok   events are still append-only"
fi
[ "$fail" = 0 ] && echo "the layout holds" || { echo "the layout does not hold" >&2; exit 1; }

if [ "$self_test" = 1 ]; then
  echo "== self-test: altered layouts the stand-ins must refuse"
  n=0
  mutant() {  # mutant WHAT FROM TO EXPECTED: the layout with FROM replaced by TO
    n=$((n + 1))
    psql_in -d postgres -c "CREATE DATABASE mutant$n"
    PGDATABASE="mutant$n" psql_in -f "$here/citus-stubs.sql" >/dev/null
    compose_step citus-register | PGDATABASE="mutant$n" bash -e >/dev/null
    "$bin/arbiter" migrate --database "host=$dir user=postgres dbname=mutant$n" >/dev/null
    python3 - "$here/citus-layout.sql" "$2" "$3" >"$dir/mutant.sql" <<'PY'
import sys
layout, old, new = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
assert layout.count(old) == 1, old
print(layout.replace(old, new))
PY
    if PGDATABASE="mutant$n" psql_in -f "$dir/mutant.sql" >/dev/null 2>"$dir/mutant.err"; then
      echo "FAIL $1: the stand-ins accepted it"; fail=1
    elif grep -q "$4" "$dir/mutant.err"; then
      echo "ok   $1: refused ($4)"
    else
      echo "FAIL $1: refused for another reason:"; cat "$dir/mutant.err"; fail=1
    fi
  }
  mutant "dealer_secrets keeps its default collation" \
    'ALTER TABLE dealer_secrets ALTER COLUMN game_id TYPE text COLLATE "C";' '' \
    "collations don't match"
  mutant "the foreign key of append_requests stays" \
    'ALTER TABLE append_requests DROP CONSTRAINT append_requests_game_id_fkey;' '' \
    "referenced by a foreign key"
  mutant "games keeps its unique request id" \
    'ALTER TABLE games DROP CONSTRAINT games_create_request_id_key;' '' \
    "does not include the distribution column"
  mutant "event ids stay unique in the store" \
    'CREATE UNIQUE INDEX events_event_id ON events (game_id, event_id)' \
    'CREATE UNIQUE INDEX events_event_id ON events (event_id)' \
    "does not include the distribution column"
  mutant "stream request ids stay unique in the store" \
    'UNIQUE (stream_id, request_id);' 'UNIQUE (request_id);' \
    "does not include the distribution column"
  mutant "a worker without citus.enable_unsafe_triggers (here, the one session)" \
    'SET LOCAL citus.enable_unsafe_triggers = on;' 'SET LOCAL citus.enable_unsafe_triggers = off;' \
    "not on on every worker"
  mutant "triggers created without citus.enable_unsafe_triggers" \
    'CREATE TRIGGER games_fixed_columns' \
    'SET LOCAL citus.enable_unsafe_triggers = off; CREATE TRIGGER games_fixed_columns' \
    "triggers are not supported on distributed tables"
  mutant "the transparency tiles keep their key without the log" \
    'PRIMARY KEY (log_id, tile_level, tile_index, width);' 'PRIMARY KEY (tile_level, tile_index, width);' \
    "does not include the distribution column"
  [ "$fail" = 0 ] && echo "the stand-ins refuse every altered layout" || exit 1
fi
