// Atlantis: which sums a player's collected tiles can pay exactly (subset
// sums over tile values), for the end phase's cheapest payment and the
// "toll_overpay" option's exact-payment test.
#ifndef ARBITER_ENGINE_ATLANTIS_TILE_SUMS_H_
#define ARBITER_ENGINE_ATLANTIS_TILE_SUMS_H_

#include <algorithm>
#include <array>
#include <vector>

#include "engine/atlantis/rules.h"

namespace arbiter::engine::atlantis {

using ValueCounts = std::array<int, kMaxValue + 1>;

// Subset sums of tiles by value: reach[v][s] says whether s can be paid with
// tiles of values 1..v.
class TileSums {
 public:
  static std::size_t Ix(int i) { return static_cast<std::size_t>(i); }

  explicit TileSums(const ValueCounts& counts) : counts_(counts) {
    int total = 0;
    for (int v = 1; v <= kMaxValue; ++v) total += v * counts[Ix(v)];
    reach_.assign(static_cast<std::size_t>(kMaxValue + 1), std::vector<char>(Ix(total + 1), 0));
    reach_[0][0] = 1;
    for (int v = 1; v <= kMaxValue; ++v) {
      for (int s = 0; s <= total; ++s) {
        for (int k = 0; k <= counts[Ix(v)] && k * v <= s; ++k) {
          if (reach_[Ix(v - 1)][Ix(s - k * v)]) {
            reach_[Ix(v)][Ix(s)] = 1;
            break;
          }
        }
      }
    }
  }
  int total() const { return static_cast<int>(reach_[0].size()) - 1; }
  bool Reachable(int s) const { return s >= 0 && s <= total() && reach_[Ix(kMaxValue)][Ix(s)]; }
  // Tiles by value making up reachable sum s (highest values first).
  ValueCounts Pick(int s) const {
    ValueCounts picked{};
    for (int v = kMaxValue; v >= 1; --v) {
      for (int k = std::min(counts_[Ix(v)], s / v); k >= 0; --k) {
        if (reach_[Ix(v - 1)][Ix(s - k * v)]) {
          picked[Ix(v)] = k;
          s -= k * v;
          break;
        }
      }
    }
    return picked;
  }

 private:
  ValueCounts counts_;
  std::vector<std::vector<char>> reach_;
};

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_TILE_SUMS_H_
