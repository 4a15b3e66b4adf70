// Random legal playouts: the bot behind `arbiter simulate`, the conformance
// suite and the benchmarks.
#ifndef ARBITER_ENGINE_CORE_RANDOM_PLAYOUT_H_
#define ARBITER_ENGINE_CORE_RANDOM_PLAYOUT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::engine {

// The bot's generator for a game seed: a stream separate from the game's own
// (seed XOR kBotSeedSalt), so the bot's choices never shift the game's draws.
inline constexpr uint64_t kBotSeedSalt = 0x0b07b07b07b07b07ULL;

// Plays uniformly random legal moves from `state` until the game ends and
// returns them in order. Internal if a non-terminal state lists no legal
// move or refuses a move it listed (engine bugs); ResourceExhausted after
// `max_actions` moves.
absl::StatusOr<std::vector<Move>> RandomPlayout(State& state, Rng& bot, int64_t max_actions = 1'000'000);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_RANDOM_PLAYOUT_H_
