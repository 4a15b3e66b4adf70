#!/usr/bin/env python3
"""Checks that docs/chance_reference.py reproduces the sealed-seed test
vectors printed in docs/chance.md (the C++ side pins the same vectors in
tests/engine/core/seed_derivation_test.cc).

    python3 tests/engine/chance_vectors_test.py --source-dir .
"""

import argparse
import importlib.util
import pathlib
import re
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    docs = pathlib.Path(args.source_dir) / "docs"
    spec = importlib.util.spec_from_file_location("chance_reference", docs / "chance_reference.py")
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)

    # Rows of the form: | `game` | seed | `nonce` | `server random hex` | `commitment` | derived |
    row = re.compile(r"^\| `([^`]+)` \| (\d+) \| `([0-9a-f]+)` \| `([0-9a-f]+)` \| `([0-9a-f]{64})` \| (\d+) \|$")
    rows = [row.match(line) for line in (docs / "chance.md").read_text().splitlines()]
    rows = [m for m in rows if m]
    if len(rows) < 2:
        print("docs/chance.md: expected at least 2 sealed-seed vector rows, found", len(rows))
        return 1
    failures = 0
    for m in rows:
        game_id, seed, nonce, random_hex, commitment, derived = m.groups()
        server_random = bytes.fromhex(random_hex)
        got_commitment = reference.sealed_commitment(game_id, int(seed), nonce)
        got_derived = reference.derived_seed(game_id, int(seed), server_random)
        if got_commitment != commitment:
            print(f"{game_id}: commitment {got_commitment}, docs say {commitment}")
            failures += 1
        if got_derived != int(derived):
            print(f"{game_id}: derived seed {got_derived}, docs say {derived}")
            failures += 1
    print(f"{len(rows)} vectors checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
