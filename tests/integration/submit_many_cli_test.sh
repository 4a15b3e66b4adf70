#!/usr/bin/env bash
# `arbiter submit` with a directory of logs against a real arbiterd on its
# embedded PostgreSQL: a legal game, an illegal one, an unfinished one, a
# malformed file, a repeat of a stored game with other display names and a
# byte-for-byte copy, summarised exactly (counts and the files listed), one
# plain line per file on stderr, the worst exit code; the same command again
# gives the same summary and stores nothing twice; --json; --game-id refused;
# Ctrl-C stops the run, says what was done, and the same command resumes it.
# Usage: submit_many_cli_test.sh ARBITERD ARBITER
set -euo pipefail
arbiterd=$1
arbiter=$2

work_name=arbiter-submit-many
# shellcheck source=arbiterd_for_test.sh
source "$(dirname "$0")/arbiterd_for_test.sh"
client=(--server "$address" --token-file "$data/admin.token")
fail() { echo "FAIL: $*" >&2; exit 1; }
stored_games() { "$arbiter" games --all --json "${client[@]}" | grep -c '"name"' || true; }

cd "$work"
mkdir logs logs/older
"$arbiter" simulate atlantis --players 3 --seed 1 -o logs/a-legal.jsonl >/dev/null 2>&1
"$arbiter" simulate atlantis --players 3 --seed 2 -o logs/b-legal.jsonl >/dev/null 2>&1
"$arbiter" simulate atlantis --players 3 --seed 3 -o "$work/three.jsonl" >/dev/null 2>&1
"$arbiter" simulate atlantis --players 3 --seed 4 -o "$work/four.jsonl" >/dev/null 2>&1
# p1 plays line 2 twice: line 3 is not p1's turn.
{ head -2 "$work/three.jsonl"; sed -n 2p "$work/three.jsonl"; tail -n +3 "$work/three.jsonl"; } \
  >logs/c-illegal.jsonl
head -8 "$work/four.jsonl" >logs/d-unfinished.jsonl
printf 'this is not a log\n' >logs/e-malformed.jsonl
# a-legal's game with another display name: other bytes, the same played game.
sed '1s/"name":"Player 1"/"name":"Ann"/' logs/a-legal.jsonl >logs/f-renamed.jsonl
cp logs/b-legal.jsonl logs/g-copy.jsonl
# Neither a *.jsonl file nor a file directly in the directory: not submitted.
echo notes >logs/notes.txt
cp logs/a-legal.jsonl logs/older/old.jsonl

code=0
"$arbiter" submit logs --jobs 3 "${client[@]}" >first.out 2>first.err || code=$?
[ "$code" = 2 ] || fail "first run: exit $code, expected 2 (a malformed file, duplicates): $(cat first.err)"
# Game ids are derived from request ids: compare them apart from the text.
sed -E 's#games/g-[0-9a-f]{24}#games/G#g' first.out >first.text
cat >expected.text <<'TEXT'
submitted 7 files: 2 legal, 1 illegal, 1 unfinished, 2 refused as duplicates, 1 failed
  logs/c-illegal.jsonl: illegal, stored as games/G: line 3 (p1) breaks rule not_your_turn: it is Player 2's (p2) turn, not Player 1's (p1)
  logs/d-unfinished.jsonl: unfinished, stored as games/G: legal after 7 actions, not finished
  logs/e-malformed.jsonl: failed: INVALID_ARGUMENT: line 1: not a valid LogHeader: Unexpected token.
  logs/f-renamed.jsonl: refused as a duplicate of games/G
  logs/g-copy.jsonl: refused as a duplicate of games/G
TEXT
diff expected.text first.text || fail "first run's summary (above)"
[ "$(stored_games)" = 4 ] || fail "4 games stored, found $(stored_games)"

# Each duplicate names the game its original was stored as.
"$arbiter" submit logs/a-legal.jsonl "${client[@]}" >a.out
"$arbiter" submit logs/b-legal.jsonl "${client[@]}" >b.out
a_game=$(sed -n 's/^stored as \(games\/[^ ]*\) .*/\1/p' a.out)
b_game=$(sed -n 's/^stored as \(games\/[^ ]*\) .*/\1/p' b.out)
grep -qxF "  logs/f-renamed.jsonl: refused as a duplicate of $a_game" first.out || fail "f names $a_game"
grep -qxF "  logs/g-copy.jsonl: refused as a duplicate of $b_game" first.out || fail "g names $b_game"

# Not a terminal: one line per file as it finishes, each count once.
[ "$(wc -l <first.err)" = 7 ] || fail "7 progress lines expected: $(cat first.err)"
for i in 1 2 3 4 5 6 7; do
  [ "$(grep -c "^\[$i/7\] logs/" first.err)" = 1 ] || fail "progress line $i/7: $(cat first.err)"
done
sed -E 's#^\[[0-9]/7\] ##; s#games/g-[0-9a-f]{24}#games/G#g' first.err | sort >lines.text
cat >expected-lines.text <<'TEXT'
logs/a-legal.jsonl: legal, stored as games/G
logs/b-legal.jsonl: legal, stored as games/G
TEXT
sed 's/^  //' expected.text | tail -n +2 >>expected-lines.text
sort -o expected-lines.text expected-lines.text
diff expected-lines.text lines.text || fail "progress lines (above)"

# The same command again: the same answers from the store, nothing new.
code=0
"$arbiter" submit logs --jobs 3 "${client[@]}" >second.out 2>second.err || code=$?
[ "$code" = 2 ] || fail "second run: exit $code"
diff first.out second.out || fail "the second run's summary differs (above)"
[ "$(stored_games)" = 4 ] || fail "the second run stored games: $(stored_games)"

# JSON: the counts and every file.
"$arbiter" submit logs --json "${client[@]}" >run.json 2>/dev/null || true
python3 - run.json <<'PY' || fail "JSON summary: $(cat run.json)"
import json, sys
s = json.load(open(sys.argv[1]))
assert (s["files"], s["answered"], s["legal"], s["illegal"], s["unfinished"], s["duplicates"],
        s["failed"], s["notSubmitted"], s["interrupted"], s["exitCode"]) == (7, 7, 2, 1, 1, 2, 1, 0, False, 2), s
assert [r["outcome"] for r in s["results"]] == [
    "legal", "legal", "illegal", "unfinished", "failed", "duplicate", "duplicate"], s
assert [r["file"] for r in s["results"]][0] == "logs/a-legal.jsonl", s
PY

# A whole run of legal games exits 0; --game-id names one game.
code=0
"$arbiter" submit logs/a-legal.jsonl logs/b-legal.jsonl "${client[@]}" >legal.out 2>/dev/null || code=$?
[ "$code" = 0 ] || fail "two legal games: exit $code"
[ "$(cat legal.out)" = "submitted 2 files: 2 legal, 0 illegal, 0 unfinished, 0 refused as duplicates, 0 failed" ] ||
  fail "two legal games: $(cat legal.out)"
# The worst file decides, whatever its place: illegal (4) over unfinished (3)
# and legal.
code=0
"$arbiter" submit logs/d-unfinished.jsonl logs/c-illegal.jsonl logs/a-legal.jsonl "${client[@]}" \
  >/dev/null 2>&1 || code=$?
[ "$code" = 4 ] || fail "an illegal, an unfinished and a legal game: exit $code, expected 4"
code=0
"$arbiter" submit logs --game-id x "${client[@]}" >out 2>err || code=$?
[ "$code" = 2 ] && [ ! -s out ] || fail "--game-id with a directory: exit $code"
grep -q -- "--game-id and --request-id name one game" err || fail "--game-id message: $(cat err)"

# Ctrl-C: no more files are sent, the summary says what was done and how
# to resume, exit 130; the same command then sends the rest.
mkdir many
for seed in $(seq 101 160); do
  "$arbiter" simulate atlantis --players 2 --seed "$seed" -o "many/$seed.jsonl" >/dev/null 2>&1
done
before=$(stored_games)
"$arbiter" submit many --jobs 1 "${client[@]}" >stop.out 2>stop.err &
submitter=$!
for _ in $(seq 1 500); do grep -q '^\[' stop.err && break; sleep 0.01; done
kill -INT "$submitter"
code=0
wait "$submitter" || code=$?
[ "$code" = 130 ] || fail "Ctrl-C: exit $code: $(cat stop.out stop.err)"
grep -qE '^arbiter: interrupted: sending no more files(; waiting for 1 submission in flight)? \(Ctrl-C again quits at once\)$' stop.err ||
  fail "Ctrl-C message: $(cat stop.err)"
sent=$(grep -c '^\[' stop.err)
[ "$sent" -lt 60 ] || fail "every file was sent after Ctrl-C"
[ "$(head -1 stop.out)" = "interrupted after $sent of 60 files: $sent legal, 0 illegal, 0 unfinished, 0 refused as duplicates, 0 failed" ] ||
  fail "interrupted summary: $(cat stop.out)"
[ "$(tail -1 stop.out)" = "$((60 - sent)) files not submitted; run the same command again to resume (files already stored are answered from the store, not stored twice)" ] ||
  fail "how to resume: $(cat stop.out)"
[ "$(stored_games)" = $((before + sent)) ] || fail "$sent games stored before Ctrl-C, found $(($(stored_games) - before))"
"$arbiter" submit many --jobs 4 "${client[@]}" >resume.out 2>/dev/null || fail "resume: $(cat resume.out)"
[ "$(cat resume.out)" = "submitted 60 files: 60 legal, 0 illegal, 0 unfinished, 0 refused as duplicates, 0 failed" ] ||
  fail "resumed summary: $(cat resume.out)"
[ "$(stored_games)" = $((before + 60)) ] || fail "60 games stored after resuming, found $(($(stored_games) - before))"

echo "submit many: all checks passed"
