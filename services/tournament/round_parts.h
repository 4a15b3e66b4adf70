// A round as the tournament's stream records it: the model's tables as a
// "round_started" body, that body cut into the events that fit a stream
// event, and where a round recorded in part by an interrupted StartRound
// goes on from. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_ROUND_PARTS_H_
#define ARBITER_SERVICES_TOURNAMENT_ROUND_PARTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/tournament/rounds.h"
#include "services/store/stream_store.h"
#include "services/tournament/tournament_log.h"

namespace arbiter::tournament {

// Bytes of tables in one round event, well within a stream event's 64 KiB.
inline constexpr size_t kRoundPartBytes = 48 * 1024;

// Round `number` as the model dealt it: the tables (number, players in seat
// order, seed; no game names, the fold derives them) and the byes.
v1::RoundStarted RoundStartedOf(int number, const engine::tournament::Round& round);

// One event that records part of a round, and its body.
struct RoundPart {
  store::StreamAppendRequest append;  // type, request_id and payload set
  v1::RoundStarted body;
};

// The events that record `round` from its table `from` (1-based) on: a
// "round_started" event with the byes, the number of tables and the lot
// draw if any (only when `from` is 1), then "round_tables" events, each holding as many tables as
// fit in kRoundPartBytes, in table order. Each event's request id is
// `request_id` for "round_started" and `request_id`-t{first table} for the
// others, so a retry writes the same events under the same ids.
std::vector<RoundPart> RoundParts(const v1::RoundStarted& round, int from,
                                  const std::string& request_id);

// Where StartRound records `round` from, and under which request id (as
// stored) its first event is: table 1 and `request_id`; or, for a round an
// earlier StartRound recorded in part (log.starting), the table after the
// recorded ones and that attempt's request id. Aborted if the part recorded
// is not the start of `round` (other tables, players or seeds: earlier
// results changed the deal since).
struct RoundResume {
  int from = 1;
  std::string first_request_id;
};
absl::StatusOr<RoundResume> ResumeRound(const TournamentLog& log, const v1::RoundStarted& round,
                                        const std::string& request_id);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_ROUND_PARTS_H_
