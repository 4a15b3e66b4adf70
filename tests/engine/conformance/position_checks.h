// The conformance suite's checks of one position: that Check() accepts exactly
// what LegalActions() lists, for exactly the seats that may act. Kept apart
// from the suite so that the checks themselves can be tested against states
// that break them (position_checks_test.cc).
#ifndef ARBITER_TESTS_ENGINE_CONFORMANCE_POSITION_CHECKS_H_
#define ARBITER_TESTS_ENGINE_CONFORMANCE_POSITION_CHECKS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "arbiter/v1/ruleset.pb.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::testing {

// What became of the mutated actions tried, summed over positions.
struct MutationCounts {
  int64_t tried = 0;
  int64_t unchanged = 0;         // the mutation left the action as it was
  int64_t refused_by_check = 0;  // Check() gave a violation
  int64_t refused_by_shape = 0;  // Check() accepted, Game::CheckShape refused
  int64_t accepted = 0;          // accepted and listed (up to Canonical)
  int64_t accepted_other = 0;    // ... as a different action from the one mutated

  MutationCounts& operator+=(const MutationCounts& other);
};

// Mutations tried per position.
inline constexpr int kMutationsPerPosition = 8;

// Checks one non-final position and returns the first problem found, as a
// sentence, or nullopt:
//   * LegalActions() is not empty, lists moves only for seats in SeatsToAct(),
//     every listed action passes Check() and CheckShape();
//   * every seat not to act is refused every listed action (of any seat);
//   * kMutationsPerPosition random mutations of listed actions, each either
//     refused by Check() or CheckShape(), or equal up to Canonical() to an
//     action listed for the same seat.
std::optional<std::string> CheckPosition(const engine::Game& game, const v1::Ruleset& ruleset,
                                         const engine::State& state, engine::Rng& mutation_rng,
                                         MutationCounts& counts);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_CONFORMANCE_POSITION_CHECKS_H_
