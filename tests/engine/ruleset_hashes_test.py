#!/usr/bin/env python3
"""A ruleset's hash is the SHA-256 of its file's exact bytes (docs/log-format.md).

Checked with Python's hashlib, independently of the C++ code, for every
built-in ruleset (whatever its current bytes) and for a ruleset file given
with --ruleset whose bytes end without a newline and carry a comment, so
that neither normalised line ends nor parsed-and-reprinted text would pass.
`arbiter rulesets --print ID` (and `-o FILE`) must write the bytes whose
SHA-256 is the hash listed, an unknown id must exit 2 naming the known ids,
and each game's document must give the command and the hash an auditor
checks a log header against.

    ruleset_hashes_test.py --arbiter build/bin/arbiter --source-dir .
"""

import argparse
import hashlib
import pathlib
import re
import subprocess
import sys
import tempfile


def rulesets(arbiter, *extra):
    out = subprocess.run([arbiter, *extra, "rulesets"], check=True, capture_output=True).stdout
    return [line.split("\t") for line in out.decode("utf-8").splitlines()]


# The game's document (docs/<game>.md, the game's name with `-` kept) must
# name the ruleset's file, the command that prints its bytes, and its hash.
def documented_hash_failures(source_dir, game, id_, digest):
    doc = pathlib.Path(source_dir, "docs", f"{game}.md")
    if not doc.exists():
        return [f"{game}: no {doc}"]
    text = doc.read_text(encoding="utf-8")
    needed = [f"arbiter rulesets --print {id_}", digest]
    return [f"{doc.name} does not name {what!r} (ruleset {id_})" for what in needed if what not in text]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiter", required=True)
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    failures = []

    shipped = {}
    for path in pathlib.Path(args.source_dir, "engine").glob("*/*.textproto"):
        data = path.read_bytes()
        match = re.search(rb'^id: "([^"]+)"', data, re.MULTILINE)
        shipped[match.group(1).decode()] = data
    listed = rulesets(args.arbiter)
    if sorted(row[1] for row in listed) != sorted(shipped):
        failures.append(f"arbiter rulesets lists {[row[1] for row in listed]}, "
                        f"the source has {sorted(shipped)}")
    for game, id_, digest in listed:
        expected = hashlib.sha256(shipped.get(id_, b"")).hexdigest()
        if digest != expected:
            failures.append(f"{game} {id_}: arbiter says {digest}, hashlib says {expected}")
        printed = subprocess.run([args.arbiter, "rulesets", "--print", id_], check=True,
                                 capture_output=True).stdout
        if printed != shipped.get(id_):
            failures.append(f"arbiter rulesets --print {id_} is not the file's exact bytes")
        # What an auditor runs: `arbiter rulesets --print ID | sha256sum`.
        if hashlib.sha256(printed).hexdigest() != digest:
            failures.append(f"sha256 of arbiter rulesets --print {id_} is not the hash listed ({digest})")
        with tempfile.TemporaryDirectory() as folder:
            written = pathlib.Path(folder, "ruleset.textproto")
            subprocess.run([args.arbiter, "rulesets", "--print", id_, "-o", str(written)], check=True,
                           capture_output=True)
            if written.read_bytes() != printed:
                failures.append(f"arbiter rulesets --print {id_} -o FILE wrote other bytes than stdout")
        failures.extend(documented_hash_failures(args.source_dir, game, id_, digest))

    unknown = subprocess.run([args.arbiter, "rulesets", "--print", "no-such-ruleset"], capture_output=True)
    message = unknown.stderr.decode("utf-8")
    if unknown.returncode != 2 or unknown.stdout or not all(row[1] in message for row in listed):
        failures.append(f"an unknown id: exit {unknown.returncode}, stdout {unknown.stdout!r}, "
                        f"stderr {message!r}; expected exit 2 and a message naming every known id")

    # A user's ruleset: the Atlantis file under another id, with a comment and
    # no final newline.
    atlantis = shipped["atlantis-amigo-2009"]
    corrected = atlantis.replace(b'id: "atlantis-amigo-2009"', b'id: "atlantis-pinned"', 1)
    corrected += b"# a comment is part of the hashed bytes"
    with tempfile.NamedTemporaryFile(suffix=".textproto") as file:
        file.write(corrected)
        file.flush()
        rows = [row for row in rulesets(args.arbiter, "--ruleset", file.name)
                if row[1] == "atlantis-pinned"]
        expected = hashlib.sha256(corrected).hexdigest()
        if rows != [["atlantis", "atlantis-pinned", expected]]:
            failures.append(f"--ruleset file: arbiter lists {rows}, hashlib says {expected}")

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(listed)} built-in rulesets and one user ruleset checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
