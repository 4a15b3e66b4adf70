// Simulated games: a complete, legal random game as a log.
#ifndef ARBITER_SERVICES_REPLAY_SIMULATE_H_
#define ARBITER_SERVICES_REPLAY_SIMULATE_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"

namespace arbiter::replay {

struct SimulationRequest {
  std::string game;
  int players = 0;
  uint64_t seed = 0;
  // Empty: the game's default ruleset.
  std::string ruleset_id = {};
  std::map<std::string, std::string> options = {};
};

// A header for `request` (players "p1".."pN" named "Player 1".."Player N")
// and a random legal playout to the end (bot choices from
// seed ^ engine::kBotSeedSalt). NotFound for an unknown game or ruleset;
// InvalidArgument for a bad player count or option.
absl::StatusOr<log::GameLog> SimulateGame(const SimulationRequest& request,
                                          const engine::RulesetRegistry& registry);

}  // namespace arbiter::replay

#endif  // ARBITER_SERVICES_REPLAY_SIMULATE_H_
