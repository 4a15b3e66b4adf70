#include "engine/atlantis/actions.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/atlantis/rule_ids.h"
#include "engine/atlantis/tile_sums.h"

namespace arbiter::engine::atlantis {
namespace {

using ItemCounts = std::array<uint8_t, kItems>;
using ValueCounts = std::array<int, kMaxValue + 1>;

std::size_t U(int i) { return static_cast<std::size_t>(i); }

std::string PositionName(const Path& path, int p) {
  if (p <= 0) return "Atlantis";
  if (p >= path.mainland()) return "the Mainland";
  return absl::StrCat("position ", p, " (", TileName(path.top(p)), ")");
}

bool Payable(const Board& b, int toll, int cards) {
  if (toll <= 0) return true;
  const int tiles = b.me().tile_points;
  if (b.toll_payment == TollPayment::kTilesAndCards) return tiles + cards >= toll;
  return tiles >= toll || cards >= toll;
}

// Cards the player to act may pay a toll with, `used` being played to move.
int FreeTollCards(const Board& b, const ItemCounts& used) {
  int n = 0;
  for (int item = 0; item < kItems; ++item) n += b.TollCards(item, used[U(item)]);
  return n;
}

// Whether the player to act can pay exactly `toll` (toll > 0) with what may pay.
bool ExactPayable(const Board& b, int toll, int cards) {
  if (cards >= toll) return true;
  ValueCounts counts{};
  for (int item = 0; item < kItems; ++item) {
    for (int v = 1; v <= kMaxValue; ++v) counts[U(v)] += b.me().tiles[U(item)][U(v)];
  }
  const TileSums sums(counts);
  if (b.toll_payment == TollPayment::kTilesOrCards) return sums.Reachable(toll);
  for (int k = 0; k <= cards; ++k) {
    if (sums.Reachable(toll - k)) return true;
  }
  return false;
}

// The path as it is after `route`'s figure has moved and taken its tile.
Path PathAfter(const Board& b, const Route& route) {
  Path path = b.path;
  if (route.start != 0) path.RemoveFigure(route.start);
  if (route.dest != path.mainland()) path.AddFigure(route.dest);
  if (const int behind = path.TileBehind(route.dest); behind != 0) path.TakeTop(behind);
  return path;
}

std::optional<Violation> CheckBridgeOn(const Board& b, const Path& path, int p, const char* when) {
  if (b.bridges_left[U(b.current)] == 0) {
    return Illegal(kRuleNoBridgeLeft, "the player has already laid their bridge");
  }
  if (p < 1 || p > path.positions() || !path.is_water(p)) {
    return Illegal(kRuleBridgeNotOnWater, absl::StrCat("position ", p, " is not water", when,
                                                       "; a bridge is laid over a gap in the path"));
  }
  if (path.GapBridged(p)) {
    return Illegal(kRuleGapAlreadyBridged, absl::StrCat("the gap at position ", p, " already has a bridge"));
  }
  return std::nullopt;
}

std::optional<Violation> CheckPayment(const Board& b, const v1::AtlantisPayment& pay, int toll,
                                      const ItemCounts& used) {
  const Holdings& h = b.me();
  std::array<std::array<uint8_t, kMaxValue + 1>, kItems> tiles{};
  int sum = 0;
  int smallest = kMaxValue + 1;
  for (const v1::AtlantisTile& t : pay.tiles()) {
    const int item = ItemIndex(t.item());
    if (item < 0 || t.value() < 1 || t.value() > kMaxValue) {
      return Illegal(kRuleTollTileNotHeld, absl::StrCat("the toll names a tile (item ", t.item(), ", value ",
                                                         t.value(), ") that does not exist"));
    }
    const uint8_t code = TileCode(item, t.value());
    uint8_t& n = tiles[U(item)][U(t.value())];
    if (++n > h.TileCount(code)) {
      return Illegal(kRuleTollTileNotHeld, absl::StrCat("the toll uses ", static_cast<int>(n), " ",
                                                         TileName(code), " tile(s); the player holds ",
                                                         h.TileCount(code)));
    }
    sum += t.value();
    smallest = std::min(smallest, t.value());
  }
  ItemCounts cards{};
  for (int raw : pay.cards()) {
    const int item = ItemIndex(raw);
    if (item < 0) return Illegal(kRuleUnknownItem, absl::StrCat("toll card item ", raw, " is not an item"));
    const int free = b.TollCards(item, used[U(item)]);
    if (++cards[U(item)] > free) {
      return Illegal(kRuleTollCardNotHeld,
                     absl::StrCat("the toll uses ", static_cast<int>(cards[U(item)]), " ", ItemName(item),
                                  " card(s); the hand holds ", free, " besides the movement cards",
                                  b.bought_cards_pay_tolls ? "" : " and the cards bought this turn",
                                  " (cards played to move cannot pay",
                                  b.bought_cards_pay_tolls ? "" : ", nor cards bought this turn", ")"));
    }
    sum += 1;
    smallest = 1;
  }
  if (b.toll_payment == TollPayment::kTilesOrCards && pay.tiles_size() > 0 && pay.cards_size() > 0) {
    return Illegal(kRuleTollMixedPayment, "this game pays a toll with tiles or with cards, not both");
  }
  if (sum < toll) {
    return Illegal(kRuleTollNotCovered,
                   absl::StrCat("the gaps crossed cost ", toll, "; the payment is worth ", sum));
  }
  if (sum > 0 && sum - smallest >= toll) {
    return Illegal(kRuleTollOverpaid,
                   toll == 0 ? std::string("no toll is due on this move; pay nothing")
                             : absl::StrCat("the gaps crossed cost ", toll, "; the payment is worth ", sum,
                                            " and would still cover it without its smallest part (",
                                            smallest, ")"));
  }
  if (b.exact_toll_if_possible && sum > toll && ExactPayable(b, toll, FreeTollCards(b, used))) {
    return Illegal(kRuleTollNotExact,
                   absl::StrCat("the gaps crossed cost ", toll, " and the player can pay exactly ", toll,
                                "; the payment is worth ", sum,
                                " (this game pays more only when the exact amount cannot be paid)"));
  }
  return std::nullopt;
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

std::optional<Violation> CheckBuy(const Board& b, const v1::AtlantisAction::Buy& buy) {
  if (b.turn_started) {
    return Illegal(kRuleBuyNotFirst, "cards may be bought only as the first action of a turn, once");
  }
  const int item = ItemIndex(buy.tile().item());
  const int value = buy.tile().value();
  if (item < 0 || value < 1 || value > kMaxValue || b.me().TileCount(TileCode(item, value)) == 0) {
    return Illegal(kRuleBuyTileNotHeld, absl::StrCat("the player holds no ", ItemName(item), " ", value,
                                                     " tile to give up"));
  }
  return std::nullopt;
}

std::optional<Violation> CheckBridge(const Board& b, const v1::AtlantisAction::Bridge& bridge) {
  return CheckBridgeOn(b, b.path, bridge.position(), "");
}

std::optional<Violation> CheckMove(const Board& b, const v1::AtlantisAction::Move& move, Route& route) {
  const int f = move.figure() - 1;
  if (f < 0 || f >= b.config->figures) {
    return Illegal(kRuleUnknownFigure, absl::StrCat("figure ", move.figure(), " does not exist; figures are 1-",
                                                    b.config->figures));
  }
  const Path& path = b.path;
  const int start = b.figure(b.current, f);
  if (start == path.mainland()) {
    return Illegal(kRuleFigureOnMainland, absl::StrCat("figure ", f + 1, " is already on the Mainland"));
  }
  if (move.cards_size() == 0) return Illegal(kRuleNoCardPlayed, "a move plays at least one card");
  const Holdings& h = b.me();
  ItemCounts used{};
  int pos = start;
  const int n = move.cards_size();
  for (int i = 0; i < n; ++i) {
    const int item = ItemIndex(move.cards(i));
    if (item < 0) return Illegal(kRuleUnknownItem, absl::StrCat("card ", i + 1, " is not an item"));
    if (++used[U(item)] > h.cards[U(item)]) {
      return Illegal(kRuleCardNotInHand, absl::StrCat("the move plays ", static_cast<int>(used[U(item)]), " ",
                                                      ItemName(item), " card(s); the hand holds ",
                                                      static_cast<int>(h.cards[U(item)])));
    }
    const int dest = path.NextWithItem(pos, item);
    const bool occupied = dest != path.mainland() && path.occupied(dest) > 0;
    if (i + 1 < n && !occupied) {
      return Illegal(kRuleExtraCard, absl::StrCat("card ", i + 1, " (", ItemName(item), ") brings the figure to ",
                                                  PositionName(path, dest),
                                                  ", where no figure stands; a further card may be played "
                                                  "only from an occupied tile"));
    }
    if (i + 1 == n && occupied) {
      return Illegal(kRuleMustKeepMoving, absl::StrCat("card ", i + 1, " (", ItemName(item), ") brings the figure to ",
                                                       PositionName(path, dest),
                                                       ", where a figure stands; another card must be played"));
    }
    pos = dest;
  }
  route.figure = f;
  route.start = start;
  route.dest = pos;
  route.toll = path.TollBetween(start, pos);
  if (auto v = CheckPayment(b, move.toll(), route.toll.total, used)) return v;
  if (move.bridge() != 0) return CheckBridgeOn(b, PathAfter(b, route), move.bridge(), " after the move");
  return std::nullopt;
}

std::optional<Violation> CheckPass(const Board& b) {
  const bool bridge = b.bridges_left[U(b.current)] > 0;
  if (AnyMove(b, bridge)) {
    return Illegal(kRulePassNotAllowed, bridge ? "a figure can still move (laying the bridge if needed); "
                                                 "a player may pass only when no move is possible"
                                               : "a figure can still move; a player may pass only when no "
                                                 "move is possible");
  }
  return std::nullopt;
}

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

}  // namespace arbiter::engine::atlantis
