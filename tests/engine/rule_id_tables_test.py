#!/usr/bin/env python3
"""Each game's rule-id table (docs/<game>.md, "Rule ids") against the engine.

An auditor who writes a referee from the documents needs every rule id, the
order in which the checks run (it decides which id one action breaking two
rules reports), and which ids can appear in a verdict at all. For every game
this checks that
  - the table "### The ids" lists exactly the ids of engine/<game>/rule_ids.h
    and the shared ones of engine/core/violation.h, each once, each marked
    "yes" or "no" in the verdict column;
  - every id is named in "### The order of the checks", the ids marked "no"
    in its malformed-line steps (before `game_over`) and the ids marked "yes"
    after them, and the "yes" rows follow the order in which that section
    first names them;
  - every id marked "no" has a case in
    tests/services/replay/never_a_verdict_test.cc, which shows the referee
    refusing such an action as malformed.

    rule_id_tables_test.py --source-dir .
"""

import argparse
import pathlib
import re
import sys

GAMES = {"atlantis": "atlantis", "atlantica": "atlantica", "atlantis-rising": "atlantis_rising"}
CONSTANT = re.compile(r'inline constexpr char kRule\w+\[\] = "([a-z_]+)";')
ROW = re.compile(r"^\| `([a-z_]+)` \| (yes|no) \| .+ \|$")


def section(text, title):
    start = text.find(title + "\n")
    if start < 0:
        return None
    level = title.split(" ")[0]
    rest = text[start + len(title) + 1:]
    stops = [m.start() for m in re.finditer(r"^#{2,%d} " % len(level), rest, re.MULTILINE)]
    return rest[:stops[0]] if stops else rest


def check_game(root, game, folder, shared, cases):
    failures = []
    doc_path = root / "docs" / f"{game}.md"
    doc = doc_path.read_text(encoding="utf-8")
    code = CONSTANT.findall((root / "engine" / folder / "rule_ids.h").read_text(encoding="utf-8")) + shared
    rules = section(doc, "## Rule ids")
    if rules is None:
        return [f"{doc_path.name}: no '## Rule ids' section"]
    order, table = section(rules, "### The order of the checks"), section(rules, "### The ids")
    if order is None or table is None:
        return [f"{doc_path.name}: 'Rule ids' needs '### The order of the checks' and '### The ids'"]
    if "| rule id | verdict | refused when |" not in table:
        failures.append(f"{doc_path.name}: the ids table's header is not '| rule id | verdict | refused when |'")
    rows = [ROW.match(line) for line in table.splitlines() if line.startswith("| `")]
    if None in rows:
        failures.append(f"{doc_path.name}: a row of the ids table is not '| `id` | yes or no | when |'")
    rows = [(m.group(1), m.group(2)) for m in rows if m]
    listed = [rule for rule, _ in rows]
    for rule in sorted({r for r in listed if listed.count(r) > 1}):
        failures.append(f"{doc_path.name}: `{rule}` is listed more than once")
    for rule in sorted(set(code) - set(listed)):
        failures.append(f"{doc_path.name}: `{rule}` is a rule id of the engine but not in the table")
    for rule in sorted(set(listed) - set(code)):
        failures.append(f"{doc_path.name}: `{rule}` is in the table but not a rule id of the engine")

    boundary = order.find("`game_over`")
    first = {rule: order.find(f"`{rule}`") for rule in listed}
    for rule, verdict in rows:
        if first[rule] < 0:
            failures.append(f"{doc_path.name}: `{rule}` is not named in 'The order of the checks'")
        elif verdict == "no" and rule != "game_over" and first[rule] > boundary:
            failures.append(f"{doc_path.name}: `{rule}` is marked 'no' but the checks first name it after "
                            "`game_over`, among the checks that give verdicts")
        elif verdict == "yes" and first[rule] < boundary:
            failures.append(f"{doc_path.name}: `{rule}` is marked 'yes' but the checks first name it among the "
                            "steps that make a line malformed")
        if verdict == "no" and f'{{"{game}", "{rule}",' not in cases:
            failures.append(f"{doc_path.name}: `{rule}` is marked 'no' but never_a_verdict_test.cc has no "
                            f"case {{\"{game}\", \"{rule}\", ...}}")
    judged = [rule for rule, verdict in rows if verdict == "yes" and first.get(rule, -1) >= 0]
    expected = sorted(judged, key=lambda rule: first[rule])
    if judged != expected:
        failures.append(f"{doc_path.name}: the 'yes' rows are not in the order the checks name them; "
                        f"expected {expected}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    root = pathlib.Path(args.source_dir)
    shared = CONSTANT.findall((root / "engine" / "core" / "violation.h").read_text(encoding="utf-8"))
    cases = (root / "tests" / "services" / "replay" / "never_a_verdict_test.cc").read_text(encoding="utf-8")
    failures = []
    for game, folder in GAMES.items():
        failures.extend(check_game(root, game, folder, shared, cases))
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(GAMES)} games' rule-id tables checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
