// Atlantis: the list of legal actions and the listed spelling of an action
// (actions.h describes both); AtlantisState::LegalActions and Canonical.
#include <algorithm>

#include "engine/atlantis/actions.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis {
namespace {

using ItemCounts = std::array<uint8_t, kItems>;

std::size_t U(int i) { return static_cast<std::size_t>(i); }

bool Payable(const Board& b, int toll, int cards) {
  if (toll <= 0) return true;
  const int tiles = b.me().tile_points;
  if (b.toll_payment == TollPayment::kTilesAndCards) return tiles + cards >= toll;
  return tiles >= toll || cards >= toll;
}

// Lowest-numbered figure of `seat` on the same position as figure f.
int CanonicalFigure(const Board& b, int seat, int f) {
  for (int g = 0; g < f; ++g) {
    if (b.figure(seat, g) == b.figure(seat, f)) return g;
  }
  return f;
}

// Fills `pay` with the listed spelling of (tile values `by_value`, `cards` cards).
void FillPayment(const Board& b, const std::array<int, kMaxValue + 1>& by_value, int cards,
                 const ItemCounts& used, v1::AtlantisPayment& pay) {
  const Holdings& h = b.me();
  for (int v = kMaxValue; v >= 1; --v) {
    int need = by_value[U(v)];
    for (int item = 0; item < kItems && need > 0; ++item) {
      const int take = std::min(need, static_cast<int>(h.tiles[U(item)][U(v)]));
      for (int i = 0; i < take; ++i) {
        v1::AtlantisTile* t = pay.add_tiles();
        t->set_item(ProtoItem(item));
        t->set_value(v);
      }
      need -= take;
    }
  }
  for (int item = 0; item < kItems && cards > 0; ++item) {
    const int take = std::min(cards, b.TollCards(item, used[U(item)]));
    for (int i = 0; i < take; ++i) pay.add_cards(ProtoItem(item));
    cards -= take;
  }
}

// Depth-first search over card sequences of the player to act.
class MoveSearch {
 public:
  MoveSearch(const Board& b, std::vector<Move>* out, bool with_bridge)
      : b_(b), out_(out), with_bridge_(with_bridge) {
    const Holdings& h = b.me();
    for (int item = 0; item < kItems; ++item) left_[U(item)] = h.cards[U(item)];
    for (int v = 1; v <= kMaxValue; ++v) {
      for (int item = 0; item < kItems; ++item) tile_values_[U(v)] += h.tiles[U(item)][U(v)];
    }
  }

  // Returns true as soon as a Move is found when not listing.
  bool Run() {
    const int mainland = b_.path.mainland();
    for (int f = 0; f < b_.config->figures; ++f) {
      if (b_.figure(b_.current, f) == mainland || CanonicalFigure(b_, b_.current, f) != f) continue;
      figure_ = f;
      start_ = b_.figure(b_.current, f);
      Dfs(start_);
      if (found_ && out_ == nullptr) return true;
    }
    return found_;
  }

 private:
  void Dfs(int pos) {
    const int mainland = b_.path.mainland();
    for (int item = 0; item < kItems; ++item) {
      if (left_[U(item)] == 0) continue;
      const int dest = b_.path.NextWithItem(pos, item);
      --left_[U(item)];
      seq_[U(len_++)] = static_cast<uint8_t>(item);
      if (dest != mainland && b_.path.occupied(dest) > 0) {
        if (len_ < static_cast<int>(seq_.size())) Dfs(dest);
      } else {
        Arrive(dest);
      }
      --len_;
      ++left_[U(item)];
      if (found_ && out_ == nullptr) return;
    }
  }

  void Arrive(int dest) {
    const Toll toll = b_.path.TollBetween(start_, dest);
    int cards = b_.me().card_count - len_;
    if (!b_.bought_cards_pay_tolls) {
      cards = 0;
      for (int item = 0; item < kItems; ++item) {
        cards += std::min<int>(left_[U(item)], b_.me().cards[U(item)] - b_.bought_cards[U(item)]);
      }
    }
    if (out_ == nullptr) {
      found_ = Payable(b_, toll.total, cards) ||
               (with_bridge_ && Payable(b_, toll.total - toll.largest, cards));
      return;
    }
    if (!Payable(b_, toll.total, cards)) return;
    found_ = true;
    toll_ = toll.total;
    after_gaps_.clear();
    if (b_.bridges_left[U(b_.current)] > 0) {
      Route route;
      route.start = start_;
      route.dest = dest;
      const Path after = PathAfter(b_, route);
      for (int p = after.first() + 1; p < after.last(); ++p) {
        if (after.is_water(p) && !after.is_water(p - 1) && !after.GapBridged(p)) after_gaps_.push_back(p);
      }
    }
    if (toll_ == 0) {
      Emit(0);
      return;
    }
    const bool mix = b_.toll_payment == TollPayment::kTilesAndCards;
    by_value_.fill(0);
    if (cards >= toll_) Emit(toll_);
    if (mix) {
      for (int k = 1; k < toll_ && k <= cards; ++k) {
        target_ = toll_ - k;
        exact_ = true;
        cards_paid_ = k;
        TileDfs(kMaxValue, 0);
      }
    }
    target_ = toll_;
    exact_ = b_.exact_toll_if_possible && ExactPayable(b_, toll_, cards);
    cards_paid_ = 0;
    TileDfs(kMaxValue, 0);
  }

  // Tile multisets, values descending, stopping as soon as the target is met
  // (so that no tile could be left out).
  void TileDfs(int v, int sum) {
    if (v == 0) return;
    for (int c = 0; c <= tile_values_[U(v)]; ++c) {
      const int s = sum + c * v;
      by_value_[U(v)] = c;
      if (s >= target_) {
        if (!exact_ || s == target_) Emit(cards_paid_);
        break;
      }
      TileDfs(v - 1, s);
    }
    by_value_[U(v)] = 0;
  }

  void Emit(int cards) {
    Move& m = out_->emplace_back();
    m.seat = b_.current;
    v1::AtlantisAction::Move* move = m.action.mutable_atlantis()->mutable_move();
    move->set_figure(figure_ + 1);
    ItemCounts used{};
    for (int i = 0; i < len_; ++i) {
      move->add_cards(ProtoItem(seq_[U(i)]));
      ++used[seq_[U(i)]];
    }
    if (toll_ > 0) FillPayment(b_, by_value_, cards, used, *move->mutable_toll());
    for (int p : after_gaps_) {
      Move bridged = out_->back();
      bridged.action.mutable_atlantis()->mutable_move()->set_bridge(p);
      out_->push_back(std::move(bridged));
    }
  }

  const Board& b_;
  std::vector<Move>* out_;
  bool with_bridge_;
  bool found_ = false;
  int figure_ = 0;
  int start_ = 0;
  ItemCounts left_{};
  std::array<uint8_t, 24> seq_{};
  int len_ = 0;
  std::array<int, kMaxValue + 1> tile_values_{};
  std::array<int, kMaxValue + 1> by_value_{};
  int toll_ = 0;
  int target_ = 0;
  bool exact_ = false;
  int cards_paid_ = 0;
  std::vector<int> after_gaps_;  // where the bridge may go after the move (first position of each gap)
};

}  // namespace

bool AnyMove(const Board& b, bool with_bridge) { return MoveSearch(b, nullptr, with_bridge).Run(); }

std::vector<Move> ListActions(const Board& b) {
  std::vector<Move> out;
  if (b.over) return out;
  const Holdings& h = b.me();
  if (!b.turn_started) {
    for (int item = 0; item < kItems; ++item) {
      for (int v = 1; v <= kMaxValue; ++v) {
        if (h.tiles[U(item)][U(v)] == 0) continue;
        Move& m = out.emplace_back();
        m.seat = b.current;
        v1::AtlantisTile* t = m.action.mutable_atlantis()->mutable_buy()->mutable_tile();
        t->set_item(ProtoItem(item));
        t->set_value(v);
      }
    }
  }
  if (b.bridges_left[U(b.current)] > 0) {
    for (int p = b.path.first() + 1; p < b.path.last(); ++p) {
      if (!b.path.is_water(p) || b.path.is_water(p - 1) || b.path.GapBridged(p)) continue;
      Move& m = out.emplace_back();
      m.seat = b.current;
      m.action.mutable_atlantis()->mutable_bridge()->set_position(p);
    }
  }
  const std::size_t before = out.size();
  MoveSearch(b, &out, false).Run();
  if (out.size() == before && !CheckPass(b).has_value()) {
    Move& m = out.emplace_back();
    m.seat = b.current;
    m.action.mutable_atlantis()->mutable_pass();
  }
  return out;
}

v1::Action CanonicalAction(const Board& b, const v1::Action& action) {
  v1::Action canonical = action;
  canonical.clear_player();
  if (!canonical.has_atlantis()) return canonical;
  v1::AtlantisAction& a = *canonical.mutable_atlantis();
  if (a.has_bridge()) {
    const int p = a.bridge().position();
    if (p >= 1 && p <= b.path.positions() && b.path.is_water(p)) {
      int begin = 0;
      int end = 0;
      b.path.GapAround(p, begin, end);
      a.mutable_bridge()->set_position(begin);
    }
    return canonical;
  }
  if (!a.has_move()) return canonical;
  Route route;
  if (CheckMove(b, a.move(), route).has_value()) return canonical;
  v1::AtlantisAction::Move& move = *a.mutable_move();
  move.set_figure(CanonicalFigure(b, b.current, route.figure) + 1);
  std::array<int, kMaxValue + 1> values{};
  for (const v1::AtlantisTile& t : move.toll().tiles()) ++values[U(t.value())];
  const int cards = move.toll().cards_size();
  ItemCounts used{};
  for (int c : move.cards()) ++used[U(ItemIndex(c))];
  move.clear_toll();
  if (route.toll.total > 0) FillPayment(b, values, cards, used, *move.mutable_toll());
  if (move.bridge() != 0) {
    const Path after = PathAfter(b, route);
    int begin = 0;
    int end = 0;
    after.GapAround(move.bridge(), begin, end);
    move.set_bridge(begin);
  }
  return canonical;
}

std::vector<Move> AtlantisState::LegalActions() const { return ListActions(board_); }

v1::Action AtlantisState::Canonical(Seat /*seat*/, const v1::Action& action) const {
  return CanonicalAction(board_, action);
}

}  // namespace arbiter::engine::atlantis
