// Referee: judges one game, action by action, from its log header on.
//
// The referee turns a log header into a running game (which game, which
// ruleset by hash, which seed and players, which options), maps player ids to
// seats, and applies actions through the rules engine. It tells two kinds of
// bad input apart:
//   * a malformed action (unknown player, action of another game, a field
//     out of its domain) is an absl::Status error and changes nothing;
//   * a well-formed action that breaks a rule is a Violation, the game's
//     verdict becomes "illegal" and no further action is accepted.
// Not thread-safe.
#ifndef ARBITER_SERVICES_REPLAY_REFEREE_H_
#define ARBITER_SERVICES_REPLAY_REFEREE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/log.pb.h"
#include "arbiter/v1/standings.pb.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_registry.h"
#include "engine/core/state.h"

namespace arbiter::replay {

enum class Verdict { kLegal, kIllegal, kUnfinished };

// "legal", "illegal", "unfinished".
const char* VerdictName(Verdict verdict);

// Where and why a game went wrong.
struct EventViolation {
  int64_t event = 0;  // 1-based line of the action in the log (header = 1)
  std::string player;
  engine::Violation violation;
  // The offending action in words (Referee::Label in the position before
  // it, which the violation leaves unchanged).
  std::string action_text;
};

class Referee {
 public:
  // Validates the header: known game; ruleset id and hash registered and
  // matching; player count within the ruleset's range; player ids unique,
  // 1-64 characters of [A-Za-z0-9_.-]; names at most 200 bytes; options the
  // game knows. InvalidArgument or NotFound with "line 1: ..." otherwise.
  static absl::StatusOr<Referee> Start(const v1::LogHeader& header,
                                       const engine::RulesetRegistry& registry);

  Referee(Referee&&) = default;
  Referee& operator=(Referee&&) = default;
  // An independent copy (the position cloned), for a cache to keep while
  // this one moves on.
  Referee Copy() const;

  // Judges the action on log line `line`. InvalidArgument ("line N: ...") if
  // it is malformed; otherwise the violation, if any (which ends the game as
  // illegal), or nullopt. FailedPrecondition once the verdict is "illegal".
  absl::StatusOr<std::optional<engine::Violation>> Apply(const v1::Action& action, int64_t line);

  // `action` in words as it applies to the position now (engine
  // State::Label, the same for every viewer: it tells nothing hidden), for a
  // stored action before it is applied. Empty for an action the referee
  // would refuse as malformed (unknown player, another game's action).
  std::string Label(const v1::Action& action) const;

  // Seat of a player id, or -1.
  engine::Seat SeatOf(const std::string& player_id) const;
  const std::string& PlayerAt(engine::Seat seat) const;

  Verdict verdict() const;
  const std::optional<EventViolation>& violation() const { return violation_; }
  // Standings with player ids filled in, once the game is over.
  std::optional<v1::Standings> Standings() const;

  const engine::State& state() const { return *state_; }
  const engine::Game& game() const { return *game_; }
  const engine::RegisteredRuleset& ruleset() const { return *ruleset_; }
  const v1::LogHeader& header() const { return header_; }
  int64_t actions_applied() const { return actions_applied_; }

 private:
  Referee() = default;

  v1::LogHeader header_;
  const engine::Game* game_ = nullptr;
  const engine::RegisteredRuleset* ruleset_ = nullptr;
  std::unique_ptr<engine::State> state_;
  std::optional<EventViolation> violation_;
  int64_t actions_applied_ = 0;
};

}  // namespace arbiter::replay

#endif  // ARBITER_SERVICES_REPLAY_REFEREE_H_
