// Atlantis: the path from Atlantis to the Mainland, its stacks, water gaps,
// tolls and bridges, and which positions figures stand on.
//
// Positions: 0 is Atlantis, 1..N the path positions, N + 1 the Mainland. Each
// path position holds a stack of 0..4 tiles; only the top tile is visible and
// counts. An empty position between the first and last non-empty positions is
// water; empty positions at either end are gone (Atlantis or the Mainland
// moves up to the nearest tile). A gap is a maximal run of water; its toll is
// the lower of the two top-tile values on its sides, however long the run; a
// gap containing a bridged position is free. Figures never stand on water:
// only free (unoccupied) tiles are ever taken.
#ifndef ARBITER_ENGINE_ATLANTIS_PATH_H_
#define ARBITER_ENGINE_ATLANTIS_PATH_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/atlantis/rules.h"

namespace arbiter::engine::atlantis {

// The tolls of the gaps between two positions.
struct Toll {
  int total = 0;    // sum of the tolls of the gaps that are not bridged
  int largest = 0;  // the highest single toll among them (what a new bridge saves)
  int gaps = 0;     // number of unbridged gaps
};

// A set of positions 0..127 as two bit words (fast "next position after").
class PositionSet {
 public:
  static constexpr int kNone = 128;
  void Set(int p) { w_[Word(p)] |= Bit(p); }
  void Clear(int p) { w_[Word(p)] &= ~Bit(p); }
  bool Has(int p) const { return (w_[Word(p)] & Bit(p)) != 0; }
  // The lowest member >= p, or kNone.
  int NextFrom(int p) const {
    if (p >= kNone) return kNone;
    std::size_t i = Word(p);
    uint64_t word = w_[i] & (~uint64_t{0} << (p & 63));
    while (word == 0) {
      if (++i == w_.size()) return kNone;
      word = w_[i];
    }
    return static_cast<int>(i) * 64 + std::countr_zero(word);
  }

 private:
  static std::size_t Word(int p) { return static_cast<std::size_t>(p >> 6); }
  static uint64_t Bit(int p) { return uint64_t{1} << (p & 63); }
  std::array<uint64_t, 2> w_{};
};

class Path {
 public:
  // An empty path of `positions` positions.
  explicit Path(int positions = 0);

  int positions() const { return n_; }
  int mainland() const { return n_ + 1; }
  // First and last positions holding a tile; first() > last() when no tile is left.
  int first() const { return first_; }
  int last() const { return last_; }

  int height(int p) const { return height_[Index(p)]; }
  bool has_tile(int p) const { return p >= 1 && p <= n_ && height_[Index(p)] > 0; }
  // Top tile of a non-empty position.
  uint8_t top(int p) const { return stack_[Index(p)][height_[Index(p)] - 1u]; }
  uint8_t tile(int p, int level) const { return stack_[Index(p)][Index(level)]; }
  bool is_water(int p) const { return p > first_ && p < last_ && height_[Index(p)] == 0; }
  bool bridged(int p) const { return bridged_.Has(p); }
  // Figures standing on position p (any player).
  int occupied(int p) const { return occupancy_[Index(p)]; }

  // Setup and tests: puts a tile on top of position p.
  void Push(int p, uint8_t tile);
  // Recomputes first() and last() after Push.
  void CloseEnds();
  void set_bridged(int p, bool on) {
    if (on) {
      bridged_.Set(p);
    } else {
      bridged_.Clear(p);
    }
  }
  void AddFigure(int p) { ++occupancy_[Index(p)]; }
  void RemoveFigure(int p) { --occupancy_[Index(p)]; }

  // The next position after `from` whose top tile shows `item`, skipping water;
  // the Mainland if there is none.
  int NextWithItem(int from, int item) const;
  // The tolls of the gaps between `from` and `to` (either may be Atlantis or
  // the Mainland).
  Toll TollBetween(int from, int to) const;
  // The first and last position of the gap containing water position p.
  void GapAround(int p, int& begin, int& end) const;
  // Whether the gap containing water position p is bridged.
  bool GapBridged(int p) const;
  // The tile a figure arriving at `dest` takes: the first position behind it
  // (toward Atlantis) holding a tile on which no figure stands; 0 if none.
  int TileBehind(int dest) const;
  // Removes and returns the top tile of position p; an emptied position
  // becomes water or closes an end.
  uint8_t TakeTop(int p);

 private:
  static std::size_t Index(int p) { return static_cast<std::size_t>(p); }
  static_assert(kMaxPositions + 2 <= PositionSet::kNone);

  int n_;
  int first_;
  int last_;
  std::array<std::array<uint8_t, kMaxHeight>, kMaxPositions + 2> stack_{};
  std::array<uint8_t, kMaxPositions + 2> height_{};
  std::array<uint8_t, kMaxPositions + 2> occupancy_{};
  PositionSet bridged_;
  PositionSet water_;                       // positions 1..N without a tile
  PositionSet tiles_;                       // positions with a tile
  std::array<PositionSet, kItems> tops_{};  // positions whose top tile shows the item
};

}  // namespace arbiter::engine::atlantis

#endif  // ARBITER_ENGINE_ATLANTIS_PATH_H_
