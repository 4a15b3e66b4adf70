#include "engine/core/random_playout.h"

#include "absl/strings/str_cat.h"

namespace arbiter::engine {

absl::StatusOr<std::vector<Move>> RandomPlayout(State& state, Rng& bot, int64_t max_actions) {
  std::vector<Move> played;
  while (!state.IsTerminal()) {
    if (static_cast<int64_t>(played.size()) >= max_actions) {
      return absl::ResourceExhaustedError(
          absl::StrCat("the game did not end within ", max_actions, " actions"));
    }
    std::vector<Move> legal = state.LegalActions();
    if (legal.empty()) {
      return absl::InternalError(absl::StrCat("no legal action after ", played.size(),
                                              " actions, but the game is not over:\n", state.ToString()));
    }
    Move& chosen = legal[bot.Uniform(legal.size())];
    if (std::optional<Violation> violation = state.Apply(chosen.seat, chosen.action)) {
      return absl::InternalError(absl::StrCat("a listed action was refused (", violation->rule, ": ",
                                              violation->detail, ")"));
    }
    played.push_back(std::move(chosen));
  }
  return played;
}

}  // namespace arbiter::engine
