// The official result of a game: what the replay decided, unless a ruling
// recorded after the game's result corrected or voided it.
//
// A finished game takes only result events after its result (a corrected
// "game_finished", a "game_voided") and a voided one takes nothing, so the
// game's last event decides: a void, a correction, or neither. Pure;
// thread-safe.
#ifndef ARBITER_SERVICES_GAMES_OFFICIAL_RESULT_H_
#define ARBITER_SERVICES_GAMES_OFFICIAL_RESULT_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/arbiter_service.pb.h"
#include "services/store/event_store.h"

namespace arbiter::games {

// The official result of a game whose last stored event is `last`:
// RESULT_SOURCE_CORRECTED, _VOIDED or _REPORTED (a score sheet) with the
// event, who recorded it, why and (corrected, reported) the standings that
// stand; RESULT_SOURCE_REFEREE otherwise.
// DataLoss if a result event does not decode.
absl::StatusOr<v1::OfficialResult> OfficialResultOf(const store::StoredEvent& last);

// "score sheet signed by Ann Lee, Bob (proposed by ann): note" (no note: no
// colon; no proposer: no parenthesis).
std::string ReportedReason(const v1::ReportedResult& reported);

}  // namespace arbiter::games

#endif  // ARBITER_SERVICES_GAMES_OFFICIAL_RESULT_H_
