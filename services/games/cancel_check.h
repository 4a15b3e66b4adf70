// CancelCheck: how long work over a stored game (reading, replaying,
// judging a batch) learns that its caller has gone. The API layer builds one
// from the call's deadline and cancellation (server/rpc_common.h CancelOf);
// tests and offline tools pass one that never cancels.
// A plain std::function; thread-compatible.
#ifndef ARBITER_SERVICES_GAMES_CANCEL_CHECK_H_
#define ARBITER_SERVICES_GAMES_CANCEL_CHECK_H_

#include <functional>

#include "absl/status/status.h"

namespace arbiter::games {

// Called between steps of long work; a non-OK answer (the call's deadline
// passed, the client went away) stops the work with that status.
using CancelCheck = std::function<absl::Status()>;

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_CANCEL_CHECK_H_
