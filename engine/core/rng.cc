#include "engine/core/rng.h"

#include <cassert>

namespace arbiter::engine {
namespace {

constexpr uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t SplitMix64::Next() {
  x_ += 0x9e3779b97f4a7c15ULL;
  uint64_t z = x_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  SplitMix64 expand(seed);
  for (uint64_t& word : s_) word = expand.Next();
}

Rng Rng::FromState(const std::array<uint64_t, 4>& state) {
  Rng rng;
  rng.s_ = state;
  return rng;
}

uint64_t Rng::Next() {
  const uint64_t result = RotateLeft(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = RotateLeft(s_[3], 45);
  return result;
}

uint64_t Rng::Uniform(uint64_t n) {
  assert(n >= 1);
  // limit = 2^64 - (2^64 mod n), computed without 128-bit arithmetic:
  // (2^64 mod n) == ((2^64 - n) mod n) == (-n) % n in unsigned arithmetic.
  const uint64_t remainder = (0 - n) % n;
  const uint64_t limit = 0 - remainder;  // 0 stands for 2^64 when remainder is 0
  uint64_t x = Next();
  if (remainder != 0) {
    while (x >= limit) x = Next();
  }
  return x % n;
}

}  // namespace arbiter::engine
