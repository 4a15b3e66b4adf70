#!/usr/bin/env python3
"""Reference implementation of Arbiter's stored event bytes (docs/event-store.md).

Independent of the C++ code (only Python's standard library), so that anyone
can re-verify a game's hash chain in another language. It writes out, by hand:

  * the hashed bytes of an event and their SHA-256 (services/store/event_hash.h),
  * event ids (services/server/event_codec.h),
  * the payload of a small game: protobuf's wire format for GameCreated,
    Action and SeedRevealed (arbiter_service.proto, action.proto, log.proto),
    as deterministic serialization writes it (fields in number order,
    packed repeated enums, map entries sorted by key).

tests/services/server/stored_formats_test.cc checks the C++ code against the
values this script prints:

    python3 docs/event_hash_reference.py
"""

import hashlib
import struct

GENESIS = "0" * 64
TAG = b"arbiter-event-v1\x00"


def event_hash_input(prev_hash, sequence, game_id, event_id, type_, payload):
    """The hashed bytes: tag prev_hash sequence game_id event_id type payload."""

    def string32(text):
        data = text.encode("utf-8")
        return struct.pack(">I", len(data)) + data

    return (TAG + prev_hash.encode("ascii") + struct.pack(">Q", sequence) + string32(game_id) +
            string32(event_id) + string32(type_) + struct.pack(">Q", len(payload)) + payload)


def event_hash(*args):
    return hashlib.sha256(event_hash_input(*args)).hexdigest()


def event_id(game_id, number):
    return hashlib.sha256(game_id.encode("utf-8")).hexdigest()[:32] + "-" + str(number)


# Protobuf wire format, just what these messages need.
def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value) if value else b""


def field_bytes(number, data):
    return varint(number << 3 | 2) + varint(len(data)) + data


def field_string(number, text):
    return field_bytes(number, text.encode("utf-8")) if text else b""


def field_packed(number, values):
    return field_bytes(number, b"".join(varint(v) for v in values)) if values else b""


def player(id_, name):  # arbiter.v1.Player
    return field_string(1, id_) + field_string(2, name)


def log_header(game, ruleset_id, ruleset_hash, seed, players, options):  # arbiter.v1.LogHeader
    out = field_string(1, game) + field_string(2, ruleset_id) + field_string(3, ruleset_hash)
    out += field_varint(4, seed)
    for id_, name in players:
        out += field_bytes(5, player(id_, name))
    for key in sorted(options):
        out += field_bytes(6, field_string(1, key) + field_string(2, options[key]))
    return out


def game_created(header, seed_commitment=""):  # arbiter.v1.GameCreated
    return field_bytes(1, header) + field_string(2, seed_commitment)


def atlantis_move(player_id, figure, cards):  # arbiter.v1.Action{atlantis{move{...}}}
    move = field_varint(1, figure) + field_packed(2, cards)
    atlantis_action = field_bytes(3, move)
    return field_string(1, player_id) + field_bytes(10, atlantis_action)


def atlantis_pass(player_id):  # arbiter.v1.Action{atlantis{pass{}}}
    return field_string(1, player_id) + field_bytes(10, field_bytes(4, b""))


def seed_revealed(seed, nonce):  # arbiter.v1.SeedRevealed
    return field_varint(1, seed) + field_string(2, nonce)


RING, CROWN = 5, 7  # arbiter.v1.Atlantis.Item


def main():
    print("genesis", GENESIS)
    vector = (GENESIS, 1, "g1", "e-1", "game_created", b"\x00\x01payload")
    print("hash_input(vector 1)", event_hash_input(*vector).hex())
    print("hash(vector 1)", event_hash(*vector))
    vector2 = ("ab" * 32, 0x0102030405060708, "gäme", "", "action", b"")
    print("hash_input(vector 2)", event_hash_input(*vector2).hex())
    print("hash(vector 2)", event_hash(*vector2))
    print("event_id(final-1, 2)", event_id("final-1", 2))
    print("event_id(other, 1)", event_id("other", 1))

    # A three-event game "final-1": created, one action, a pass.
    header = log_header("atlantis", "atlantis-amigo-2009", "c" * 64, 42,
                        [("ann", "Ann"), ("bob", "Bob")], {"toll_payment": "tiles_or_cards"})
    payloads = [
        ("game_created", game_created(header)),
        ("action", atlantis_move("ann", 1, [RING, CROWN])),
        ("action", atlantis_pass("bob")),
    ]
    prev = GENESIS
    for number, (type_, payload) in enumerate(payloads, start=1):
        print(f"payload({number})", payload.hex())
        prev = event_hash(prev, number, "final-1", event_id("final-1", number), type_, payload)
        print(f"hash({number})", prev)
    print("seed_revealed(42, 00..ff)", seed_revealed(42, "00112233445566778899aabbccddeeff").hex())


if __name__ == "__main__":
    main()
