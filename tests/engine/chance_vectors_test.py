#!/usr/bin/env python3
"""Checks that docs/chance_reference.py reproduces the sealed-seed, the
dealt-game and the drawn-lot test vectors printed in docs/chance.md (the C++ side pins the same
vectors in tests/engine/core/seed_derivation_test.cc and
tests/engine/core/dealer_seed_test.cc).

    python3 tests/engine/chance_vectors_test.py --source-dir .
"""

import argparse
import importlib.util
import json
import pathlib
import re
import sys


def check_sealed(reference, lines):
    """(rows found, failures, rows required) for the sealed-seed table."""
    # Rows of the form: | `game` | seed | `nonce` | `server random hex` | `commitment` | derived |
    row = re.compile(r"^\| `([^`]+)` \| (\d+) \| `([0-9a-f]+)` \| `([0-9a-f]+)` \| `([0-9a-f]{64})` \| (\d+) \|$")
    rows = [m for m in (row.match(line) for line in lines) if m]
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
    return len(rows), failures, 2


def check_dealt(reference, lines):
    """(rows found, failures, rows required) for the dealt-game table."""
    # Rows of the form: | `game` | `secret hex` | `[[player, value or null], ...]` | `commitment` | seed |
    row = re.compile(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \| `(\[.*\])` \| `([0-9a-f]{64})` \| (\d+) \|$")
    rows = [m for m in (row.match(line) for line in lines) if m]
    failures = 0
    for m in rows:
        game_id, secret_hex, seats_json, commitment, seed = m.groups()
        secret = bytes.fromhex(secret_hex)
        seats = [(player_id, value) for player_id, value in json.loads(seats_json)]
        got_commitment = reference.dealer_commitment(game_id, secret)
        got_seed = reference.dealt_seed(game_id, secret, seats)
        if got_commitment != commitment:
            print(f"{game_id} {seats_json}: commitment {got_commitment}, docs say {commitment}")
            failures += 1
        if got_seed != int(seed):
            print(f"{game_id} {seats_json}: engine seed {got_seed}, docs say {seed}")
            failures += 1
    return len(rows), failures, 5


def check_lot(reference, lines):
    """(rows found, failures, rows required) for the drawn-lot table."""
    # Rows of the form: | lot | `tournament` | `secret hex` | `[players]` | `commitment` | seed |
    row = re.compile(r"^\| lot \| `([^`]+)` \| `([0-9a-f]{64})` \| `(\[.*\])` \| `([0-9a-f]{64})` \| (\d+) \|$")
    rows = [m for m in (row.match(line) for line in lines) if m]
    failures = 0
    for m in rows:
        tournament_id, secret_hex, players_json, commitment, seed = m.groups()
        secret = bytes.fromhex(secret_hex)
        players = json.loads(players_json)
        got_commitment = reference.lot_commitment(tournament_id, secret)
        got_seed = reference.lot_seed(tournament_id, secret, players)
        if got_commitment != commitment:
            print(f"lot {tournament_id} {players_json}: commitment {got_commitment}, docs say {commitment}")
            failures += 1
        if got_seed != int(seed):
            print(f"lot {tournament_id} {players_json}: lot seed {got_seed}, docs say {seed}")
            failures += 1
    return len(rows), failures, 3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    args = parser.parse_args()
    docs = pathlib.Path(args.source_dir) / "docs"
    spec = importlib.util.spec_from_file_location("chance_reference", docs / "chance_reference.py")
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)

    lines = (docs / "chance.md").read_text(encoding="utf-8").splitlines()
    failures = 0
    sealed = check_sealed(reference, lines)
    dealt = check_dealt(reference, lines)
    lot = check_lot(reference, lines)
    for name, (count, failed, at_least) in (("sealed-seed", sealed), ("dealt-game", dealt),
                                            ("drawn-lot", lot)):
        if count < at_least:
            print(f"docs/chance.md: expected at least {at_least} {name} vector rows, found {count}")
            failures += 1
        failures += failed
    print(f"{sealed[0]} sealed, {dealt[0]} dealt and {lot[0]} lot vectors checked, "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
