#include "tests/engine/conformance/position_checks.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/engine/conformance/action_mutator.h"

namespace arbiter::testing {
namespace {

// Listed and canonical actions carry no player id, so the seat and the
// action's bytes identify them.
std::string Key(engine::Seat seat, const v1::Action& action) {
  std::string bytes = absl::StrCat(seat, ":");
  v1::Action copy = action;
  copy.clear_player();
  std::string serialized;
  copy.SerializePartialToString(&serialized);
  return bytes + serialized;
}

bool IsIn(const std::vector<engine::Seat>& seats, engine::Seat seat) {
  return std::find(seats.begin(), seats.end(), seat) != seats.end();
}

}  // namespace

MutationCounts& MutationCounts::operator+=(const MutationCounts& other) {
  tried += other.tried;
  unchanged += other.unchanged;
  refused_by_check += other.refused_by_check;
  refused_by_shape += other.refused_by_shape;
  accepted += other.accepted;
  accepted_other += other.accepted_other;
  return *this;
}

std::optional<std::string> CheckPosition(const engine::Game& game, const v1::Ruleset& ruleset,
                                         const engine::State& state, engine::Rng& mutation_rng,
                                         MutationCounts& counts) {
  const std::vector<engine::Move> legal = state.LegalActions();
  if (legal.empty()) return absl::StrCat("no legal action in a non-final position:\n", state.ToString());
  const std::vector<engine::Seat> seats = state.SeatsToAct();

  std::set<std::string> listed;
  std::vector<v1::Action> actions;
  std::set<std::string> distinct_actions;  // without the seat
  for (const engine::Move& move : legal) {
    listed.insert(Key(move.seat, move.action));
    if (distinct_actions.insert(Key(-1, move.action)).second) actions.push_back(move.action);
    if (!IsIn(seats, move.seat)) {
      return absl::StrCat("a legal action is listed for seat ", move.seat, ", which is not to act");
    }
    if (auto v = state.Check(move.seat, move.action)) {
      return absl::StrCat("Check refuses a listed action (", v->rule, ": ", v->detail,
                          "): ", move.action.ShortDebugString());
    }
    if (absl::Status shape = game.CheckShape(move.action, ruleset); !shape.ok()) {
      return absl::StrCat("a listed action is malformed (", shape.ToString(), "): ", move.action.ShortDebugString());
    }
  }

  // A seat that is not to act may do nothing at all: no listed action, of
  // whichever seat, is legal for it.
  for (engine::Seat seat = 0; seat < state.num_players(); ++seat) {
    if (IsIn(seats, seat)) continue;
    for (const v1::Action& action : actions) {
      if (!state.Check(seat, action).has_value()) {
        return absl::StrCat("seat ", seat, " may act out of turn: ", action.ShortDebugString());
      }
    }
  }

  // Mutated actions that Check accepts must be listed for the same seat, up
  // to spelling.
  const std::vector<std::string> strings = StringValuesOf(actions);
  for (int m = 0; m < kMutationsPerPosition; ++m) {
    const engine::Move& base = legal[mutation_rng.Uniform(legal.size())];
    const v1::Action mutated = MutateAction(base.action, mutation_rng, strings);
    ++counts.tried;
    if (Key(base.seat, mutated) == Key(base.seat, base.action)) {
      ++counts.unchanged;
      continue;
    }
    if (state.Check(base.seat, mutated).has_value()) {
      ++counts.refused_by_check;
      continue;
    }
    if (!game.CheckShape(mutated, ruleset).ok()) {
      ++counts.refused_by_shape;
      continue;
    }
    const v1::Action canonical = state.Canonical(base.seat, mutated);
    if (listed.count(Key(base.seat, canonical)) == 0) {
      return absl::StrCat("Check accepts an action that LegalActions does not list for seat ", base.seat, ": ",
                          mutated.ShortDebugString(), "\n(canonical: ", canonical.ShortDebugString(), ")\nin\n",
                          state.ToString());
    }
    ++counts.accepted;
    if (Key(base.seat, canonical) != Key(base.seat, state.Canonical(base.seat, base.action))) ++counts.accepted_other;
  }
  return std::nullopt;
}

}  // namespace arbiter::testing
