// The server's part of a sealed seed (docs/chance.md): a game created with
// a seed_commitment and its game_id draws the server's random bytes into
// event 1 with a reveal deadline; the organiser's seed, revealed by then,
// and those bytes give the engine's seed (chained_game.h EngineSeed).
// Here: drawing the bytes and the deadline, recognising a retried sealed
// creation (whose draw differs), and refusing a reveal after the deadline.
// Thread-safe (OpenSSL's generator and the clock).
#ifndef ARBITER_SERVICES_GAMES_SEALED_SEED_H_
#define ARBITER_SERVICES_GAMES_SEALED_SEED_H_

#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "arbiter/v1/arbiter_service.pb.h"

namespace arbiter::games {

// Seals `created` (event 1 of the game `request` creates, its commitment
// already set): the server's random bytes, drawn now, and the reveal
// deadline, now + request.reveal_within (7 days if not given).
// InvalidArgument (field "reveal_within") unless reveal_within is more than
// 0 and at most 366 days; Internal if no random bytes can be drawn.
absl::Status Seal(const v1::CreateGameRequest& request, v1::GameCreated& created);

// True if `stored` is the event 1 that a request which prepared `created`
// wrote: a retry of a sealed creation, whose events agree in all but the
// server's draw and the deadline. False for unsealed creations.
bool SameSealedCreation(v1::GameCreated stored, v1::GameCreated created);

// OK unless game `game_id` (event 1 `created`) is sealed with a reveal
// deadline before `now`: then FailedPrecondition with ErrorInfo
// REVEAL_DEADLINE_PASSED (reveal_deadline, RFC 3339).
absl::Status CheckRevealDeadline(const std::string& game_id, const v1::GameCreated& created,
                                 absl::Time now);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_SEALED_SEED_H_
