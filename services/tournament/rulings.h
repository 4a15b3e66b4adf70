// What a ruling on a dispute is made of, shared by the dispute writer
// (dispute_writer.h), the dispute reader (dispute_reader.h) and the
// `arbiter dispute` command: the kinds' names, the checks of a ruling's
// request, the standing changes a ruling reports, and the game write a void
// or a corrected result makes (its reason, request id and standings, and how
// to find it again in the game's log).
// Pure functions except FindRulingEvent (reads the store); thread-safe.
#ifndef ARBITER_SERVICES_TOURNAMENT_RULINGS_H_
#define ARBITER_SERVICES_TOURNAMENT_RULINGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament_service.pb.h"
#include "engine/tournament/standings.h"
#include "services/common/ruling_name.h"
#include "services/store/event_store.h"

namespace arbiter::tournament {

using common::RulingName;  // services/common/ruling_name.h

// FailedPrecondition: "dispute "x" is closed: ruled void by olga" (a
// corrected one reads "corrected result").
absl::Status DisputeClosed(const std::string& dispute_id, const v1::Ruling& ruling);

// A RuleDispute request's kind and reason. InvalidArgument with a field
// violation on "kind" or "reason".
absl::Status CheckRulingRequest(const v1::RuleDisputeRequest& request);
// Its corrected result: a valid result for `seats` players with
// RULING_KIND_CORRECTED, absent otherwise. InvalidArgument on "corrected".
absl::Status CheckCorrected(const v1::RuleDisputeRequest& request, int seats);

// Whether `request` by `principal` asks for `ruling`: the same kind, reason
// and corrected result, by the same arbiter.
bool AsksFor(const v1::RuleDisputeRequest& request, const std::string& principal,
             const v1::Ruling& ruling);

// Every player whose rank, points or game points differ between two
// standings, in the order of `after`.
std::vector<v1::StandingChange> StandingChanges(
    const std::vector<engine::tournament::StandingRow>& before,
    const std::vector<engine::tournament::StandingRow>& after);

// The reason of the game's void, or the correction of its corrected
// "game_finished" event: "dispute {id}: {reason}".
std::string RulingGameReason(const std::string& dispute_id, const std::string& reason);
// The client request id of that game write: "dispute-{id}".
std::string RulingGameRequestId(const std::string& dispute_id);
// InvalidArgument on "reason", as GameWriter::Void answers it, for a void
// whose game reason (RulingGameReason) would be longer than a void's 1000
// bytes: a ruling checks this before its first write, so that the game
// refuses none of what it has recorded.
absl::Status CheckGameWrite(const std::string& dispute_id, const v1::RuleDisputeRequest& request);
// The corrected standings of the table's game: `corrected`'s places and
// game points, seat by seat of `table`.
v1::Standings CorrectedStandings(const v1::TournamentTable& table,
                                 const v1::CorrectedResult& corrected);

// The event of `game`'s log that the ruling of `dispute_id` wrote: for a
// void the "game_voided" event whose reason names the dispute, for a
// corrected result the "game_finished" event whose correction does. Searched
// among the game's last 1000 events (the ruling's event follows the game's
// result, near the end of its log). nullopt if there is none (an upheld
// result; a game voided before the ruling; a ruling not written yet).
// Errors of the store's read.
absl::StatusOr<std::optional<store::StoredEvent>> FindRulingEvent(store::EventStore& events,
                                                                  const store::GameRecord& game,
                                                                  const std::string& dispute_id,
                                                                  v1::RulingKind kind);

}  // namespace arbiter::tournament

#endif  // ARBITER_SERVICES_TOURNAMENT_RULINGS_H_
