#!/usr/bin/env python3
"""Reference implementation of Arbiter's seeded generator (docs/chance.md).

Independent of the C++ code, so that anyone can re-derive a game's shuffles
and rolls from its seed. Run it to print the test vectors for seed 42 and
those of sealed games (commitment and derived seed) and of dealt games
(the server's commitment and the seed derived with the seats' values):

    python3 docs/chance_reference.py
"""

import hashlib

MASK = (1 << 64) - 1


def splitmix64(x):
    """Yields SplitMix64 outputs for seed x."""
    while True:
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


class Rng:
    def __init__(self, seed):
        gen = splitmix64(seed)
        self.s = [next(gen) for _ in range(4)]

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def uniform(self, n):
        limit = (1 << 64) - ((1 << 64) % n)
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]


def sealed_commitment(game_id, seed, nonce):
    """The v2 commitment: binds (seed, nonce) to one game id."""
    text = f"arbiter-seed-v2:{game_id}:{seed}:{nonce}"
    return hashlib.sha256(text.encode()).hexdigest()


def derived_seed(game_id, organiser_seed, server_random):
    """The engine seed of a sealed game; server_random is 32 bytes."""
    text = f"arbiter-derive-v1:{game_id}:{organiser_seed}:{server_random.hex()}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def netstring(data):
    """decimal(len) + ":" + bytes + ",": no two byte strings share a prefix."""
    return str(len(data)).encode() + b":" + data + b","


def dealer_commitment(game_id, server_secret):
    """The commitment a dealt game records in event 1; server_secret is 32 bytes."""
    preimage = (b"arbiter-dealer-commit-v1:" + netstring(game_id.encode())
                + netstring(server_secret.hex().encode()))
    return hashlib.sha256(preimage).hexdigest()


def dealt_seed(game_id, server_secret, seats):
    """The engine seed of a dealt game. seats: (player id, value) in seat
    order, value a str, or None for a seat that added nothing."""
    preimage = (b"arbiter-dealer-seed-v1:" + netstring(game_id.encode())
                + netstring(server_secret.hex().encode()))
    for player_id, value in seats:
        preimage += netstring(player_id.encode())
        preimage += b"-" if value is None else b"+" + netstring(value.encode())
    return int.from_bytes(hashlib.sha256(preimage).digest()[:8], "big")


def lot_commitment(tournament_id, server_secret):
    """The commitment a tournament with a drawn lot records at creation."""
    preimage = (b"arbiter-lot-commit-v1:" + netstring(tournament_id.encode())
                + netstring(server_secret.hex().encode()))
    return hashlib.sha256(preimage).hexdigest()


def lot_seed(tournament_id, server_secret, players):
    """The seed of one round's drawn lot: the players the round draws for
    (round 1: every entrant; later rounds: their late entrants), in
    registration order."""
    preimage = (b"arbiter-lot-seed-v1:" + netstring(tournament_id.encode())
                + netstring(server_secret.hex().encode()))
    for player_id in players:
        preimage += netstring(player_id.encode())
    return int.from_bytes(hashlib.sha256(preimage).digest()[:8], "big")


# (game id, organiser seed, nonce, server random) of the documented vectors.
SEALED_VECTORS = [
    ("g1", 42, "00" * 16, bytes(range(32))),
    ("final-table-7", 18446744073709551615, "0123456789abcdef" * 2, b"\xff" * 32),
]


# (game id, server secret, seats) of the documented dealt-game vectors.
DEALT_VECTORS = [
    ("d1", bytes(range(32)), [("ann", "7"), ("bob", "lucky")]),
    ("d1", bytes(range(32)), [("bob", "lucky"), ("ann", "7")]),
    ("d1", bytes(range(32)), [("ann", "7"), ("bob", None)]),
    ("d1", bytes(range(32)), [("ann", "7"), ("bob", "")]),
    ("final-table-7", b"\xff" * 32,
     [("ann", "c0ffee"), ("bob", "été"), ("cy", None), ("dee", "\U0001F0A1")]),
]


# (tournament id, server secret, players) of the documented drawn-lot vectors.
LOT_VECTORS = [
    ("cup", bytes(range(32)), ["p1", "p2", "p3"]),
    ("cup", bytes(range(32)), ["p2", "p1", "p3"]),
    ("spring-open", b"\xff" * 32, ["ann", "bob", "cy", "dee", "été"]),
]


if __name__ == "__main__":
    rng = Rng(42)
    print("next", rng.next())
    print("next", rng.next())
    print("uniform(6)", rng.uniform(6))
    print("uniform(1000000007)", rng.uniform(1000000007))
    cards = list(range(10))
    rng.shuffle(cards)
    print("shuffle(0..9)", cards)
    for game_id, seed, nonce, server_random in SEALED_VECTORS:
        print("sealed", game_id, seed, nonce, server_random.hex(),
              "commitment", sealed_commitment(game_id, seed, nonce),
              "derived", derived_seed(game_id, seed, server_random))
    for game_id, server_secret, seats in DEALT_VECTORS:
        print("dealt", game_id, server_secret.hex(), seats,
              "commitment", dealer_commitment(game_id, server_secret),
              "seed", dealt_seed(game_id, server_secret, seats))
    for tournament_id, server_secret, players in LOT_VECTORS:
        print("lot", tournament_id, server_secret.hex(), players,
              "commitment", lot_commitment(tournament_id, server_secret),
              "seed", lot_seed(tournament_id, server_secret, players))
