#include "engine/atlantis/path.h"

#include <algorithm>

namespace arbiter::engine::atlantis {

Path::Path(int positions) : n_(positions), first_(1), last_(0) {
  for (int p = 1; p <= n_; ++p) water_.Set(p);
}

void Path::Push(int p, uint8_t tile) {
  if (height_[Index(p)] > 0) tops_[Index(TileItem(top(p)))].Clear(p);
  stack_[Index(p)][height_[Index(p)]] = tile;
  ++height_[Index(p)];
  tops_[Index(TileItem(tile))].Set(p);
  tiles_.Set(p);
  water_.Clear(p);
}

void Path::CloseEnds() {
  first_ = 1;
  while (first_ <= n_ && height_[Index(first_)] == 0) ++first_;
  last_ = n_;
  while (last_ >= first_ && height_[Index(last_)] == 0) --last_;
}

int Path::NextWithItem(int from, int item) const {
  const int p = tops_[Index(item)].NextFrom(from + 1);
  return p == PositionSet::kNone ? mainland() : p;
}

Toll Path::TollBetween(int from, int to) const {
  Toll toll;
  const int end = std::min(to, last_);
  int p = water_.NextFrom(std::max(from, first_) + 1);
  while (p < end) {
    // A gap from p to q - 1, with tiles at p - 1 and q.
    const int q = tiles_.NextFrom(p);
    if (bridged_.NextFrom(p) >= q) {
      const int cost = std::min(TileValue(top(p - 1)), TileValue(top(q)));
      toll.total += cost;
      toll.largest = std::max(toll.largest, cost);
      ++toll.gaps;
    }
    p = water_.NextFrom(q + 1);
  }
  return toll;
}

void Path::GapAround(int p, int& begin, int& end) const {
  begin = p;
  while (height_[Index(begin - 1)] == 0) --begin;
  end = p;
  while (height_[Index(end + 1)] == 0) ++end;
}

bool Path::GapBridged(int p) const {
  int begin = 0;
  int end = 0;
  GapAround(p, begin, end);
  return bridged_.NextFrom(begin) <= end;
}

int Path::TileBehind(int dest) const {
  for (int p = std::min(dest - 1, last_); p >= first_; --p) {
    if (height_[Index(p)] != 0 && occupancy_[Index(p)] == 0) return p;
  }
  return 0;
}

uint8_t Path::TakeTop(int p) {
  const uint8_t tile = top(p);
  tops_[Index(TileItem(tile))].Clear(p);
  --height_[Index(p)];
  if (height_[Index(p)] > 0) tops_[Index(TileItem(top(p)))].Set(p);
  if (height_[Index(p)] == 0) {
    tiles_.Clear(p);
    water_.Set(p);
    if (p == first_) {
      while (first_ <= last_ && height_[Index(first_)] == 0) ++first_;
    }
    if (p == last_) {
      while (last_ >= first_ && height_[Index(last_)] == 0) --last_;
    }
  }
  return tile;
}

}  // namespace arbiter::engine::atlantis
