#include "engine/core/state.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::engine {

v1::Action State::Canonical(Seat /*seat*/, const v1::Action& action) const {
  v1::Action canonical = action;
  canonical.clear_player();
  return canonical;
}

std::vector<LabelledMove> State::LegalActionsFor(Seat seat) const {
  std::vector<std::string> group_order;
  std::vector<std::vector<LabelledMove>> groups;
  for (Move& move : LegalActions()) {
    if (move.seat != seat) continue;
    LabelledMove labelled;
    labelled.group = Group(seat, move.action);
    labelled.label = Label(seat, move.action);
    labelled.action = std::move(move.action);
    std::size_t g = 0;
    while (g < group_order.size() && group_order[g] != labelled.group) ++g;
    if (g == group_order.size()) {
      group_order.push_back(labelled.group);
      groups.emplace_back();
    }
    groups[g].push_back(std::move(labelled));
  }
  std::vector<LabelledMove> listed;
  for (std::vector<LabelledMove>& group : groups) {
    for (LabelledMove& move : group) listed.push_back(std::move(move));
  }
  return listed;
}

v1::PositionView State::View() const {
  v1::PositionView view;
  view.set_headline(IsTerminal() ? "Game over" : "In play");
  return view;
}

v1::PositionView State::ViewFor(const Viewer& viewer) const {
  if (viewer.is_everyone() || IsTerminal()) return View();
  return ViewCut(viewer);
}

std::string State::DescribeFor(const Viewer& viewer) const {
  if (viewer.is_everyone() || IsTerminal()) return ToString();
  return DescriptionCut(viewer);
}

v1::PositionView State::ViewCut(const Viewer& /*viewer*/) const { return View(); }

std::string State::DescriptionCut(const Viewer& /*viewer*/) const { return ToString(); }

std::optional<Violation> State::Apply(Seat seat, const v1::Action& action) {
  if (IsTerminal()) {
    return Illegal(kRuleGameOver, "the game is already over; no further action is allowed");
  }
  if (seat < 0 || seat >= num_players_) {
    return Illegal(kRuleNotYourTurn, absl::StrCat(players().Who(seat), " is not in this game"));
  }
  if (std::optional<Violation> violation = Check(seat, action)) return violation;
  DoApply(seat, action);
  ++num_actions_;
  return std::nullopt;
}

}  // namespace arbiter::engine
