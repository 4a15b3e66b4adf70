#!/usr/bin/env bash
# docs/running-an-event.md, run as written: every ```sh block of the guide, in
# order, in one shell (set -euo pipefail) against a real arbiterd on its
# embedded PostgreSQL, with `arbiter` on the PATH and the operator's files
# (admin.token, transparency.pub) in the working directory. Then the event's
# exports are checked: every standings row's points are the sum of that
# player's points in the results export (by hand, in Python), the withdrawn
# and the late player's rounds are marked, the voided table scores nothing,
# the corrected table scores the ruling's places, and each audit held.
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
# Each row's points: the sum of the player's points in the results export.
for player, row in by_player.items():
    total = sum(Fraction(r["points"]) for r in results if r["player"] == player and r["points"])
    assert Fraction(row["points"]) == total, (player, row["points"], total)
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
PY
grep -q 'corrected at event [0-9]* (dispute d1' "$work/guide.out" ||
  fail "the corrected table's audit does not name the correction: $(grep -i audit -A3 "$work/guide.out")"
grep -qi 'voided at event [0-9]*' "$work/guide.out" ||
  fail "the voided table's audit does not name the void"
echo "event guide: all checks passed"
