// Random small changes to an action (a number nudged, an enum swapped, a list
// element dropped or repeated), used to probe that Check() accepts exactly
// the actions LegalActions() lists.
#ifndef ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_
#define ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_

#include "arbiter/v1/action.pb.h"
#include "engine/core/rng.h"

namespace arbiter::testing {

// Returns a copy of `action` with one random change somewhere in its game
// message (possibly none, if the message has no field to change).
v1::Action MutateAction(const v1::Action& action, engine::Rng& rng);

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_ENGINE_CONFORMANCE_ACTION_MUTATOR_H_
