// The conformance suite's checks of State::LegalActionsFor and State::Label:
// for every seat, the labelled list agrees with Check() both ways, is grouped
// and stable, and every label is a sentence that depends on nothing but the
// position and the action. Kept apart from the suite so that the checks can
// be tested against states that break them (position_checks_test.cc).
#ifndef ARBITER_TESTS_ENGINE_CONFORMANCE_LABELLED_MOVE_CHECKS_H_
#define ARBITER_TESTS_ENGINE_CONFORMANCE_LABELLED_MOVE_CHECKS_H_

#include <optional>
#include <string>

#include "arbiter/v1/ruleset.pb.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/state.h"

namespace arbiter::testing {

// Checks one non-final position and returns the first problem found, as a
// sentence, or nullopt. For every seat:
//   * LegalActionsFor(seat) is empty for a seat not in SeatsToAct();
//   * every listed action passes Check() for the seat;
//   * every action Check() accepts for the seat, among the actions listed for
//     every other seat and kMutationsPerPosition random mutations of its own,
//     is listed for the seat up to Canonical() (a mutation CheckShape refuses
//     does not count);
//   * a second call lists the same actions in the same order, each group's
//     actions next to each other;
//   * every label and group is non-empty and equal to Label()/Group() of the
//     action, of this state and of a clone of it.
std::optional<std::string> CheckLabelledMoves(const engine::Game& game, const v1::Ruleset& ruleset,
                                              const engine::State& state, engine::Rng& mutation_rng);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_CONFORMANCE_LABELLED_MOVE_CHECKS_H_
