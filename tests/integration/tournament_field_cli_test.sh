#!/usr/bin/env bash
# A real field from the CLI against a real arbiterd on its embedded
# PostgreSQL: players registered with display names (any Unicode), settings
# changed before round 1 (only the flags named), a late entrant paired from
# round 2, a withdrawn player paired no more but kept in the standings (and
# their CSV), a second withdrawal refused in words with exit 2, a
# tournament deleted before round 1 (gone for readers, its reason shown) and
# a deletion refused once round 1 has started.
# Usage: tournament_field_cli_test.sh ARBITERD ARBITER
set -euo pipefail
arbiterd=$1
arbiter=$2

work_name=arbiter-tournament-field-cli
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
admin=(--server "$address" --token-file "$data/admin.token")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$arbiter" tournament create cup --game atlantis --seed 99 --rounds 2 --table-size 3 \
  --table-size 4 --preferred 4 --place-points 4 --place-points 2 --place-points 1 \
  --player ann --player bob --player "zoe=Zoë Müller" --player cy --player dee \
  --player eve --player fay --player gus "${admin[@]}" >"$work/created"
grep -qF 'zoe (Zoë Müller)' "$work/created" || fail "display name: $(cat "$work/created")"

# Only the flags named change; the rest is kept.
"$arbiter" tournament settings cup --rounds 3 "${admin[@]}" >"$work/settings"
"$arbiter" tournament show cup --json "${admin[@]}" >"$work/show.json"
python3 - "$work/show.json" <<'PY' || fail "settings: $(cat "$work/show.json")"
import json, sys
t = json.load(open(sys.argv[1]))
s = t["settings"]
assert s["rounds"] == 3, s
assert s["placePoints"] == ["4", "2", "1"], s
assert s["tableSizes"] == [3, 4], s
PY

play_round() {  # round
  "$arbiter" tournament start cup "$1" "${admin[@]}" >/dev/null
  "$arbiter" tournament tables cup --round "$1" --json "${admin[@]}" >"$work/round.json"
  python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["tables"]: print(t["number"], len(t["players"]), t["seed"])' \
    "$work/round.json" | while read -r number players seed; do
    "$arbiter" simulate atlantis --players "$players" --seed "$seed" -o "$work/t.jsonl" >/dev/null
    "$arbiter" tournament play cup "$1" "$number" "$work/t.jsonl" --rename-seats "${admin[@]}" >/dev/null
  done
  "$arbiter" tournament confirm cup "$1" 0 "${admin[@]}" >/dev/null
}
play_round 1

"$arbiter" tournament register cup --player late "${admin[@]}" >"$work/late"
grep -qF 'late [from round 2]' "$work/late" || fail "late entry: $(cat "$work/late")"
"$arbiter" tournament withdraw cup bob --reason "went home" "${admin[@]}" >"$work/withdrawn"
grep -qF 'bob withdrew from tournaments/cup' "$work/withdrawn" || fail "withdraw: $(cat "$work/withdrawn")"
code=0
"$arbiter" tournament withdraw cup bob --reason "again" --request-id other "${admin[@]}" \
  2>"$work/err" >"$work/out" || code=$?
[ "$code" = 2 ] && grep -qF 'player "bob" has already withdrawn from tournament "cup"' "$work/err" &&
  ! [ -s "$work/out" ] || fail "second withdrawal: exit $code: $(cat "$work/err")"

play_round 2
"$arbiter" tournament tables cup --round 2 --json "${admin[@]}" >"$work/round2.json"
python3 - "$work/round2.json" <<'PY' || fail "round 2: $(cat "$work/round2.json")"
import json, sys
r = json.load(open(sys.argv[1]))
seated = [p for t in r["tables"] for p in t["players"]] + r.get("byes", [])
assert "bob" not in seated, seated
assert "late" in seated, seated
assert len(seated) == 8, seated
PY
"$arbiter" tournament standings cup --csv "${admin[@]}" >"$work/standings.csv"
head -1 "$work/standings.csv" | grep -q '^rank,player,display_name,withdrawn,points,round_1,round_2,' ||
  fail "CSV header: $(head -1 "$work/standings.csv")"
grep -q '^[0-9]*,bob,,yes,[0-9.]*,[0-9.]*,withdrawn,' "$work/standings.csv" ||
  fail "bob in the CSV: $(cat "$work/standings.csv")"
grep -q '^[0-9]*,late,,no,[0-9.]*,not entered,' "$work/standings.csv" ||
  fail "late in the CSV: $(cat "$work/standings.csv")"
grep -q '^[0-9]*,zoe,Zoë Müller,no,' "$work/standings.csv" ||
  fail "zoe in the CSV: $(cat "$work/standings.csv")"
[ "$(wc -l <"$work/standings.csv")" = 10 ] || fail "9 rows expected: $(cat "$work/standings.csv")"

code=0
"$arbiter" tournament delete cup --reason "too late" "${admin[@]}" 2>"$work/err" >"$work/out" || code=$?
[ "$code" = 2 ] && grep -qF 'has started round 1: it can be deleted only before it' "$work/err" ||
  fail "delete after round 1: exit $code: $(cat "$work/err")"

"$arbiter" tournament create gone --game atlantis --seed 1 --rounds 1 --table-size 3 \
  --preferred 3 --place-points 1 --player a --player b --player c "${admin[@]}" >/dev/null
"$arbiter" tournament delete gone --reason "the venue cancelled" "${admin[@]}" >"$work/deleted"
grep -qF 'tournaments/gone deleted (event 2 of its log)' "$work/deleted" ||
  fail "delete: $(cat "$work/deleted")"
code=0
"$arbiter" tournament show gone "${admin[@]}" 2>"$work/err" >/dev/null || code=$?
[ "$code" = 2 ] && grep -qF 'tournament "gone" was deleted before round 1 (the venue cancelled)' "$work/err" ||
  fail "show a deleted tournament: exit $code: $(cat "$work/err")"
"$arbiter" tournament list "${admin[@]}" >"$work/list"
! grep -q '^gone ' "$work/list" || fail "the index lists a deleted tournament: $(cat "$work/list")"
echo "tournament field CLI: all checks passed"
