#include "engine/atlantis/scoring.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis/state.h"
#include "engine/atlantis/tile_sums.h"
#include "engine/core/standings.h"

namespace arbiter::engine::atlantis {
namespace {

std::size_t U(int i) { return static_cast<std::size_t>(i); }

void PayTiles(const Holdings& h, const ValueCounts& by_value, EndPhase& e) {
  for (int v = kMaxValue; v >= 1; --v) {
    int need = by_value[U(v)];
    for (int item = 0; item < kItems && need > 0; ++item) {
      for (int k = 0; k < h.tiles[U(item)][U(v)] && need > 0; ++k, --need) {
        e.paid_tiles.push_back(TileCode(item, v));
        e.paid += v;
      }
    }
  }
}

void Pay(const Board& b, const Holdings& h, EndPhase& e) {
  ValueCounts counts{};
  for (int item = 0; item < kItems; ++item) {
    for (int v = 1; v <= kMaxValue; ++v) counts[U(v)] += h.tiles[U(item)][U(v)];
  }
  const TileSums sums(counts);
  const int t = e.toll;
  const int c = h.card_count;
  if (b.toll_payment == TollPayment::kTilesAndCards) {
    if (h.tile_points + c < t) {
      PayTiles(h, counts, e);
      e.paid_cards = c;
    } else {
      int best_s = -1;
      for (int s = 0; s <= sums.total(); ++s) {
        if (!sums.Reachable(s) || t - s > c) continue;
        if (best_s < 0 || std::max(s, t) < std::max(best_s, t) ||
            (std::max(s, t) == std::max(best_s, t) && s > best_s)) {
          best_s = s;
        }
      }
      PayTiles(h, sums.Pick(best_s), e);
      e.paid_cards = std::max(0, t - best_s);
    }
  } else {
    int tiles_only = -1;
    for (int s = t; s <= sums.total(); ++s) {
      if (sums.Reachable(s)) {
        tiles_only = s;
        break;
      }
    }
    if (tiles_only >= 0 && (c < t || tiles_only <= t)) {
      PayTiles(h, sums.Pick(tiles_only), e);
    } else if (c >= t) {
      e.paid_cards = t;
    } else if (h.tile_points >= c) {
      PayTiles(h, counts, e);
    } else {
      e.paid_cards = c;
    }
  }
  e.paid += e.paid_cards;
  e.unpaid = std::max(0, t - e.paid);
}

}  // namespace

EndPhase ScoreEndPhase(const Board& b, int seat) {
  EndPhase e;
  const Holdings& h = b.players[U(seat)];
  e.tile_points = h.tile_points;
  e.cards = h.card_count;
  if (seat != b.finisher) {
    std::vector<std::string> parts;
    for (int f = 0; f < b.config->figures; ++f) {
      const int pos = b.figure(seat, f);
      if (pos == b.path.mainland()) continue;
      const int toll = b.path.TollBetween(pos, b.path.mainland()).total;
      e.toll += toll;
      parts.push_back(absl::StrCat("figure ", f + 1, pos == 0 ? " from Atlantis" : absl::StrCat(" from position ", pos),
                                   ": ", toll));
    }
    e.toll_detail = absl::StrJoin(parts, "; ");
  }
  if (e.toll > 0) Pay(b, h, e);
  e.score = e.tile_points + e.cards - e.paid - e.unpaid;
  return e;
}

v1::Standings FinalStandings(const Board& b) {
  v1::Standings standings;
  for (int seat = 0; seat < b.num_players; ++seat) {
    const EndPhase e = ScoreEndPhase(b, seat);
    v1::PlayerStanding& p = *standings.add_players();
    p.set_seat(seat + 1);
    p.set_score(e.score);
    AddScoreItem(p, "tiles", e.tile_points,
                 absl::StrCat(b.players[U(seat)].tile_count,
                              b.players[U(seat)].tile_count == 1 ? " tile" : " tiles", " collected"));
    AddScoreItem(p, "cards in hand", e.cards);
    if (e.toll > 0) {
      std::vector<std::string> with;
      for (uint8_t t : e.paid_tiles) with.push_back(TileName(t));
      if (e.paid_cards > 0) with.push_back(absl::StrCat(e.paid_cards, e.paid_cards == 1 ? " card" : " cards"));
      AddScoreItem(p, "end-phase tolls paid", -e.paid,
                   absl::StrCat("tolls ", e.toll, " (", e.toll_detail, "); paid with ",
                                with.empty() ? std::string("nothing") : absl::StrJoin(with, ", ")));
    }
    if (e.unpaid > 0) AddScoreItem(p, "unpaid toll", -e.unpaid, "subtracted as minus points");
  }
  AssignPlaces(standings);
  return standings;
}

std::optional<v1::Standings> AtlantisState::Final() const {
  if (!board_.over) return std::nullopt;
  return FinalStandings(board_);
}

}  // namespace arbiter::engine::atlantis
