#!/usr/bin/env bash
# The league commands of `arbiter` against a real arbiterd on its embedded
# PostgreSQL: create a league, submit games into it, read the leaderboard as
# a table, CSV and JSON, a player's history, change the system (a rebuild),
# rebuild by hand (same digest twice), void a game, and refuse bad input with
# the right exit code and a message naming the problem.
# Usage: league_cli_test.sh ARBITERD ARBITER SAMPLES_DIR
set -euo pipefail
arbiterd=$1
arbiter=$2
samples=$3

work_name=arbiter-league-cli
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
client=(--server "$address" --token-file "$data/admin.token")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$arbiter" league create north --game atlantis --system plackett-luce "${client[@]}" >/dev/null
for seed in 1 2 3 4; do
  "$arbiter" simulate atlantis --players 3 --seed "$seed" -o "$work/g$seed.jsonl"
  "$arbiter" submit "$work/g$seed.jsonl" --game-id "g$seed" --league north "${client[@]}" >/dev/null
done
# An atlantica game cannot join an atlantis league: exit 2, nothing stored.
code=0
"$arbiter" submit "$samples/atlantica.jsonl" --game-id wrong --league north "${client[@]}" \
  2>"$work/err" >/dev/null || code=$?
[ "$code" = 2 ] || fail "a game of another type: exit $code, expected 2"
grep -q 'rates atlantis games; this game is atlantica' "$work/err" || fail "message: $(cat "$work/err")"

# The projector runs every 50 ms.
for _ in $(seq 1 100); do
  [ "$("$arbiter" league show north "${client[@]}" | sed -n 's/^  rated games: //p')" = 4 ] && break
  sleep 0.1
done
[ "$("$arbiter" league show north "${client[@]}" | sed -n 's/^  rated games: //p')" = 4 ] ||
  fail "4 games were not rated"

"$arbiter" leaderboard north --csv "${client[@]}" >"$work/board.csv"
[ "$(head -1 "$work/board.csv")" = "rank,player,rating,mu,sigma,volatility,games,last_played,last_game,provisional" ] ||
  fail "CSV header: $(head -1 "$work/board.csv")"
[ "$(wc -l <"$work/board.csv")" = 4 ] || fail "3 players expected: $(cat "$work/board.csv")"
# Every player played the 4 games; ranks start at 1; ratings are sorted.
awk -F, 'NR > 1 && $7 != 4 { exit 1 }' "$work/board.csv" || fail "games column: $(cat "$work/board.csv")"
[ "$(sed -n 2p "$work/board.csv" | cut -d, -f1)" = 1 ] || fail "first rank"
sort -t, -k3,3gr -c <(tail -n +2 "$work/board.csv") || fail "not sorted by rating"
[ "$("$arbiter" leaderboard north --json "${client[@]}" | wc -l)" = 3 ] || fail "JSON rows"
"$arbiter" leaderboard north "${client[@]}" | grep -q "provisional" || fail "4 games < 5: provisional"
[ "$("$arbiter" rating north p1 "${client[@]}" | wc -l)" = 4 ] || fail "p1's history"

first=$("$arbiter" league rebuild north "${client[@]}" | sed -n 's/^digest //p')
second=$("$arbiter" league rebuild north "${client[@]}" | sed -n 's/^digest //p')
[ -n "$first" ] && [ "$first" = "$second" ] || fail "rebuild digests differ: $first $second"

"$arbiter" league set north --system elo --param k=16 "${client[@]}" >"$work/set"
grep -q "system:  elo k=16" "$work/set" || fail "set: $(cat "$work/set")"
third=$("$arbiter" league rebuild north "${client[@]}" | sed -n 's/^digest //p')
[ "$third" != "$first" ] || fail "elo ratings have the digest of plackett-luce ones"

"$arbiter" void g1 --reason "scorekeeping error" "${client[@]}" >/dev/null
for _ in $(seq 1 100); do
  [ "$("$arbiter" league show north "${client[@]}" | sed -n 's/^  rated games: //p')" = 3 ] && break
  sleep 0.1
done
[ "$("$arbiter" league show north "${client[@]}" | sed -n 's/^  rated games: //p')" = 3 ] ||
  fail "the voided game still counts"

code=0
"$arbiter" league create south --game atlantis --system trueskill "${client[@]}" 2>"$work/err" || code=$?
[ "$code" = 2 ] || fail "unknown system: exit $code"
grep -q "settings.rating_system" "$work/err" || fail "message: $(cat "$work/err")"
code=0
"$arbiter" league create south --game atlantis --param sigma=-1 "${client[@]}" 2>"$work/err" || code=$?
[ "$code" = 2 ] && grep -q "sigma" "$work/err" || fail "negative sigma: exit $code $(cat "$work/err")"
code=0
"$arbiter" leaderboard nowhere "${client[@]}" 2>"$work/err" || code=$?
[ "$code" != 0 ] && grep -q "NOT_FOUND" "$work/err" || fail "unknown league: exit $code $(cat "$work/err")"
code=0
"$arbiter" league create south --game atlantis --param sigma "${client[@]}" 2>"$work/err" || code=$?
[ "$code" = 2 ] && grep -q "NAME=VALUE" "$work/err" || fail "malformed --param: exit $code"
echo "league CLI: all checks passed"
