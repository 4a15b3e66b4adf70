#!/usr/bin/env bash
# `arbiter tournament tokens` against a real arbiterd on its embedded
# PostgreSQL: an organiser mints every registered player's token into a
# directory (files readable by their owner only), a second run keeps them,
# and after round 1 starts each file plays its player's seat at its table
# and no other seat. An organiser of league north registers a player in a
# tournament of north and mints its seat tokens, and may not create one in
# south. `arbiter tournament list` says how to create the first
# tournament, then lists every one as an aligned table (filtered with
# --league, no seed even with --json); a malformed --league names the flag.
# A played, confirmed table lists each seat's place and points, labelled.
# Errors name the command or flag to use, never an RPC, and exit 2: a
# second confirmation, a started round, a dispute id in use, a reason too
# long in characters, an unknown league, no token.
# Usage: tournament_cli_test.sh ARBITERD ARBITER
set -euo pipefail
arbiterd=$1
arbiter=$2

work_name=arbiter-tournament-cli
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
admin=(--server "$address" --token-file "$data/admin.token")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$arbiter" tournament list "${admin[@]}" >"$work/list"
[ "$(cat "$work/list")" = 'no tournaments yet: create one with `arbiter tournament create`' ] ||
  fail "empty list: $(cat "$work/list")"

"$arbiter" token create --role organiser --principal olga --tournament cup "${admin[@]}" >"$work/olga.token"
olga=(--server "$address" --token-file "$work/olga.token")
"$arbiter" tournament create cup --game atlantis --seed 123456789012 --rounds 2 --table-size 3 \
  --table-size 4 --preferred 4 --place-points 4 --place-points 2 --place-points 1 \
  --place-points 0 "${olga[@]}" >/dev/null
"$arbiter" tournament register cup --player ann --player bob --player cy --player dee "${olga[@]}" >/dev/null

"$arbiter" tournament tokens cup --out "$work/seats" "${olga[@]}" >"$work/minted"
[ "$(grep -c '^[a-z]*: ' "$work/minted")" = 4 ] || fail "4 tokens expected: $(cat "$work/minted")"
for p in ann bob cy dee; do
  [ -s "$work/seats/$p.token" ] || fail "no token file for $p"
  [ "$(stat -c %a "$work/seats/$p.token")" = 600 ] || fail "$p.token is readable by others"
done
first=$(cat "$work/seats/ann.token")
# Run again: every file is kept, nothing minted.
"$arbiter" tournament tokens cup --out "$work/seats" "${olga[@]}" >"$work/again"
grep -q "^4 player(s) already had a token file" "$work/again" || fail "second run: $(cat "$work/again")"
[ "$(cat "$work/seats/ann.token")" = "$first" ] || fail "ann's token was replaced"
[ "$("$arbiter" token list "${admin[@]}" | grep -c ' player ')" = 4 ] ||
  fail "expected 4 player tokens: $("$arbiter" token list "${admin[@]}")"

"$arbiter" tournament start cup 1 "${olga[@]}" >/dev/null
"$arbiter" league create north --name North --game atlantis "${admin[@]}" >/dev/null
"$arbiter" tournament create spring --game atlantis --seed 5 --rounds 1 --table-size 3 \
  --preferred 3 --place-points 2 --place-points 1 --place-points 0 --league north \
  --player eve --player fay --player gus "${admin[@]}" >/dev/null
# A league's organiser runs its league's tournaments, and creates none elsewhere.
"$arbiter" token create --role organiser --principal nora --league north "${admin[@]}" >"$work/nora.token"
nora=(--server "$address" --token-file "$work/nora.token")
"$arbiter" tournament register spring --player hal "${nora[@]}" >/dev/null ||
  fail "the league's organiser cannot register a player in spring"
"$arbiter" tournament tokens spring --out "$work/spring-seats" "${nora[@]}" >"$work/minted" ||
  fail "the league's organiser cannot mint spring's seat tokens: $(cat "$work/minted")"
[ "$(grep -c '^[a-z]*: ' "$work/minted")" = 4 ] || fail "4 spring tokens expected: $(cat "$work/minted")"
code=0
"$arbiter" tournament create autumn --game atlantis --seed 5 --rounds 1 --table-size 3 \
  --preferred 3 --place-points 2 --place-points 1 --place-points 0 --league south \
  --player eve --player fay --player gus "${nora[@]}" 2>"$work/err" >"$work/out" || code=$?
grep -qF 'may not create a tournament in league "south" (admins, organisers of the league, and organisers whose token names the tournament, only; it names league "north"); an admin can mint a token for league "south": arbiter token create --role organiser --league south --principal NAME' "$work/err" &&
  [ "$code" != 0 ] && ! [ -s "$work/out" ] || fail "autumn in south: exit $code: $(cat "$work/err")"
"$arbiter" tournament list "${admin[@]}" >"$work/list"
cat >"$work/expected" <<'TABLE'
tournament  game      league  status       rounds  players
cup         atlantis  -       in play      1 of 2  4
spring      atlantis  north   registering  0 of 1  4
TABLE
diff -u "$work/expected" "$work/list" || fail "tournament list"
"$arbiter" tournament list --league north "${admin[@]}" >"$work/list"
[ "$(sed -n '2,$p' "$work/list")" = "$(sed -n 3p "$work/expected")" ] ||
  fail "--league north: $(cat "$work/list")"
"$arbiter" tournament list --league leagues/south "${olga[@]}" >"$work/list"
[ "$(cat "$work/list")" = 'no tournaments in league "south" yet: create one with `arbiter tournament create`' ] ||
  fail "--league south: $(cat "$work/list")"
"$arbiter" token create --role public --principal reader "${admin[@]}" >"$work/reader.token"
"$arbiter" tournament list --json --server "$address" --token-file "$work/reader.token" \
  >"$work/list.json"
[ "$(wc -l <"$work/list.json")" = 2 ] || fail "--json: $(cat "$work/list.json")"
grep -q '"seedWithheld":true' "$work/list.json" || fail "--json: $(cat "$work/list.json")"
! grep -q 123456789012 "$work/list.json" || fail "the list shows cup's seed"
code=0
"$arbiter" tournament list --league "no such" "${admin[@]}" 2>"$work/err" >"$work/out" || code=$?
[ "$code" = 2 ] && grep -q -- '--league "no such" is not a league id' "$work/err" && ! [ -s "$work/out" ] ||
  fail "a malformed --league: exit $code: $(cat "$work/err")"

table=$("$arbiter" tournament tables cup --round 1 "${olga[@]}" | sed -n 's/.*\(games\/[^ ]*\).*/\1/p' | head -1)
[ -n "$table" ] || fail "no table in round 1"
seats=$("$arbiter" tournament tables cup --round 1 "${olga[@]}" | sed -n 's/.*seats: //p' | head -1)
to_act=$(echo "$seats" | cut -d' ' -f1)
other=$(echo "$seats" | cut -d' ' -f2)
"$arbiter" moves "$table" --token-file "$work/seats/$to_act.token" --server "$address" >"$work/moves" ||
  fail "$to_act cannot list its moves: $(cat "$work/moves")"
code=0
"$arbiter" moves "$table" --player "$to_act" --token-file "$work/seats/$other.token" \
  --server "$address" 2>"$work/err" >/dev/null || code=$?
[ "$code" = 2 ] && grep -q "PERMISSION_DENIED" "$work/err" || fail "$other saw $to_act's moves: exit $code"

code=0
"$arbiter" tournament tokens nowhere --out "$work/x" "${olga[@]}" 2>"$work/err" >/dev/null || code=$?
[ "$code" != 0 ] || fail "tokens for an unknown tournament succeeded"
# A played and confirmed table lists each seat's place and points, labelled.
"$arbiter" tournament start spring 1 "${admin[@]}" >/dev/null
seed=$("$arbiter" tournament tables spring --round 1 --json "${admin[@]}" |
  python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["tables"][0]["seed"])')
"$arbiter" simulate atlantis --players 3 --seed "$seed" -o "$work/spring.jsonl" >/dev/null
"$arbiter" tournament play spring 1 1 "$work/spring.jsonl" --rename-seats "${admin[@]}" >/dev/null
"$arbiter" tournament confirm spring 1 1 "${admin[@]}" >/dev/null
"$arbiter" tournament tables spring --round 1 "${admin[@]}" >"$work/tables"
[ "$(grep -Eo '\(place [0-9]+, [0-9.]+ points?\)' "$work/tables" | wc -l)" = 3 ] ||
  fail "places and points are not labelled: $(cat "$work/tables")"
# Errors name the command to use, never an RPC, and exit 2.
# expect_error NAME EXPECTED-LINE... -- ARGS: exit 2, nothing on stdout, each line in stderr.
expect_error() {
  local name=$1; shift
  local lines=()
  while [ "$1" != -- ]; do lines+=("$1"); shift; done
  shift
  local code=0
  "$arbiter" "$@" 2>"$work/err" >"$work/out" || code=$?
  [ "$code" = 2 ] || fail "$name: exit $code: $(cat "$work/err")"
  ! [ -s "$work/out" ] || fail "$name: printed $(cat "$work/out")"
  for line in "${lines[@]}"; do
    grep -qxF -- "$line" "$work/err" || fail "$name: no line '$line' in: $(cat "$work/err")"
  done
  ! grep -qE '(Create|Get|List|Start|Confirm|Open|Rule|Register|Reveal)[A-Z][a-z]+' "$work/err" ||
    fail "$name names an RPC: $(cat "$work/err")"
}
"$arbiter" tournament confirm spring 1 1 "${admin[@]}" >/dev/null || fail "a retry of the confirmation"
expect_error "a second confirmation" \
  'hint: its result: `arbiter tournament tables spring --round 1`; to change it, `arbiter dispute open ID --tournament spring --round 1 --table 1 --reason ...`' \
  -- tournament confirm spring 1 1 --request-id another "${admin[@]}"
grep -q '^arbiter: FAILED_PRECONDITION: round 1 table 1 is already confirmed (event [0-9]* of tournament "spring", 20[0-9-]*T[0-9:]*+00:00); a confirmed result changes only through a dispute$' "$work/err" ||
  fail "a second confirmation: $(cat "$work/err")"
expect_error "a started round" \
  'arbiter: FAILED_PRECONDITION: round 1 has already started (by a request with another request id); read its tables instead' \
  'hint: its tables: `arbiter tournament tables spring --round 1`' \
  -- tournament start spring 1 --request-id another "${admin[@]}"
"$arbiter" dispute open d1 --tournament spring --round 1 --table 1 --reason "a card was dealt twice" \
  "${admin[@]}" >/dev/null
expect_error "a dispute id in use" \
  'arbiter: ALREADY_EXISTS: dispute "d1" already exists (round 1 table 1 of tournament "spring"); read it, or open yours under another dispute id' \
  'hint: read it with `arbiter dispute show d1`, or open yours under another id' \
  -- dispute open d1 --tournament spring --round 1 --table 1 --reason "another reason" "${admin[@]}"
expect_error "a reason of 1001 characters" \
  'arbiter: INVALID_ARGUMENT: reason is 1001 characters; at most 1000' \
  -- dispute open d2 --tournament spring --round 1 --table 1 \
  --reason "$(python3 -c 'print("\u00eb" * 1001)')" "${admin[@]}"
expect_error "an unknown league" \
  'arbiter: NOT_FOUND: league "nowhere" does not exist; create the league first' \
  'hint: create it with `arbiter league create nowhere --game GAME`, or name another with --league (`arbiter league list`)' \
  -- tournament create winter --game atlantis --seed 5 --rounds 1 --table-size 3 --preferred 3 \
  --place-points 2 --place-points 1 --place-points 0 --league nowhere "${admin[@]}"
echo >"$work/empty.token"
expect_error "no token" \
  'arbiter: no token: give one with --token-file FILE (or the environment variable ARBITER_TOKEN); an admin mints one with `arbiter token create`' \
  -- tournament list --server "$address" --token-file "$work/empty.token"
echo "tournament CLI: all checks passed"
