// Random small changes to an action (a number nudged, an enum swapped, a list
// element dropped or repeated), used to probe that Check() accepts exactly
// the actions LegalActions() lists.
#ifndef ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_
#define ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_

#include <string>
#include <vector>

#include "arbiter/v1/action.pb.h"
#include "engine/core/rng.h"

namespace arbiter::testing {

// Every string value found in the game messages of `actions` (card and
// component names, ...), sorted and without repeats: the values a mutated
// string field is drawn from, so that mutations land on names the position
// knows rather than on names nothing accepts.
std::vector<std::string> StringValuesOf(const std::vector<v1::Action>& actions);

// Returns a copy of `action` with one random change somewhere in its game
// message (possibly none, if the message has no field to change). A string
// field takes "", "x" or one of `string_pool`.
v1::Action MutateAction(const v1::Action& action, engine::Rng& rng,
                        const std::vector<std::string>& string_pool = {});

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_
