// Rng: the project's one source of chance, fully specified so that anyone can
// re-derive every shuffle and roll of a game from its seed, in any language.
//
// Algorithm (docs/chance.md has the same text and test vectors):
//   * State: four 64-bit words s0..s3, filled from the 64-bit seed by four
//     successive outputs of SplitMix64 (Steele, Lea & Flood 2014):
//       x += 0x9e3779b97f4a7c15; z = x;
//       z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
//       z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
//       return z ^ (z >> 31);
//   * Next(): xoshiro256** 1.0 (Blackman & Vigna 2018):
//       result = rotl(s1 * 5, 7) * 9; t = s1 << 17;
//       s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45);
//   * Uniform(n), for 1 <= n: draw x = Next() until x < limit, where
//     limit = 2^64 - (2^64 mod n); return x mod n. (Rejection, so unbiased;
//     for small n a second draw is astronomically rare.)
//   * Shuffle(v): Fisher-Yates from the back: for i = size-1 down to 1,
//     j = Uniform(i + 1), swap v[i] and v[j].
//   * Roll(sides) = 1 + Uniform(sides).
// All arithmetic is modulo 2^64. Not thread-safe; each game owns one.
#ifndef ARBITER_ENGINE_CORE_RNG_H_
#define ARBITER_ENGINE_CORE_RNG_H_

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace arbiter::engine {

// SplitMix64, used to expand a seed into generator state.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : x_(seed) {}
  uint64_t Next();

 private:
  uint64_t x_;
};

class Rng {
 public:
  explicit Rng(uint64_t seed);
  // For tests: start from an explicit xoshiro256** state.
  static Rng FromState(const std::array<uint64_t, 4>& state);

  uint64_t Next();
  // Uniform integer in [0, n). `n` must be at least 1.
  uint64_t Uniform(uint64_t n);
  // A die with `sides` faces: 1..sides.
  int Roll(int sides) { return 1 + static_cast<int>(Uniform(static_cast<uint64_t>(sides))); }

  template <typename T>
  void Shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(Uniform(i));
      using std::swap;
      swap(items[i - 1], items[j]);
    }
  }

  const std::array<uint64_t, 4>& state() const { return s_; }

 private:
  Rng() = default;
  std::array<uint64_t, 4> s_{};
};

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_RNG_H_
