#include "engine/core/standings.h"

#include <algorithm>

namespace arbiter::engine {
namespace {

// Negative if a ranks before b, zero if tied, positive otherwise.
int CompareRank(const v1::PlayerStanding& a, const v1::PlayerStanding& b) {
  if (a.score() != b.score()) return a.score() > b.score() ? -1 : 1;
  const int n = std::max(a.tie_break_size(), b.tie_break_size());
  for (int i = 0; i < n; ++i) {
    const bool has_a = i < a.tie_break_size();
    const bool has_b = i < b.tie_break_size();
    if (has_a != has_b) return has_a ? -1 : 1;
    if (a.tie_break(i) != b.tie_break(i)) return a.tie_break(i) > b.tie_break(i) ? -1 : 1;
  }
  return 0;
}

}  // namespace

void AssignPlaces(v1::Standings& standings) {
  auto& players = *standings.mutable_players();
  for (auto& player : players) {
    int better = 0;
    for (const auto& other : players) {
      if (CompareRank(other, player) < 0) ++better;
    }
    player.set_place(better + 1);
  }
}

void AddScoreItem(v1::PlayerStanding& player, std::string label, int64_t points, std::string detail) {
  v1::ScoreItem* item = player.add_breakdown();
  item->set_label(std::move(label));
  item->set_points(points);
  if (!detail.empty()) item->set_detail(std::move(detail));
}

}  // namespace arbiter::engine
