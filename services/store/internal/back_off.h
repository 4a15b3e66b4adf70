// The pauses between the look-ups of a write whose commit was cut off
// (PostgresEventStore::ResolveUnknownAppends and ResolveUnknownCreation).
// Thread-safe: it keeps no state.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_BACK_OFF_H_
#define ARBITER_SERVICES_STORE_INTERNAL_BACK_OFF_H_

#include <algorithm>

#include "absl/functional/function_ref.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace arbiter::store::internal {

// Calls `attempt` until it returns true (the outcome is settled) or the next
// pause would end after `give_up`; pauses 20 ms after the first attempt,
// doubling up to 1 s. Returns whether an attempt settled it.
inline bool AttemptUntil(absl::Time give_up, absl::FunctionRef<bool()> attempt) {
  absl::Duration pause = absl::Milliseconds(20);
  while (!attempt()) {
    if (absl::Now() + pause > give_up) return false;
    absl::SleepFor(pause);
    pause = std::min(pause * 2, absl::Seconds(1));
  }
  return true;
}

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_BACK_OFF_H_
