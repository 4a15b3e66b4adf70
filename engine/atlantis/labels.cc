// AtlantisState::Label and Group: the actions of a turn in words
// (docs/atlantis.md, "Actions in words"). Every part of an action is shown
// to the table when it is played (the cards of a Move are laid face up, a
// Pass shows the hand), so a label tells the whole action; a Pass's label does
// not list the hand, which the action does not carry.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/atlantis/actions.h"
#include "engine/atlantis/state.h"

namespace arbiter::engine::atlantis {
namespace {

std::string Items(const google::protobuf::RepeatedField<int>& items) {
  std::vector<std::string> names;
  for (int item : items) names.push_back(ItemName(ItemIndex(item)));
  return absl::StrJoin(names, ", ");
}

std::string TileText(const v1::AtlantisTile& tile) {
  return absl::StrCat(ItemName(ItemIndex(tile.item())), " ", tile.value());
}

std::string PaymentText(const v1::AtlantisPayment& pay) {
  std::vector<std::string> parts;
  for (const v1::AtlantisTile& tile : pay.tiles()) parts.push_back(absl::StrCat("the ", TileText(tile), " tile"));
  if (pay.cards_size() > 0) {
    parts.push_back(absl::StrCat(pay.cards_size(), pay.cards_size() == 1 ? " card (" : " cards (", Items(pay.cards()),
                                 ")"));
  }
  return absl::StrJoin(parts, " and ");
}

std::string PositionText(const Board& b, int pos) {
  if (pos == 0) return "Atlantis";
  if (pos == b.path.mainland()) return "the Mainland";
  return absl::StrCat(pos);
}

std::string MoveText(const Board& b, Seat seat, const v1::AtlantisAction::Move& move) {
  std::string text = absl::StrCat("moves figure ", move.figure());
  Route route;
  if (seat == b.current && !b.over && !CheckMove(b, move, route).has_value()) {
    absl::StrAppend(&text, " from ", PositionText(b, route.start), " to ", PositionText(b, route.dest));
  }
  absl::StrAppend(&text, " with ", move.cards().empty() ? "no card" : Items(move.cards()));
  if (move.toll().tiles_size() + move.toll().cards_size() > 0) {
    absl::StrAppend(&text, ", paying ", PaymentText(move.toll()));
  }
  if (move.bridge() > 0) absl::StrAppend(&text, ", then lays the bridge at ", move.bridge());
  return text;
}

}  // namespace

std::string AtlantisState::Label(Seat seat, const v1::Action& action) const {
  const std::string who = players().Who(seat);
  const v1::AtlantisAction& a = action.atlantis();
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy:
      return absl::StrCat(who, " buys cards with the ", TileText(a.buy().tile()), " tile");
    case v1::AtlantisAction::kBridge:
      return absl::StrCat(who, " lays the bridge at ", a.bridge().position());
    case v1::AtlantisAction::kMove:
      return absl::StrCat(who, " ", MoveText(board_, seat, a.move()));
    case v1::AtlantisAction::kPass:
      return absl::StrCat(who, " cannot move, shows the hand and draws");
    case v1::AtlantisAction::KIND_NOT_SET:
      break;
  }
  return absl::StrCat(who, " does nothing Atlantis knows");
}

std::string AtlantisState::Group(Seat /*seat*/, const v1::Action& action) const {
  const v1::AtlantisAction& a = action.atlantis();
  switch (a.kind_case()) {
    case v1::AtlantisAction::kBuy:
      return "buy";
    case v1::AtlantisAction::kBridge:
      return "bridge";
    case v1::AtlantisAction::kMove:
      return absl::StrCat("move figure ", a.move().figure());
    case v1::AtlantisAction::kPass:
      return "pass";
    case v1::AtlantisAction::KIND_NOT_SET:
      break;
  }
  return "other";
}

}  // namespace arbiter::engine::atlantis
