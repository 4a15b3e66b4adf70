#include "tests/engine/conformance/labelled_move_checks.h"

#include <algorithm>
#include <memory>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/engine/conformance/action_mutator.h"
#include "tests/engine/conformance/position_checks.h"

namespace arbiter::testing {
namespace {

std::string Bytes(const v1::Action& action) {
  v1::Action copy = action;
  copy.clear_player();
  std::string serialized;
  copy.SerializePartialToString(&serialized);
  return serialized;
}

std::string Text(const engine::LabelledMove& move) {
  return absl::StrCat("[", move.group, "] ", move.label, " (", move.action.ShortDebugString(), ")");
}

std::optional<std::string> CheckEntries(const engine::State& state, const engine::State& clone, engine::Seat seat,
                                        const std::vector<engine::LabelledMove>& listed) {
  std::set<std::string> groups_seen;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const engine::LabelledMove& move = listed[i];
    if (auto v = state.Check(seat, move.action)) {
      return absl::StrCat("Check refuses an action LegalActionsFor(", seat, ") lists (", v->rule, "): ", Text(move));
    }
    if (move.label.empty() || move.group.empty()) return absl::StrCat("an empty label or group: ", Text(move));
    if (move.label != state.Label(seat, move.action) || move.label != clone.Label(seat, move.action)) {
      return absl::StrCat("the label of ", Text(move), " is not Label() of the action, or differs in a clone");
    }
    if (move.group != state.Group(seat, move.action) || move.group != clone.Group(seat, move.action)) {
      return absl::StrCat("the group of ", Text(move), " is not Group() of the action, or differs in a clone");
    }
    if ((i == 0 || listed[i - 1].group != move.group) && !groups_seen.insert(move.group).second) {
      return absl::StrCat("group \"", move.group, "\" of seat ", seat, " is split: ", Text(move));
    }
  }
  return std::nullopt;
}

// Whether `action`, if Check() accepts it for `seat`, is listed up to spelling.
std::optional<std::string> CheckAccepted(const engine::Game& game, const v1::Ruleset& ruleset,
                                         const engine::State& state, engine::Seat seat,
                                         const std::set<std::string>& listed, const v1::Action& action,
                                         const char* found_by) {
  if (state.Check(seat, action).has_value() || !game.CheckShape(action, ruleset).ok()) return std::nullopt;
  const v1::Action canonical = state.Canonical(seat, action);
  if (listed.count(Bytes(canonical)) > 0) return std::nullopt;
  return absl::StrCat("Check accepts for seat ", seat, " an action (", found_by,
                      ") that LegalActionsFor does not list: ", action.ShortDebugString(),
                      "\n(canonical: ", canonical.ShortDebugString(), ")");
}

}  // namespace

std::optional<std::string> CheckLabelledMoves(const engine::Game& game, const v1::Ruleset& ruleset,
                                              const engine::State& state, engine::Rng& mutation_rng) {
  const std::unique_ptr<engine::State> clone = state.Clone();
  const std::vector<engine::Seat> to_act = state.SeatsToAct();
  std::vector<std::vector<engine::LabelledMove>> by_seat;
  for (engine::Seat seat = 0; seat < state.num_players(); ++seat) by_seat.push_back(state.LegalActionsFor(seat));
  for (engine::Seat seat = 0; seat < state.num_players(); ++seat) {
    const std::vector<engine::LabelledMove>& listed = by_seat[static_cast<std::size_t>(seat)];
    const bool acts = std::find(to_act.begin(), to_act.end(), seat) != to_act.end();
    if (!acts && !listed.empty()) {
      return absl::StrCat("LegalActionsFor(", seat, ") lists ", Text(listed[0]), " for a seat not to act");
    }
    if (auto problem = CheckEntries(state, *clone, seat, listed)) return problem;
    const std::vector<engine::LabelledMove> again = state.LegalActionsFor(seat);
    bool same = again.size() == listed.size();
    for (std::size_t i = 0; same && i < listed.size(); ++i) {
      same = Bytes(again[i].action) == Bytes(listed[i].action) && again[i].label == listed[i].label;
    }
    if (!same) return absl::StrCat("LegalActionsFor(", seat, ") gives another list when asked again");

    std::set<std::string> keys;
    std::vector<v1::Action> actions;
    for (const engine::LabelledMove& move : listed) {
      keys.insert(Bytes(move.action));
      actions.push_back(move.action);
    }
    for (engine::Seat other = 0; other < state.num_players(); ++other) {
      if (other == seat) continue;
      for (const engine::LabelledMove& move : by_seat[static_cast<std::size_t>(other)]) {
        if (auto p = CheckAccepted(game, ruleset, state, seat, keys, move.action, "listed for another seat")) return p;
      }
    }
    if (actions.empty()) continue;
    const std::vector<std::string> strings = StringValuesOf(actions);
    for (int m = 0; m < kMutationsPerPosition; ++m) {
      const v1::Action mutated = MutateAction(actions[mutation_rng.Uniform(actions.size())], mutation_rng, strings);
      if (auto p = CheckAccepted(game, ruleset, state, seat, keys, mutated, "a mutation")) return p;
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::testing
