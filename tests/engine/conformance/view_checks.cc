#include "tests/engine/conformance/view_checks.h"

#include <google/protobuf/util/message_differencer.h>

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arbiter::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

// Whether `viewer` may see seat `seat`'s hand, decided here rather than by
// the engine's Viewer, so that a wrong Viewer is caught too.
bool MaySee(const engine::Viewer& viewer, engine::Seat seat) {
  return viewer.is_everyone() || (viewer.is_seat() && viewer.seat() == seat);
}

std::optional<std::string> CheckHoldings(const std::set<std::string>& hand_counters, const engine::Viewer& viewer,
                                         const v1::PlayerHoldings& full, const v1::PlayerHoldings& cut) {
  const std::string where = absl::StrCat("the view for ", viewer.ToString(), ", seat ", full.seat() + 1, ": ");
  if (cut.seat() != full.seat() || cut.player() != full.player() || cut.to_act() != full.to_act() ||
      cut.items_size() != full.items_size()) {
    return absl::StrCat(where, "the holdings differ from the everyone view:\n", cut.ShortDebugString(), "\nversus\n",
                        full.ShortDebugString());
  }
  for (int i = 0; i < full.items_size(); ++i) {
    const v1::Counter& f = full.items(i);
    const v1::Counter& c = cut.items(i);
    if (c.name() != f.name() || c.count() != f.count()) {
      return absl::StrCat(where, "counter ", f.name(), " changed: ", c.ShortDebugString());
    }
    const bool hidden = hand_counters.count(f.name()) > 0 && !MaySee(viewer, full.seat());
    if (hidden && !c.detail().empty()) {
      return absl::StrCat(where, "shows hidden \"", f.name(), "\": ", c.detail());
    }
    if (!hidden && c.detail() != f.detail()) {
      return absl::StrCat(where, "counter ", f.name(), " says \"", c.detail(), "\", not \"", f.detail(), "\"");
    }
  }
  return std::nullopt;
}

std::optional<std::string> CheckView(const std::set<std::string>& hand_counters, const engine::State& state,
                                     const v1::PositionView& full, const engine::Viewer& viewer) {
  const v1::PositionView cut = state.ViewFor(viewer);
  v1::PositionView full_board = full, cut_board = cut;
  full_board.clear_players();
  cut_board.clear_players();
  if (!MessageDifferencer::Equals(full_board, cut_board)) {
    return absl::StrCat("the view for ", viewer.ToString(), " changes the board or the piles:\n",
                        cut_board.ShortDebugString());
  }
  if (cut.players_size() != full.players_size()) {
    return absl::StrCat("the view for ", viewer.ToString(), " has ", cut.players_size(), " players");
  }
  for (int seat = 0; seat < full.players_size(); ++seat) {
    if (auto problem = CheckHoldings(hand_counters, viewer, full.players(seat), cut.players(seat))) return problem;
  }
  return std::nullopt;
}

// The hand details (from the everyone view) of every seat `viewer` may not see.
std::vector<std::pair<engine::Seat, std::string>> HiddenHands(const std::set<std::string>& hand_counters,
                                                              const v1::PositionView& full,
                                                              const engine::Viewer& viewer) {
  std::vector<std::pair<engine::Seat, std::string>> hands;
  for (const v1::PlayerHoldings& holdings : full.players()) {
    if (MaySee(viewer, holdings.seat())) continue;
    for (const v1::Counter& counter : holdings.items()) {
      if (hand_counters.count(counter.name()) > 0) hands.emplace_back(holdings.seat(), counter.detail());
    }
  }
  return hands;
}

std::optional<std::string> CheckDescription(const std::set<std::string>& hand_counters, const engine::State& state,
                                            const v1::PositionView& full, const engine::Viewer& viewer) {
  const std::string text = state.ToString();
  const std::string cut = state.DescribeFor(viewer);
  const std::vector<std::string> full_lines = absl::StrSplit(text, '\n');
  const std::vector<std::string> cut_lines = absl::StrSplit(cut, '\n');
  const std::string where = absl::StrCat("the description for ", viewer.ToString());
  if (full_lines.size() != cut_lines.size()) return absl::StrCat(where, " has other lines:\n", cut);
  const auto hands = HiddenHands(hand_counters, full, viewer);
  for (std::size_t i = 0; i < full_lines.size(); ++i) {
    bool names_hidden_seat = false;
    for (const auto& [seat, hand] : hands) {
      const std::string who = state.players().Who(seat);
      if (cut_lines[i].find(who) == std::string::npos &&
          cut_lines[i].find(state.players().SeatLabel(seat)) == std::string::npos) {
        continue;
      }
      names_hidden_seat = true;
      if (!hand.empty() && full_lines[i].find(hand) != std::string::npos &&
          cut_lines[i].find(hand) != std::string::npos) {
        return absl::StrCat(where, " tells ", who, "'s hand (", hand, "): ", cut_lines[i]);
      }
    }
    if (cut_lines[i] != full_lines[i] && !names_hidden_seat) {
      return absl::StrCat(where, " changes a public line: \"", cut_lines[i], "\", not \"", full_lines[i], "\"");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::set<std::string>> HandCountersOf(const std::string& game) {
  if (game == "atlantis") return std::set<std::string>{"cards"};
  if (game == "atlantica") return std::set<std::string>{"divers in hand"};
  if (game == "atlantis-rising") return std::set<std::string>{"cards"};
  return std::nullopt;
}

std::optional<std::string> CheckViews(const std::string& game, const engine::State& state) {
  const std::optional<std::set<std::string>> hand_counters = HandCountersOf(game);
  if (!hand_counters.has_value()) return absl::StrCat("no hand counters are listed for ", game, " (view_checks.cc)");
  const v1::PositionView full = state.View();
  const std::string text = state.ToString();
  std::vector<engine::Viewer> viewers = {engine::Viewer::Everyone(), engine::Viewer::Spectator()};
  for (engine::Seat seat = 0; seat < state.num_players(); ++seat) viewers.push_back(engine::Viewer::ForSeat(seat));
  for (const engine::Viewer& viewer : viewers) {
    if (viewer.is_everyone() || state.IsTerminal()) {
      if (!MessageDifferencer::Equals(state.ViewFor(viewer), full)) {
        return absl::StrCat("the view for ", viewer.ToString(), " is not View()",
                            state.IsTerminal() ? " in a finished game" : "");
      }
      if (state.DescribeFor(viewer) != text) {
        return absl::StrCat("the description for ", viewer.ToString(), " is not ToString()",
                            state.IsTerminal() ? " in a finished game" : "");
      }
      continue;
    }
    if (auto problem = CheckView(*hand_counters, state, full, viewer)) return problem;
    if (auto problem = CheckDescription(*hand_counters, state, full, viewer)) return problem;
  }
  return std::nullopt;
}

}  // namespace arbiter::testing
