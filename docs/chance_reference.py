#!/usr/bin/env python3
"""Reference implementation of Arbiter's seeded generator (docs/chance.md).

Independent of the C++ code, so that anyone can re-derive a game's shuffles
and rolls from its seed. Run it to print the test vectors for seed 42:

    python3 docs/chance_reference.py
"""

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


if __name__ == "__main__":
    rng = Rng(42)
    print("next", rng.next())
    print("next", rng.next())
    print("uniform(6)", rng.uniform(6))
    print("uniform(1000000007)", rng.uniform(1000000007))
    cards = list(range(10))
    rng.shuffle(cards)
    print("shuffle(0..9)", cards)
