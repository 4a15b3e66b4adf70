// Atlantis Rising: the domain check of an action's fields (Game::CheckShape),
// also run by State::Check so that a malformed action is refused, never
// applied.
#ifndef ARBITER_ENGINE_ATLANTIS_RISING_SHAPE_H_
#define ARBITER_ENGINE_ATLANTIS_RISING_SHAPE_H_

#include "absl/status/status.h"
#include "arbiter/v1/action.pb.h"
#include "engine/atlantis_rising/rules.h"

namespace arbiter::engine::atlantis_rising {

// OK if every field lies in its domain: the kind and spot set, enum values
// known, positions and sites 1..64, energy 0..1000, at most 16 kept cards,
// card and component ids of `rules`. Otherwise InvalidArgument naming the
// field ("atlantis_rising.flood.peninsula: is 0; allowed 1..6").
absl::Status CheckActionShape(const v1::Action& action, const Rules& rules);

}  // namespace arbiter::engine::atlantis_rising

#endif  // ARBITER_ENGINE_ATLANTIS_RISING_SHAPE_H_
