// Atlantis: whether a Buy, Bridge, Move or Pass is legal for the player to
// act, and if not, the rule it breaks (rule_ids.h); AtlantisState::Check.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/atlantis/actions.h"
#include "engine/atlantis/rule_ids.h"
#include "engine/atlantis/state.h"
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

// Cards the player to act may pay a toll with, `used` being played to move.
int FreeTollCards(const Board& b, const ItemCounts& used) {
  int n = 0;
  for (int item = 0; item < kItems; ++item) n += b.TollCards(item, used[U(item)]);
  return n;
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

}  // namespace

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

Path PathAfter(const Board& b, const Route& route) {
  Path path = b.path;
  if (route.start != 0) path.RemoveFigure(route.start);
  if (route.dest != path.mainland()) path.AddFigure(route.dest);
  if (const int behind = path.TileBehind(route.dest); behind != 0) path.TakeTop(behind);
  return path;
}

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

std::optional<Violation> AtlantisState::Check(Seat seat, const v1::Action& action) const {
  if (board_.over) return Illegal(kRuleGameOver, "the game is already over; no further action is allowed");
  if (action.game_case() != v1::Action::kAtlantis) {
    return Illegal(kRuleWrongGame, "this is a game of Atlantis; the action is for another game");
  }
  if (seat != board_.current) {
    return Illegal(kRuleNotYourTurn, absl::StrCat("it is ", players().Whose(board_.current), " turn, not ",
                                                  players().Whose(seat)));
  }
  const v1::AtlantisAction& a = action.atlantis();
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy:
      return CheckBuy(board_, a.buy());
    case v1::AtlantisAction::kBridge:
      return CheckBridge(board_, a.bridge());
    case v1::AtlantisAction::kMove: {
      Route route;
      return CheckMove(board_, a.move(), route);
    }
    case v1::AtlantisAction::kPass:
      return CheckPass(board_);
    case v1::AtlantisAction::KIND_NOT_SET:
      break;
  }
  return Illegal(kRuleEmptyAction, "the action names no Buy, Bridge, Move or Pass");
}

}  // namespace arbiter::engine::atlantis
