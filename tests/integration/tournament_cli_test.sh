#!/usr/bin/env bash
# `arbiter tournament tokens` against a real arbiterd on its embedded
# PostgreSQL: an organiser mints every registered player's token into a
# directory (files readable by their owner only), a second run keeps them,
# and after round 1 starts each file plays its player's seat at its table
# and no other seat.
# Usage: tournament_cli_test.sh ARBITERD ARBITER
set -euo pipefail
arbiterd=$1
arbiter=$2

work_name=arbiter-tournament-cli
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
admin=(--server "$address" --token-file "$data/admin.token")
fail() { echo "FAIL: $*" >&2; exit 1; }

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
echo "tournament CLI: all checks passed"
