#!/usr/bin/env bash
# docs/running-an-event.md, run as written: every ```sh block of the guide, in
# order, in one shell (set -euo pipefail) against a real arbiterd on its
# embedded PostgreSQL, with `arbiter` on the PATH and the operator's files
# (admin.token, transparency.pub) in the working directory. Then the event's
# exports are checked: every standings row's points are the sum of that
# player's points in the results export (by hand, in Python), the withdrawn
# and the late player's rounds are marked, the voided table scores nothing,
# the corrected table scores the ruling's places, the score-sheet table is
# marked reported with its no-show and its proposer, every game of the event
# audits as holding, and each audit in the guide held.
# Usage: event_guide_test.sh ARBITERD ARBITER GUIDE
set -euo pipefail
arbiterd=$(readlink -f "$1")
arbiter=$(readlink -f "$2")
guide=$3

work_name=arbiter-event-guide
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir "$work/event"
cp "$data/admin.token" "$data/transparency.pub" "$work/event/"
python3 - "$guide" >"$work/guide.sh" <<'PY'
import sys
lines, inside = [], False
for line in open(sys.argv[1], encoding="utf-8"):
    if line.rstrip() == "```sh":
        inside = True
        continue
    if inside and line.rstrip() == "```":
        inside = False
        continue
    if inside:
        lines.append(line)
if not lines:
    sys.exit("no ```sh block in the guide")
sys.stdout.write("".join(lines))
PY
[ "$(grep -c '^arbiter ' "$work/guide.sh")" -ge 30 ] || fail "too few commands read from the guide"
(
  cd "$work/event"
  export PATH="$(dirname "$arbiter"):$PATH"
  export ARBITER_SERVER="$address"
  bash -euo pipefail -x "$work/guide.sh" >"$work/guide.out" 2>"$work/guide.err"
) || { tail -30 "$work/guide.err" >&2; fail "a command of the guide failed"; }

python3 - "$work/event/standings.csv" "$work/event/results.csv" <<'PY' || fail "the event's exports"
import csv, sys
from fractions import Fraction
standings = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
results = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
assert len(standings) == 8, [r["player"] for r in standings]
by_player = {r["player"]: r for r in standings}
# Every seat's points computed here from the places alone, with the guide's
# settings (4-2-1-0 by place, shared places split their points, no-shows 0,
# void tables nothing), then each row's total as their sum.
PLACE_POINTS = [4, 2, 1, 0]
def place_value(place):
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else 0
tables = {}
for r in results:
    if r["table"]:
        tables.setdefault((r["round"], r["table"]), []).append(r)
expected = {}
for key, seats in tables.items():
    for r in seats:
        if r["status"] in ("void",):
            want = None
        elif r["outcome"] == "no-show":
            want = Fraction(0)
        else:
            place = int(r["place"])
            sharing = sum(1 for o in seats if o["place"] == r["place"])
            want = Fraction(sum(place_value(p) for p in range(place, place + sharing)), sharing)
        got = Fraction(r["points"]) if r["points"] else None
        assert got == want, (key, r["player"], got, want)
        expected[r["player"]] = expected.get(r["player"], Fraction(0)) + (want or 0)
for player, row in by_player.items():
    assert Fraction(row["points"]) == expected.get(player, Fraction(0)), (player, row["points"])
assert by_player["zoe"]["display_name"] == "Zoë Müller", by_player["zoe"]
assert by_player["hal"]["display_name"] == "Hal Øster", by_player["hal"]
gus = by_player["gus"]
assert gus["withdrawn"] == "yes" and gus["round_2"] == "withdrawn" and gus["round_3"] == "withdrawn", gus
assert by_player["hal"]["round_1"] == "not entered", by_player["hal"]
assert all(r["player"] != "gus" for r in results if r["round"] in ("2", "3")), "gus was paired"
void = [r for r in results if r["round"] == "2" and r["table"] == "2"]
assert void and all(r["status"] == "void" and not r["points"] for r in void), void
for r in void:
    assert by_player[r["player"]]["round_2"] == "void", by_player[r["player"]]
corrected = [r for r in results if r["round"] == "1" and r["table"] == "1"]
assert [r["place"] for r in corrected] == ["2", "1", "3", "4"], corrected
assert [r["game_points"] for r in corrected] == ["30", "34", "20", "12"], corrected
assert all(r["status"] == "corrected" for r in corrected), corrected
# Round 3 table 1: a score sheet, cy a no-show (0 points, no place).
sheet = {r["player"]: r for r in results if r["round"] == "3" and r["table"] == "1"}
assert sorted(sheet) == ["ann", "cy", "dee", "zoe"], sheet
assert all(r["status"] == "reported, not refereed" for r in sheet.values()), sheet
assert [sheet[p]["place"] for p in ("zoe", "ann", "dee", "cy")] == ["1", "2", "3", ""], sheet
assert [sheet[p]["points"] for p in ("zoe", "ann", "dee", "cy")] == ["4", "2", "1", "0"], sheet
assert [sheet[p]["outcome"] for p in ("zoe", "ann", "dee", "cy")] == [
    "played", "played", "played", "no-show"], sheet
assert by_player["cy"]["round_3"] == "no-show", by_player["cy"]
for p in ("zoe", "ann", "dee", "cy"):
    assert by_player[p]["reported_rounds"] == "3", by_player[p]
for p in ("bob", "eve", "hal"):
    assert by_player[p]["reported_rounds"] == "", by_player[p]
PY
grep -q 'corrected at event [0-9]* (dispute d1' "$work/guide.out" ||
  fail "the corrected table's audit does not name the correction: $(grep -i audit -A3 "$work/guide.out")"
grep -qi 'voided at event [0-9]*' "$work/guide.out" ||
  fail "the voided table's audit does not name the void"
# Every game of the event, exported and audited as an auditor would.
(
  cd "$work/event"
  export ARBITER_SERVER="$address"
  games=$(python3 -c 'import csv; print("\n".join(sorted({r["game"] for r in csv.DictReader(open("results.csv", encoding="utf-8")) if r["game"]})))')
  for game in $games; do
    id=${game#games/}
    "$arbiter" export "$id" -o "audit-$id.json" --token-file audrey.token >/dev/null 2>"export-$id.err" ||
      { cat "export-$id.err" >&2; exit 1; }
    "$arbiter" audit "audit-$id.json" --public-key transparency.pub >"audit-$id.out" ||
      { cat "audit-$id.out" >&2; exit 1; }
    grep -q "every check holds" "audit-$id.out" || { cat "audit-$id.out" >&2; exit 1; }
  done
) || fail "a game of the event does not audit as holding"
[ "$(ls "$work"/event/audit-*.out | wc -l)" -eq 6 ] || fail "not every game of the event was audited (6: two tables in each of 3 rounds)"
grep -q 'score sheet proposed by ann, awaiting the organiser (arbiter tournament report spring 3 1 --accept)' "$work/guide.out" ||
  fail "the proposed sheet is not shown on its table"
grep -q 'reported from a score sheet at event 2 (score sheet signed by Zoë Müller, Ann Lee, dee (proposed by ann): cy did not come), not refereed' "$work/guide.out" ||
  fail "the score-sheet table's audit does not name the sheet"
echo "event guide: all checks passed"
